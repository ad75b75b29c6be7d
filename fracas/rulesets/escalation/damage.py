"""The arithmetic of one attack against one target (P-ES-1): failure, the trigger's
verdict, damage. Pure functions over the sheets and the options; no dice, no events."""

from __future__ import annotations

from dataclasses import dataclass

from fracas.rulesets.escalation.data import (
    BACKSTAB_BONUS,
    CONCEALMENT_FAILURE,
    COVER_FAILURE,
    SIZE_STEP_FAILURE,
)
from fracas.rulesets.escalation.options import Options
from fracas.rulesets.escalation.sheet import Sheet
from fracas.rulesets.escalation.weapons import Weapon

__all__ = ["Verdict", "damage", "failure_parts", "judge"]


def failure_parts(
    options: Options,
    attacker: Sheet,
    target: Sheet,
    weapon: Weapon,
    concealment: str,
    cover: str,
    situational: int,
) -> tuple[tuple[str, int], ...]:
    """ES-9: the failure sources that apply; they stack (their sum is the failure).

    ``concealment`` and ``cover`` are the target's, or the action's override; total
    cover never gets here (ES-17: refused).
    """
    sizes = options.size_categories
    steps = abs(sizes.index(target.size) - sizes.index(attacker.size))
    cover_failure = COVER_FAILURE[cover]
    assert cover_failure is not None, "total cover is refused before the roll (ES-17)"
    parts = (
        ("size", SIZE_STEP_FAILURE * steps),  # ES-15
        ("concealment", CONCEALMENT_FAILURE[concealment]),  # ES-16
        ("cover", cover_failure),  # ES-17
        ("weapon", weapon.failure_mod),  # ES-0, ES-A6
        ("situation", situational),  # 2.3: other sources the game master names
    )
    return tuple((name, n) for name, n in parts if n)


@dataclass(frozen=True, slots=True)
class Verdict:
    """What one trigger die decides (ES-9 to ES-14)."""

    success: bool
    crit: bool
    lucks_price: bool
    condition: bool


def judge(trigger: int, failure: int, top: int, condition_at: int) -> Verdict:
    """ES-9 failure on ``trigger <= failure``; ES-10 a Lucky Hit on the top face whatever
    the failure; ES-11 the top face crits; ES-12 ``condition_at``+ inflicts a condition;
    ES-14 Luck's Price: at failure >= top the top face only hits (ES-A5: 12 included)."""
    lucky = trigger == top
    success = lucky or trigger > failure
    lucks_price = lucky and failure >= top
    return Verdict(
        success=success,
        crit=lucky and not lucks_price,
        lucks_price=lucks_price,
        condition=success and trigger >= condition_at and not lucks_price,
    )


def damage(
    options: Options,
    escalation: int,
    attacker: Sheet,
    target: Sheet,
    weapon: Weapon,
    *,
    crit: bool,
    backstab: bool,
) -> tuple[int, str]:
    """ES-4, ES-6, ES-7: Escalation + rating (+ crit, + backstab) - the target's rating of
    the same archetype, floored (option ``damage_floor``); and how it was reached."""
    rating = attacker.rating(weapon.archetype)
    defense = target.rating(weapon.archetype)
    bonuses = (
        (("crit", weapon.crit_bonus),) if crit else ()  # ES-11
    ) + ((("backstab", BACKSTAB_BONUS),) if backstab else ())  # ES-19
    bonus = sum(n for _, n in bonuses)
    floor = options.damage_floor
    terms = [f"escalation {escalation}", f"{weapon.archetype} {rating}"]
    if options.defense_after_bonuses:  # ES-7, ES-A2: defense from the total
        terms += [f"{name} {n}" for name, n in bonuses]
        total = escalation + rating + bonus - defense
        text = " + ".join(terms) + f" - defense {defense}"
    else:  # defense against escalation + rating only; the bonuses are added after it
        base = escalation + rating - defense
        text = " + ".join(terms) + f" - defense {defense}"
        if floor is not None and base < floor:
            text += f" = {base}, at least {floor}"
            base = floor
        total = base + bonus
        if bonuses:
            text = f"({text})" + "".join(f" + {name} {n}" for name, n in bonuses)
    if floor is not None and total < floor:  # ES-6, ES-A3
        text += f" = {total}, at least {floor}"
        total = floor
    return total, text
