"""tier-duel's events of combat: P-TD-1 to P-TD-5 and spells, once the action is legal.

Every roll goes through the dice source (``attack``, ``defend``, ``stealth``,
``notice``, ``strike``: 2.4), in the order of 1.4: the initiator's die, then
the opponent's, then the stealth strike. Damage comes from the formulas of
``tables.py``. Each side that can be damaged by the event gets an
``Attempted`` (the odds' ``hit``: it lost to a side that can damage it).
"""

from __future__ import annotations

from collections.abc import Mapping

from fracas.dice.source import Dice
from fracas.model import ActionUsed, Attempted, Combatant, Damaged, Event, Note, StatusSet
from fracas.rulesets.tier_duel.events import Loaded, Revealed, Rolled, SpellCast, TemporaryDamage
from fracas.rulesets.tier_duel.items import Item, Wielded, wielded
from fracas.rulesets.tier_duel.sheet import Options, Sheet
from fracas.rulesets.tier_duel.tables import (
    CONTESTED,
    COUNTER_DAMAGE,
    CROSSBOW_ARMOR_FACTOR,
    FIREARM_DAMAGE,
    MELEE_DAMAGE,
    NON_WEAPON_SKILLS,
    NONCONTESTED,
    PROJECTILE_DAMAGE,
    STEALTH_DAMAGE,
    Terms,
)

__all__ = ["DEFENDER", "INITIATOR", "Combat", "sheet", "tiles"]

INITIATOR = "initiator"
DEFENDER = "defender"


def sheet(c: Combatant) -> Sheet:
    s: Sheet = c.sheet
    return s


def tiles(n: int) -> str:
    return f"{n} tile" if n == 1 else f"{n} tiles"


def armor_bonus(c: Combatant) -> int:
    """TD-4: the Tier of the armor and of the shield."""
    return sheet(c).armor_tier + sheet(c).shield_tier


def skill_of(c: Combatant, name: str | None) -> int:
    """A skill's level; a missing skill (or none at all) is 0 (2.1)."""
    return sheet(c).skills.get(name, 0) if name is not None else 0


def _sum_text(items: list[tuple[int, str]]) -> str:
    out = ""
    for value, name in items:
        if not out:
            out = f"{value} {name}"
        else:
            out += f" {'+' if value >= 0 else '-'} {abs(value)} {name}"
    return out


