"""What a face shows of a wasteland combatant (wasteland.md 2.1, 2.2, 2.8): AP and MAP,
Evasion, the limbs hurt (CT and injuries, every limb's DT and CT in the detail), the
explosives left, and each weapon's reach as a ring."""

from __future__ import annotations

from fracas.model import Combatant, Encounter
from fracas.rulesets.base import Presenter, Reach, Shown, sheet_as
from fracas.rulesets.wasteland.data import DAMAGE_TYPES, LIMBS
from fracas.rulesets.wasteland.sheet import Sheet
from fracas.rulesets.wasteland.stats import LimbView, evasion, limb_view, max_ap
from fracas.rulesets.wasteland.weapons import unarmed_weapon

__all__ = ["WastelandPresenter"]


def _limb(v: LimbView) -> str:
    """``left leg CT 0/10 major DC 12``."""
    text = f"{v.name.replace('_', ' ')} CT {v.ct}/{v.ct_max}"
    if v.injury != "none":
        text += f" {v.injury}" + (f" DC {v.injury_dc}" if v.injury_dc is not None else "")
    return text


class WastelandPresenter(Presenter):
    """AP, MAP, Evasion, limbs, explosives (a game master's row of the status table)."""

    def fields(self, state: Encounter, c: Combatant) -> tuple[Shown, ...]:
        sheet = sheet_as(c, Sheet)
        options = self.ruleset.options
        ap = sheet.ap if sheet.ap is not None else max_ap(sheet, options)
        owed = f"{sheet.ap_debt} AP owed from an overflowed action" if sheet.ap_debt else ""
        shown = [
            Shown("AP", f"{ap}/{max_ap(sheet, options)}", owed),  # WL-2, WL-34
            Shown(
                "MAP", f"{sheet.map if sheet.map is not None else sheet.max_map}/{sheet.max_map}"
            ),
            Shown("Evasion", str(evasion(c))),  # WL-8, WL-29
        ]
        views = [limb_view(sheet, name, options) for name in LIMBS]  # 2.2
        hurt = [_limb(v) for v in views if v.ct < v.ct_max or v.injury != "none"]
        every = "; ".join(
            f"{_limb(v)}, DT " + "/".join(str(v.dt[t]) for t in DAMAGE_TYPES) for v in views
        )
        shown.append(Shown("limbs", ", ".join(hurt) or "unhurt", every))
        explosives = [w for w in sheet.weapons if w.kind == "explosive"]  # WL-27
        if explosives:
            shown.append(Shown("explosives", ", ".join(f"{w.name} {w.count}" for w in explosives)))
        return tuple(shown)

    def ranges(self, state: Encounter, c: Combatant) -> tuple[Reach, ...]:
        """Each equipped weapon's reach (unarmed alone when none is): melee and unarmed 1
        tile (WL-26), the others their range band in the option ``range_tiles`` (WL-35,
        WL-G16: close 5, medium 10, long 20, extreme 40), nearest first."""
        weapons = sheet_as(c, Sheet).weapons or (unarmed_weapon(),)
        tiles = self.ruleset.options.range_tiles
        out = [
            Reach(f"{w.name} reach", 1)
            if w.melee or w.range is None
            else Reach(f"{w.name} {w.range}", tiles[w.range])
            for w in weapons
        ]
        return tuple(sorted(out, key=lambda r: r.tiles))
