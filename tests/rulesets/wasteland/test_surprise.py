"""WL-33: a Sneak Attack that lands at the opening of combat (the encounter's first
own-turn action) makes round 1 a Surprise Round: the attacker's side goes first (the
attacker, then its side, then the rest, each in the regular order) and the victim's side
is Surprised until the round ends; round 2 is back in the regular order."""

from __future__ import annotations

from fracas.rulesets.wasteland.turn_events import REGULAR, OpeningPassed, SurpriseRound
from tests.helpers import Played
from tests.rulesets.wasteland.support import PISTOL, act, fight, log, ok, refusal, sheet, who

# Regular order (given): raider, ally, vera, brute. vera is hidden, raider unaware.
RAIDER = who("raider", at=(4, 0), side="raiders", unaware=True, weapons=[PISTOL])
ALLY = who("ally", at=(0, 1), side="players", weapons=[PISTOL])
VERA = who("vera", at=(0, 0), side="players", hidden="hidden", skills={"sneak": 2},
           weapons=[PISTOL])  # fmt: skip
BRUTE = who("brute", at=(5, 0), side="raiders", weapons=[PISTOL])
ORDER = ["raider", "ally", "vera", "brute"]
# d20 15 > Evasion 10: hit (glancing); torso; 4 + Sneak 2 = 6.
LANDS: dict[str, object] = {"attack": 15, "location": 5, "damage": [4]}
MISSES: dict[str, object] = {"attack": 9}


def opening(dice: dict[str, object], *more: dict[str, object], **options: object) -> Played:
    actions = [act("vera", "attack", "raider", sneak=True, dice=dice), *more]
    return fight(RAIDER, ALLY, VERA, BRUTE, actions=actions, order=ORDER, options=options or None)


def surprised(p: Played) -> list[str]:
    return [cid for cid, c in p.state.combatants.items() if "surprised" in c.statuses]


def test_WL_33_an_opening_sneak_attack_that_lands_starts_a_surprise_round() -> None:
    p = ok(opening(LANDS))
    assert p.state.get("raider").hp == 14
    assert p.state.order == ("vera", "ally", "raider", "brute")
    assert (p.state.round, p.state.turn.actor) == (1, "vera")
    assert surprised(p) == ["raider", "brute"]
    assert sheet(p, "raider").surprised and sheet(p, "brute").surprised
    assert sheet(p, "vera").ap == 4  # 8 - 4: the attack was vera's own
    events = p.records[-1].events
    assert events[-2:] == (
        SurpriseRound(
            "vera", ("raider", "brute"), ("vera", "ally", "raider", "brute"), tuple(ORDER), True
        ),
        OpeningPassed(),
    )
    assert (
        "  surprise round: vera's side goes first (this round: vera, ally, raider, brute); "
        "raider, brute surprised until the round ends"
    ) in log(p)


def test_WL_33_the_attackers_side_goes_first_the_victims_cannot_act() -> None:
    # ally passed before vera's attack; it now acts after vera, in this round.
    p = opening(
        LANDS,
        act("vera", "end_turn"),
        act("ally", "attack", "brute", dice={"attack": 2}),
        act("ally", "end_turn"),
        act("raider", "attack", "vera"),
    )
    assert refusal(p) == (5, "surprised")
    assert (p.state.round, p.state.turn.actor) == (1, "raider")
    assert sheet(p, "ally").ap == 4  # ally's one real turn of round 1
    assert p.state.get("vera").hp == 20


def test_WL_33_round_2_is_back_in_the_regular_order() -> None:
    p = ok(
        opening(
            LANDS,
            act("vera", "end_turn"),
            act("ally", "end_turn"),
            act("raider", "end_turn"),
            act("brute", "end_turn"),
        )
    )
    assert (p.state.round, p.state.turn.actor) == (2, "raider")
    assert p.state.order == tuple(ORDER)
    assert surprised(p) == []
    assert not sheet(p, "raider").surprised and not sheet(p, "brute").surprised
    assert all(not m.startswith(REGULAR) for c in p.state.combatants.values() for m in c.marks)
    assert (
        "  the surprise round is over: raider, brute may act; the regular order is back: "
        "raider, ally, vera, brute"
    ) in log(p)
    # round 2: raider acts (its AP refreshed), then ally, vera, brute in Sequence order.
    p = ok(
        opening(
            LANDS,
            *(act(cid, "end_turn") for cid in ("vera", "ally", "raider", "brute")),
            act("raider", "attack", "vera", dice={"attack": 2}),
            act("raider", "end_turn"),
        )
    )
    assert (p.state.round, p.state.turn.actor) == (2, "ally")
    assert sheet(p, "raider").ap == 4


def test_WL_33_a_sneak_attack_that_misses_is_no_surprise() -> None:
    p = ok(opening(MISSES))
    assert p.state.order == tuple(ORDER)
    assert surprised(p) == []
    assert (p.state.turn.actor, sheet(p, "vera").ap) == ("vera", 4)
    assert not any(isinstance(e, SurpriseRound) for e in p.records[-1].events)


def test_WL_33_only_at_the_opening() -> None:
    # raider's own action opens the fight; vera's later Sneak Attack is no surprise.
    p = ok(
        fight(
            RAIDER,
            ALLY,
            VERA,
            BRUTE,
            order=ORDER,
            actions=[
                act("raider", "move", to=[4, 1], ap=1),
                act("vera", "attack", "raider", sneak=True, dice=LANDS),
            ],
        )
    )
    assert p.state.get("raider").hp == 14
    assert p.state.order == tuple(ORDER)
    assert surprised(p) == []


def test_WL_33_a_game_masters_move_or_set_or_a_refusal_keeps_the_opening() -> None:
    p = ok(
        fight(
            RAIDER,
            ALLY,
            VERA,
            BRUTE,
            order=ORDER,
            actions=[
                act("brute", "move", to=[6, 0]),
                act("raider", "set", evasion_mod=1),
                act("vera", "attack", "raider", sneak=True, dice={**LANDS, "attack": 12}),
            ],
        )
    )
    assert surprised(p) == ["raider", "brute"]
    assert p.state.order[0] == "vera"


def test_WL_33_option_surprised_does_not_skip_still_reorders() -> None:
    p = ok(opening(LANDS, act("vera", "end_turn"), surprised_skips=False))
    assert p.state.order == ("vera", "ally", "raider", "brute")
    assert surprised(p) == []
    assert p.state.turn.actor == "ally"
    p = ok(
        opening(
            LANDS,
            act("vera", "end_turn"),
            act("ally", "end_turn"),
            act("raider", "attack", "vera", dice={"attack": 2}),
            surprised_skips=False,
        )
    )
    assert sheet(p, "raider").ap == 4