class Combat:
    """The resolution of legal actions, under one set of options."""

    def __init__(self, options: Options) -> None:
        self.options = options

    def wield(self, c: Combatant) -> Wielded:
        return wielded(c, self.options.reach_1h, self.options.reach_2h)

    # --- rolls and contests ----------------------------------------------------

    def _roll(
        self, dice: Dice, label: str, c: Combatant, how: str, parts: list[tuple[str, int]]
    ) -> Rolled:
        natural = dice.roll(20, label)
        shown = tuple((n, v) for n, v in parts if v)
        return Rolled(c.id, label, how, natural, shown, natural + sum(v for _, v in parts))

    def _combat_roll(self, dice: Dice, label: str, c: Combatant, how: str, w: Wielded) -> Rolled:
        """TD-1: 1d20 + reflex + the skill of the weapon used."""
        parts = [("reflex", sheet(c).reflex), (w.skill or "no skill", skill_of(c, w.skill))]
        return self._roll(dice, label, c, how, parts)

    def _defence_roll(self, dice: Dice, c: Combatant) -> Rolled:
        """TD-7, TD-A4, TD-17: the defender against a shot adds any weapon skill."""
        if self.options.projectile_defender_skill == "held":
            w = self.wield(c)
            return self._combat_roll(dice, "defend", c, f"defends ({w.name} in hand)", w)
        weapon = {k: v for k, v in sheet(c).skills.items() if k not in NON_WEAPON_SKILLS}
        best = max(weapon, key=lambda k: weapon[k], default=None)
        value = max(0, weapon[best]) if best is not None else 0  # "may add": never a penalty
        name = f"{best} (best weapon skill)" if value else "no weapon skill"
        return self._roll(
            dice, "defend", c, "defends", [("reflex", sheet(c).reflex), (name, value)]
        )

    def _decide(self, first: Rolled, second: Rolled, tie: str) -> tuple[str | None, int]:
        """TD-2, TD-3: the higher total wins by the difference; a tie goes to ``tie``."""
        if first.total == second.total:
            return (None if tie == "none" else tie), 0
        winner = INITIATOR if first.total > second.total else DEFENDER
        return winner, abs(first.total - second.total)

    @staticmethod
    def _verdict(winner: str | None, diff: int, first: Combatant, second: Combatant) -> str:
        if winner is None:
            return "  a tie: nobody deals damage (TD-3)"
        who = first if winner == INITIATOR else second
        return f"  {who.name} wins by {diff}"

    # --- damage ------------------------------------------------------------------

    def formula(
        self,
        terms: Terms,
        values: Mapping[str, int],
        armor: tuple[str, int] | None,
        *,
        floor: bool = True,
        labels: Mapping[str, str] | None = None,
    ) -> tuple[int, str]:
        """A damage formula: its terms summed, minus the armor, floored (TD-G9); and its
        text for the log (``labels`` renames terms, e.g. ``skill`` to the skill's name)."""
        names = labels or {}
        items = [(f * values[n], names.get(n, n) + ("" if f == 1 else f" x{f}")) for n, f in terms]
        amount = sum(v for v, _ in items)
        text = _sum_text(items)
        if armor is not None:
            amount -= armor[1]
            sign = "-" if armor[1] >= 0 else "+"
            text += f" {sign} {abs(armor[1])} {armor[0]}"
        low = self.options.damage_floor
        if floor and low is not None and amount < low:
            amount, text = low, f"{text} = {amount}, floor {low}"
        return amount, text

    def wound(self, target: Combatant, amount: int, cause: str) -> list[Event]:
        """TD-5: HP down (stops at 0), the damage added to temporary_damage."""
        events: list[Event] = [Damaged(target.id, amount, cause)]
        if self.options.track_temporary and amount:
            events.append(TemporaryDamage(target.id, amount))
        return events

    def _hit(
        self,
        target: Combatant,
        terms: Terms,
        values: Mapping[str, int],
        why: str = "",
        labels: Mapping[str, str] | None = None,
    ) -> list[Event]:
        armor = ("armor", armor_bonus(target))
        amount, text = self.formula(terms, values, armor, labels=labels)
        return self.wound(target, amount, text + why)

    # --- P-TD-1: melee -------------------------------------------------------------

    def melee(self, actor: Combatant, target: Combatant, distance: int, dice: Dice) -> list[Event]:
        """TD-1, TD-2, TD-4, TD-6: both roll; the winner deals damage if it reaches."""
        a, d = self.wield(actor), self.wield(target)
        reaches = {INITIATOR: distance <= a.reach, DEFENDER: distance <= d.reach}
        first = self._combat_roll(
            dice, "attack", actor, f"attacks {target.name} with {a.name} ({tiles(distance)})", a
        )
        second = self._combat_roll(dice, "defend", target, f"defends with {d.name}", d)
        winner, diff = self._decide(first, second, self.options.tie_result)
        events: list[Event] = [
            ActionUsed(actor.id, CONTESTED),
            first,
            second,
            Attempted(actor.id, target.id, winner == INITIATOR and reaches[INITIATOR]),
        ]
        if reaches[DEFENDER]:  # TD-2: the defender may win and strike back
            events.append(Attempted(target.id, actor.id, winner == DEFENDER))
        events.append(Note(self._verdict(winner, diff, actor, target)))
        if winner is None:
            return events
        win, lose, w = (actor, target, a) if winner == INITIATOR else (target, actor, d)
        if not reaches[winner]:
            events.append(
                Note(
                    f"  the {w.name} does not reach {lose.name} (reach {w.reach}, "
                    f"{tiles(distance)}): no damage (TD-6)"
                )
            )
            return events
        values = {"diff": diff, "body": sheet(win).body, "tier": w.tier}
        return events + self._hit(lose, MELEE_DAMAGE, values)

    # --- P-TD-2: bow and thrown ------------------------------------------------------

    def projectile(
        self, actor: Combatant, target: Combatant, distance: int, dice: Dice
    ) -> list[Event]:
        """TD-7, TD-8, TD-9: a shot or throw; a melee defender in reach may strike back."""
        a, d = self.wield(actor), self.wield(target)
        verb = "shoots at" if a.type == "bow" else f"throws the {a.name} at"
        first = self._combat_roll(
            dice, "attack", actor, f"{verb} {target.name} ({a.name}, {tiles(distance)})", a
        )
        second = self._defence_roll(dice, target)
        winner, diff = self._decide(first, second, self.options.tie_result)
        counter = self.options.projectile_counter and d.is_melee_weapon and distance <= d.reach
        events: list[Event] = [
            ActionUsed(actor.id, CONTESTED),
            first,
            second,
            Attempted(actor.id, target.id, winner == INITIATOR),
        ]
        if counter:
            events.append(Attempted(target.id, actor.id, winner == DEFENDER))
        events.append(Note(self._verdict(winner, diff, actor, target)))
        if winner == INITIATOR:
            values = {"diff": diff, "tier": a.tier, "body": sheet(actor).body}
            return events + self._hit(target, PROJECTILE_DAMAGE[a.type], values)
        if winner == DEFENDER and counter:
            events.append(
                Note(f"  {actor.name} is within the reach of the {d.name}: melee damage (TD-9)")
            )
            values = {"diff": diff, "body": sheet(target).body, "tier": d.tier}
            return events + self._hit(actor, COUNTER_DAMAGE, values)
        if winner == DEFENDER:
            events.append(Note("  no damage for that event (TD-9)"))
        return events

    # --- P-TD-3: crossbows -------------------------------------------------------------

    def crossbow(
        self, actor: Combatant, target: Combatant, distance: int, dice: Dice
    ) -> list[Event]:
        """TD-11 to TD-15, TD-G3: automatic within the skill, else a contest without diff."""
        a = self.wield(actor)
        skill = skill_of(actor, a.skill)
        what = f"{target.name} with the {a.name} ({tiles(distance)})"
        events: list[Event]
        if distance <= skill:
            events = [
                ActionUsed(actor.id, NONCONTESTED),
                Note(
                    f"{actor.name} shoots {what}: within {a.skill} skill {skill}, an automatic "
                    "hit, no roll (TD-11)"
                ),
                Attempted(actor.id, target.id, True),
                *self._crossbow_hit(target, a),
            ]
        else:
            first = self._combat_roll(dice, "attack", actor, f"shoots {what}", a)
            second = self._defence_roll(dice, target)
            winner, diff = self._decide(first, second, self.options.tie_result)
            events = [
                ActionUsed(actor.id, CONTESTED),
                first,
                second,
                Note(f"  beyond {a.skill} skill {skill}: contested, no roll difference (TD-G3)"),
                Attempted(actor.id, target.id, winner == INITIATOR),
                Note(self._verdict(winner, diff, actor, target)),
            ]
            if winner == INITIATOR:
                events += self._crossbow_hit(target, a)
        if self.options.unload_on_fire:  # TD-15
            events.append(Loaded(actor.id, False))
        return events

    def _crossbow_hit(self, target: Combatant, a: Wielded) -> list[Event]:
        """TD-12, TD-13, TD-14, TD-A1 to TD-A3: armor reduced by Tier (x2), then Tier - armor."""
        factor = CROSSBOW_ARMOR_FACTOR[a.type]
        armor = armor_bonus(target)
        left = armor - factor * a.tier
        rule = "TD-13" if factor == 2 else "TD-12"
        if self.options.crossbow_formula == "text":
            left = max(0, left)  # TD-14: armor cannot be reduced below 0
            how = f"armor {armor} reduced by {factor} x {a.tier} tier, never below 0; {rule}"
        else:
            how = f"armor {armor} - {factor} x {a.tier} tier, the formula line; {rule}"
        amount, text = self.formula((("tier", 1),), {"tier": a.tier}, ("armor left", left))
        return self.wound(target, amount, f"{text} ({how})")

    # --- P-TD-4: firearms -----------------------------------------------------------

    def firearm(
        self, actor: Combatant, target: Combatant, distance: int, dice: Dice
    ) -> list[Event]:
        """TD-16, TD-17, TD-18: guaranteed zone: no roll; contested zone: no diff."""
        a = self.wield(actor)
        item = a.item
        assert item is not None
        what = f"{target.name} with the {a.name} ({tiles(distance)})"
        events: list[Event]
        if distance <= item.guaranteed_zone:
            events = [
                ActionUsed(actor.id, NONCONTESTED),
                Note(
                    f"{actor.name} fires at {what}: inside the guaranteed hit zone "
                    f"({item.guaranteed_zone}), no roll (TD-16)"
                ),
                Attempted(actor.id, target.id, True),
                *self._firearm_hit(target, item),
            ]
        else:
            first = self._combat_roll(dice, "attack", actor, f"fires at {what}", a)
            second = self._defence_roll(dice, target)
            winner, diff = self._decide(first, second, self.options.tie_result)
            events = [
                ActionUsed(actor.id, CONTESTED),
                first,
                second,
                Note(
                    f"  beyond the guaranteed zone ({item.guaranteed_zone}): contested, no roll "
                    "difference (TD-17)"
                ),
                Attempted(actor.id, target.id, winner == INITIATOR),
                Note(self._verdict(winner, diff, actor, target)),
            ]
            if winner == INITIATOR:
                events += self._firearm_hit(target, item)
        if self.options.unload_on_fire:  # TD-15 (PROPOSED for firearms too)
            events.append(Loaded(actor.id, False))
        return events

    def _firearm_hit(self, target: Combatant, item: Item) -> list[Event]:
        """TD-18, TD-G10: 2 x tier + 2 x ammo bonus; no armor (nor shield, by option)."""
        shield = (
            None if self.options.firearm_ignores_shield else ("shield", sheet(target).shield_tier)
        )
        values = {"tier": item.tier, "ammo_bonus": item.ammo_bonus}
        amount, text = self.formula(FIREARM_DAMAGE, values, shield)
        return self.wound(target, amount, f"{text}, no armor (TD-18)")

    # --- P-TD-5: stealth ----------------------------------------------------------

    def stealth(
        self, actor: Combatant, target: Combatant, distance: int, dice: Dice
    ) -> list[Event]:
        """TD-20 to TD-24: presence + stealth contest; a win is a strike the target cannot
        defend, and reveals the attacker."""
        a = self.wield(actor)

        def contest_parts(c: Combatant) -> list[tuple[str, int]]:
            return [("presence", sheet(c).presence), ("stealth", skill_of(c, "stealth"))]

        first = self._roll(
            dice, "stealth", actor, f"sneaks up on {target.name} from behind", contest_parts(actor)
        )
        second = self._roll(dice, "notice", target, "watches out", contest_parts(target))
        tied = first.total == second.total
        won = first.total > second.total or (tied and self.options.stealth_tie == "win")
        reaches = a.event != "melee" or distance <= a.reach
        events: list[Event] = [
            ActionUsed(actor.id, CONTESTED),
            first,
            second,
            Attempted(actor.id, target.id, won and reaches),
        ]
        if not won:
            result = "ties" if tied else "loses"
            return [
                *events,
                Note(
                    f"  {actor.name} {result}: no opening; the contested action is wasted (TD-22)"
                ),
            ]
        events.append(
            Note(
                f"  {actor.name} wins: a special attack (free) that {target.name} cannot "
                "defend (TD-21)"
            )
        )
        if not reaches:
            return [
                *events,
                Note(
                    f"  the {a.name} does not reach {target.name} (reach {a.reach}, "
                    f"{tiles(distance)}): no damage (TD-6)"
                ),
            ]
        terms = STEALTH_DAMAGE["melee" if a.event == "melee" else a.type]
        natural = dice.roll(20, "strike")
        values = {
            "strike": natural,
            "reflex": sheet(actor).reflex,
            "skill": skill_of(actor, a.skill),
            "body": sheet(actor).body,
            "tier": a.tier,
        }
        names = {"skill": a.skill or "skill"}
        parts = tuple((names.get(n, n), f * values[n]) for n, f in terms if n != "strike")
        total = natural + sum(v for _, v in parts)
        strike = Rolled(
            actor.id,
            "strike",
            f"strikes with the {a.name}",
            natural,
            tuple(p for p in parts if p[1]),
            total,
        )
        return [
            *events,
            strike,
            *self._hit(target, terms, values, "; TD-23", names),
            Revealed(actor.id, actor.at),
        ]

    # --- TD-19: spells --------------------------------------------------------------

    def cast(self, actor: Combatant, target: Combatant, spell: Item) -> list[Event]:
        """TD-19: no dice; the damage and/or the effect apply at once."""
        events: list[Event] = [
            ActionUsed(actor.id, NONCONTESTED),
            SpellCast(actor.id, target.id, spell.name),
            Attempted(actor.id, target.id, True),
        ]
        if spell.damage:
            if self.options.spell_ignores_armor:
                armor = None
                why = ", armor does not apply (TD-19)"
            else:
                armor, why = ("armor", armor_bonus(target)), " (TD-19)"
            amount, text = self.formula(
                (("damage", 1),), {"damage": spell.damage}, armor, floor=armor is not None
            )
            events += self.wound(target, amount, f"{spell.name}: {text}{why}")
        if spell.effect is not None:
            events.append(StatusSet(target.id, spell.effect, {"from": actor.id}))
        return events
