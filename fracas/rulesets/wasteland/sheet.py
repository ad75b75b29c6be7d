"""wasteland's sheet fields (wasteland.md 2.1, 2.2, 2.4) and options (2.7).

The sheet keeps what a file gives: a limb's ``ct_max`` and ``ct`` may be left out (the
``ct_max`` option; full) and its ``dt`` names only the types that differ from the
sheet's ``dt``. The effective values are read through ``stats``.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Annotated, Literal

from pydantic import AfterValidator, ConfigDict, Field, model_validator
from pydantic_core import PydanticCustomError

from fracas.model.frozen import HashKept, kept_hash
from fracas.rulesets.names import check_listed, one_of, unique_names
from fracas.rulesets.wasteland.data import (
    D20,
    DEFAULT_BURST_PENALTY,
    DEFAULT_BURST_SHOTS,
    DEFAULT_CALLED_PENALTY,
    DEFAULT_CRIT_MIN,
    DEFAULT_CRITFAIL_MAX,
    DEFAULT_CT_MAX,
    DEFAULT_HIT_LOCATION,
    DEFAULT_MAX_HP,
    DEFAULT_RANGE_TILES,
    KIND_SKILL,
    LIMBS,
    MILESTONES,
    PERKS,
    Band,
    DamageType,
    Injury,
    LimbGroup,
    LimbName,
)
from fracas.rulesets.wasteland.weapons import WeaponField

__all__ = ["Cover", "Limb", "Options", "Sheet"]

NonNegative = Annotated[int, Field(ge=0)]
Positive = Annotated[int, Field(ge=1)]
Percent = Annotated[int, Field(ge=0, le=100)]
SaveAbility = Literal["deal_with_the_reaper", "too_stubborn_to_die"]


def _check_perk(name: str) -> str:
    return one_of(name, PERKS, "unknown_perk", "perk")


Perk = Annotated[str, AfterValidator(_check_perk)]

SKILLS: tuple[str, ...] = tuple(
    dict.fromkeys(
        (*KIND_SKILL.values(), "sneak", "survival", *(skill for skill, _ in MILESTONES.values()))
    )
)
"""2.1: the skills the rules read: the weapons' by kind (WL-6), Sneak (WL-17), Survival
(WL-21) and those of the milestones (2.1); a weapon's `skill` names one more."""


_unique_weapons = unique_names(
    "two weapons are named {name}: actions name weapons, give each its own name"
)


@dataclass(frozen=True, slots=True)
class Limb:
    """2.2: one limb. Fields left out: ``ct_max`` the option, ``ct`` full, ``dt`` the
    sheet's, type by type."""

    __pydantic_config__ = ConfigDict(extra="forbid", use_attribute_docstrings=True)

    ct_max: Positive | None = None
    """Cripple Threshold maximum; default: the `ct_max` option (WL-G5)."""
    ct: NonNegative | None = None
    """Current Cripple Threshold; default: ct_max (WL-20)."""
    dt: Mapping[DamageType, NonNegative] = field(default_factory=dict)
    """This limb's DT by damage type; types not named keep the sheet's `dt` (WL-14)."""
    injury: Injury = "none"
    """none, minor or major (WL-21)."""
    injury_dc: Positive | None = None
    """DC of the END + Survival test that makes a major injury minor; set when the
    injury is gained (WL-21); a major injury given without one takes 10."""


@dataclass(frozen=True, slots=True)
class Cover:
    """2.4: the cover a combatant is behind."""

    __pydantic_config__ = ConfigDict(extra="forbid", use_attribute_docstrings=True)

    type: Literal["half", "full"]
    """Half cover covers the legs, full cover every limb (WL-G16)."""
    hardness: NonNegative = 0
    """R against physical damage (WL-13)."""
    energy_resistance: NonNegative = 0
    """R against energy damage (WL-13)."""
    attenuation: NonNegative = 0
    """Subtracted from explosive damage (WL-G9)."""
    limbs: tuple[LimbName, ...] | None = None
    """The covered limbs; default: by type (option `half_cover_limbs`; full: all six)."""


