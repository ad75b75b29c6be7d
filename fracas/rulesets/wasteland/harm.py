"""Phase 3 of an attack (wasteland.md P-WL-1, P-WL-2): one hit's cover and DT, then a
creature's hits summed, DR once, HP, death saves, Cripple Thresholds, injuries, effects.

A hit is rolled by :func:`roll_hit` (location, damage dice); what a creature takes from
all its hits of one attack is :func:`harm`.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from fracas.dice.source import Dice
from fracas.model import Combatant, Damaged, Event, StatusSet
from fracas.rulesets.base import sheet_as
from fracas.rulesets.wasteland.events import DeathDefied, EffectGained, LimbDamaged, LimbHit
from fracas.rulesets.wasteland.sheet import Options, Sheet
from fracas.rulesets.wasteland.stats import DYING, covered_limbs, has, limb_view, location
from fracas.rulesets.wasteland.tables import D20, INJURY_DC_BASE, LIMBS, Injury, LimbName
from fracas.rulesets.wasteland.weapons import Weapon, dice_spec, roll_damage

__all__ = ["Hit", "apply_dr", "blast", "harm", "roll_hit"]

SAVES = ("deal_with_the_reaper", "too_stubborn_to_die")
"""WL-19: the abilities that drop to 1 HP instead, once per Long Rest, in this order."""
_SAVE_MILESTONE = {"too_stubborn_to_die": "survival_10"}


@dataclass(frozen=True, slots=True)
class Hit:
    """One hit on a limb, after cover and DT (WL-13, WL-14)."""

    shot: int | None
    limb: LimbName
    solid: bool
    post: int
    """Damage after cover and DT (0 when stopped or fully mitigated)."""
    stopped: bool
    """The cover stopped the hit (D <= R, WL-13)."""
    mitigated: bool
    """DT was equal to or greater than the damage (WL-14)."""


def roll_hit(
    victim: Combatant,
    weapon: Weapon,
    dice: Dice,
    shot: int | None,
    called: LimbName | None,
    solid: bool,
    before_dt: tuple[tuple[str, int], ...],
    flanking: bool,
    options: Options,
) -> tuple[Hit, LimbHit]:
    """WL-11 to WL-14: the limb (the called one, else ``location``), the damage dice,
    cover (2.4) and the limb's DT. ``before_dt``: flat bonuses added to the dice."""
    limb = called if called is not None else location(dice.roll(D20, "location", n=shot), options)
    amount, faces = roll_damage(weapon.damage, dice, shot)
    flat = dice_spec(weapon.damage).flat
    parts = ((("flat", flat),) if flat else ()) + before_dt
    damage = max(0, amount + sum(v for _, v in before_dt))
    r: int | None = None
    stopped = False
    if not flanking and limb in covered_limbs(victim, options):
        r = _resistance(victim, weapon, options)
        stopped = damage <= r  # WL-13, WL-G3: D <= R is absorbed
        if not stopped and options.cover_rule == "subtract":
            damage -= r
    dt = limb_view(sheet_as(victim, Sheet), limb, options).dt[weapon.damage_type]
    post = 0 if stopped else max(0, damage - dt)  # WL-14: DT >= damage mitigates fully
    hit = Hit(shot, limb, solid, post, stopped, not stopped and damage <= dt)
    event = LimbHit(victim.id, shot, limb, solid, faces, parts, r, stopped, dt, post)
    return hit, event


def _resistance(victim: Combatant, weapon: Weapon, options: Options) -> int:
    """WL-13: Hardness against physical, Energy Resistance against energy; radiation
    by the ``cover_vs_radiation`` option."""
    cover = sheet_as(victim, Sheet).cover
    assert cover is not None
    if weapon.damage_type == "energy":
        return cover.energy_resistance
    if weapon.damage_type == "radiation" and options.cover_vs_radiation == "none":
        return 0
    return cover.hardness


def apply_dr(amount: int, dr: int, options: Options) -> int:
    """WL-14, WL-G12: DR in percent, rounded down (option: to the nearest, halves up)."""
    if options.dr_rounding == "floor":
        return amount * (100 - dr) // 100
    return (amount * (100 - dr) * 2 + 100) // 200


def harm(
    victim: Combatant,
    weapon: Weapon,
    hits: Sequence[Hit],
    extras: Mapping[int, tuple[tuple[str, int], ...]],
    options: Options,
    *,
    effects: bool,
) -> list[Event]:
    """WL-14, WL-15, WL-19 to WL-23: ``victim``'s hits of one attack.

    ``extras``: per hit index, what is added after DT (CRIT dice, Sneak, Bonus Melee
    Damage after DT). Sum, DR once, HP, death saves, CT per hit, injuries, effects."""
    sheet = sheet_as(victim, Sheet)
    dr = sheet.dr.get(weapon.damage_type, 0)
    pre: list[int] = []
    for i, hit in enumerate(hits):
        added = sum(v for _, v in extras.get(i, ()))
        lost = hit.stopped and options.cover_stops_crit  # 2.4: the whole hit is stopped
        pre.append(hit.post + (0 if lost else added))
    total = sum(pre)
    final = apply_dr(total, dr, options)
    cause = " + ".join(map(str, pre)) + (f" = {total}" if len(pre) > 1 else "")
    if dr:
        cause += f", DR {dr}%"
    events: list[Event] = [Damaged(victim.id, final, cause)]
    events += _death(victim, final, options)
    events += _cripple(victim, hits, [apply_dr(p, dr, options) for p in pre], options)
    if effects and weapon.effects and (final > 0 or not options.effects_need_damage):
        events += _effects(victim, weapon.effects, options)
    return events


