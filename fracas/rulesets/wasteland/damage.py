"""Phase 3 of an attack (wasteland.md P-WL-1, P-WL-2): one hit's cover and DT, then a
creature's hits summed, DR once, HP, death saves, Cripple Thresholds, injuries, effects.

What the dice do not change is decided first: :func:`victim` reads a creature an attack
may hurt into a :class:`Victim` (its limbs' CT and DT against the weapon, its cover, DR,
death save). A hit is rolled by :func:`roll_hit` (location, damage dice); what a creature
takes from all its hits of one attack is :func:`harm`.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from functools import lru_cache
from typing import ClassVar

from fracas.dice.pools import Faces, Joint, Part, Pool, roll_joint, roll_pool, total
from fracas.dice.source import Dice
from fracas.model import Combatant, Damaged, Event, StatusSet
from fracas.model.frozen import FrozenDict, HashKept, canonical, kept_hash
from fracas.rulesets.base import sheet_as
from fracas.rulesets.wasteland.data import D20, INJURY_DC_BASE, LIMBS, Injury, LimbName
from fracas.rulesets.wasteland.events import DeathDefied, EffectGained, LimbDamaged, LimbHit
from fracas.rulesets.wasteland.sheet import Options, Sheet
from fracas.rulesets.wasteland.stats import (
    DYING,
    covered_limbs,
    evasion,
    has,
    limb_view,
    location,
)
from fracas.rulesets.wasteland.weapons import Weapon, dice_spec

__all__ = [
    "Hit",
    "LimbState",
    "Mitigation",
    "Victim",
    "apply_dr",
    "blast",
    "dr_of",
    "harm",
    "pre_dr",
    "roll_hit",
    "victim",
]

SAVES = ("deal_with_the_reaper", "too_stubborn_to_die")
"""WL-19: the abilities that drop to 1 HP instead, once per Long Rest, in this order."""
_SAVE_MILESTONE = {"too_stubborn_to_die": "survival_10"}


@dataclass(frozen=True, slots=True)
class LimbState:
    """2.2: a limb as an attack finds it: CT, its maximum, the injury, the DT against the
    attack's damage type."""

    ct: int
    ct_max: int
    injury: Injury
    injury_dc: int | None
    dt: int


@dataclass(frozen=True, slots=True)
class Victim(HashKept):
    """A creature an attack may hurt, as it stands before the dice (WL-13, WL-14, WL-19
    to WL-23, WL-24): decided once, read on every dice path (its hash kept: the memos
    of harm hash it there)."""

    __hash__ = kept_hash

    id: str
    hp: int
    evasion: int
    limbs: FrozenDict[str, LimbState]
    covered: frozenset[str]
    """2.4, WL-32: the limbs its cover covers."""
    resistance: int
    """WL-13: the cover's R against the weapon (0 without cover)."""
    attenuation: int
    """WL-G9: the cover's blast attenuation."""
    dr: int
    save: str | None
    """WL-19: the ability that would drop it to 1 HP instead (None: none left)."""
    effects: FrozenDict[str, int | str]
    """WL-23: the ``x`` of each of the weapon's effects it already has."""
    total_dt: int
    """WL-28: the DT of all its limbs against the weapon, summed (a blast's)."""


def victim(c: Combatant, weapon: Weapon, options: Options) -> Victim:
    """``c`` as ``weapon``'s attack finds it."""
    sheet = sheet_as(c, Sheet)
    kind = weapon.damage_type
    limbs: dict[str, LimbState] = {}
    for name in LIMBS:
        v = limb_view(sheet, name, options)
        limbs[name] = LimbState(v.ct, v.ct_max, v.injury, v.injury_dc, v.dt[kind])
    has_effect = {n: c.statuses[n].get("x") for n in weapon.effects if n in c.statuses}
    return canonical(
        Victim(
            c.id,
            c.hp,
            evasion(c),
            FrozenDict(limbs),
            covered_limbs(c, options),
            _resistance(sheet, weapon, options),
            sheet.cover.attenuation if sheet.cover is not None else 0,
            sheet.dr.get(kind, 0),
            _save(sheet, options),
            FrozenDict({n: x for n, x in has_effect.items() if x is not None}),
            sum(limb.dt for limb in limbs.values()),
        )
    )  # equal victims one object: harm's memos find them by identity


def _save(sheet: Sheet, options: Options) -> str | None:
    """WL-19: the first save ability held and not yet used this rest (option ``off``:
    none)."""
    if options.death_saves != "auto":
        return None
    for ability in SAVES:
        held = has(sheet, ability) or (
            ability in _SAVE_MILESTONE and has(sheet, _SAVE_MILESTONE[ability])
        )
        if held and ability not in sheet.rest_uses:
            return ability
    return None


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