@dataclass(frozen=True, slots=True)
class Sheet:
    """2.1: a wasteland character sheet, beyond the shared id/name/side/at/hp/max_hp."""

    __pydantic_config__ = ConfigDict(extra="forbid", use_attribute_docstrings=True)

    level: Positive = 1
    """Character level: +1 Evasion every 4 levels (WL-8)."""
    str_mod: int = 0
    """STR modifier: melee and unarmed rolls (WL-6)."""
    per_mod: int = 0
    """PER modifier: Sequence, explosive throws (WL-1, WL-6)."""
    end_mod: int = 0
    """END modifier: the injury test (WL-21)."""
    cha_mod: int = 0
    """CHA modifier: Sequence (WL-1)."""
    int_mod: int = 0
    """INT modifier."""
    agi_mod: int = 0
    """AGI modifier: Evasion, max AP, Sequence, ranged rolls (WL-1, WL-2, WL-6, WL-8)."""
    lck_mod: int = 0
    """LCK modifier."""
    skills: Mapping[str, int] = field(default_factory=dict)
    """Skill name -> level: guns, melee, unarmed, explosives, sneak, survival, pilot, …;
    missing = 0 (WL-6, WL-17, WL-21)."""
    npc: bool = False
    """Sequence ties: players first (WL-1)."""
    sequence_mod: int = 0
    """Other Sequence modifiers; Cautious Nature adds its 5 by itself (WL-1)."""
    evasion_mod: int = 0
    """Standing Evasion modifiers (WL-8)."""
    ap: NonNegative | None = None
    """Current AP; default: max AP (WL-2, WL-3)."""
    map: NonNegative | None = None
    """Current MAP; default: max_map (WL-2, WL-3)."""
    max_map: NonNegative = 0
    """Movement AP each turn (WL-2)."""
    crit_min: Annotated[int, Field(ge=1, le=D20 + 1)] = DEFAULT_CRIT_MIN
    """A natural >= this is a CRIT; 21: never (WL-9, WL-G4)."""
    critfail_max: Annotated[int, Field(ge=0, le=D20)] = DEFAULT_CRITFAIL_MAX
    """A natural <= this is a CRITFAIL; 0: never (WL-10, WL-G4)."""
    perks: tuple[Perk, ...] = ()
    """Perks, traits and milestones: dodger, cautious_nature, trigger_discipline,
    deal_with_the_reaper, too_stubborn_to_die, zone_of_threat, hit_the_deck, snap_shot,
    melee_3, melee_7, melee_10, pilot_7, survival_10."""
    melee_damage: int = 0
    """Bonus Melee Damage, added to melee and unarmed damage (WL-18, WL-G10)."""
    dt: Mapping[DamageType, NonNegative] = field(default_factory=dict)
    """DT of every limb that gives none, by damage type; missing = 0 (WL-14)."""
    dr: Mapping[DamageType, Percent] = field(default_factory=dict)
    """DR in percent by damage type, applied last (WL-14)."""
    limbs: Mapping[LimbName, Limb] = field(default_factory=dict)
    """Limb -> {ct_max, ct, dt, injury}; limbs not given take every default (2.2)."""
    cover: Cover | None = None
    """{type: half|full, hardness, energy_resistance, attenuation, limbs} (2.4)."""
    hidden: Literal["none", "hidden", "undetected"] = "none"
    """Hidden or Undetected: may Sneak Attack (WL-17)."""
    unaware: bool = False
    """Unaware of its attackers: open to Sneak Attacks (WL-17)."""
    surprised: bool = False
    """Surprised: no actions until its round ends (WL-33)."""
    weapons: Annotated[tuple[WeaponField, ...], AfterValidator(_unique_weapons)] = ()
    """Equipped weapons; the first is the default; unarmed is always available (2.3)."""
    rest_uses: tuple[SaveAbility, ...] = ()
    """Once-per-Long-Rest abilities already used (WL-19)."""
    ap_debt: NonNegative = 0
    """AP owed by an overflowed action, taken from the next turn's AP (WL-34)."""

    @model_validator(mode="after")
    def _check_skills(self) -> Sheet:
        """2.1: every skill named is one the rules read or a weapon of the sheet names:
        a misspelt skill would count as 0 without a word."""
        valid = tuple(dict.fromkeys((*SKILLS, *(w.skill_name for w in self.weapons))))
        named = ((name, name) for name in self.skills)
        more = " (or a skill a weapon names)"
        check_listed("Sheet", "skills", named, valid, "unknown_skill", "skill", more)
        return self


