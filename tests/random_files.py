"""Random encounter files for every ruleset (hypothesis strategies), valid and broken.

A file is built from the ruleset's own contract: its sheet, item and option fields come
from the pydantic JSON schema of its types (enums, bounds, nested items), the free
names in them (skills, perks, weapon types, dice) from each ruleset's words below, its
actions from the ruleset's action specs (their parameters, choices and types) and the
core and table actions, its dice from the ruleset's dice labels. Combatants stand a few
tiles apart, so that most attacks reach. :func:`broken` then damages a valid file: a
field dropped, a value of the wrong kind, an unknown key, the text cut or garbled.
"""

from __future__ import annotations

import json
import string
from collections.abc import Mapping
from functools import cache
from typing import Any

import yaml
from hypothesis import strategies as st

from fracas.engine.catalogue import core_actions
from fracas.engine.may_do import options_now, param_flags, param_numbers
from fracas.engine.play import Engine
from fracas.errors import FracasError
from fracas.io.files import parse_text, read_action
from fracas.model import Encounter
from fracas.model.validation import adapter
from fracas.rulesets import RULESETS, Ruleset

__all__ = ["IDS", "RULESET_NAMES", "broken", "encounter", "encounter_file", "text_of"]

IDS = ("ana", "bo", "cy", "dee")
RULESET_NAMES = tuple(r.about.name for r in RULESETS)
LIMBS = ("head", "torso", "left_arm", "right_arm", "left_leg", "right_leg")

DICE = st.sampled_from(["1d4", "1d6", "2d6", "1d8", "1d10", "1d12", "2d4+1", "1d6+2", "1d20"])

WORDS: Mapping[str, Mapping[str, tuple[str, ...]]] = {
    "dice-combat": {
        "traits": ("strong_arm", "snapshooter", "gunslinger", "rifleman", "dead_eye",
                   "spotter", "longshot", "hewer", "cutter"),
        "subtype": ("pistol", "revolver", "machine_pistol", "hand_crossbow", "machine_gun"),
        "name": ("knife", "pistol", "club", "bomb"),
    },
    "tier-duel": {
        "skills": ("sword", "axe", "spear", "bow", "thrown", "crossbow", "firearm", "unarmed",
                   "stealth"),
        "skill": ("sword", "bow", "thrown", "crossbow", "firearm", "unarmed"),
        "effect": ("burning", "stunned"),
        "name": ("blade", "firebolt", "sling"),
    },
    "escalation": {
        "size": ("tiny", "small", "medium", "large", "huge"),
        "conditions": ("bleeding", "burning", "dazed", "poisoned", "prone", "stunned"),
        "standard_conditions": ("bleeding", "burning", "dazed", "poisoned"),
        "size_categories": ("small", "medium", "large"),
        "player_side": ("players", "ana", "bo"),
        "name": ("sword", "bow", "fireball", "teeth"),
    },
    "soak": {
        "skills": ("dueling", "marksmanship", "brawling"),
        "skill": ("dueling", "marksmanship", "brawling"),
        "proficiencies": ("sword", "axe", "bow", "crossbow", "longsword", "unarmed", "club"),
        "type": ("sword", "axe", "club", "longsword", "bow"),
        "material": ("leather", "plate"),
        "material_percent": ("leather/fire", "plate/fire", "plate/cold"),
        "name": ("sword", "axe", "bow", "torch"),
    },
    "wasteland": {
        "skills": ("guns", "melee", "unarmed", "explosives", "sneak", "survival", "pilot"),
        "skill": ("guns", "melee", "unarmed", "explosives"),
        "perks": ("dodger", "cautious_nature", "trigger_discipline", "deal_with_the_reaper",
                  "too_stubborn_to_die", "zone_of_threat", "hit_the_deck", "snap_shot",
                  "melee_3", "melee_7", "melee_10", "pilot_7", "survival_10"),
        "effects": ("bleed", "burn", "shock", "embed"),
        "name": ("smg", "rifle", "knife", "grenade", "fists"),
    },
}  # fmt: skip
"""Per ruleset, the names a free text field (or the keys of a free mapping) takes, by
the field's name; a field not listed takes one of its ruleset's ``name`` words."""

SHORTHANDS: Mapping[str, tuple[str, ...]] = {
    "dice-combat": ("pistol", "revolver", "smg", "shotgun", "rifle", "machine_gun", "crossbow",
                    "knife", "club", "sword", "greataxe", "grenade", "molotov", "pipe_bomb"),
    "tier-duel": ("sword", "axe", "spear", "greatsword", "bow", "javelin", "crossbow_1h",
                  "crossbow_2h", "firearm"),
    "escalation": ("melee", "remote", "whelm"),
    "soak": ("unarmed",),
    "wasteland": ("unarmed",),
}  # fmt: skip
"""Each ruleset's item short-hands (``fracas rules NAME`` lists them)."""

