"""``fracas lab compare``: revision A against B, the difference exact."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from fracas.errors import FracasError
from fracas.io.files import parse_text
from fracas.lab.chain import win_odds
from fracas.lab.compare import Variant, compare, sweep, with_options
from fracas.lab.fight import file_start
from tests.lab.duels import DC_PISTOL, duel
from tests.lab.test_chain import attack_dist, duel_dp

# DC-13: an SMG at 3 tiles (close) has +1 in revision A, +0 in B (the modifier moved).
SMG = duel(DC_PISTOL, 4, 5).replace("{is: pistol, loaded: 8}", "{is: smg, loaded: 20}", 1)


def _dp(text: str) -> tuple[object, object]:
    ef = parse_text(text)
    start = file_start(ef)
    dists = {who: attack_dist(ef.ruleset, start, who) for who in ("ana", "bo")}
    return duel_dp((4, 5), 1, lambda who, _: dists[who], escalates=False)


def test_compare_revisions_difference_is_exact() -> None:
    """DC-13 revision A vs B, an SMG at close range: the difference of the win chances
    is the one of the two DP chains, exactly, and it is not 0."""
    a = with_options(SMG, "smg.yaml", "revision=A")
    b = with_options(SMG, "smg.yaml", "revision=B")
    out = compare([a, b])
    assert [v["method"] for v in out["variants"]] == ["exact", "exact"]
    (win_a, _), (win_b, _) = _dp(a.text), _dp(b.text)
    diff = out["differences"][0]["sides"]["a"]
    assert diff["exact"] == f"{(win_b - win_a).numerator}/{(win_b - win_a).denominator}"  # type: ignore[operator]
    assert diff["significant"] is True
    assert win_a > win_b  # type: ignore[operator]


def test_compare_sampled_uses_a_z_test() -> None:
    """Past the state bound both variants are simulated; the same fight twice is not a
    significant difference."""
    v = Variant("same", SMG, "smg.yaml")
    out = compare([v, v], n=400, max_states=5)
    assert out["variants"][0]["method"] == "sim (400 fights)"
    side = out["differences"][0]["sides"]["a"]
    assert side["diff"] == 0 and side["significant"] is False


def test_cli_compare_json(tmp_path: Path) -> None:
    f = tmp_path / "smg.yaml"
    f.write_text(SMG)
    done = subprocess.run(
        [
            sys.executable,
            "-m",
            "fracas",
            "lab",
            "compare",
            str(f),
            "--set",
            "revision=A",
            "--set",
            "revision=B",
            "--json",
        ],
        capture_output=True,
        text=True,
        check=False,
    )
    assert done.returncode == 0, done.stderr
    out = json.loads(done.stdout)
    assert [v["label"] for v in out["variants"]] == ["revision=A", "revision=B"]
    bad = subprocess.run(
        [sys.executable, "-m", "fracas", "lab", "compare", str(f), "--set", "revison=A"],
        capture_output=True,
        text=True,
        check=False,
    )
    assert bad.returncode == 1 and "unknown_option" in bad.stderr


def test_sweep_hp_equals_win_at_each_value() -> None:
    """--sweep bo.hp=5..6: each value is the fight with Bo at that HP (and max HP)."""
    variants = sweep(SMG, "smg.yaml", "bo.hp=5..6")
    assert [v.label for v in variants] == ["bo.hp=5", "bo.hp=6"]
    out = compare(variants)
    for v, hp in zip(out["variants"], (5, 6), strict=True):
        ef = parse_text(
            duel(DC_PISTOL, 4, hp).replace("{is: pistol, loaded: 8}", "{is: smg, loaded: 20}", 1)
        )
        exact = win_odds(ef.ruleset, file_start(ef)).sides["a"]
        assert v["sides"]["a"]["exact"] == f"{exact.numerator}/{exact.denominator}"


@pytest.mark.parametrize(
    ("spec", "code"),
    [
        ("bo.hp=6..2", "bad_value"),
        ("bo.hp=1..x", "bad_value"),
        ("zed.hp=1..3", "unknown_combatant"),
        ("bo.hp=0..2", "bad_value"),
    ],
)
def test_sweep_errors(spec: str, code: str) -> None:
    with pytest.raises(FracasError) as err:
        sweep(SMG, "smg.yaml", spec)
    assert err.value.code == code
