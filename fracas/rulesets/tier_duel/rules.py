"""tier-duel: opposed d20 duels, the winner's margin becomes damage, Tier-rated gear.

Our reading: ``../shared/rules/tier-duel.md`` (rules TD-1 to TD-24, the
procedures P-TD-1 to P-TD-5 and the contract of Part 2); the text: seed
``001_ac6e21f663d7f42d.txt`` ("Damage Cheatsheet"). This module holds the
contract and the refusals (2.3, in the table's order); ``contest.py``,
``stealth.py`` and ``gear.py`` decide and roll what is legal.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Annotated

from pydantic import Field, StrictBool, StrictStr

from fracas.errors import Refusal
from fracas.model import Action, Combatant, Encounter
from fracas.rulesets.base import (
    About,
    ActionSpec,
    Contract,
    DieSpec,
    Lasting,
    Rules,
    TypedRuleset,
    distance,
    is_down,
    sheet_as,
)
from fracas.rulesets.tier_duel.contest import Contest, Ready, decide_contest, wield
from fracas.rulesets.tier_duel.data import CONTESTED, NONCONTESTED, SHORTHANDS
from fracas.rulesets.tier_duel.events import tiles
from fracas.rulesets.tier_duel.gear import RELOADABLE, decide_cast, decide_equip, decide_reload
from fracas.rulesets.tier_duel.items import Item, Wielded
from fracas.rulesets.tier_duel.presenter import TierDuelPresenter
from fracas.rulesets.tier_duel.sheet import Options, Sheet
from fracas.rulesets.tier_duel.stealth import Stealth, decide_stealth

__all__ = ["TierDuel"]

_DISTANCE = Annotated[int, Field(ge=0, strict=True)]
_NO_STEALTH_FORMULA = ("crossbow", "firearm", "spell")  # TD-23 gives melee, thrown, bow


Cost = Callable[[Rules[Options], Combatant, Wielded, int | None], str | None]
"""TD-G6, 2.3: which action of the round an action spends; None: free or not known
before the distance is."""


def _prelude(
    rules: Rules[Options], state: Encounter, action: Action, cost: Cost, verb: str = ""
) -> _Begun:
    """2.3's refusals of every action, in the table's order: down, no action of its kind
    (``cost``) left, a target of itself (an action with a ``verb``: attack, sneak up on)."""
    actor = state.get(action.actor)
    if is_down(rules, actor):  # TD-G1
        raise Refusal("down", f"{actor.id!r} is down (0 HP) and cannot act")
    target = state.get(action.target) if action.target is not None else None
    w = wield(rules.options, actor)
    distance = _distance(rules, actor, target, action)
    _check_left(rules, state, actor, cost(rules, actor, w, distance))
    if verb and target is not None and target.id == actor.id:
        raise Refusal("self_target", f"{actor.name} cannot {verb} itself: choose another combatant")
    return _Begun(actor, target, w, distance)


def _free(rules: Rules[Options], actor: Combatant, w: Wielded, distance: int | None) -> None:
    return None


def _contested(rules: Rules[Options], actor: Combatant, w: Wielded, distance: int | None) -> str:
    return CONTESTED


def _noncontested(rules: Rules[Options], actor: Combatant, w: Wielded, distance: int | None) -> str:
    return NONCONTESTED


@dataclass(frozen=True, slots=True)
class _Begun:
    actor: Combatant
    target: Combatant | None
    w: Wielded
    distance: int | None


def _equip(rules: Rules[Options], state: Encounter, action: Action) -> Ready:
    return decide_equip(_prelude(rules, state, action, _free).actor, action.params["item"])


def _cast(rules: Rules[Options], state: Encounter, action: Action) -> Ready:
    b = _prelude(rules, state, action, _noncontested)
    assert b.target is not None  # files: cast targets a combatant
    return decide_cast(rules.options, b.actor, b.target, action.params["spell"])


def _reload(rules: Rules[Options], state: Encounter, action: Action) -> Ready:
    b = _prelude(rules, state, action, _noncontested)
    return decide_reload(b.actor, b.w)


def _attack(rules: Rules[Options], state: Encounter, action: Action) -> Contest | Ready:
    b = _prelude(rules, state, action, _attack_cost, "attack")
    _check_weapon(b.actor, b.w)
    target, distance = _placed(rules, b)
    return decide_contest(rules.options, b.actor, target, distance)


def _stealth(rules: Rules[Options], state: Encounter, action: Action) -> Stealth:
    b = _prelude(rules, state, action, _contested, "sneak up on")
    _check_stealth(b.actor, b.w, action)
    target, distance = _placed(rules, b)
    return decide_stealth(rules.options, b.actor, target, distance)


def _placed(rules: Rules[Options], b: _Begun) -> tuple[Combatant, int]:
    """The target and the distance of an attack or stealth, checked."""
    actor, target, distance = b.actor, b.target, b.distance
    assert target is not None  # files: attack and stealth target a combatant
    if distance is None:
        who = actor.id if actor.at is None else target.id
        raise Refusal(
            "no_position",
            f"{who!r} has no position (`at`): give the action `distance: n` (tiles)",
        )
    _check_distance(rules, actor, target, b.w, distance)
    return target, distance


def _distance(
    rules: Rules[Options], actor: Combatant, target: Combatant | None, action: Action
) -> int | None:
    """Tiles between actor and target: the action's `distance`, else their `at`."""
    given: int | None = action.params.get("distance")  # validated: an int >= 0
    if given is not None:
        return given
    if target is None or actor.at is None or target.at is None:
        return None
    return distance(rules, actor.at, target.at)


