"""soak: d20 + Agility + skill against EV or DV, exploding damage dice, armor that soaks
and erodes, wounds, superficial and aggravated damage.

Our reading: ``../shared/rules/soak.md`` (rules SK-1 to SK-16, gaps SK-G1 to SK-G8,
ambiguities SK-A1 to SK-A8, procedure P-SK-1 and the contract of Part 2); the text:
seed ``004_3533b04603d44f26.txt``, "Combat Process".
"""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping
from typing import Annotated, Any, ClassVar

from pydantic import Field, StrictBool, StrictInt, StrictStr

from fracas.dice.source import Dice
from fracas.errors import FracasError, Refusal
from fracas.grid import METRICS, Tile
from fracas.model import (
    Action,
    Combatant,
    Encounter,
    Event,
    Note,
)
from fracas.rulesets.base import ActionSpec, DieSpec, Ruleset
from fracas.rulesets.soak.attack import Attack, Extra, strike
from fracas.rulesets.soak.damage import edge_of
from fracas.rulesets.soak.events import APRestored, InitiativeRolled, health
from fracas.rulesets.soak.sheet import Options, Sheet
from fracas.rulesets.soak.tables import (
    D20,
    DEFAULT_MAX_HP,
    MAX_SIDES,
    ODDS_MAX_ROLLS,
    UNARMED,
)
from fracas.rulesets.soak.weapons import SHORTHANDS, Weapon, die_sizes, dv_band, unarmed_weapon

__all__ = ["Soak"]

_PARAMS: Mapping[str, tuple[type, ...]] = {
    "weapon": (str,),
    "advantage": (bool,),
    "disadvantage": (bool,),
    "modifier": (int,),
    "distance": (int,),
}


def _sheet(c: Combatant) -> Sheet:
    sheet: Sheet = c.sheet
    return sheet


