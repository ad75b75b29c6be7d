"""Issue 34, item 6 over the socket (Starlette's test client, raw frames): the win bar
shows no single figure while its 95% interval is wider than ±10 points. The server is
the authority (:func:`fracas.web.winbar.honest`): an estimate that wide is sent as
``"method": "working"`` with the fights played so far and no figure at all; a narrower
one is sent with every figure's interval, the draw's too; a solved bar as it is."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from starlette.testclient import TestClient

from fracas.lab.chain import win_odds
from fracas.lab.sim import wilson
from fracas.web.winbar import WIDE, honest
from tests.web.support import served
from tests.web.test_winbar import DUEL, hello, until

NUMBERS = (int, float)


def figures(bar: dict[str, Any]) -> list[Any]:
    """Every chance the bar carries: each side's, its interval's, the draw's."""
    out: list[Any] = [bar["draw"], bar.get("draw_ci95")]
    for side in bar["sides"].values():
        out += [side["win"], side["ci95"]]
    return [f for f in out if f is not None]


def within(p: float, ci: list[float]) -> bool:
    """``p`` in its interval (Wilson's bounds round by 1e-18 or so), within ±10 points."""
    return ci[0] - 1e-12 <= p <= ci[1] + 1e-12 and max(p - ci[0], ci[1] - p) <= WIDE


def bars_until_final(ws: Any, seq: int) -> list[dict[str, Any]]:
    """Every bar the page is sent for record ``seq``, up to the final one."""
    bars: list[dict[str, Any]] = []
    for _ in range(60):
        message = until(ws, "winbar")
        if message["seq"] != seq or message["bar"] is None:
            continue
        bars.append(message["bar"])
        if message["bar"]["final"]:
            return bars
    raise AssertionError(f"no final bar for seq {seq}: {bars}")


def estimate(wins: dict[str, int], draws: int, *, final: bool = False) -> dict[str, Any]:
    """A bar as :meth:`fracas.lab.bar.WinBar.to_json` gives an estimate of so many fights."""
    n = sum(wins.values()) + draws
    return {
        "method": "estimate",
        "sides": {
            s: {"win": k / n, "ci95": list(wilson(k, n)), "certain": False} for s, k in wins.items()
        },
        "draw": draws / n,
        "draw_certain": False,
        "fights": n,
        "states": 0,
        "residual": None,
        "final": final,
        "growing": 120,
        "idle": [],
        "cut_by_time": False,
    }


def test_a_wide_estimate_is_sent_without_a_figure_and_with_its_fights() -> None:
    bar = honest(estimate({"players": 7, "raiders": 5}, 0))  # 12 fights: about ±27 points
    assert bar["method"] == "working" and bar["too_wide"] is True
    assert bar["fights"] == 12 and bar["final"] is False and bar["growing"] == 120
    assert bar["sides"] == {} and figures(bar) == []


def test_one_wide_figure_withholds_them_all_the_draws_included() -> None:
    # 200 fights: every side within ±7 points, the draw (0 of them) within ±2
    assert honest(estimate({"players": 120, "raiders": 80}, 0))["method"] == "estimate"
    # 30 fights won by the players alone: the players' 100% is sure to within ±12 points
    assert honest(estimate({"players": 30, "raiders": 0}, 0))["method"] == "working"
    # a final estimate still too wide (its budget of fights ran out) stays without one
    wide = honest(estimate({"players": 10, "raiders": 10}, 0, final=True))
    assert wide["method"] == "working" and wide["final"] is True and figures(wide) == []


def test_a_narrow_estimate_carries_every_interval_the_draws_too() -> None:
    bar = honest(estimate({"players": 250, "raiders": 130}, 20))
    assert bar["method"] == "estimate" and bar["too_wide"] is False
    assert bar["draw_ci95"] == list(wilson(20, 400))
    for side in bar["sides"].values():
        assert within(side["win"], side["ci95"])
    assert within(bar["draw"], bar["draw_ci95"])


def test_a_solved_bar_and_a_bar_with_no_fight_yet_are_sent_as_they_are() -> None:
    exact = {**estimate({"players": 1, "raiders": 1}, 0, final=True), "method": "exact"}
    assert honest(exact) == {**exact, "draw_ci95": None, "too_wide": False}
    none_yet = {**estimate({"players": 1}, 0), "method": "working", "sides": {}, "fights": 0}
    sent = honest(none_yet)
    assert sent["method"] == "working" and sent["fights"] == 0 and sent["too_wide"] is False
    assert figures(sent) == []


def test_over_the_socket_a_wide_estimate_carries_no_figure(tmp_path: Path) -> None:
    """The chain is given up at once (5 states) and the bar may play 20 fights, the first
    slice's: an estimate of 20 fights is never within ±10 points (Wilson's interval,
    whatever the wins), so no bar the page is sent carries a chance; each says how many
    fights so far, and the last, final, says 20. (The slices' wall-time bound is
    widened: only the work decides how many fights each plays.)"""
    with served(tmp_path, DUEL + "# wide\n") as s:
        s.app.state.hub.winbars.limits.update(max_states=5, fights=20, seconds=30.0)
        client = TestClient(s.app)
        with client.websocket_connect(f"/ws?token={s.gm}") as gm:
            seq = hello(gm)["seq"]
            bars = bars_until_final(gm, seq)
    for bar in bars:
        assert bar["method"] == "working", bar
        assert bar["sides"] == {} and figures(bar) == [], bar
        assert isinstance(bar["fights"], int) and 0 <= bar["fights"] <= 20
        assert bar["too_wide"] is (bar["fights"] > 0)
    assert bars[-1]["fights"] == 20 and bars[-1]["too_wide"] is True


def test_over_the_socket_a_narrow_estimate_carries_its_interval(tmp_path: Path) -> None:
    """Up to 400 fights: the first slice's 20 come as words alone; every estimate sent
    after it is within ±10 points, each side's figure and the draw's with its interval,
    and the last (400 fights) holds the exact chance within its interval (the wall-time
    bound widened, so that the clock never cuts the first slice short of its 20)."""
    with served(tmp_path, DUEL + "# narrow\n") as s:
        s.app.state.hub.winbars.limits.update(max_states=5, fights=400, seconds=30.0)
        client = TestClient(s.app)
        with client.websocket_connect(f"/ws?token={s.gm}") as gm:
            seq = hello(gm)["seq"]
            bars = bars_until_final(gm, seq)
        exact = float(win_odds(s.table.ruleset, s.table.state).sides["players"])
    assert any(b["method"] == "working" and b["fights"] > 0 for b in bars), bars
    for bar in bars:
        if bar["method"] == "working":
            assert figures(bar) == [] and bar["fights"] < 400, bar
            continue
        assert bar["method"] == "estimate" and bar["too_wide"] is False, bar
        for side in bar["sides"].values():
            assert isinstance(side["win"], NUMBERS) and within(side["win"], side["ci95"]), bar
        assert within(bar["draw"], bar["draw_ci95"]), bar
    last = bars[-1]
    assert last["method"] == "estimate" and last["fights"] == 400
    lo, hi = last["sides"]["players"]["ci95"]
    assert lo <= exact <= hi
