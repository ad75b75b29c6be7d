"""wasteland refusals of ``attack`` (wasteland.md 2.5, "Refusals"): each code, the first
that applies, and that a refused action consumes nothing (no AP, no die, no record)."""

from __future__ import annotations

from typing import Any

import pytest

from tests.helpers import Played
from tests.rulesets.wasteland.support import (
    PISTOL,
    SMG,
    act,
    fight,
    log,
    ok,
    refusal,
    sheet,
    who,
)

CLUB = {"name": "club", "kind": "melee", "damage": "1d4", "ap": 3}
MAUL = {"name": "maul", "kind": "melee", "damage": "2d6", "ap": 5, "hands": 2}
GRENADE = {"name": "grenade", "kind": "explosive", "damage": "2d6"}


def refused(
    a: dict[str, Any],
    b: dict[str, Any],
    before: list[dict[str, Any]] | None = None,
    options: dict[str, Any] | None = None,
    **params: Any,
) -> tuple[Played, str]:
    """a attacks b after ``before``; the attack must be refused: (played, code)."""
    actions = [*(before or []), act("a", "attack", "b", dice={"attack": 20}, **params)]
    p = fight(who("a", **a), who("b", **b), actions=actions, options=options)
    number, code = refusal(p)
    assert number == len(actions)
    return p, code


def nothing_consumed(p: Played, ap: int = 8) -> None:
    """The refused attack left no record, no AP spent, no die rolled."""
    assert len(p.records) == len(p.file.actions)  # the start, then every action but the last
    assert sheet(p, "a").ap == ap
    assert not any(r.label.startswith("attack") for r in p.records[-1].rolls)


@pytest.mark.parametrize(
    ("a", "b", "params", "code"),
    [
        ({"hp": 0, "weapons": [PISTOL]}, {"at": [3, 0]}, {}, "down"),
        ({"surprised": True, "weapons": [PISTOL]}, {"at": [3, 0]}, {}, "surprised"),
        ({"weapons": [PISTOL]}, {"at": [3, 0]}, {"weapon": "rifle"}, "unknown_weapon"),
        ({"agi_mod": -10, "weapons": [PISTOL]}, {"at": [3, 0]}, {}, "not_enough_ap"),
        ({"weapons": [PISTOL]}, {"at": None}, {}, "no_position"),
        ({"weapons": [GRENADE]}, {"at": [3, 0]}, {}, "use_throw"),
        ({"weapons": [PISTOL]}, {"at": [3, 0]}, {"burst": True}, "no_burst"),
        ({"weapons": [CLUB]}, {"at": [1, 0]}, {"burst": True}, "no_burst"),
        ({"weapons": [PISTOL]}, {"at": [3, 0]}, {"called": "tail"}, "bad_limb"),
        ({"weapons": [PISTOL]}, {"at": [3, 0], "unaware": True}, {"sneak": True}, "not_hidden"),
        (
            {"weapons": [PISTOL], "hidden": "hidden"},
            {"at": [3, 0]},
            {"sneak": True},
            "target_aware",
        ),
        ({"weapons": [CLUB]}, {"at": [2, 0]}, {}, "out_of_reach"),
        ({"weapons": [CLUB]}, {"at": [1, 1]}, {}, "not_cardinal"),
        ({}, {"at": [1, 1]}, {}, "not_cardinal"),  # unarmed
        ({"weapons": [PISTOL]}, {"at": [11, 0]}, {}, "out_of_range"),
        ({"weapons": [{**PISTOL, "range": "close"}]}, {"at": [0, 6]}, {}, "out_of_range"),
        ({"weapons": [PISTOL], "cover": {"type": "full"}}, {"at": [3, 0]}, {}, "must_peek"),
    ],
)
def test_WL_26_WL_35_attack_refusals(
    a: dict[str, Any], b: dict[str, Any], params: dict[str, Any], code: str
) -> None:
    p, got = refused(a, b, **params)
    assert got == code
    nothing_consumed(p, ap=8 if code != "not_enough_ap" else 3)  # agi -10: 3 AP


def test_self_target() -> None:
    p = fight(who("a", weapons=[PISTOL]), actions=[act("a", "attack", "a", dice={"attack": 5})])
    assert refusal(p) == (1, "self_target")


def test_no_position_of_the_attacker() -> None:
    _, code = refused({"weapons": [PISTOL], "at": None}, {"at": [3, 0]})
    assert code == "no_position"