class Soak(Ruleset):
    """Armor soak with AV erosion (seed 004)."""

    name: ClassVar[str] = "soak"
    title: ClassVar[str] = "Combat Process (armor soak with AV erosion)"
    seed_file: ClassVar[str] = "004_3533b04603d44f26.txt"
    summary: ClassVar[str] = (
        "d20+Agility+skill vs EV/DV, exploding damage dice, armor soak that erodes, wounds"
    )
    options_type = Options
    sheet_type = Sheet
    item_type = Weapon
    item_shorthands: ClassVar[tuple[str, ...]] = tuple(SHORTHANDS)
    default_max_hp: ClassVar[int] = DEFAULT_MAX_HP  # SK-G4
    odds_max_rolls: ClassVar[int] = ODDS_MAX_ROLLS  # SK-7: exploding dice
    actions: ClassVar[tuple[ActionSpec, ...]] = (
        ActionSpec(
            "attack",
            "attack the target with `weapon` (default: the first, else unarmed); "
            "`advantage`/`disadvantage: true`, a signed `modifier` (terrain, weapon "
            "bonuses, others' actions), `distance` in tiles where a combatant has no `at`",
            tuple(_PARAMS),
            types={
                "weapon": StrictStr,
                "advantage": StrictBool,
                "disadvantage": StrictBool,
                "modifier": StrictInt,
                "distance": Annotated[StrictInt, Field(ge=0)],
            },
        ),
    )
    dice: ClassVar[tuple[DieSpec, ...]] = (
        DieSpec("attack", D20, "every attack; a list of 2 with advantage, disadvantage or an "
                "improvised weapon"),
        DieSpec(
            "damage",
            MAX_SIDES,
            "on a hit: the weapon's dice (any d2..d100), `dice` then `upgrades`, each "
            "explosion right after its die; on a natural 20 only the explosion rolls",
        ),
        DieSpec("additional", MAX_SIDES, "on a hit, after `damage`: the additional dice, "
                "explosions as for damage"),
        DieSpec(
            "initiative",
            D20,
            "at the start, for each combatant without `initiative`, when the file has no "
            "`order` (initiative:id)",
            per_combatant=True,
        ),
    )  # fmt: skip
    options: Options

    def __init__(self, options: Options) -> None:
        super().__init__(options)
        self._memo: tuple[Encounter, Action, Attack] | None = None

    # --- hooks ------------------------------------------------------------

    def max_hp_default(self) -> int:
        return self.options.max_hp  # SK-G4

    def settle(self, c: Combatant, given: frozenset[str]) -> Combatant:
        """2.1: ``hp`` is derived from the health track; a given ``hp`` sets ``superficial``.
        Sheet fields whose default is an option take the option's value."""
        sheet = _sheet(c)
        o = self.options
        max_ap = sheet.max_ap if sheet.max_ap is not None else o.max_ap
        ap = sheet.ap if sheet.ap is not None else max_ap
        if ap > max_ap:
            if "ap" in given:
                raise FracasError(
                    "bad_value", f"ap {ap} is above max_ap {max_ap}: give 0..{max_ap}"
                )
            ap = max_ap  # a lower max_ap takes the AP above it away
        sheet = dataclasses.replace(
            sheet,
            ev=sheet.ev if sheet.ev is not None else o.ev,
            max_ap=max_ap,
            ap=ap,
            weapons=tuple(self._filled(w) for w in sheet.weapons),
        )
        if "hp" in given:
            superficial = c.max_hp - c.hp - sheet.aggravated
            if c.hp == 0:  # a full track: any superficial damage that fills it
                superficial = max(superficial, 0)
                if "superficial" in given and sheet.superficial >= superficial:
                    superficial = sheet.superficial
            if superficial < 0:
                raise FracasError(
                    "bad_value",
                    f"hp {c.hp} with aggravated {sheet.aggravated} and max_hp {c.max_hp}: "
                    f"hp can be at most {health(c.max_hp, 0, sheet.aggravated)}",
                )
            if "superficial" in given and superficial != sheet.superficial:
                raise FracasError(
                    "bad_value",
                    f"hp {c.hp} and superficial {sheet.superficial} disagree: with max_hp "
                    f"{c.max_hp} and aggravated {sheet.aggravated}, hp {c.hp} means "
                    f"superficial {superficial}; give one of them",
                )
            sheet = dataclasses.replace(sheet, superficial=superficial)
        hp = health(c.max_hp, sheet.superficial, sheet.aggravated)
        return dataclasses.replace(c, sheet=sheet, hp=hp)

    def _filled(self, w: Weapon) -> Weapon:
        o = self.options
        additional = w.additional
        if additional is not None and additional.kind is None:
            additional = dataclasses.replace(additional, kind=o.damage_kind)
        return dataclasses.replace(
            w,
            ap=w.ap if w.ap is not None else o.attack_ap,
            damage_kind=w.damage_kind or o.damage_kind,
            dv=w.dv if w.dv is not None or not w.ranged else dict(o.dv_table),
            additional=additional,
        )

    def initiative(self, state: Encounter, dice: Dice) -> tuple[str, ...]:
        return self.roll_initiative(state, dice)[0]

    def roll_initiative(self, state: Encounter, dice: Dice) -> tuple[tuple[str, ...], list[Event]]:
        """SK-1, SK-G1: d20 + Agility, highest first (ties: higher Agility, then the
        file's order); a sheet's `initiative` is used as given."""
        if self.options.initiative == "file_order":
            return tuple(state.combatants), []
        events: list[Event] = []
        values: dict[str, int] = {}
        for cid, c in state.combatants.items():
            sheet = _sheet(c)
            if sheet.initiative is None:
                natural = dice.roll(D20, "initiative", of=cid)
                rolled = InitiativeRolled(cid, natural, sheet.agility, natural + sheet.agility)
                events.append(rolled)
                values[cid] = rolled.total
            else:
                values[cid] = sheet.initiative
        ids = list(state.combatants)
        order = tuple(
            sorted(
                ids,
                key=lambda cid: (
                    -values[cid],
                    -_sheet(state.get(cid)).agility,
                    ids.index(cid),
                ),
            )
        )
        listing = ", ".join(f"{state.name(cid)} {values[cid]}" for cid in order)
        events.append(Note(f"initiative order: {listing}"))
        return order, events

    def turn_start(self, state: Encounter, actor: str, dice: Dice) -> list[Event]:
        """SK-G1: AP back to ``max_ap`` at the start of each of the combatant's turns."""
        sheet = _sheet(state.get(actor))
        max_ap = sheet.max_ap if sheet.max_ap is not None else self.options.max_ap
        return [] if sheet.ap == max_ap else [APRestored(actor, max_ap)]

    def distance(self, a: Tile, b: Tile) -> int:
        return METRICS[self.options.metric](a, b)  # 1.1: Chebyshev (PROPOSED)

    def sheet_json(self, c: Combatant) -> dict[str, Any]:
        out = super().sheet_json(c)
        out["skills"] = dict(_sheet(c).skills)
        return out

    # --- resolution -------------------------------------------------------

    def resolve(self, state: Encounter, action: Action, dice: Dice) -> list[Event]:
        """P-SK-1: an attack. Refusals (2.3) come first, in the table's order, before any
        die is rolled; then :func:`~fracas.rulesets.soak.attack.strike` rolls."""
        memo = self._memo  # exact odds replay one action in one state many times
        if memo is not None and memo[0] is state and memo[1] is action:
            attack = memo[2]
        else:
            attack = self._prepare(state, action)
            self._memo = (state, action, attack)
        return strike(attack, dice, self.options)

    def _prepare(self, state: Encounter, action: Action) -> Attack:
        """Everything before the first die: refusals, weapon, target number, bonuses."""
        o = self.options
        params = self._params(action)
        actor = state.get(action.actor)
        assert action.target is not None  # the file reader requires a target
        target = state.get(action.target)
        weapon = self._check(actor, target, params)
        distance = self._distance(actor, target, params)
        need, against = self._target_number(actor, target, weapon, distance)
        sheet, target_sheet = _sheet(actor), _sheet(target)
        skill = weapon.skill_name
        parts = [("agility", sheet.agility), (skill, sheet.skills.get(skill, 0))]
        if params.get("modifier"):  # SK-2, SK-A1: penalties subtract, bonuses add
            parts.append(("modifier", params["modifier"]))
        disadvantage = bool(params.get("disadvantage")) or weapon.improvised  # SK-10
        proficient = not weapon.unarmed and weapon.weapon_type in sheet.proficiencies
        damage_parts = [(skill, sheet.skills.get(skill, 0))]  # SK-8, SK-A6, SK-11
        sizes: tuple[int, ...] = ()
        if not weapon.unarmed:  # SK-11, SK-A8: Brawling, no dice, no Strength
            sizes = die_sizes(weapon.dice)
            if not weapon.improvised:  # SK-10: upgrades do not apply to improvised weapons
                sizes += die_sizes(weapon.upgrades)
            if proficient and not (weapon.improvised and o.improvised_strength == "never"):
                damage_parts.append(("strength", sheet.strength))  # SK-8, SK-A7
        extra = None
        if weapon.additional is not None:
            extra = Extra(
                die_sizes(weapon.additional.dice),
                weapon.additional.type,
                weapon.additional.kind or o.damage_kind,
                target_sheet.material,
            )
        cost = self._cost(weapon)
        ap = sheet.ap if sheet.ap is not None else o.max_ap
        return Attack(
            actor.id,
            target.id,
            weapon.name,
            edge_of(bool(params.get("advantage")), disadvantage, o),
            tuple(parts),
            need,
            against,
            o.ranged_compare if weapon.ranged else "meet",
            cost,
            ap - cost,
            sizes,
            proficient,
            tuple(damage_parts),
            weapon.damage_kind or o.damage_kind,
            target_sheet.av,
            extra,
        )

    def _params(self, action: Action) -> dict[str, Any]:
        out: dict[str, Any] = {}
        for key, value in action.params.items():
            kinds = _PARAMS.get(key)
            if kinds is None:  # a program's action; files are checked as they are read
                raise Refusal(
                    "bad_value",
                    f"{key!r} is not a parameter of attack; valid: {', '.join(_PARAMS)}",
                )
            ok = isinstance(value, kinds) and (bool in kinds or not isinstance(value, bool))
            if not ok or (key == "distance" and value < 0):
                want = {"weapon": "a weapon name", "distance": "a number of tiles >= 0"}.get(
                    key, "true or false" if bool in kinds else "an integer"
                )
                raise Refusal("bad_value", f"{key} {value!r}: give {want}")
            out[key] = value
        return out

    def _weapon(self, actor: Combatant, params: Mapping[str, Any]) -> Weapon | None:
        weapons = _sheet(actor).weapons
        name = params.get("weapon")
        if name is None:
            return weapons[0] if weapons else unarmed_weapon()
        found = next((w for w in weapons if w.name == name), None)
        if found is None and name == UNARMED:
            return unarmed_weapon()  # 2.2: unarmed is always available
        return found

    def _check(self, actor: Combatant, target: Combatant, params: Mapping[str, Any]) -> Weapon:
        """2.3: down, not_enough_ap, unknown_weapon, self_target (range checks follow)."""
        if actor.hp == 0:  # SK-G4
            raise Refusal("down", f"{actor.id!r} is down (0 HP: the health track is full)")
        sheet = _sheet(actor)
        weapon = self._weapon(actor, params)
        # An unknown weapon's cost is not known: the default attack cost stands for it.
        cost = self._cost(weapon)
        ap = sheet.ap if sheet.ap is not None else self.options.max_ap
        if ap < cost:  # SK-1, SK-G1
            raise Refusal(
                "not_enough_ap",
                f"{actor.id!r} has {ap} AP; the attack costs {cost}: end_turn to go on",
            )
        if weapon is None:
            names = [w.name for w in sheet.weapons]
            if UNARMED not in names:
                names.append(UNARMED)
            raise Refusal(
                "unknown_weapon",
                f"{actor.id!r} has no weapon {params.get('weapon')!r}; valid: {', '.join(names)}",
            )
        if target.id == actor.id:
            raise Refusal("self_target", f"{actor.id!r} cannot attack itself")
        return weapon

    def _cost(self, weapon: Weapon | None) -> int:
        if weapon is None or weapon.ap is None:
            return self.options.attack_ap
        return weapon.ap

    def _distance(
        self, actor: Combatant, target: Combatant, params: Mapping[str, Any]
    ) -> int | None:
        """A given `distance` wins; else the tiles between the two where both have `at`."""
        if "distance" in params:
            distance: int = params["distance"]
            return distance
        if actor.at is None or target.at is None:
            return None
        return self.distance(actor.at, target.at)

    def _target_number(
        self, actor: Combatant, target: Combatant, weapon: Weapon, distance: int | None
    ) -> tuple[int, str]:
        """SK-3, SK-4: the EV of the target (melee, unarmed) or the weapon's DV for the
        range (ranged); refuses no_distance, out_of_range and out_of_reach (2.3)."""
        if weapon.ranged:
            if distance is None:
                lacking = target.id if actor.at is not None else actor.id
                raise Refusal(
                    "no_distance",
                    f"a ranged attack needs the distance: {lacking!r} has no `at`; "
                    "give `distance` (tiles)",
                )
            table = weapon.dv if weapon.dv is not None else self.options.dv_table
            band = dv_band(table, distance)
            if band is None:  # SK-G2
                raise Refusal(
                    "out_of_range",
                    f"the target is {distance} tiles away; the {weapon.name} reaches "
                    f"{max(table)} (its DV table)",
                )
            low, high, dv = band
            return dv, f"DV {dv} ({low}-{high} tiles: {distance})"
        reach = self.options.melee_reach
        if distance is not None and distance > reach:
            raise Refusal(
                "out_of_reach",
                f"{target.id!r} is {distance} tiles away; a {weapon.name} attack reaches "
                f"{reach} tile(s), diagonals included",
            )
        ev = _sheet(target).ev
        ev = ev if ev is not None else self.options.ev
        return ev, f"EV {ev}"