_CONDITIONS = WORDS["escalation"]["conditions"]
FIELDS: Mapping[str, Mapping[str, st.SearchStrategy[Any]]] = {
    "escalation": {"conditions": st.permutations(_CONDITIONS).map(lambda c: list(c[:3]))},
    "soak": {
        "dice": st.lists(DICE, min_size=1, max_size=2),
        "unarmed": st.just(False),  # the `unarmed` short-hand is the unarmed weapon
        "max_ap": st.integers(1, 5),
        "ap": st.integers(0, 1),
    },
    "wasteland": {"ct_max": st.integers(4, 12), "ct": st.integers(0, 4)},
}
"""Per ruleset, fields whose valid values the schema does not say (three distinct
conditions, dice a weapon needs, a value below another's), by the field's name."""

ALWAYS: Mapping[str, tuple[str, ...]] = {"soak": ("dice",)}
"""Fields given wherever they are fields (a soak weapon needs its dice)."""

KEEP_DEFAULT: Mapping[str, tuple[str, ...]] = {
    "escalation": ("standard_conditions", "size_categories"),
    "dice-combat": ("capacity", "loaded"),
}
"""Fields left at their defaults in a valid file (values the schema allows and the
rules refuse more often than not: a capacity on a club)."""

ITEM_FIELDS = ("hand", "inventory", "weapons")
DICE_FIELDS = ("damage", "crit_dice", "dice", "upgrades", "notation")


_PERCENT = st.integers(1, 100)


def _chance(draw: st.DrawFn, percent: int) -> bool:
    """True ``percent`` times in 100 (a float draw leans to its bounds)."""
    return draw(_PERCENT) <= percent


def _ruleset(name: str) -> type[Ruleset]:
    return next(r for r in RULESETS if r.about.name == name)


# --- values from a JSON schema --------------------------------------------------------


def _value(
    schema: dict[str, Any], defs: dict[str, Any], rs: str, field: str
) -> st.SearchStrategy[Any]:
    """A plausible value of ``schema`` (a field named ``field`` of ruleset ``rs``)."""
    if "$ref" in schema:
        return st.deferred(lambda: _value(defs[schema["$ref"].split("/")[-1]], defs, rs, field))
    if field in FIELDS.get(rs, {}):
        return FIELDS[rs][field]
    if "anyOf" in schema:
        return st.one_of([_value(s, defs, rs, field) for s in schema["anyOf"]])
    if "enum" in schema:
        return st.sampled_from(schema["enum"])
    kind = schema.get("type")
    words = WORDS[rs].get(field, WORDS[rs]["name"])
    if kind == "null":
        return st.none()
    if kind == "boolean":
        return st.booleans()
    if kind == "integer":
        lo = schema.get("minimum", -2)
        return st.integers(lo, schema.get("maximum", lo + 9))
    if kind == "string":
        if field in DICE_FIELDS:
            return DICE
        if field in WORDS[rs]:
            return st.sampled_from(words)
        return st.sampled_from(words) | st.text(string.ascii_lowercase, min_size=1, max_size=6)
    if kind == "array":
        if "prefixItems" in schema:
            return st.tuples(*(_value(s, defs, rs, field) for s in schema["prefixItems"])).map(list)
        items = schema.get("items", {})
        return st.lists(_value(items, defs, rs, field), max_size=3, unique_by=json.dumps)
    if kind == "object" and "properties" in schema:
        return _object(schema, defs, rs)
    if kind == "object":
        names = schema.get("propertyNames", {}).get("enum") or words
        if field in ("dv", "dv_table"):
            keys: st.SearchStrategy[Any] = st.sampled_from([3, 5, 10, 15, 30])
        else:
            keys = st.sampled_from(names)
        values = _value(schema.get("additionalProperties", {}), defs, rs, field)
        return st.dictionaries(keys, values, max_size=3)
    return st.none()