def _death(victim: Combatant, final: int, options: Options) -> list[Event]:
    """WL-19: at HP <= 0, a save ability not yet used this rest gives 1 HP; else Dying."""
    if victim.hp == 0 or victim.hp - final > 0:
        return []
    sheet = sheet_as(victim, Sheet)
    if options.death_saves == "auto":
        for ability in SAVES:
            held = has(sheet, ability) or (
                ability in _SAVE_MILESTONE and has(sheet, _SAVE_MILESTONE[ability])
            )
            if held and ability not in sheet.rest_uses:
                return [DeathDefied(victim.id, ability)]
    return [StatusSet(victim.id, DYING, {})]


def _cripple(
    victim: Combatant, hits: Sequence[Hit], amounts: Sequence[int], options: Options
) -> list[Event]:
    """WL-20 to WL-22: CT damage per hit (half, rounded down, when glancing), in shot
    order; CT 0 cripples with a minor or major injury; an injured limb escalates."""
    sheet = sheet_as(victim, Sheet)
    current: dict[str, tuple[int, Injury, int | None]] = {}
    events: list[Event] = []
    for hit, amount in zip(hits, amounts, strict=True):
        view = limb_view(sheet, hit.limb, options)
        ct: int
        injury: Injury
        dc: int | None
        ct, injury, dc = current.get(hit.limb, (view.ct, view.injury, view.injury_dc))
        damage = amount if hit.solid else amount // 2
        after = max(0, ct - damage)
        gained = False
        if damage > 0 and injury == "none" and after == 0:  # WL-21
            size = damage if options.injury_size == "per_hit" else view.ct_max - ct + damage
            injury = "major" if size > view.ct_max else "minor"
            dc = INJURY_DC_BASE + (size - view.ct_max) if injury == "major" else None
            gained = True
        elif damage > 0 and injury == "minor" and options.injury_escalation != "none":
            injury, gained = "major", True  # WL-22, WL-G6
            dc = INJURY_DC_BASE + max(0, damage - view.ct_max)
        current[hit.limb] = (after, injury, dc)
        events.append(
            LimbDamaged(victim.id, hit.limb, after, damage, hit.solid, injury, dc, gained)
        )
    return events


def _effects(victim: Combatant, effects: Mapping[str, int], options: Options) -> list[Event]:
    """WL-23, WL-G10: each effect as a status ``{x}``; a repeated one by ``effect_stacking``."""
    out: list[Event] = []
    for name, x in effects.items():
        old = victim.statuses.get(name, {}).get("x")
        if isinstance(old, int):
            if options.effect_stacking == "max":
                x = max(old, x)
            elif options.effect_stacking == "add":
                x = old + x
        out.append(EffectGained(victim.id, name, {"x": x}))
    return out


def blast(
    victim: Combatant, weapon: Weapon, damage: int, crit: int, options: Options
) -> list[Event]:
    """WL-27, WL-28, P-WL-3: ``final = DR(max(0, damage - attenuation - total DT) + CRIT)``
    to HP; each limb's CT takes floor(final / 6), no Glancing; injuries; effects."""
    sheet = sheet_as(victim, Sheet)
    total_dt = sum(limb_view(sheet, name, options).dt[weapon.damage_type] for name in LIMBS)
    attenuation = sheet.cover.attenuation if sheet.cover is not None else 0  # WL-G9
    pre = max(0, damage - attenuation - total_dt) + crit
    dr = sheet.dr.get(weapon.damage_type, 0)
    final = apply_dr(pre, dr, options)
    cause = f"blast {damage}" + (f" - attenuation {attenuation}" if attenuation else "")
    cause += f" - total DT {total_dt}" + (f" + CRIT {crit}" if crit else "")
    cause += f" = {pre}" + (f", DR {dr}%" if dr else "")
    events: list[Event] = [Damaged(victim.id, final, cause)]
    events += _death(victim, final, options)
    share, rest = divmod(final, len(LIMBS))  # WL-28, WL-A11
    hits: list[Hit] = []
    amounts: list[int] = []
    for name in LIMBS:
        extra = rest if name == "torso" and options.blast_ct_remainder == "torso" else 0
        if share + extra:
            hits.append(Hit(None, name, True, share + extra, False, False))
            amounts.append(share + extra)
    events += _cripple(victim, hits, amounts, options)
    if weapon.effects and (final > 0 or not options.effects_need_damage):
        events += _effects(victim, weapon.effects, options)
    return events