D20_POOL = Pool((D20,))


@dataclass(frozen=True, slots=True)
class Where:
    """What the limb a location d20 hits (WL-11, WL-G1) changes of the odds: its DT and
    whether cover shields it (WL-13, WL-14); the class of its face. Which of the limbs
    alike it is changes only their CT and injuries (WL-20 to WL-22, ``LimbDamaged``:
    ``keeps_down``), never HP nor who is dying, and nothing later in the attack reads
    them (harm reads the limbs as the attack found them, :class:`Victim`)."""

    options: Options
    kinds: FrozenDict[str, tuple[int, bool]]
    """Per limb: its DT against the weapon, and whether the cover shields it."""

    def __call__(self, faces: Faces) -> tuple[int, bool]:
        return self.kinds[location(faces[0][0], self.options)]


@lru_cache(maxsize=1024)
def _where(victim: Victim, flanking: bool, options: Options) -> Where:
    covered = frozenset() if flanking else victim.covered
    kinds = {name: (limb.dt, name in covered) for name, limb in victim.limbs.items()}
    return Where(options, FrozenDict(kinds))


@dataclass(frozen=True, slots=True)
class Mitigation:
    """What cover and DT leave of a hit's damage dice (WL-13, WL-14): a pure function of
    the dice total, so it may class a damage draw."""

    flat: int
    """The damage dice's flat part (the amount never falls below 0)."""
    before: int
    """Flat bonuses added before DT (Sneak, Bonus Melee Damage by option)."""
    resistance: int | None
    """The cover's R when it covers the limb (not flanked); None: uncovered."""
    subtract: bool
    """``cover_rule: subtract``: a hit the cover does not stop goes on with R less."""
    dt: int

    def __call__(self, dice: int) -> tuple[int, bool, bool]:
        """(damage after cover and DT, stopped by the cover, fully mitigated by DT)."""
        damage = max(0, max(0, dice + self.flat) + self.before)
        r = self.resistance
        stopped = False
        if r is not None:
            stopped = damage <= r  # WL-13, WL-G3: D <= R is absorbed
            if not stopped and self.subtract:
                damage -= r
        post = 0 if stopped else max(0, damage - self.dt)  # WL-14: DT >= damage mitigates
        return post, stopped, not stopped and damage <= self.dt


@dataclass(frozen=True, slots=True)
class Mitigated:
    """The class of a hit's damage draw: what cover and DT leave of it."""

    mitigation: Mitigation

    def __call__(self, faces: Faces) -> tuple[int, bool, bool]:
        return self.mitigation(total(faces))


@dataclass(frozen=True, slots=True)
class CritGate:
    """WL-9, 2.4, WL-A4: whether a single shot's CRIT dice are rolled after its damage:
    not when the cover stopped the hit (``cover_stops_crit``), nor when DT mitigated it
    fully (unless ``crit_after_full_dt``)."""

    mitigation: Mitigation
    cover_stops_crit: bool
    after_full_dt: bool
    reads_totals: ClassVar[bool] = True
    """It reads the damage dice's total only (``fracas.dice.pools.reads_totals``)."""

    def __call__(self, faces: tuple[Faces, ...]) -> bool:
        _, stopped, mitigated = self.mitigation(total(faces[0]))
        return not (stopped and self.cover_stops_crit) and (self.after_full_dt or not mitigated)


@dataclass(frozen=True, slots=True)
class CritHit:
    """The class of a single shot's damage and CRIT dice drawn together: all that harm
    reads of them is whether the cover stopped the hit and the damage after DT plus the
    CRIT total (the CRIT is added after DT, WL-9)."""

    mitigation: Mitigation
    reads_totals: ClassVar[bool] = True
    """It reads the damage dice's total, whether the CRIT dice were rolled and their
    total (``fracas.dice.pools.reads_totals``)."""

    def __call__(self, faces: tuple[Faces, ...]) -> tuple[bool, bool, int]:
        post, stopped, _ = self.mitigation(total(faces[0]))
        return stopped, bool(faces[1]), post + total(faces[1])