def _attack_cost(
    rules: Rules[Options], actor: Combatant, w: Wielded, distance: int | None
) -> str | None:
    """TD-G6, 2.3: an attack's kind of action: contested for melee and projectiles, by
    the distance for crossbows and firearms, free for a spell (its cast is the action)."""
    if w.event == "spell":
        return None
    if w.event in ("melee", "projectile"):
        return CONTESTED
    if distance is None:
        return None
    assert w.item is not None
    if w.event == "crossbow":  # TD-11, TD-G3
        within = distance <= sheet_as(actor, Sheet).skills.get(w.skill or "", 0)
        refuse = rules.options.crossbow_beyond_skill == "refuse"
        return NONCONTESTED if within or refuse else CONTESTED
    return NONCONTESTED if distance <= w.item.guaranteed_zone else CONTESTED  # TD-16/17


def _check_left(
    rules: Rules[Options], state: Encounter, actor: Combatant, kind: str | None
) -> None:
    if kind is None:
        return
    allowed = (
        rules.options.contested_actions if kind == CONTESTED else rules.options.noncontested_actions
    )
    if state.turn.used.get(kind, 0) >= allowed:
        raise Refusal(
            f"no_{kind}_action",
            f"{actor.id!r} has spent its {allowed} {kind} action(s) this round (TD-G6); "
            "end_turn to go on",
        )


def _check_weapon(actor: Combatant, w: Wielded) -> None:
    if w.event == "spell":  # TD-19
        raise Refusal("use_cast", f"{w.name!r} is a spell: `cast` it with `spell: {w.name}`")
    if w.item is not None and w.event in RELOADABLE and not w.item.loaded:
        raise Refusal("not_loaded", f"{w.name!r} of {actor.id!r} is not loaded: reload")


def _check_stealth(actor: Combatant, w: Wielded, action: Action) -> None:
    if action.params.get("behind") is not True:  # TD-20
        raise Refusal(
            "not_behind",
            "a stealth contest needs the initiator behind its opponent: give `behind: true`",
        )
    if w.event in _NO_STEALTH_FORMULA:  # TD-23
        raise Refusal(
            "no_stealth_formula",
            f"the text gives stealth damage for melee, thrown and bow only, not a "
            f"{w.type} ({w.name!r})",
        )


