"""wasteland weapons (wasteland.md 2.3) and how their dice are rolled.

A weapon in a file is a mapping, or the short-hand ``unarmed`` (also ``{is: unarmed,
name: fists}``). Damage dice are ``NdS`` or ``NdS+K`` (``2d6+1``); CRIT dice are plain
``NdS`` terms that always explode (WL-9), so they are written without ``!``.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping
from dataclasses import dataclass, field
from functools import cache
from typing import Annotated, Any, Literal

from pydantic import AfterValidator, BeforeValidator, ConfigDict, Field, StrictBool, StrictInt
from pydantic_core import PydanticCustomError

from fracas.dice.notation import Constant, DiceTerm, parse
from fracas.dice.pools import Pool, roll_pool, total
from fracas.dice.source import Dice
from fracas.errors import FracasError
from fracas.model.frozen import HashKept, kept_hash
from fracas.model.validation import build
from fracas.rulesets.shorthands import expand_shorthand
from fracas.rulesets.wasteland.data import (
    DEFAULT_BLAST_RADIUS,
    DEFAULT_CONDITION,
    DEFAULT_CRIT_DICE,
    DEFAULT_THROW_DIFFICULTY,
    DEFAULT_WEAPON_AP,
    KIND_RANGE,
    KIND_SKILL,
    KIND_SPECIAL,
    UNARMED,
    UNARMED_WEAPON,
    Band,
    DamageType,
)

__all__ = [
    "SHORTHANDS",
    "DiceSpec",
    "Kind",
    "Weapon",
    "WeaponField",
    "dice_spec",
    "roll_crit",
    "roll_damage",
    "unarmed_weapon",
]

Kind = Literal["ranged", "melee", "unarmed", "explosive"]
Special = Literal["str", "per", "end", "cha", "int", "agi", "lck"]
NonNegative = Annotated[int, Field(ge=0)]


@dataclass(frozen=True, slots=True)
class DiceSpec:
    """A weapon's dice, one size per die in the order rolled, and a flat part."""

    sides: tuple[int, ...]
    flat: int = 0


def _check_dice(value: Any, *, crit: bool) -> Any:
    if not isinstance(value, str):
        return value  # pydantic reports the type
    try:
        expr = parse(value)
    except FracasError as exc:
        raise PydanticCustomError("bad_dice", "{why}", {"why": exc.message}) from None
    for sign, term in expr.terms:
        if isinstance(term, Constant):
            if crit:
                raise PydanticCustomError(
                    "bad_dice",
                    "{given}: CRIT dice are dice only (e.g. '1d6'), no flat part",
                    {"given": repr(value)},
                )
            continue
        if sign < 0 or term.explode or term.keep or term.sides < 2:
            raise PydanticCustomError(
                "bad_dice",
                "{given}: give dice as NdS or NdS+K (e.g. '2d6+1'), dice of 2 sides or more; "
                "no '!' (CRIT dice always explode, WL-9) and no keeps",
                {"given": repr(value)},
            )
    return str(expr)


def _damage_dice(value: Any) -> Any:
    return _check_dice(value, crit=False)


def _crit_dice(value: Any) -> Any:
    return _check_dice(value, crit=True)


DamageDice = Annotated[str, AfterValidator(_damage_dice)]
CritDice = Annotated[str, AfterValidator(_crit_dice)]


@cache
def dice_spec(text: str) -> DiceSpec:
    """The dice of a validated expression: ``2d6+1`` -> sides (6, 6), flat 1."""
    sides: list[int] = []
    flat = 0
    for sign, term in parse(text).terms:
        if isinstance(term, DiceTerm):
            sides += [term.sides] * term.count
        else:
            flat += sign * term.value
    return DiceSpec(tuple(sides), flat)


def roll_damage(
    text: str, dice: Dice, n: int | None = None, of: str | None = None
) -> tuple[int, tuple[int, ...]]:
    """WL-14 step 1: the damage dice under ``damage`` (``damage:N`` for burst shot N,
    ``damage:id`` for an explosion rolled per creature).

    Returns the total (flat part included, never below 0) and the faces."""
    spec = dice_spec(text)
    drawn = roll_pool(dice, Pool(spec.sides), "damage", of=of, n=n, key=total)
    faces = tuple(f for (f,) in drawn)  # one draw: the exact odds branch on the total
    return max(0, sum(faces) + spec.flat), faces


def roll_crit(text: str, dice: Dice, *, one: bool = False) -> tuple[int, tuple[int, ...]]:
    """WL-9: CRIT dice under ``crit``; each die explodes, its extra die rolled right
    after it. ``one``: a burst adds exactly one die of that type (WL-15, WL-A2)."""
    spec = dice_spec(text)
    sizes = spec.sides[:1] if one else spec.sides
    # One draw: the exact odds branch on the total, not on every explosion.
    chains = roll_pool(dice, Pool(sizes, "repeat"), "crit", key=total)
    faces = tuple(f for chain in chains for f in chain)
    return sum(faces), faces


