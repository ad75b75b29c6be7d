"""What a face shows of a soak combatant (soak.md 2.6): AV, AP, wounds, the health track."""

from __future__ import annotations

from fracas.model import Combatant, Encounter
from fracas.rulesets.base import Presenter, Shown, sheet_as
from fracas.rulesets.soak.sheet import Sheet

__all__ = ["SoakPresenter"]


class SoakPresenter(Presenter):
    """soak's state a game master watches, short."""

    def fields(self, state: Encounter, c: Combatant) -> tuple[Shown, ...]:
        s = sheet_as(c, Sheet)
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