def _check_locations(
    table: Mapping[LimbName, tuple[int, int]],
) -> Mapping[LimbName, tuple[int, int]]:
    faces: dict[int, str] = {}
    for limb in LIMBS:
        if limb not in table:
            raise PydanticCustomError(
                "bad_hit_location", "the table gives no faces to {limb}", {"limb": limb}
            )
        low, high = table[limb]
        for face in range(low, high + 1):
            if not 1 <= face <= D20 or face in faces:
                raise PydanticCustomError(
                    "bad_hit_location",
                    "face {face} of {limb}: give each face of the d20 (1..20) to one limb",
                    {"face": face, "limb": limb},
                )
            faces[face] = limb
    if len(faces) != D20:
        missing = [f for f in range(1, D20 + 1) if f not in faces]
        raise PydanticCustomError(
            "bad_hit_location",
            "faces {missing} hit no limb: give each face of the d20 to one limb",
            {"missing": missing},
        )
    return table


def _complete(keys: tuple[str, ...]) -> AfterValidator:
    def check(table: Mapping[str, int]) -> Mapping[str, int]:
        missing = [k for k in keys if k not in table]
        if missing:
            raise PydanticCustomError(
                "missing_field", "give every key: {missing} missing", {"missing": missing}
            )
        return table

    return AfterValidator(check)


