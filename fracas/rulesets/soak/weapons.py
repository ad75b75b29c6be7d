"""soak weapons (soak.md 2.2): base dice, upgrades, additional damage, DV tables.

A weapon in a file is a mapping, or the short-hand ``unarmed`` (also ``{is: unarmed,
name: fists}``). Dice are written ``NdS`` (``1d8``, ``2d6``, ``1d8+1d4``) or as a list
of them; whether a die explodes is not written on it: it comes from proficiency (SK-7).
"""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping
from dataclasses import dataclass
from functools import cache
from typing import Annotated, Any, Literal

from pydantic import AfterValidator, BeforeValidator, ConfigDict, Field
from pydantic_core import PydanticCustomError

from fracas.dice.notation import DiceTerm, parse
from fracas.errors import FracasError
from fracas.rulesets.shorthands import expand_shorthand
from fracas.rulesets.soak.data import (
    ATTACK_SKILL,
    DEFAULT_DV_TABLE,
    MAX_DICE,
    MAX_SIDES,
    UNARMED,
    UNARMED_SKILL,
)

__all__ = [
    "SHORTHANDS",
    "Additional",
    "DVTable",
    "DiceList",
    "Kind",
    "Weapon",
    "WeaponField",
    "die_sizes",
    "dv_band",
    "unarmed_weapon",
]

Kind = Literal["superficial", "aggravated"]
"""SK-15: where damage goes on the health track."""


def _dice_list(value: Any) -> Any:
    """``"1d8"``, ``"1d8+1d4"`` or ``["1d8", "1d4"]`` -> canonical ``("1d8", "1d4")``."""
    if isinstance(value, str):
        value = [value]
    if not isinstance(value, list | tuple):
        return value  # pydantic reports the type
    out: list[str] = []
    for text in value:
        if not isinstance(text, str):
            raise PydanticCustomError(
                "bad_dice", "{given} is not dice: write e.g. '1d8'", {"given": repr(text)}
            )
        try:
            expr = parse(text)
        except FracasError as exc:
            raise PydanticCustomError("bad_dice", "{why}", {"why": exc.message}) from None
        for sign, term in expr.terms:
            plain_die = (
                isinstance(term, DiceTerm) and sign > 0 and not term.explode and not term.keep
            )
            if not plain_die:
                raise PydanticCustomError(
                    "bad_dice",
                    "{given}: a weapon's dice are plain NdS terms (e.g. '1d8', '2d6'); no "
                    "constants, keeps or '!': dice explode by proficiency (SK-7)",
                    {"given": repr(text)},
                )
            assert isinstance(term, DiceTerm)
            if not 2 <= term.sides <= MAX_SIDES:
                raise PydanticCustomError(
                    "bad_dice",
                    "{given}: a damage die has 2..{most} sides (a d1 would explode forever)",
                    {"given": repr(text), "most": MAX_SIDES},
                )
            out.extend([f"1d{term.sides}"] * term.count)
    if len(out) > MAX_DICE:
        raise PydanticCustomError(
            "bad_dice", "{n} dice: give at most {most}", {"n": len(out), "most": MAX_DICE}
        )
    return tuple(out)


DiceList = Annotated[tuple[str, ...], BeforeValidator(_dice_list)]
"""Dice as one die per entry, in the order rolled: ``("1d8", "1d4")``."""


@cache
def die_sizes(dice: tuple[str, ...]) -> tuple[int, ...]:
    """The sides of each die of a canonical dice list."""
    return tuple(int(d.split("d", 1)[1]) for d in dice)


def _check_dv(table: Mapping[int, int]) -> dict[int, int]:
    if not table:
        raise PydanticCustomError("bad_dv", "a DV table needs at least one band", {})
    for tiles in table:
        if tiles < 0:
            raise PydanticCustomError(
                "bad_dv", "band {tiles}: max tiles are >= 0", {"tiles": tiles}
            )
    return dict(sorted(table.items()))


DVTable = Annotated[
    dict[int, int],
    AfterValidator(_check_dv),
    Field(json_schema_extra={"default": dict(DEFAULT_DV_TABLE)}),
]
"""SK-4, SK-G2: max tiles -> DV, bands in ascending order."""


def dv_band(table: Mapping[int, int], distance: int) -> tuple[int, int, int] | None:
    """SK-4: the first band that holds ``distance`` as (first tile, last tile, DV); None
    beyond the last band (out of range, SK-G2)."""
    low = 0
    for tiles in sorted(table):
        if distance <= tiles:
            return low, tiles, table[tiles]
        low = tiles + 1
    return None


