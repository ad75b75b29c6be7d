"""The tracker's win bar: each side's chance to win from a live state, in short slices
of work, each answering at once with what it knows (docs/lab.md, "The win bar").

One slice (:func:`bar_slice`) is a slice of **work**: :data:`FIRST` for a new state
and :data:`SLICE` for each refinement after it (fights played, chain states expanded),
each within an outer bound of wall time (:data:`BAR_SECONDS`; a slice it cuts says so,
``cut_by_time``, and leaves the rest to the next slice):

1. a state found in a chain already solved for this table (:mod:`fracas.lab.keep`:
   the fight's chain from an earlier state, under the same tactics) is answered from
   its values: exact (Fractions) or floating point, said so; final;
2. else fights are played from the state through the real rules and the tactics, the
   fight number ``i`` seeded from (seed, ``i``) alone, added to the ones already played
   from it: an **estimate** with each side's 95% Wilson interval;
3. and the fight's chain from the state is grown further (taken up where the last
   slice left it); once it is whole it is solved (in Fractions up to
   :data:`EXACT_STATES`, else in floating point) and kept, and the bar says so. Past
   :data:`BAR_STATES` states the chain is given up for this state and the estimate goes
   on until its interval is within :data:`HALF`, or :data:`BAR_FIGHTS` fights (final).

A server's worker plays the fights in a process it forks instead (``alongside``,
:mod:`fracas.lab.alongside`: on the machine's other core, while it grows the chain),
and counts the same fights the same way.

Where a slice is cut, the next one takes up the same work: the chain where it stopped,
the fight it dropped with the same seed. So the bar's final answer (the chain's values,
or the estimate of so many fights) is the same on a quiet and on a busy machine; only
how soon it comes differs.

A face asks for the next slice while the state stands and the bar is not final
(``fracas serve``'s bar, :mod:`fracas.web.winbar`); nothing here knows of pages or
sockets. The bar says "exact" only of an exact chain's values.
"""

from __future__ import annotations

import time
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from fracas.errors import FracasError
from fracas.io.files import Tactic
from fracas.lab.alongside import FORKS, Alongside, bar_rng
from fracas.lab.chain import Chain, Solved
from fracas.lab.fight import DRAW, canonical, sides_of
from fracas.lab.keep import LOCK, Kept, kept
from fracas.lab.sim import play, wilson
from fracas.model import Encounter
from fracas.model.frozen import FrozenDict
from fracas.rulesets.base import Ruleset, is_down

__all__ = [
    "BAR_FIGHTS",
    "BAR_SECONDS",
    "BAR_STATES",
    "FIRST",
    "FIRST_FIGHTS",
    "FIRST_STATES",
    "SLICE",
    "SLICE_FIGHTS",
    "SLICE_STATES",
    "WinBar",
    "bar_in_worker",
    "bar_slice",
    "win_bar",
]

FIRST_STATES = 300
"""Chain states the first slice of a new state expands (0.7-3 ms each in most examples)."""
FIRST_FIGHTS = 20
"""Fights the first slice of a new state plays."""
SLICE_STATES = 300
"""Chain states each later slice expands."""
SLICE_FIGHTS = 20
"""Fights each later slice plays (five times as many once the chain is given up)."""
FIRST: Mapping[str, Any] = FrozenDict({"slice_states": FIRST_STATES, "slice_fights": FIRST_FIGHTS})
"""The work of the first slice of a new state (:func:`bar_slice`'s arguments)."""
SLICE: Mapping[str, Any] = FrozenDict({"slice_states": SLICE_STATES, "slice_fights": SLICE_FIGHTS})
"""The work of each later slice."""
BAR_SECONDS = 1.0
"""The outer bound on one slice's wall time (half for the fights, the rest for the
chain): a slice it cuts leaves its work to the next one."""
BAR_STATES = 50_000
"""States past which the bar gives up the chain for the estimate."""
EXACT_STATES = 20_000
"""States up to which a whole chain is solved in Fractions (else in floating point)."""
BAR_FIGHTS = 20_000
"""Fights an estimate plays at most."""
HALF = 0.01
"""An estimate is final once every side's 95% interval is within this of its rate."""
_SHOWN = (0.10, 0.05)
"""The widths of an estimate a slice waiting for fights answers at once on reaching:
the first a page shows a figure at (±10 points, :data:`fracas.web.winbar.WIDE`), and
±5 points (issue 34's goal for the bar)."""
_GIVEN_UP = 5
"""How many times a slice's fights it plays once the chain is given up."""


