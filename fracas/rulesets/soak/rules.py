"""soak: d20 + Agility + skill against EV or DV, exploding damage dice, armor that soaks
and erodes, wounds, superficial and aggravated damage.

Our reading: ``../shared/rules/soak.md`` (rules SK-1 to SK-16, gaps SK-G1 to SK-G8,
ambiguities SK-A1 to SK-A8, procedure P-SK-1 and the contract of Part 2); the text:
seed ``004_3533b04603d44f26.txt``, "Combat Process".
"""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping
from typing import Annotated

from pydantic import Field, StrictBool, StrictInt, StrictStr

from fracas.dice.source import Dice
from fracas.errors import FracasError
from fracas.model import Action, Combatant, Encounter, Event
from fracas.model.frozen import freeze
from fracas.rulesets.base import (
    About,
    ActionSpec,
    Contract,
    DieSpec,
    Lasting,
    Rules,
    TypedRuleset,
    sheet_as,
)
from fracas.rulesets.soak.attack import PARAMS, Attack, decide_attack
from fracas.rulesets.soak.data import D20, DEFAULT_MAX_HP, MAX_SIDES, ODDS_MAX_ROLLS
from fracas.rulesets.soak.events import APRestored, InitiativeOrdered, InitiativeRolled, health
from fracas.rulesets.soak.presenter import SoakPresenter
from fracas.rulesets.soak.sheet import Options, Sheet
from fracas.rulesets.soak.weapons import SHORTHANDS, Weapon

__all__ = ["Soak"]


def _decide_attack(rules: Rules[Options], state: Encounter, action: Action) -> Attack:
    """P-SK-1 before any die: the refusals of 2.3 in the table's order, then the
    attack's weapon, number to reach and dice (:func:`~.attack.decide_attack`)."""
    return decide_attack(state, action, rules.options)


class Soak(TypedRuleset[Sheet, Options, Attack]):
    """Armor soak with AV erosion (seed 004)."""

    about = About(
        name="soak",
        title="Combat Process (armor soak with AV erosion)",
        rule_text="004_3533b04603d44f26.txt",
        summary="d20+Agility+skill vs EV/DV, exploding damage dice, armor soak that erodes, wounds",
        # Issue 36: the health track (HP follows from it, SK-15), the eroded armor
        # (SK-13) and the wounds (SK-14) last; AP and initiative are the next fight's.
        lasting=Lasting(
            hp=False,
            sheet=("superficial", "aggravated", "av", "wounds"),
            rules="SK-13, SK-14, SK-15",
        ),
    )
    contract = Contract(
        sheet=Sheet,
        options=Options,
        item_type=Weapon,
        item_shorthands=tuple(SHORTHANDS),
        default_max_hp=DEFAULT_MAX_HP,  # SK-G4
        odds_max_rolls=ODDS_MAX_ROLLS,  # SK-7: exploding dice
        initiative_field="initiative",  # SK-1: d20 + Agility, kept on the sheet
        actions=(
            ActionSpec(
                "attack",
                "attack the target with `weapon` (default: the first, else unarmed); "
                "`advantage`/`disadvantage: true`, a signed `modifier` (terrain, weapon "
                "bonuses, others' actions), `distance` in tiles where a combatant has no `at`",
                PARAMS,
                types={
                    "weapon": StrictStr,
                    "advantage": StrictBool,
                    "disadvantage": StrictBool,
                    "modifier": StrictInt,
                    "distance": Annotated[StrictInt, Field(ge=0)],
                },
                calls=("advantage", "disadvantage", "modifier", "distance"),
                decide=_decide_attack,
            ),
        ),
        dice=(
            DieSpec(
                "attack",
                D20,
                "every attack; a list of 2 with advantage, disadvantage or an improvised weapon",
            ),
            DieSpec(
                "damage",
                MAX_SIDES,
                "on a hit: the weapon's dice (any d2..d100), `dice` then `upgrades`, each "
                "explosion right after its die; on a natural 20 only the explosion rolls",
            ),
            DieSpec(
                "additional",
                MAX_SIDES,
                "on a hit, after `damage`: the additional dice, explosions as for damage",
            ),
            DieSpec(
                "initiative",
                D20,
                "at the start, for each combatant without `initiative`, when the file has no "
                "`order` (initiative:id)",
                per_combatant=True,
            ),
        ),
        refusal_rules={  # the refusals' table, soak.md 2.3
            "down": "SK-G4",
            "not_enough_ap": "SK-1, SK-G1",
            "no_distance": "SK-4",
            "out_of_range": "SK-G2",
        },
        presenter=SoakPresenter,  # 2.6: AV, AP, wounds, the health track
    )

    # --- hooks ------------------------------------------------------------

    def settle(self, c: Combatant, given: frozenset[str], fresh: bool = False) -> Combatant:
        """2.1: ``hp`` is derived from the health track; a given ``hp`` sets ``superficial``.
        Sheet fields whose default is an option take the option's value."""
        sheet = sheet_as(c, Sheet)
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
            dv=w.dv if w.dv is not None or not w.ranged else freeze(o.dv_table),
            additional=additional,
        )

    def initiative(self, state: Encounter, dice: Dice) -> tuple[tuple[str, ...], list[Event]]:
        """SK-1, SK-G1: d20 + Agility, highest first (ties: higher Agility, then the
        file's order); a sheet's `initiative` is used as given."""
        if self.options.initiative == "file_order":
            return tuple(state.combatants), []
        events: list[Event] = []
        values: dict[str, int] = {}
        for cid, c in state.combatants.items():
            sheet = sheet_as(c, Sheet)
            if sheet.initiative is None:
                natural = dice.roll(D20, "initiative", of=cid)
                rolled = InitiativeRolled(cid, natural, sheet.agility, natural + sheet.agility)
                events.append(rolled)
                values[cid] = rolled.total
            else:
                values[cid] = sheet.initiative
        order = self._ranked(state, values)
        events.append(InitiativeOrdered(tuple((cid, values[cid]) for cid in order)))
        return order, events

    def order_after_set(
        self, state: Encounter, actor: str, given: frozenset[str]
    ) -> tuple[str, ...] | None:
        """SK-1, SK-G1: a ``set`` of an initiative orders the turns again, highest first
        (ties as at the start). The order stays where the option is ``file_order`` or a
        combatant has no initiative (the file gave the order): there is nothing to rank."""
        if "initiative" not in given or self.options.initiative == "file_order":
            return None
        values = {cid: sheet_as(c, Sheet).initiative for cid, c in state.combatants.items()}
        if any(v is None for v in values.values()):
            return None
        return self._ranked(state, {cid: v for cid, v in values.items() if v is not None})

    def _ranked(self, state: Encounter, values: Mapping[str, int]) -> tuple[str, ...]:
        """SK-1, SK-G1: highest initiative first; ties: higher Agility, then the file's
        order."""
        ids = list(state.combatants)
        return tuple(
            sorted(
                ids,
                key=lambda cid: (
                    -values[cid],
                    -sheet_as(state.get(cid), Sheet).agility,
                    ids.index(cid),
                ),
            )
        )

    def turn_start(self, state: Encounter, actor: str, dice: Dice) -> list[Event]:
        """SK-G1: AP back to ``max_ap`` at the start of each of the combatant's turns."""
        sheet = sheet_as(state.get(actor), Sheet)
        max_ap = sheet.max_ap if sheet.max_ap is not None else self.options.max_ap
        return [] if sheet.ap == max_ap else [APRestored(actor, max_ap)]