def _check_distance(
    rules: Rules[Options], actor: Combatant, target: Combatant, w: Wielded, distance: int
) -> None:
    if w.event == "melee":
        reach = wield(rules.options, target).reach
        if distance > w.reach and distance > reach:  # TD-6
            raise Refusal(
                "out_of_reach",
                f"{target.id!r} is {tiles(distance)} away: neither reaches the other "
                f"({w.name} {w.reach}, {target.id!r} {reach})",
            )
        return
    item = w.item
    assert item is not None
    limit, what = item.range, f"the {w.name}'s range"
    if w.event == "firearm":
        limit, what = item.contested_zone, f"the {w.name}'s contested zone"  # P-TD-4
    if limit is None or distance > limit:
        raise Refusal(
            "out_of_range",
            f"{target.id!r} is {tiles(distance)} away, beyond {what} ({limit})",
        )
    skill = sheet_as(actor, Sheet).skills.get(w.skill or "", 0)
    beyond = w.event == "crossbow" and distance > skill
    if beyond and rules.options.crossbow_beyond_skill == "refuse":  # TD-G3
        raise Refusal(
            "out_of_range",
            f"{target.id!r} is {tiles(distance)} away, beyond {w.skill} skill {skill} "
            "(crossbow_beyond_skill: refuse)",
        )


class TierDuel(TypedRuleset[Sheet, Options, Contest | Ready]):
    """Opposed d20 duels with Tier-rated gear (seed 001)."""

    about = About(
        name="tier-duel",
        title="Damage Cheatsheet",
        rule_text="001_ac6e21f663d7f42d.txt",
        summary="both sides roll 1d20+reflex+skill; the winner's margin becomes damage; "
        "Tier-rated weapons and armor; crossbows, firearms and magic skip the contest; "
        "stealth strikes",
        # Issue 36: HP and the damage taken last (TD-5), and what is loaded (TD-15);
        # the damage is "temporarily removed": a rest gives it back (PROPOSED).
        lasting=Lasting(
            sheet=("temporary_damage", "hand", "inventory"),
            rest=(("temporary_damage", 0),),
            rest_heals=True,
            rules="TD-5, TD-15",
        ),
    )
    contract = Contract(
        sheet=Sheet,
        options=Options,
        item_type=Item,
        item_shorthands=tuple(SHORTHANDS),
        default_max_hp=20,  # TD-G1, option max_hp
        actions=(
            ActionSpec(
                "attack",
                "attack the target with the hand's weapon: melee event, bow or thrown projectile "
                "event, crossbow or firearm shot (`distance: n` where a combatant has no `at`)",
                ("distance",),
                types={"distance": _DISTANCE},
                calls=("distance",),
                decide=_attack,
            ),
            ActionSpec(
                "stealth",
                "from behind (`behind: true`): presence + stealth contest, a win is a free strike "
                "the target cannot defend",
                ("behind", "distance"),
                types={"behind": StrictBool, "distance": _DISTANCE},
                calls=("behind", "distance"),
                decide=_stealth,
            ),
            ActionSpec(
                "cast",
                "cast `spell` (in hand or inventory) at the target: no dice",
                ("spell",),
                required=("spell",),
                types={"spell": StrictStr},
                decide=_cast,
            ),
            ActionSpec(
                "reload", "load the crossbow or firearm in hand", (), "none", decide=_reload
            ),
            ActionSpec(
                "equip",
                "take `item` from the inventory into the hand (free)",
                ("item",),
                "none",
                required=("item",),
                types={"item": StrictStr},
                decide=_equip,
            ),
        ),
        dice=(
            DieSpec("attack", 20, "the actor's contest die: melee, projectile, contested shots"),
            DieSpec("defend", 20, "the target's contest die, right after `attack`"),
            DieSpec("stealth", 20, "the stealth initiator's die"),
            DieSpec("notice", 20, "the opponent's stealth die, right after `stealth`"),
            DieSpec("strike", 20, "the stealth attack's damage die, when the initiator won"),
        ),
        refusal_rules={  # the refusals' table, tier-duel.md 2.3
            "down": "TD-G1",
            "no_contested_action": "TD-G6",
            "no_noncontested_action": "TD-G6",
            "use_cast": "TD-19",
            "not_loaded": "TD-11, TD-16",
            "not_behind": "TD-20",
            "no_stealth_formula": "TD-23",
            "out_of_reach": "TD-6",
            "out_of_range": "TD-G3, P-TD-4",
        },
        presenter=TierDuelPresenter,
    )