@dataclass(frozen=True)
class WinBar:
    """Each side's chance to be the last standing: solved, or estimated."""

    sides: dict[str, float]
    draw: float
    method: str
    """``exact`` (a chain's values in Fractions), ``float`` (a chain's values in floating
    point) or ``estimate`` (fights)."""
    ci95: dict[str, tuple[float, float]] = field(default_factory=dict)
    """Per side, the 95% interval of an estimate (empty when solved)."""
    fights: int = 0
    states: int = 0
    """The solved chain's states (0 for an estimate)."""
    residual: float | None = None
    certain: dict[str, bool] = field(default_factory=dict)
    """Per side and ``draw``: the chance is exactly 0 or 1 (an exact chain's)."""
    final: bool = True
    """Nothing more to work out for this state (else a face asks again)."""
    growing: int = 0
    """States of the chain being grown meanwhile (an estimate's)."""
    idle: tuple[str, ...] = ()
    """The names of combatants who only end their turns in the solved chain; a face
    shows them to the game master."""
    cut_by_time: bool = False
    """The slice's wall-time bound cut its work (the next slice takes it up)."""

    @property
    def exact(self) -> bool:
        return self.method == "exact"

    def to_json(self) -> dict[str, Any]:
        return {
            "method": self.method,
            "sides": {
                s: {
                    "win": p,
                    "ci95": list(self.ci95[s]) if s in self.ci95 else None,
                    "certain": self.certain.get(s, False),
                }
                for s, p in self.sides.items()
            },
            "draw": self.draw,
            "draw_certain": self.certain.get(DRAW, False),
            "fights": self.fights,
            "states": self.states,
            "residual": self.residual,
            "final": self.final,
            "growing": self.growing,
            "idle": list(self.idle),
            "cut_by_time": self.cut_by_time,
        }


def bar_slice(
    keep: Kept,
    state: Encounter,
    *,
    seconds: float = BAR_SECONDS,
    seed: int = 0,
    max_states: int = BAR_STATES,
    fights: int = BAR_FIGHTS,
    slice_states: int = FIRST_STATES,
    slice_fights: int = FIRST_FIGHTS,
    alongside: bool = False,
) -> WinBar:
    """One slice of the bar of ``state`` (the module's docstring): ``slice_fights``
    fights and ``slice_states`` states of the chain, within ``seconds`` at most.

    ``alongside``: the fights are played in a process forked from this one
    (:class:`~fracas.lab.alongside.Alongside`, on the machine's other core) for as long
    as the state stands, and the slice takes those finished; the chain gets the whole
    slice. For a worker process of a server only (a process with threads of its own
    must not fork), on a system that forks. The tally is the same fights', in the same
    order.

    Raises:
        FracasError: what the rules refuse in the fights (the policy takes only actions
            the rules allow, so a bug).
    """
    begun = time.monotonic()
    deadline = begun + seconds
    sides = sides_of(state)
    root = canonical(state)
    alongside = alongside and FORKS
    if keep.alongside is not None and keep.alongside.root != root:
        keep.alongside.rest()  # the table moved on: those fights are not wanted
    found = keep.lookup(state)
    if found is not None:
        return _solved_bar(found[0], found[1], sides, state)
    tally = keep.tally(root)
    given_up = root in keep.given_up
    cut = False
    if not alongside or not _alongside(keep, state, root, seed, fights, begun + seconds, given_up):
        # fights first: a bar within the slice whatever the chain does (a fight the
        # slice stops is dropped; the next slice plays it again, with the same seed)
        share = begun + seconds * (0.5 if not given_up else 0.95)
        want = min(fights, tally.fights + slice_fights * (_GIVEN_UP if given_up else 1))
        while tally.fights < want and not _precise(tally, sides):
            one = play(
                keep.ruleset,
                state,
                keep.policy,
                bar_rng(seed, tally.fights),
                1,
                stop=_past(share),
                abandon=True,
                played=keep.played,
            )
            if one.fights == 0:
                cut = True
                break
            tally.add(one)
    # then the chain, taken up where it was left, for so many states
    growing = 0
    if root not in keep.given_up:
        chain = keep.growing
        if chain is None or chain.states[0] != chain.key(state):
            chain = keep.growing = Chain(keep.ruleset, keep.policy, sides, max_states=max_states)
            chain.node(state)
        upto = chain.expanded + slice_states
        late = _past(deadline)
        timed: list[bool] = []

        def stop() -> bool:
            if chain.expanded >= upto:
                return True
            if late():
                timed.append(True)
                return True
            return False

        try:
            chain.grow(stop)
        except FracasError as exc:
            if exc.code != "too_slow":  # too many states or paths: the estimate goes on
                keep.given_up.add(root)
                keep.growing = None
            cut = cut or bool(timed)
            growing = chain.size
        else:
            solved = chain.exact() if chain.size <= EXACT_STATES else chain.floating()
            keep.keep(solved)
            keep.growing = None
            if keep.alongside is not None:
                keep.alongside.rest()
            values = solved.sides(state)
            assert values is not None
            return _solved_bar(solved, dict(values), sides, state)
    if alongside:
        _alongside(keep, state, root, seed, fights, 0.0, False)  # what came meanwhile
    if tally.fights == 0:  # not one fight ended in the slice yet: say so
        return WinBar({}, 0.0, "working", final=False, growing=growing, cut_by_time=cut)
    n = tally.fights
    final = root in keep.given_up and (_precise(tally, sides) or n >= fights)
    return WinBar(
        {s: tally.wins.get(s, 0) / n for s in sides},
        tally.wins.get(DRAW, 0) / n,
        "estimate",
        {s: wilson(tally.wins.get(s, 0), n) for s in sides},
        fights=n,
        final=final,
        growing=growing,
        cut_by_time=cut,
    )