@dataclass(frozen=True, slots=True)
class Options(HashKept):
    """2.7: every PROPOSED default as an option."""

    __pydantic_config__ = ConfigDict(extra="forbid", use_attribute_docstrings=True)
    __hash__ = kept_hash  # the rules' memos (``harm``) hash it on every dice path

    hit_location: Annotated[
        Mapping[LimbName, tuple[Positive, Positive]], AfterValidator(_check_locations)
    ] = field(default_factory=lambda: dict(DEFAULT_HIT_LOCATION))
    """Limb -> [first, last] face of the location d20 (WL-11, WL-G1)."""
    called_shot_penalty: Annotated[
        Mapping[LimbGroup, NonNegative], _complete(("head", "torso", "arms", "legs"))
    ] = field(default_factory=lambda: {**DEFAULT_CALLED_PENALTY})
    """Accuracy penalty of a called shot, by head, torso, arms, legs (WL-G2)."""
    burst_shots: Annotated[int, Field(ge=2)] = DEFAULT_BURST_SHOTS
    """Shots of a weapon with `burst: true` (WL-G2)."""
    burst_penalty: NonNegative = DEFAULT_BURST_PENALTY
    """Burst Fire Penalty of a weapon that gives none (WL-G2)."""
    range_tiles: Annotated[
        Mapping[Band, Positive], _complete(("close", "medium", "long", "extreme"))
    ] = field(default_factory=lambda: {**DEFAULT_RANGE_TILES})
    """Tiles each range band reaches (WL-35, WL-G16)."""
    max_hp: Positive = DEFAULT_MAX_HP
    """max HP of a combatant whose file gives none (WL-G5)."""
    ct_max: Positive = DEFAULT_CT_MAX
    """Cripple Threshold of a limb that gives none (WL-G5)."""
    sequence_ties: Literal["players_first", "file_order"] = "players_first"
    """Equal Sequence: players before NPCs, then file order; or file order (WL-1)."""
    ap_rounding: Literal["floor", "trunc"] = "floor"
    """AGI MOD / 2 in max AP rounds down (AGI -1: 7 AP) or toward 0 (8 AP) (WL-A1)."""
    crit_overlap: Literal["critfail", "crit"] = "critfail"
    """A natural in both ranges is a CRITFAIL, or a CRIT (WL-G4)."""
    cover_rule: Literal["subtract", "all_or_nothing"] = "subtract"
    """Damage above the cover's R goes on as D - R, or whole (WL-13, WL-G3)."""
    cover_stops_crit: bool = True
    """A hit the cover stops loses its CRIT dice and Sneak bonus too (WL-13)."""
    half_cover_limbs: tuple[LimbName, ...] = ("left_leg", "right_leg")
    """Limbs half cover covers (WL-G16)."""
    cover_vs_radiation: Literal["none", "hardness"] = "none"
    """R against radiation: none (0), or the hardness (WL-13)."""
    dr_rounding: Literal["floor", "nearest"] = "floor"
    """DR's percentage rounds down, or to the nearest (halves up) (WL-14, WL-G12)."""
    crit_after_full_dt: bool = True
    """A hit whose dice DT fully stops still adds its CRIT dice (WL-14, WL-A4)."""
    burst_glancing: Literal["per_shot", "first_shot"] = "per_shot"
    """Each burst hit glances by its own total, or every hit by shot 1's (WL-12)."""
    burst_crit_glancing: Literal["shot1", "solid"] = "shot1"
    """After a first-shot CRIT, shots 2..n glance by shot 1's total, or are solid (WL-15)."""
    critfail_aborts_burst: bool = False
    """A first-shot CRITFAIL ends the whole burst (WL-16, WL-A5)."""
    critfail_strays: bool = False
    """A CRITFAIL shot may still stray (WL-24)."""
    sneak_bypasses_dt: bool = True
    """The Sneak bonus is added after DT (true) or to the dice before DT (WL-17, WL-A3)."""
    sneak_reveals: bool = True
    """A Sneak Attack ends the attacker's hiding and the target's unawareness (WL-17)."""
    melee_bonus_before_dt: bool = True
    """Bonus Melee Damage is added before DT (true) or after (WL-18)."""
    injury_size: Literal["per_hit", "cumulative"] = "per_hit"
    """Major or minor by the crippling hit's CT damage, or by all the limb has taken
    (WL-21, WL-A6)."""
    injury_escalation: Literal["minor_to_major", "none"] = "minor_to_major"
    """An injured limb taking CT damage turns minor into major (WL-22, WL-G6)."""
    test_compare: Literal["meet", "exceed"] = "meet"
    """The injury test meets (>=) or exceeds (>) its DC (WL-21)."""
    effects_need_damage: bool = True
    """Weapon effects need final damage > 0; false: any hit (WL-23, WL-A7)."""
    effect_stacking: Literal["max", "add", "replace"] = "max"
    """A repeated effect keeps the larger X, adds, or takes the new X (WL-G10)."""
    stray_effects: bool = True
    """Stray-shot victims get the weapon's effects too (WL-23, WL-24)."""
    trigger_discipline_continues: bool = True
    """Trigger Discipline: a skipped ally lets the shot go on (false: the shot is lost)
    (WL-24)."""
    throw_compare: Literal["exceed", "meet"] = "exceed"
    """A throw succeeds when its total exceeds (>) or meets (>=) the difficulty (WL-27)."""
    explosive_roll_once: bool = True
    """An explosion's damage is rolled once for every creature (WL-27)."""
    explosive_crits: bool = True
    """A CRIT throw adds the CRIT dice (WL-27)."""
    blast_ct_remainder: Literal["ignore", "torso"] = "ignore"
    """The remainder of final / 6 is lost, or goes to the torso (WL-28, WL-A11)."""
    surprised_skips: bool = True
    """Surprised combatants take no actions until their round ends (WL-33, WL-G16)."""
    death_saves: Literal["auto", "off"] = "auto"
    """Deal With the Reaper and Too Stubborn to Die apply by themselves, or never (WL-19)."""