def _burst(value: Any) -> Any:
    return None if value is False else value


@dataclass(frozen=True, slots=True)
class Weapon(HashKept):
    """A weapon (wasteland.md 2.3). Fields left out take the defaults of the table."""

    __pydantic_config__ = ConfigDict(extra="forbid", use_attribute_docstrings=True)
    __hash__ = kept_hash  # the memos of harm hash it on every dice path

    name: str
    """What actions name as `weapon`; unique on the sheet."""
    damage: DamageDice
    """Damage dice, `NdS` or `NdS+K` (WL-14)."""
    kind: Kind = "ranged"
    """ranged, melee, unarmed or explosive."""
    hands: Literal[1, 2] = 1
    """2: a melee weapon also reaches diagonally (WL-26)."""
    skill: str | None = None
    """Skill added to the roll; default: guns, melee, unarmed, explosives by kind (WL-6)."""
    special: Special | None = None
    """SPECIAL modifier added to the roll; default: agi (ranged), str (melee, unarmed),
    per (explosive) (WL-6)."""
    damage_type: DamageType = "physical"
    """physical, energy or radiation: picks the DT, DR and cover resistance (WL-13, WL-14)."""
    crit_dice: CritDice = DEFAULT_CRIT_DICE
    """CRIT dice, exploding, bypassing DT (WL-9)."""
    accuracy: int = 0
    """Added to the roll (WL-6)."""
    ap: NonNegative = DEFAULT_WEAPON_AP
    """Single-fire AP cost (WL-5)."""
    range: Band | None = None
    """Maximum range band (option `range_tiles`); default medium; melee and unarmed reach
    1 tile (WL-26, WL-35)."""
    condition: NonNegative = DEFAULT_CONDITION
    """Loses 1 on a CRITFAIL (WL-10)."""
    effects: Mapping[str, Annotated[int, Field(ge=1)]] = field(default_factory=dict)
    """Effect name -> X (bleed, embed, burn, shock, …), once per attack (WL-23)."""
    burst: Annotated[
        Annotated[StrictInt, Field(ge=2)] | StrictBool | None, BeforeValidator(_burst)
    ] = None
    """Shots of a burst; true: the `burst_shots` option; null: no burst (WL-15)."""
    burst_penalty: NonNegative | None = None
    """Burst Fire Penalty on every shot; default: the `burst_penalty` option (WL-G2)."""
    overflowable: bool = False
    """An AP shortfall is paid from the next turn's AP (WL-34, WL-G14)."""
    throw_difficulty: int = DEFAULT_THROW_DIFFICULTY
    """Explosives: the throw must exceed this (WL-27, WL-G8)."""
    blast_radius: NonNegative = DEFAULT_BLAST_RADIUS
    """Explosives: tiles around the aimed tile (WL-27, WL-G8)."""
    count: NonNegative = 1
    """Explosives left (WL-27)."""

    @property
    def melee(self) -> bool:
        """Melee and unarmed attacks (WL-18, WL-25, WL-26)."""
        return self.kind in ("melee", "unarmed")

    @property
    def skill_name(self) -> str:
        return self.skill if self.skill is not None else KIND_SKILL[self.kind]

    @property
    def special_name(self) -> str:
        return self.special if self.special is not None else KIND_SPECIAL[self.kind]


SHORTHANDS: Mapping[str, Mapping[str, Any]] = {UNARMED: UNARMED_WEAPON}
"""2.3 short-hands: ``unarmed``."""


def expand_weapon(value: Any) -> Any:
    """Pydantic before-validator: ``unarmed`` or ``{is: unarmed, ...}`` become fields."""
    return expand_shorthand(
        value, SHORTHANDS, Weapon, what="weapon", unknown_code="unknown_shorthand", name_it=False
    )


def check_weapon(w: Weapon) -> Weapon:
    """Pydantic after-validator: what each kind allows; kind defaults filled in."""
    if w.melee and w.range is not None:
        raise PydanticCustomError(
            "bad_weapon",
            "{name} is a {kind} weapon: it reaches 1 tile and has no range band (WL-26)",
            {"name": repr(w.name), "kind": w.kind},
        )
    if w.kind != "ranged" and w.burst not in (None, False):
        raise PydanticCustomError(
            "bad_weapon",
            "{name} is a {kind} weapon: only ranged weapons fire bursts (WL-15, WL-25)",
            {"name": repr(w.name), "kind": w.kind},
        )
    return dataclasses.replace(
        w,
        skill=w.skill_name,
        special=w.special_name,  # type: ignore[arg-type]
        range=w.range if w.range is not None else KIND_RANGE[w.kind],  # type: ignore[arg-type]
    )


WeaponField = Annotated[Weapon, BeforeValidator(expand_weapon), AfterValidator(check_weapon)]


@cache
def unarmed_weapon() -> Weapon:
    """2.3: the unarmed attack every character has."""
    weapon: Weapon = build(WeaponField, UNARMED)  # frozen, as a sheet's weapons are
    return weapon