def _alongside(
    keep: Kept,
    state: Encounter,
    root: Encounter,
    seed: int,
    fights: int,
    until: float,
    given_up: bool,
) -> bool:
    """Add to ``root``'s tally the fights its :class:`Alongside` finished, one by one,
    with the stops of the slice's own loop (``fights`` in all, an interval within
    :data:`HALF`), giving it the state where it plays another (or none); waiting for
    them until ``until`` where the chain is given up (the slice has nothing else to
    do). False where it ended before those stops (a fight failed there: the slice plays
    the fights itself, and says why)."""
    if root in keep.alongside_failed:
        return False
    tally = keep.tally(root)
    sides = sides_of(state)

    def enough() -> bool:  # the slice's own loop's stops
        return tally.fights >= fights or _precise(tally, sides)

    helper = keep.alongside
    if enough():
        if helper is not None:
            helper.rest()
        return True
    if helper is None:
        helper = keep.alongside = Alongside(keep.ruleset, keep.policy, keep.played)
    if helper.root != root or helper.next != tally.fights:
        helper.play(root, state, seed=seed, first=tally.fights, upto=fights)
    was = _widest(tally, sides)
    while True:
        got = helper.take(max(0.0, until - time.monotonic()) if given_up else 0.0)
        for one in got:
            if enough():
                break
            tally.add(one)
        if enough():
            helper.rest()
            return True
        if helper.done:
            keep.stop_alongside()
            keep.alongside_failed.add(root)
            return False
        now = _widest(tally, sides)
        if not got or time.monotonic() >= until or any(now <= m < was for m in _SHOWN):
            return True  # nothing more, the slice's time up, or a width a page shows


def _past(deadline: float) -> Any:
    return lambda: time.monotonic() > deadline


def _precise(tally: Any, sides: list[str]) -> bool:
    return _widest(tally, sides) <= HALF


def _widest(tally: Any, sides: list[str]) -> float:
    """The widest half of a 95% interval of the estimate (each side's, the draw's)."""
    n = tally.fights
    if n == 0:
        return 1.0
    widest = 0.0
    for label in (*sides, DRAW):
        k = tally.wins.get(label, 0)
        lo, hi = wilson(k, n)
        widest = max(widest, k / n - lo, hi - k / n)
    return widest


def _solved_bar(
    solved: Solved, values: dict[str, Any], sides: list[str], state: Encounter
) -> WinBar:
    exact = solved.method == "exact"
    chain = solved.chain
    rs = chain.ruleset
    return WinBar(
        {s: float(values[s]) for s in sides},
        float(values[DRAW]),
        solved.method,
        states=chain.size,
        residual=None if exact else solved.residual,
        certain={s: solved.certain(s, values[s]) for s in [*sides, DRAW]},
        idle=tuple(
            state.name(c.id)
            for c in state.combatants.values()
            if not is_down(rs, c) and c.id not in chain.acted
        ),
    )


def win_bar(
    ruleset: Ruleset,
    state: Encounter,
    tactics: Mapping[str, Tactic] | None = None,
    *,
    seconds: float = 30.0,
    seed: int = 0,
    key: str = "",
) -> WinBar:
    """The bar of ``state`` worked out in slices until final, or until ``seconds`` pass
    (an outer bound: the bar then is the last slice's), for a face that waits for one
    answer (the command line, tests)."""
    deadline = time.monotonic() + seconds
    with LOCK:
        keep = kept(key or f"\0win_bar/{id(ruleset)}", ruleset, tactics or {})
        bar = bar_slice(keep, state, seed=seed, **FIRST)
        while not bar.final and time.monotonic() < deadline:
            bar = bar_slice(keep, state, seed=seed, **SLICE)
        return bar


def bar_in_worker(
    key: str,
    ruleset: Ruleset,
    tactics: Mapping[str, Tactic],
    state: Encounter,
    seed: int,
    limits: Mapping[str, Any],
) -> dict[str, Any]:
    """One slice (:func:`bar_slice`) as an executor's task (a top-level function: it may
    run in a process pool), the caches kept per ``key`` between calls; the bar as
    JSON. ``limits``: :func:`bar_slice`'s (``slice_states`` and ``slice_fights``: the
    slice's work, :data:`FIRST` or :data:`SLICE`; ``seconds``: its outer bound;
    ``max_states``, ``fights``)."""
    with LOCK:
        keep = kept(key, ruleset, tactics)
        return bar_slice(keep, state, seed=seed, **limits).to_json()