def _object(
    schema: dict[str, Any], defs: dict[str, Any], rs: str, *, some: int = 35
) -> st.SearchStrategy[dict[str, Any]]:
    """A mapping of ``schema``'s required fields and some of its others."""
    props = {k: v for k, v in schema["properties"].items() if k not in KEEP_DEFAULT.get(rs, ())}
    required = set(schema.get("required", ()))
    # Each field's strategy made once, at its first draw, and kept: hypothesis works out
    # the properties of every new strategy object, and strategies made anew at each draw
    # cost as much as the commands the files were made for.
    fields: dict[str, st.SearchStrategy[Any]] = {}

    def field(name: str, sub: dict[str, Any]) -> st.SearchStrategy[Any]:
        if name not in fields:
            make = _items if name in ITEM_FIELDS else _value
            fields[name] = make(sub, defs, rs, name)
        return fields[name]

    @st.composite
    def build(draw: st.DrawFn) -> dict[str, Any]:
        out = {}
        for name, sub in props.items():
            if name in required or name in ALWAYS.get(rs, ()) or _chance(draw, some):
                out[name] = draw(field(name, sub))
        return out

    return build()


def _items(
    schema: dict[str, Any], defs: dict[str, Any], rs: str, field: str
) -> st.SearchStrategy[Any]:
    """An item field (``hand``, ``inventory``, ``weapons``): items from the schema, or the
    ruleset's short-hands, alone or as ``{is: NAME, ...}``."""
    short = st.sampled_from(SHORTHANDS[rs])
    one = st.one_of(
        _value(schema.get("items", schema), defs, rs, field),
        short,
        st.builds(lambda s, n: {"is": s, "name": n}, short, st.sampled_from(WORDS[rs]["name"])),
    )
    if schema.get("type") == "array":
        return st.lists(one, max_size=3, unique_by=_item_name)
    return one | st.none()


def _item_name(item: Any) -> str:
    """The name actions give an item by (a short-hand's own, else its ``name``)."""
    if isinstance(item, dict):
        return str(item.get("name", item.get("is", item.get("archetype", "item"))))
    return str(item)


def _schema(kind: Any) -> tuple[dict[str, Any], dict[str, Any]]:
    """``kind``'s JSON schema and its ``$defs`` (worked out once per kind: read only)."""
    return _schema_of(kind)


@cache
def _schema_of(kind: Any) -> tuple[dict[str, Any], dict[str, Any]]:
    schema = adapter(kind).json_schema()
    return schema, schema.get("$defs", {})


# --- a file -----------------------------------------------------------------------------


_TILE = st.lists(st.integers(0, 5), min_size=2, max_size=2)


def _tile() -> st.SearchStrategy[list[int]]:
    return _TILE


@cache
def _sheet(rs: str) -> st.SearchStrategy[dict[str, Any]]:
    """The fields of a combatant's sheet of ruleset ``rs`` (one strategy per ruleset)."""
    schema, defs = _schema(_ruleset(rs).contract.sheet)
    return _object(schema, defs, rs, some=30)


@st.composite
def _combatant(draw: st.DrawFn, rs: str, cid: str) -> dict[str, Any]:
    c: dict[str, Any] = {"id": cid, **draw(_sheet(rs))}
    c["side"] = draw(st.sampled_from(["players", "raiders", cid]))
    if _chance(draw, 90):
        c["at"] = draw(_tile())
    if draw(st.booleans()):
        c["max_hp"] = draw(st.integers(1, 30))
        if draw(st.booleans()) and not {"superficial", "aggravated"} & set(c):  # soak derives hp
            c["hp"] = draw(st.integers(0, c["max_hp"]))
    return c


def _item_names(c: Mapping[str, Any], rs: str, param: str) -> list[str]:
    """The names ``c``'s action may give as ``param``: ``item`` (to equip) the
    inventory's, ``weapon`` and ``spell`` those of the weapons, hand and inventory."""
    fields = ("inventory",) if param == "item" else ITEM_FIELDS
    names = ["unarmed"] if param == "weapon" and "unarmed" in SHORTHANDS[rs] else []
    for field in fields:
        value = c.get(field)
        names += [_item_name(i) for i in (value if isinstance(value, list) else [value]) if i]
    return names


