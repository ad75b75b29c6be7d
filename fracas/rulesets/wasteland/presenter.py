"""What a face shows of a wasteland combatant (wasteland.md 2.1, 2.2, 2.8): AP and MAP,
Evasion, the limbs hurt (CT and injuries, every limb's DT and CT in the detail), the
explosives left, and each weapon's reach as a ring."""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping
from typing import Any

from fracas.model import Combatant, Encounter
from fracas.rulesets.base import Presenter, Reach, Shown, sheet_as
from fracas.rulesets.wasteland.sheet import Sheet
from fracas.rulesets.wasteland.stats import (
    OVERWATCH,
    LimbView,
    evasion,
    has,
    limb_view,
    limbs_json,
    max_ap,
    sequence,
)
from fracas.rulesets.wasteland.tables import DAMAGE_TYPES, LIMBS, ZONE_OF_THREAT_OPPORTUNITIES
from fracas.rulesets.wasteland.turn_events import used
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

    def sheet_json(self, state: Encounter, c: Combatant) -> dict[str, Any]:
        """2.8: the sheet, derived evasion, sequence, max_ap, every limb, every weapon."""
        options = self.ruleset.options
        out = {f.name: _plain(getattr(c.sheet, f.name)) for f in dataclasses.fields(c.sheet)}
        sheet = sheet_as(c, Sheet)
        for key in ("dt", "dr"):  # 2.1: every damage type, 0 where the sheet names none
            out[key] = {t: out[key].get(t, 0) for t in DAMAGE_TYPES}
        out["evasion"] = evasion(c)
        out["sequence"] = sequence(sheet)
        out["max_ap"] = max_ap(sheet, options)
        out["limbs"] = limbs_json(sheet, options)
        watching = OVERWATCH in c.statuses  # WL-30: no reactions while in Overwatch
        opportunities = ZONE_OF_THREAT_OPPORTUNITIES if has(sheet, "zone_of_threat") else 1
        limits = {"reaction": 1, "opportunity": opportunities, "riposte": 1}  # WL-31
        out["reactions_left"] = {
            kind: 0 if watching else max(0, n - used(c, kind)) for kind, n in limits.items()
        }
        return out

    def fields(self, state: Encounter, c: Combatant, full: bool = False) -> tuple[Shown, ...]:
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


def _plain(value: Any) -> Any:
    """Sheet values as plain data: dataclasses and mappings to dicts, tuples to lists."""
    if dataclasses.is_dataclass(value) and not isinstance(value, type):
        return {f.name: _plain(getattr(value, f.name)) for f in dataclasses.fields(value)}
    if isinstance(value, Mapping):
        return {k: _plain(v) for k, v in value.items()}
    if isinstance(value, tuple | list):
        return [_plain(v) for v in value]
    return value