@pytest.mark.parametrize("params", [{"called": "head"}, {"burst": True}])
def test_WL_5_not_enough_ap_counts_the_extra_ap(params: dict[str, Any]) -> None:
    # 4 AP left after one single shot; a called shot or a burst costs 5.
    p = fight(
        who("a", weapons=[{**SMG, "ap": 4}]),
        who("b", at=(3, 0)),
        actions=[
            act("a", "attack", "b", dice={"attack": 2}),
            act("a", "attack", "b", dice={"attack:1": 2}, **params),
        ],
    )
    assert refusal(p) == (2, "not_enough_ap")
    assert sheet(p, "a").ap == 4


def test_WL_34_overflow_is_refused_beyond_max_ap() -> None:
    big = {**PISTOL, "ap": 7, "overflowable": True}
    # 8 - 7 = 1 AP left; the next costs 7: 6 owed (allowed); the third: 7 more owed > 8.
    p = fight(
        who("a", weapons=[big]),
        who("b", at=(3, 0)),
        actions=[act("a", "attack", "b", dice={"attack": 2})] * 3,
    )
    assert refusal(p) == (3, "not_enough_ap")
    assert (sheet(p, "a").ap, sheet(p, "a").ap_debt) == (0, 6)


def test_WL_26_two_handed_melee_reaches_diagonals() -> None:
    p = ok(
        fight(
            who("a", weapons=[MAUL]),
            who("b", at=(1, 1)),
            actions=[act("a", "attack", "b", dice={"attack": 2})],
        )
    )
    assert sheet(p, "a").ap == 3


def test_WL_35_WL_G16_range_band_reaches_its_tiles() -> None:
    p = ok(
        fight(
            who("a", weapons=[PISTOL]),
            who("b", at=(10, 7)),
            actions=[act("a", "attack", "b", dice={"attack": 2})],
        )
    )
    assert sheet(p, "a").ap == 4


def test_WL_32_full_cover_with_a_clear_shot() -> None:
    p = ok(
        fight(
            who("a", weapons=[PISTOL], cover={"type": "full"}),
            who("b", at=(3, 0)),
            actions=[act("a", "attack", "b", clear_shot=True, dice={"attack": 2})],
        )
    )
    assert sheet(p, "a").ap == 4


def test_first_refusal_that_applies() -> None:
    # Unknown weapon before AP; AP before the target checks; bad limb before range.
    _, code = refused({"agi_mod": -16}, {"at": [3, 0]}, weapon="rifle")
    assert code == "unknown_weapon"
    _, code = refused({"agi_mod": -16, "weapons": [PISTOL]}, {"at": None})
    assert code == "not_enough_ap"
    _, code = refused({"weapons": [PISTOL]}, {"at": [30, 0]}, called="tail")
    assert code == "bad_limb"


def test_dying_target_may_still_be_attacked() -> None:
    p = ok(
        fight(
            who("a", weapons=[PISTOL]),
            who("b", at=(3, 0), hp=0),
            actions=[act("a", "attack", "b", dice={"attack": 15, "location": 5, "damage": [2]})],
        )
    )
    assert p.state.get("b").hp == 0


# --- WL-33: surprised ------------------------------------------------------------------


def test_WL_33_surprised_until_the_round_ends() -> None:
    actions = [act("a", "end_turn"), act("b", "attack", "a", dice={"attack": 2})]
    p = fight(who("a", at=(3, 0)), who("b", surprised=True, weapons=[PISTOL]), actions=actions)
    assert refusal(p) == (2, "surprised")
    actions = [
        act("a", "end_turn"),
        act("b", "end_turn"),
        act("b", "attack", "a", dice={"attack": 2}),
    ]
    p = ok(fight(who("a", at=(3, 0)), who("b", surprised=True, weapons=[PISTOL]), actions=actions))
    assert (p.state.round, sheet(p, "b").surprised) == (2, False)
    assert "surprised" not in p.state.get("b").statuses
    assert "  the surprise round is over: b may act" in log(p)


def test_WL_33_option_surprised_does_not_skip() -> None:
    p = ok(
        fight(
            who("a", at=(3, 0)),
            who("b", surprised=True, weapons=[PISTOL]),
            actions=[act("b", "attack", "a", dice={"attack": 2})],
            options={"surprised_skips": False},
        )
    )
    assert sheet(p, "b").ap == 4


def test_creature_cover_names_neither_attacker_nor_target() -> None:
    p, code = refused({"weapons": [SMG]}, {"at": [3, 0]}, burst=True, creature_cover={"b": [1]})
    assert code == "bad_value"
    nothing_consumed(p)