def _param(
    draw: st.DrawFn, name: str, spec: Any, c: dict[str, Any], ids: list[str], rs: str
) -> Any:
    """A value of action parameter ``name`` of combatant ``c``'s action."""
    text = str(spec.types.get(name, ""))
    if name in spec.choices:
        return draw(st.sampled_from(spec.choices[name]))
    if "bool" in text and "list" not in text:
        return draw(st.booleans())
    if name in ("weapon", "item", "spell"):
        return draw(st.sampled_from(_item_names(c, rs, name) or ["nothing"]))
    if name in ("called", "limb"):
        return draw(st.sampled_from(LIMBS))
    if name in ("behind", "targets", "order"):
        return draw(st.lists(st.sampled_from(ids), min_size=1, max_size=3, unique=True))
    if name == "creature_cover":
        return {draw(st.sampled_from(ids)): draw(st.lists(st.integers(1, 3), max_size=2))}
    if name == "condition":
        return draw(st.sampled_from(WORDS["escalation"]["conditions"]))
    if name == "after":
        return draw(st.sampled_from(ids))
    if name == "to":
        return draw(_tile())
    if name == "notation":
        return draw(DICE | st.sampled_from(["2d20kh1", "1d6!", "3d6-1"]))
    if name in ("note", "text"):
        return draw(st.sampled_from(["ducks", "hides behind the cart", ""]))
    if name in ("add", "remove"):
        statuses = [s.name for s in _ruleset(rs).contract.statuses]
        return draw(st.sampled_from([*statuses, "marked"]))
    return draw(st.integers(0, 6))


@st.composite
def _action(draw: st.DrawFn, rs: str, ids: list[str], cs: list[dict[str, Any]]) -> dict[str, Any]:
    ruleset = _ruleset(rs)
    core = [s for s in core_actions(ruleset) if s.name not in ("add",)]
    own = ruleset.contract.actions
    spec = draw(st.sampled_from(own) | st.sampled_from(own) | st.sampled_from(core))
    actor = draw(st.sampled_from(ids))
    a: dict[str, Any] = {"actor": actor, "do": spec.name}
    others = [i for i in ids if i != actor]
    if spec.targets in ("combatant", "combatant_or_tile", "combatants"):
        if spec.targets == "combatant_or_tile" and draw(st.booleans()):
            a["at"] = draw(_tile())
        elif spec.targets == "combatants" and draw(st.booleans()):
            a["targets"] = draw(st.lists(st.sampled_from(others), min_size=1, unique=True))
        else:
            a["target"] = draw(st.sampled_from(others))
    for name in spec.params:
        if name in ("targets", *a) or (name == "to" and spec.name != "move"):
            continue
        if name in spec.required or name == "to" or _chance(draw, 30):
            a[name] = _param(draw, name, spec, cs[ids.index(actor)], ids, rs)
    if spec.name == "set":
        schema, defs = _schema(ruleset.contract.sheet)
        field = draw(st.sampled_from(sorted(schema["properties"])))
        sub = schema["properties"][field]
        a[field] = draw((_items if field in ITEM_FIELDS else _value)(sub, defs, rs, field))
    if spec.name in ("heal", "damage"):
        a["amount"] = draw(st.integers(1, 8))
    if spec in ruleset.contract.actions and _chance(
        draw, 30
    ):  # physical dice: mostly the first die (the attack's), at times more
        dice = {}
        first = st.just(ruleset.contract.dice[0])
        for die in draw(
            st.lists(first | first | st.sampled_from(ruleset.contract.dice), min_size=1, max_size=2)
        ):
            whom = a.get("targets") or [a.get("target") or actor]
            label = die.label + (f":{draw(st.sampled_from(whom))}" if die.per_combatant else "")
            faces = st.integers(1, min(die.sides, 20))
            dice[label] = draw(faces | st.lists(faces, min_size=1, max_size=3))
        a["dice"] = dice
    return a


@st.composite
def encounter(draw: st.DrawFn, rs: str) -> dict[str, Any]:
    """A plausibly valid encounter of ruleset ``rs``, as data."""
    ids = list(IDS[: draw(st.integers(2, 4))])
    cs = [draw(_combatant(rs, cid)) for cid in ids]
    doc: dict[str, Any] = {"ruleset": rs, "seed": draw(st.integers(0, 2**16)), "combatants": cs}
    if draw(st.booleans()):
        schema, defs = _schema(_ruleset(rs).contract.options)
        doc["options"] = draw(_object(schema, defs, rs, some=15))
    if draw(st.booleans()):
        doc["order"] = draw(st.permutations(ids))
    if _chance(draw, 10):
        doc["map"] = {"width": 6, "height": 6}
    if _chance(draw, 10):
        doc["table"] = {"skip_down": draw(st.booleans())}
    doc["actions"] = draw(_actions(doc, ids))
    return doc


