"""What a face shows of a soak combatant (soak.md 2.6): AV, AP, wounds, the health track,
each weapon's reach (melee) or DV bands (ranged) as rings, and in full (``status NAME``)
which weapons its proficiencies reach."""

from __future__ import annotations

from typing import Any

from fracas.model import Combatant, Encounter
from fracas.rulesets.base import Presenter, Reach, Shown, sheet_as
from fracas.rulesets.soak.sheet import Sheet
from fracas.rulesets.soak.weapons import unarmed_weapon

__all__ = ["SoakPresenter"]


class SoakPresenter(Presenter):
    """soak's state a game master watches, short."""

    def fields(self, state: Encounter, c: Combatant, full: bool = False) -> tuple[Shown, ...]:
        """Short: AV, AP, wounds, the track; full, besides: ``proficiencies`` says which
        weapons it carries they reach, and names a type it carries no weapon of (a weapon
        picked up later, or a typo)."""
        s = sheet_as(c, Sheet)
        if full:
            shown = ", ".join(s.proficiencies) or "none"
            return (*self.fields(state, c), Shown("proficiencies", shown, proficiency_note(s)))
        return (
            Shown("AV", str(s.av), "Armor Value: soaks base damage, -1 when damage gets "
                  "through (SK-12, SK-13)"),
            Shown("AP", f"{s.ap}/{s.max_ap}", "AP left this turn / AP per turn (SK-G1)"),
            Shown("wounds", str(s.wounds), "one per attack with a die at its maximum (SK-14)"),
            Shown(
                "sup/agg",
                f"{s.superficial}/{s.aggravated}",
                f"superficial {s.superficial}, aggravated {s.aggravated} of a track of "
                f"{c.max_hp} (SK-15, SK-G4)",
            ),
        )  # fmt: skip

    def sheet_json(self, state: Encounter, c: Combatant) -> dict[str, Any]:
        out = super().sheet_json(state, c)
        out["skills"] = dict(sheet_as(c, Sheet).skills)
        return out

    def ranges(self, state: Encounter, c: Combatant) -> tuple[Reach, ...]:
        """Each weapon's rings (unarmed alone when the sheet has none): a melee or
        unarmed weapon's reach, the option ``melee_reach`` (2.3 out_of_reach); a ranged
        weapon's DV bands, each band's last tile labelled with its DV (SK-4, SK-G2: its
        own ``dv`` table, else the option ``dv_table``), nearest first."""
        options = self.ruleset.options
        out: list[Reach] = []
        for w in sheet_as(c, Sheet).weapons or (unarmed_weapon(),):
            if not w.ranged:
                out.append(Reach(f"{w.name} reach", options.melee_reach))
                continue
            table = w.dv if w.dv is not None else options.dv_table
            out += [Reach(f"{w.name} DV {table[t]}", t) for t in sorted(table)]
        return tuple(sorted(out, key=lambda r: r.tiles))


def proficiency_note(s: Sheet) -> str:
    """SK-7, SK-8: the weapons ``s`` carries whose type is one of its proficiencies (their
    dice explode, Strength adds), then each proficiency no weapon it carries has as type
    (kept: a weapon may be picked up later)."""
    carried = [w for w in s.weapons if not w.unarmed]
    reached = [w.name for w in carried if w.weapon_type in s.proficiencies]
    text = "exploding dice and Strength (SK-7, SK-8) with " + (
        ", ".join(reached) or "none of its weapons"
    )
    types = {w.weapon_type for w in carried}
    idle = [p for p in s.proficiencies if p not in types]
    if idle:
        text += f"; it carries no weapon of type {', '.join(repr(p) for p in idle)}"
    return text