@dataclass(frozen=True, slots=True)
class Additional:
    """Additional damage (SK-9, SK-16): resolved apart from armor, never upgraded."""

    __pydantic_config__ = ConfigDict(extra="forbid", use_attribute_docstrings=True)

    dice: DiceList
    """Its dice (``1d4``, or a list); they explode like the base dice (SK-9)."""
    type: str
    """The damage type (``fire``), matched with the target's armor material (SK-16)."""
    kind: Kind | None = None
    """Where it goes on the health track; default: the ``damage_kind`` option (SK-15)."""


@dataclass(frozen=True, slots=True)
class Weapon:
    """A weapon (soak.md 2.2). Fields left out take the defaults the table gives."""

    __pydantic_config__ = ConfigDict(extra="forbid", use_attribute_docstrings=True)

    name: str
    """What an attack's `weapon` names; unique on the sheet."""
    unarmed: bool = False
    """An unarmed attack (short-hand `unarmed`, or `is: unarmed`): Agility + Brawling to
    hit, Brawling damage, no dice (SK-11)."""
    type: str | None = None
    """Weapon type, matched against `proficiencies`; default: the name. An improvised
    weapon names the most similar weapon's type (SK-10, SK-A7)."""
    attack: Literal["melee", "ranged"] = "melee"
    """Melee attacks meet the target's EV (SK-3); ranged ones the weapon's DV (SK-4)."""
    skill: str | None = None
    """Skill to hit and in base damage; default: dueling (melee), marksmanship (ranged),
    brawling (unarmed) (SK-2, SK-A6)."""
    dice: DiceList = ()
    """Base damage dice (`1d8`, `2d6`, a list); required but for unarmed (SK-7)."""
    upgrades: DiceList = ()
    """Unlocked dice upgrades, rolled after `dice`; ignored when improvised (SK-8, SK-10)."""
    additional: Additional | None = None
    """Additional damage `{dice, type, kind}` (SK-9, SK-16)."""
    damage_kind: Kind | None = None
    """Where base damage goes; default: the `damage_kind` option (SK-15)."""
    dv: DVTable | None = None
    """Ranged only: max tiles -> DV; default: the `dv_table` option (SK-4, SK-G2)."""
    improvised: bool = False
    """Disadvantage on the attack, upgrades ignored (SK-10)."""
    ap: Annotated[int, Field(ge=0)] | None = None
    """AP per attack; default: the `attack_ap` option (SK-G1)."""

    @property
    def skill_name(self) -> str:
        """The skill to hit and in base damage (filled in by validation)."""
        if self.skill is not None:
            return self.skill
        return UNARMED_SKILL if self.unarmed else ATTACK_SKILL[self.attack]

    @property
    def weapon_type(self) -> str:
        return self.type if self.type is not None else self.name

    @property
    def ranged(self) -> bool:
        return self.attack == "ranged"


SHORTHANDS: Mapping[str, Mapping[str, Any]] = {UNARMED: {"unarmed": True}}
"""2.2 short-hands: ``unarmed``."""


def expand_weapon(value: Any) -> Any:
    """Pydantic before-validator: ``unarmed`` or ``{is: unarmed, ...}`` become fields."""
    return expand_shorthand(
        value, SHORTHANDS, Weapon, what="weapon", unknown_code="unknown_shorthand"
    )


_UNARMED_NEVER = ("dice", "upgrades", "additional", "dv")


def check_weapon(w: Weapon) -> Weapon:
    """Pydantic after-validator: what each kind of weapon needs; defaults filled in."""
    if w.unarmed:
        given = [f for f in _UNARMED_NEVER if getattr(w, f)]
        if given or w.ranged or w.improvised:
            what = given[0] if given else ("attack: ranged" if w.ranged else "improvised")
            raise PydanticCustomError(
                "bad_weapon",
                "{name} is unarmed: it deals Brawling and has no {what} (SK-11)",
                {"name": repr(w.name), "what": what},
            )
        return dataclasses.replace(w, type=w.type or UNARMED, skill=w.skill_name)
    if w.name == UNARMED:
        raise PydanticCustomError(
            "bad_weapon", "the name 'unarmed' is kept for unarmed attacks (SK-11)", {}
        )
    if not w.dice:
        raise PydanticCustomError(
            "missing_dice", "weapon {name} needs `dice` (e.g. 1d8)", {"name": repr(w.name)}
        )
    if w.dv is not None and not w.ranged:
        raise PydanticCustomError(
            "bad_weapon",
            "{name} is a melee weapon: only ranged weapons have a DV table (SK-4)",
            {"name": repr(w.name)},
        )
    return dataclasses.replace(w, type=w.weapon_type, skill=w.skill_name)


WeaponField = Annotated[Weapon, BeforeValidator(expand_weapon), AfterValidator(check_weapon)]


def unarmed_weapon() -> Weapon:
    """SK-11: the unarmed attack every character has."""
    return Weapon(UNARMED, unarmed=True, type=UNARMED, skill=UNARMED_SKILL)