@st.composite
def _actions(draw: st.DrawFn, doc: dict[str, Any], ids: list[str]) -> list[dict[str, Any]]:
    """Actions for ``doc``, most of them allowed when they are taken: the file is played as
    it is made, each action one "may do now" lists (or an end of turn, or a step towards
    someone), now and then one made up at random, which the rules may refuse."""
    rs, cs = doc["ruleset"], doc["combatants"]
    anyhow = _action(rs, ids, cs)
    try:
        ef = parse_text(json.dumps(doc), "made.json")
        engine = Engine(ef.ruleset, ef.start, ef.seed, ef.bounds)
        engine.begin(ef.dice, ef.order)
    except FracasError:  # a setup the rules refuse: its actions are never played
        return draw(st.lists(anyhow, min_size=1, max_size=4))
    out: list[dict[str, Any]] = []
    for _ in range(draw(st.integers(1, 10))):
        a = draw(anyhow) if _chance(draw, 15) else _allowed(draw, ef.ruleset, engine.state)
        out.append(a)
        try:
            engine.act(read_action(ef, a))
        except Exception:  # refused (or a bug, which `fracas run` meets the same way)
            break
    return out


def _allowed(draw: st.DrawFn, ruleset: Ruleset, state: Encounter) -> dict[str, Any]:
    """An action whose actor, target, tile and values "may do now" allows in ``state``:
    the current actor's, or another's off-turn reaction; else an end of turn or a move
    next to someone."""
    actor = state.turn.actor
    if _chance(draw, 15):
        actor = draw(st.sampled_from(sorted(state.combatants)))
    options = [o for o in options_now(ruleset, state, actor) if o.allowed]
    here = [c.at for c in state.combatants.values() if c.at is not None and c.id != actor]
    if not options or _chance(draw, 12):
        if here and _chance(draw, 50):
            x, y = draw(st.sampled_from(here))
            to = [max(0, x + draw(st.integers(-1, 1))), max(0, y + draw(st.integers(-1, 1)))]
            return {"actor": actor, "do": "move", "to": to}
        return {"actor": state.turn.actor, "do": "end_turn"}
    o = draw(st.sampled_from(options))
    a: dict[str, Any] = {"actor": actor, "do": o.spec.name}
    if o.targets and (not o.tile or _chance(draw, 70)):
        a["target"] = draw(st.sampled_from(o.targets))
    elif o.tile and here:
        a["at"] = list(draw(st.sampled_from(here)))
    for p, values in o.choices.items():
        if values and (p in o.spec.required or _chance(draw, 40)):
            a[p] = draw(st.sampled_from(values))
    for p in param_flags(o.spec):
        if _chance(draw, 25):
            a[p] = draw(st.booleans())
    for p in param_numbers(o.spec):
        if _chance(draw, 10):
            a[p] = draw(st.integers(0, 4))
    return a


JUNK = st.sampled_from(["x", "", -1, 0, 10**30, 1.5, True, None, [], {}, [1, 2], {"a": 1}, "1d0"])


@st.composite
def broken(draw: st.DrawFn, doc: dict[str, Any]) -> dict[str, Any]:
    """``doc`` damaged in one place: a key dropped, a value replaced by junk, an unknown
    key added."""
    spots: list[tuple[Any, Any]] = []

    def walk(node: Any) -> None:
        if isinstance(node, dict):
            for k, v in node.items():
                spots.append((node, k))
                walk(v)
        elif isinstance(node, list):
            for i, v in enumerate(node):
                spots.append((node, i))
                walk(v)

    walk(doc)
    node, key = draw(st.sampled_from(spots))
    how = draw(st.sampled_from(["drop", "junk", "junk", "extra"]))
    if how == "drop":
        del node[key]
    elif how == "junk":
        node[key] = draw(JUNK)
    elif isinstance(node, dict):
        node["zzz_" + str(key)] = draw(JUNK)
    else:
        node.append(draw(JUNK))
    return doc


def text_of(doc: Mapping[str, Any], as_json: bool) -> str:
    return json.dumps(doc) if as_json else yaml.safe_dump(dict(doc), sort_keys=False)


@st.composite
def encounter_file(
    draw: st.DrawFn, rulesets: tuple[str, ...] | None = None
) -> tuple[str, str, str]:
    """``(ruleset, name, text)``: an encounter file of any ruleset (of ``rulesets``, where
    given), valid or (a third of them) broken, in YAML or JSON; now and then its text cut
    or garbled."""
    rs = draw(st.sampled_from(rulesets or RULESET_NAMES))
    doc = draw(encounter(rs))
    if _chance(draw, 30):
        doc = draw(broken(doc))
    as_json = _chance(draw, 20)
    text = text_of(doc, as_json)
    if _chance(draw, 5):
        cut = len(text) * draw(st.integers(0, 100)) // 100
        text = text[:cut] + draw(st.sampled_from(["", "\t", ":", "{", "- ", "\x00", "&a *a"]))
    return rs, ("enc.json" if as_json else "enc.yaml"), text
