"""Values derived from a wasteland sheet and the options: max AP, Evasion, Sequence,
each limb's effective CT and DT, cover, weapons by name (wasteland.md 2.1-2.4)."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from fracas.model import Combatant
from fracas.rulesets.base import Detail, StatusSpec, sheet_as
from fracas.rulesets.wasteland.sheet import Limb, Options, Sheet
from fracas.rulesets.wasteland.tables import (
    AP_BASE,
    CAUTIOUS_NATURE_SEQUENCE,
    DAMAGE_TYPES,
    EVASION_BASE,
    EVASION_LEVELS,
    INJURY_DC_BASE,
    LIMB_GROUP,
    LIMBS,
    MILESTONES,
    SEQUENCE_BASE,
    UNARMED,
    Injury,
    LimbName,
)
from fracas.rulesets.wasteland.weapons import Weapon, unarmed_weapon

__all__ = [
    "DEFENDING",
    "DYING",
    "OVERWATCH",
    "OVERWATCH_MODES",
    "PEEKING",
    "STATUSES",
    "SURPRISED",
    "LimbView",
    "burst_penalty",
    "burst_shots",
    "called_penalty",
    "covered_limbs",
    "evasion",
    "has",
    "limb_view",
    "limbs_json",
    "location",
    "max_ap",
    "sequence",
    "weapon_named",
]

DYING = "dying"
DEFENDING = "defending"
OVERWATCH = "overwatch"
PEEKING = "peeking"
SURPRISED = "surprised"
OVERWATCH_MODES = ("single", "burst")

STATUSES: tuple[StatusSpec, ...] = (
    StatusSpec(
        DEFENDING,
        "WL-29: + bonus Evasion until the start of the next turn",
        {"bonus": Detail(int, 0, "Evasion added (AP spent, + 2 with Dodger); >= 0", minimum=0)},
    ),
    StatusSpec(
        OVERWATCH,
        "WL-30: shots left at enemies in the zone, no reactions until the next turn",
        {
            "weapon": Detail(str, "", "the weapon's name; empty: the first weapon, else unarmed"),
            "mode": Detail(str, "single", "single or burst", choices=OVERWATCH_MODES),
            "shots": Detail(int, 1, "shots left of the allowance; >= 0", minimum=0),
        },
    ),
    StatusSpec(PEEKING, "WL-32: full cover counts as half cover until the turn ends"),
    StatusSpec(DYING, "WL-19: at 0 HP and out of the fight"),
    StatusSpec(SURPRISED, "WL-33, WL-G16: no actions until the surprise round ends"),
)
"""The statuses the rules read, with their details and defaults (``set`` is checked
against these; a weapon's effects, WL-23, are free-form statuses with an ``x``)."""
_NO_LIMB = Limb()


def has(sheet: Sheet, name: str) -> bool:
    """A perk or trait named in ``perks``; a milestone "Skill +N" also by the skill (2.1)."""
    if name in sheet.perks:
        return True
    milestone = MILESTONES.get(name)
    return milestone is not None and sheet.skills.get(milestone[0], 0) >= milestone[1]


def max_ap(sheet: Sheet, options: Options) -> int:
    """WL-2, WL-A1: 8 + AGI MOD / 2, rounded down (option: toward 0)."""
    half = sheet.agi_mod // 2 if options.ap_rounding == "floor" else int(sheet.agi_mod / 2)
    return AP_BASE + half


def sequence(sheet: Sheet) -> int:
    """WL-1: 10 + PER + AGI + CHA, + sequence_mod, + 5 with Cautious Nature."""
    bonus = CAUTIOUS_NATURE_SEQUENCE if has(sheet, "cautious_nature") else 0
    return (
        SEQUENCE_BASE + sheet.per_mod + sheet.agi_mod + sheet.cha_mod + sheet.sequence_mod + bonus
    )


def evasion(c: Combatant) -> int:
    """WL-8, WL-29: 10 + AGI MOD + floor(level / 4) + evasion_mod + the Defend bonus."""
    sheet = sheet_as(c, Sheet)
    defend = c.statuses.get(DEFENDING, {}).get("bonus", 0)
    base = EVASION_BASE + sheet.agi_mod + sheet.level // EVASION_LEVELS
    return base + sheet.evasion_mod + int(defend)


@dataclass(frozen=True, slots=True)
class LimbView:
    """2.2: a limb's effective values."""

    name: LimbName
    ct_max: int
    ct: int
    dt: Mapping[str, int]
    injury: Injury
    injury_dc: int | None

    @property
    def crippled(self) -> bool:
        """2.2: true once an injury is gained (WL-21)."""
        return self.injury != "none"


def limb_view(sheet: Sheet, name: LimbName, options: Options) -> LimbView:
    limb = sheet.limbs.get(name, _NO_LIMB)
    ct_max = limb.ct_max if limb.ct_max is not None else options.ct_max
    dt: dict[str, int] = {t: limb.dt.get(t, sheet.dt.get(t, 0)) for t in DAMAGE_TYPES}
    dc = None
    if limb.injury == "major":
        dc = limb.injury_dc if limb.injury_dc is not None else INJURY_DC_BASE
    ct = limb.ct if limb.ct is not None else ct_max
    return LimbView(name, ct_max, ct, dt, limb.injury, dc)


def limbs_json(sheet: Sheet, options: Options) -> dict[str, dict[str, Any]]:
    """2.8: every limb with ct, ct_max, dt, injury, crippled and injury_dc."""
    out: dict[str, dict[str, Any]] = {}
    for name in LIMBS:
        v = limb_view(sheet, name, options)
        out[name] = {
            "ct": v.ct,
            "ct_max": v.ct_max,
            "dt": dict(v.dt),
            "injury": v.injury,
            "crippled": v.crippled,
            "injury_dc": v.injury_dc,
        }
    return out


def location(face: int, options: Options) -> LimbName:
    """WL-11, WL-G1: the limb a location d20 face hits."""
    for limb, (low, high) in options.hit_location.items():
        if low <= face <= high:
            return limb
    raise AssertionError(f"the validated hit_location table covers face {face}")


def called_penalty(limb: LimbName, options: Options) -> int:
    """WL-G2: the Accuracy penalty of a called shot at ``limb`` (a positive number)."""
    return options.called_shot_penalty[LIMB_GROUP[limb]]


def covered_limbs(c: Combatant, options: Options) -> frozenset[str]:
    """2.4, WL-32, WL-G16: the limbs ``c``'s cover covers; full cover counts as half
    while ``c`` peeks."""
    cover = sheet_as(c, Sheet).cover
    if cover is None:
        return frozenset()
    kind = "half" if cover.type == "full" and PEEKING in c.statuses else cover.type
    if cover.limbs is not None and kind == cover.type:
        return frozenset(cover.limbs)
    return frozenset(options.half_cover_limbs if kind == "half" else LIMBS)


def weapon_named(sheet: Sheet, name: str | None) -> tuple[int | None, Weapon] | None:
    """The weapon an action names (default: the first, else unarmed) and its index on the
    sheet (None for the implicit unarmed); None when the sheet has no such weapon."""
    if name is None:
        return (0, sheet.weapons[0]) if sheet.weapons else (None, unarmed_weapon())
    for i, w in enumerate(sheet.weapons):
        if w.name == name:
            return i, w
    if name == UNARMED:
        return None, unarmed_weapon()  # 2.3: usable by everyone even when not listed
    return None


def burst_shots(weapon: Weapon, options: Options) -> int | None:
    """WL-15, WL-G2: the shots of the weapon's burst; None when it has no burst."""
    if weapon.burst is None or weapon.burst is False:
        return None
    return options.burst_shots if weapon.burst is True else int(weapon.burst)


def burst_penalty(weapon: Weapon, options: Options) -> int:
    """WL-G2: the weapon's Burst Fire Penalty, else the option's."""
    return weapon.burst_penalty if weapon.burst_penalty is not None else options.burst_penalty
