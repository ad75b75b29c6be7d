"""``fracas lab win`` (issue 23): the chain solved in floating point (scipy's sparse LU)
equals the rational one within 1e-12 on every chain small enough for both; each method
says what it is; 100% or 0% only when certain; the estimate agrees with the chain
within its interval."""

from __future__ import annotations

import time
from pathlib import Path
from typing import Any

import pytest

from fracas.io.files import parse_text
from fracas.lab.ahead import Ahead
from fracas.lab.chain import MAX_PATHS, Chain
from fracas.lab.fight import file_start, sides_of
from fracas.lab.policy import Policy
from fracas.lab.sim import PRECISE_CHUNK, Chunk, precise, run_chunk
from fracas.lab.win import percent, win
from tests.lab.duels import DC_MELEE, DC_PISTOL, ESCALATION, TIER, duel
from tests.lab.mirrors import MIRRORS, mirror

EXAMPLES = Path(__file__).parent.parent.parent / "examples"

SMALL = {
    "dc-melee": duel(DC_MELEE, 8, 8),
    "dc-pistol": duel(DC_PISTOL, 12, 12),
    "tier": duel(TIER, 8, 8),
    "escalation": duel(ESCALATION, 10, 10),
    **{f"mirror-{r}": mirror(r, "bo", "default") for r in sorted(MIRRORS)},
    "tier-duel example": (EXAMPLES / "tier-duel.yaml").read_text(),
}


@pytest.mark.parametrize("name", sorted(SMALL))
def test_the_float_solve_equals_the_rational_one_within_1e_12(name: str) -> None:
    ef = parse_text(SMALL[name], f"{name}.yaml")
    start = file_start(ef)
    chain = Chain(ef.ruleset, Policy(ef.ruleset, ef.tactics), sides_of(start), max_paths=MAX_PATHS)
    chain.node(start)
    chain.grow()
    exact, floating = chain.exact(), chain.floating()
    assert floating.method == "float" and 0 <= floating.residual < 1e-12
    worst = max(
        abs(float(q) - f)
        for ev, fv in zip(exact.values, floating.values, strict=True)
        for q, f in zip(ev, fv, strict=True)
    )
    assert worst < 1e-12, (name, chain.size, worst)
    print(f"\n{name}: {chain.size} states, largest difference {worst:.1e}, "
          f"residual {floating.residual:.1e}")  # fmt: skip


def test_each_method_says_what_it_is_on_the_tier_duel_example() -> None:
    text = (EXAMPLES / "tier-duel.yaml").read_text()
    exact = win(text, "tier-duel.yaml", methods=("exact",))
    assert exact.method == "exact" and exact.to_json()["sides"]["players"]["exact"]
    floating = win(text, "tier-duel.yaml", methods=("float",), exact_states=0)
    assert floating.method == "float" and floating.residual is not None
    assert floating.residual < 1e-12 and floating.to_json()["residual"] == floating.residual
    assert floating.states == exact.states
    for side, p in exact.sides.items():
        assert floating.sides[side] == pytest.approx(p, abs=1e-12)
    # the estimate's budget of fights widened to what its interval of 1 point needs
    estimate = win(
        text, "tier-duel.yaml", methods=("estimate",), fights=20_000, seconds=600, workers=1
    )
    data = estimate.to_json()
    assert data["method"] == "estimate" and data["precise"] is True and "states" not in data
    for side, p in exact.sides.items():
        lo, hi = estimate.ci95[side]
        assert hi - lo <= 0.02 + 1e-9
        assert lo <= p <= hi, (side, lo, p, hi)  # the seeded estimate covers the chain's
    assert exact.idle == floating.idle == estimate.idle == ()


def test_100_or_0_percent_only_when_certain() -> None:
    assert percent(1.0, True) == "100%" and percent(0.0, True) == "0%"
    assert percent(1.0) == ">99.99%" and percent(0.99999) == ">99.99%"
    assert percent(0.0) == "<0.01%" and percent(0.00001, True) == "<0.01%"
    assert percent(0.5397) == "53.97%"


def test_fights_played_ahead_are_the_chunks_the_seed_names() -> None:
    """While the chain grows, the other core plays the estimate's first chunks
    (:class:`fracas.lab.ahead.Ahead`): each chunk it sends is the very tally the
    estimate would have played itself for that chunk (same seed, same index), and
    its process has ended once they are taken."""
    text = duel(ESCALATION, 10, 10)
    ahead = Ahead(text, "duel.yaml", seed=3, deadline=time.monotonic() + 60)
    assert ahead._got.poll(30), "no chunk played in 30 s"  # the first chunk is on its way
    got = ahead.take()
    assert got
    assert not ahead._proc.is_alive()
    for i, tally in enumerate(got):
        again = run_chunk(Chunk(text, "duel.yaml", 3, i, PRECISE_CHUNK))
        assert tally.fights == PRECISE_CHUNK
        assert (tally.wins, tally.rounds, tally.dealt) == (again.wins, again.rounds, again.dealt)
    assert ahead.take() is got  # taken once: a second take gives the same, starts nothing


def test_an_estimate_with_fights_played_ahead_is_the_one_played_here(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """The chain refused after 1.5 s (a cap of 5 states, and a wait): the estimate of a
    close duel (about 9,600 fights for its interval, a few thousand of them played ahead),
    counted from the chunks played ahead and then on two workers, is the one a single
    process gives for the same seed (the same fights, the same stop)."""
    text = duel(DC_MELEE, 8, 8)
    grow, take = Chain.grow, Ahead.take
    taken: list[int] = []

    def slow_grow(self: Chain, stop: Any = None) -> None:
        time.sleep(1.5)
        grow(self, stop)

    def counted(self: Ahead) -> list[Any]:
        got = take(self)
        taken.append(len(got))
        return got

    monkeypatch.setattr(Chain, "grow", slow_grow)
    monkeypatch.setattr(Ahead, "take", counted)
    both = win(text, "duel.yaml", max_states=5, fights=20_000, seed=4, workers=2, seconds=600)
    assert taken and taken[0] > 0, "no chunk was played ahead"
    assert both.method == "estimate" and both.precise
    here, enough = precise(text, "duel.yaml", half=0.01, seed=4, workers=1)
    assert enough
    assert both.fights == here.n
    assert both.sides == {s: here.win(s) for s in both.sides}
