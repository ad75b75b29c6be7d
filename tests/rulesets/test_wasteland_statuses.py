"""wasteland's statuses (WL-19, WL-29, WL-30, WL-32, WL-33): the ones the rules read are
declared with their details, so ``set statuses:`` is checked against them and every hook
copes with any status a ``set`` can produce."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from fracas.rulesets.wasteland import Wasteland
from tests.helpers import cli
from tests.rulesets.wasteland_support import PISTOL, act, doc, fight, ok, refusal, sheet, who


def _set(cid: str, statuses: dict[str, Any]) -> dict[str, Any]:
    return {"actor": cid, "do": "set", "statuses": statuses}


def test_every_status_the_rules_read_is_declared() -> None:
    assert {s.name for s in Wasteland.contract.statuses} == {
        "defending",
        "overwatch",
        "peeking",
        "dying",
        "surprised",
    }
    overwatch = Wasteland.contract.status("overwatch")
    assert overwatch is not None
    assert {k: (d.type, d.default) for k, d in overwatch.details.items()} == {
        "weapon": (str, ""),
        "mode": (str, "single"),
        "shots": (int, 1),
    }


def test_WL_29_set_defending_with_a_text_bonus_is_refused_naming_the_details() -> None:
    p = fight(who("a"), who("b"), actions=[_set("a", {"defending": {"bonus": "x"}})])
    assert refusal(p) == (1, "bad_value")
    assert p.error is not None
    assert "bonus (int, default 0)" in p.error[1].message


def test_WL_30_set_overwatch_with_text_shots_is_refused_naming_the_details() -> None:
    p = fight(who("a"), who("b"), actions=[_set("a", {"overwatch": {"shots": "x"}})])
    assert refusal(p) == (1, "bad_value")
    assert p.error is not None
    message = p.error[1].message
    assert "weapon (str, default )" in message
    assert "mode (str, default single)" in message
    assert "shots (int, default 1)" in message


def test_WL_30_set_overwatch_with_an_unknown_detail_is_refused() -> None:
    p = fight(who("a"), who("b"), actions=[_set("a", {"overwatch": {"rounds": 2}})])
    assert refusal(p) == (1, "unknown_detail")


@pytest.mark.parametrize(
    ("details", "code"),
    [({"mode": "bursty"}, "bad_value"), ({"shots": -1}, "bad_value")],
)
def test_WL_30_set_overwatch_mode_and_shots_are_checked(details: dict[str, Any], code: str) -> None:
    p = fight(who("a"), who("b"), actions=[_set("a", {"overwatch": details})])
    assert refusal(p) == (1, code)
    assert p.error is not None
    assert "overwatch" in p.error[1].message


def test_WL_29_set_defending_with_a_negative_bonus_is_refused() -> None:
    p = fight(who("a"), who("b"), actions=[_set("a", {"defending": {"bonus": -2}})])
    assert refusal(p) == (1, "bad_value")


def test_WL_30_overwatch_set_without_details_shoots_the_first_weapon_once() -> None:
    p = ok(
        fight(
            who("a", weapons=[PISTOL]),
            who("b", at=(3, 0)),
            actions=[
                _set("a", {"overwatch": {}}),
                act(
                    "a", "overwatch_attack", "b", dice={"attack": 15, "location": 5, "damage": [4]}
                ),
            ],
            order=("b", "a"),
        )
    )
    b = p.state.get("b")
    assert b.hp == 16
    assert p.state.get("a").statuses["overwatch"] == {"weapon": "", "mode": "single", "shots": 0}
    p2 = fight(
        who("a", weapons=[PISTOL]),
        who("b", at=(3, 0)),
        actions=[
            _set("a", {"overwatch": {"shots": 0}}),
            act("a", "overwatch_attack", "b", dice={"attack": 15}),
        ],
    )
    assert refusal(p2) == (2, "no_overwatch_shots")


def test_WL_29_defending_set_without_a_bonus_adds_nothing_to_evasion() -> None:
    p = ok(
        fight(
            who("a", weapons=[PISTOL]),
            who("b", at=(3, 0), weapons=[PISTOL]),
            actions=[_set("b", {"defending": {}}), act("a", "attack", "b", dice={"attack": 11})],
        )
    )
    assert p.state.get("b").statuses["defending"] == {"bonus": 0}
    assert p.state.get("b").hp < 20  # 11 > Evasion 10: a hit
    assert sheet(p, "a").ap == 4


def _file(tmp_path: Path, statuses: dict[str, Any], last: dict[str, Any]) -> str:
    d = doc(
        who("a", weapons=[PISTOL]),
        who("b", at=(3, 0), weapons=[PISTOL]),
        actions=[_set("a", statuses), last],
    )
    path = tmp_path / "w.yaml"
    path.write_text(json.dumps(d), encoding="utf-8")
    return str(path)


@pytest.mark.parametrize("command", ["run", "odds"])
@pytest.mark.parametrize(
    ("statuses", "last"),
    [
        ({"defending": {"bonus": "x"}}, act("b", "attack", "a")),
        ({"overwatch": {"shots": "x"}}, act("a", "overwatch_attack", "b")),
    ],
)
def test_WL_29_WL_30_a_mistyped_status_detail_is_an_error_not_a_crash(
    tmp_path: Path, command: str, statuses: dict[str, Any], last: dict[str, Any]
) -> None:
    result = cli(command, _file(tmp_path, statuses, last), "--json")
    assert result.exit_code == 1
    assert "bad_value: set statuses:" in result.stdout + result.stderr


@pytest.mark.parametrize(
    ("details", "code"),
    [({"weapon": "laser"}, "unknown_weapon"), ({"mode": "burst"}, "no_burst")],
)
def test_WL_30_a_set_overwatch_the_sheet_cannot_shoot_is_refused_by_the_shot(
    details: dict[str, Any], code: str
) -> None:
    p = fight(
        who("a", weapons=[PISTOL]),
        who("b", at=(3, 0)),
        actions=[_set("a", {"overwatch": details}), act("a", "overwatch_attack", "b")],
    )
    assert refusal(p) == (2, code)