def roll_hit(
    victim: Victim,
    weapon: Weapon,
    dice: Dice,
    shot: int | None,
    called: LimbName | None,
    solid: bool,
    before_dt: tuple[tuple[str, int], ...],
    flanking: bool,
    options: Options,
    *,
    crit: str | None = None,
    one: bool = False,
) -> tuple[Hit, LimbHit, tuple[int, ...] | None]:
    """WL-11 to WL-14: the limb (the called one, else ``location``), the damage dice,
    cover (2.4) and the limb's DT. ``before_dt``: flat bonuses added to the dice.

    ``crit``: the CRIT dice are rolled right after the damage dice, drawn together
    with them: ``gate`` where this hit's own damage lets them (:class:`CritGate`),
    ``always``; their faces are returned (None: not rolled). ``one``: a burst's single
    CRIT die (WL-15, WL-A2)."""
    if called is not None:
        limb = called
    else:  # one branch per limb for the exact odds (WL-11)
        where = _where(victim, flanking, options)
        ((face,),) = roll_pool(dice, D20_POOL, "location", n=shot, key=where)
        limb = location(face, options)
    spec = dice_spec(weapon.damage)
    covered = not flanking and limb in victim.covered
    mitigation = Mitigation(
        spec.flat,
        sum(v for _, v in before_dt),
        victim.resistance if covered else None,
        options.cover_rule == "subtract",
        victim.limbs[limb].dt,
    )
    crit_faces: tuple[int, ...] | None = None
    if crit is not None:
        sides = dice_spec(weapon.crit_dice).sides
        joint, hit_key = _crit_draw(
            mitigation, spec.sides, sides[:1] if one else sides, shot, crit == "gate",
            options.cover_stops_crit, options.crit_after_full_dt,
        )  # fmt: skip
        drawn, crit_drawn = roll_joint(dice, joint, key=hit_key)
        faces = tuple(f for (f,) in drawn)
        if crit_drawn:
            crit_faces = tuple(f for chain in crit_drawn for f in chain)
    else:  # one branch per distinct (damage after DT, stopped, mitigated)
        pool, key = _damage_draw(mitigation, spec.sides)
        drawn = roll_pool(dice, pool, "damage", n=shot, key=key)
        faces = tuple(f for (f,) in drawn)
    post, stopped, mitigated = mitigation(sum(faces))
    parts = ((("flat", spec.flat),) if spec.flat else ()) + before_dt
    r = victim.resistance if covered else None
    hit = Hit(shot, limb, solid, post, stopped, mitigated)
    event = LimbHit(victim.id, shot, limb, solid, faces, parts, r, stopped, victim.limbs[limb].dt,
                    post)  # fmt: skip
    return hit, event, crit_faces


@lru_cache(maxsize=4096)
def _crit_draw(
    mitigation: Mitigation,
    damage: tuple[int, ...],
    crit: tuple[int, ...],
    shot: int | None,
    gated: bool,
    cover_stops_crit: bool,
    after_full_dt: bool,
) -> tuple[Joint, CritHit]:
    """A hit's damage dice and CRIT dice as one draw (:func:`roll_hit`), and the class
    of its faces: made once per (mitigation, dice, shot, gate), as exact odds meet the
    same on many dice paths."""
    gate = CritGate(mitigation, cover_stops_crit, after_full_dt) if gated else None
    joint = Joint((
        Part(Pool(damage), "damage", n=shot),
        Part(Pool(crit, "repeat"), "crit", when=gate),
    ))  # fmt: skip
    return joint, CritHit(mitigation)


@lru_cache(maxsize=4096)
def _damage_draw(mitigation: Mitigation, damage: tuple[int, ...]) -> tuple[Pool, Mitigated]:
    """A hit's damage dice and the class of their faces (:func:`roll_hit`), made once
    per (mitigation, dice)."""
    return Pool(damage), Mitigated(mitigation)


def _resistance(sheet: Sheet, weapon: Weapon, options: Options) -> int:
    """WL-13: Hardness against physical, Energy Resistance against energy; radiation
    by the ``cover_vs_radiation`` option (0 without cover)."""
    cover = sheet.cover
    if cover is None:
        return 0
    if weapon.damage_type == "energy":
        return cover.energy_resistance
    if weapon.damage_type == "radiation" and options.cover_vs_radiation == "none":
        return 0
    return cover.hardness


def apply_dr(amount: int, dr: int, options: Options) -> int:
    """WL-14, WL-G12: DR in percent, rounded down (option: to the nearest, halves up)."""
    return dr_of(amount, dr, options.dr_rounding)


def dr_of(amount: int, dr: int, rounding: str) -> int:
    """:func:`apply_dr` by the ``dr_rounding`` option's value."""
    if rounding == "floor":
        return amount * (100 - dr) // 100
    return (amount * (100 - dr) * 2 + 100) // 200


def harm(
    victim: Victim,
    weapon: Weapon,
    hits: Sequence[Hit],
    extras: Mapping[int, tuple[tuple[str, int], ...]],
    options: Options,
    *,
    effects: bool,
) -> list[Event]:
    """WL-14, WL-15, WL-19 to WL-23: ``victim``'s hits of one attack.

    ``extras``: per hit index, what is added after DT (CRIT dice, Sneak, Bonus Melee
    Damage after DT). Sum, DR once, HP, death saves, CT per hit, injuries, effects.
    A pure function of values: exact odds meet the same hits on many dice paths, so
    it is kept per arguments."""
    key = tuple(sorted(extras.items()))
    return list(_harm(victim, weapon, tuple(hits), key, options, effects))


@lru_cache(maxsize=4096)
def _harm(
    victim: Victim,
    weapon: Weapon,
    hits: tuple[Hit, ...],
    extra: tuple[tuple[int, tuple[tuple[str, int], ...]], ...],
    options: Options,
    effects: bool,
) -> tuple[Event, ...]:
    dr = victim.dr
    pre = pre_dr(hits, dict(extra), options)
    total = sum(pre)
    final = apply_dr(total, dr, options)
    cause = " + ".join(map(str, pre)) + (f" = {total}" if len(pre) > 1 else "")
    if dr:
        cause += f", DR {dr}%"
    events: list[Event] = [Damaged(victim.id, final, cause)]
    events += _death(victim, final)
    events += _cripple(victim, hits, [apply_dr(p, dr, options) for p in pre], options)
    if effects and weapon.effects and (final > 0 or not options.effects_need_damage):
        events += _effects(victim, weapon.effects, options)
    return tuple(events)


def pre_dr(
    hits: Sequence[Hit], extras: Mapping[int, tuple[tuple[str, int], ...]], options: Options
) -> list[int]:
    """WL-14, WL-15: each hit's damage after DT with what is added after DT (``extras``,
    per hit index: CRIT dice, Sneak, Bonus Melee Damage), 0 for a hit the cover stopped
    whole (2.4, ``cover_stops_crit``): what the creature's DR is taken of, once, summed."""
    pre: list[int] = []
    for i, hit in enumerate(hits):
        added = sum(v for _, v in extras.get(i, ()))
        lost = hit.stopped and options.cover_stops_crit  # 2.4: the whole hit is stopped
        pre.append(hit.post + (0 if lost else added))
    return pre


def _death(victim: Victim, final: int) -> list[Event]:
    """WL-19: at HP <= 0, a save ability not yet used this rest gives 1 HP; else Dying."""
    if victim.hp == 0 or victim.hp - final > 0:
        return []
    if victim.save is not None:
        return [DeathDefied(victim.id, victim.save)]
    return [StatusSet(victim.id, DYING, {})]


def _cripple(
    victim: Victim, hits: Sequence[Hit], amounts: Sequence[int], options: Options
) -> list[Event]:
    """WL-20 to WL-22: CT damage per hit (half, rounded down, when glancing), in shot
    order; CT 0 cripples with a minor or major injury; an injured limb escalates."""
    current: dict[str, tuple[int, Injury, int | None]] = {}
    events: list[Event] = []
    for hit, amount in zip(hits, amounts, strict=True):
        view = victim.limbs[hit.limb]
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


def _effects(victim: Victim, effects: Mapping[str, int], options: Options) -> list[Event]:
    """WL-23, WL-G10: each effect as a status ``{x}``; a repeated one by ``effect_stacking``."""
    out: list[Event] = []
    for name, x in effects.items():
        old = victim.effects.get(name)
        if isinstance(old, int):
            if options.effect_stacking == "max":
                x = max(old, x)
            elif options.effect_stacking == "add":
                x = old + x
        out.append(EffectGained(victim.id, name, {"x": x}))
    return out


def blast(victim: Victim, weapon: Weapon, damage: int, crit: int, options: Options) -> list[Event]:
    """WL-27, WL-28, P-WL-3: ``final = DR(max(0, damage - attenuation - total DT) + CRIT)``
    to HP; each limb's CT takes floor(final / 6), no Glancing; injuries; effects."""
    total_dt, attenuation, dr = victim.total_dt, victim.attenuation, victim.dr  # WL-G9
    pre = max(0, damage - attenuation - total_dt) + crit
    final = dr_of(pre, dr, options.dr_rounding)
    cause = (
        f"blast {damage}{f' - attenuation {attenuation}' if attenuation else ''}"
        f" - total DT {total_dt}{f' + CRIT {crit}' if crit else ''}"
        f" = {pre}{f', DR {dr}%' if dr else ''}"
    )
    return [Damaged(victim.id, final, cause), *_blasted(victim, weapon, final, options)]


@lru_cache(maxsize=4096)
def _blasted(victim: Victim, weapon: Weapon, final: int, options: Options) -> tuple[Event, ...]:
    """What a blast's ``final`` damage does after HP (a pure function of values, met on
    many dice paths of the exact odds): death saves, each limb's share of the CT damage,
    injuries, effects."""
    events = _death(victim, final)
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
    return tuple(events)
