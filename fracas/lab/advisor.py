"""The advisor: for the combatant whose turn it is, every choice the tactics weigh,
ranked by the tactics' own ranking (:func:`~fracas.lab.plans.rank`: the same code,
so its first choice is the one the tactics take), each with the exact odds of its
attack (:func:`fracas.odds.action.action_odds`, what ``fracas odds`` gives for that action in
the state it is taken in: chance to hit, expected damage, chance to down) and, where
the fight's chain can say, the side's chance to win after it, with one line on why
(docs/lab.md, "The advisor").

The chances to win come from the chains solved for the table (:mod:`fracas.lab.keep`)
and, for the states they lack, from one chain grown from them all within
:data:`ADVICE_STATES` states (in Fractions where small, else in floating point); a
choice whose states the chain does not reach within them has none. Every budget is
work (dice paths, samples, states): the same advice on a quiet and a busy machine;
``seconds`` only bounds the wall time, and advice it cuts says so (``cut_by_time``).
"""

from __future__ import annotations

import dataclasses
import time
from dataclasses import dataclass, field
from fractions import Fraction
from typing import Any

from fracas.errors import FracasError
from fracas.io.files import action_json
from fracas.lab.chain import Chain, Solved
from fracas.lab.fight import sides_of
from fracas.lab.keep import Kept
from fracas.lab.plans import Plan, pct, rank
from fracas.lab.policy import SCORE_PATHS
from fracas.model import Encounter
from fracas.odds.action import Odds, action_odds

__all__ = [
    "ADVICE_PATHS",
    "ADVICE_SAMPLES",
    "ADVICE_SECONDS",
    "ADVICE_STATES",
    "Advice",
    "Advised",
    "advice_lines",
    "advise",
    "with_chances",
]

ADVICE_SECONDS = 15.0
"""The outer bound on the advice's wall time (the work budgets below decide it)."""
ADVICE_STATES = 12_000
"""States of the chain grown for the chances to win, at most (0.1-0.3 ms each in most
examples: the dice-combat example's 9,528 and tier-duel's 5,323 with its choices'
states, about 2 CPU s each; the page shows the choices before them:
:meth:`fracas.table.questions.AdviceQuestion.list_first`)."""
EXACT_STATES = 20_000
"""States up to which that chain is solved in Fractions."""
ADVICE_PATHS = 5_000
"""Dice paths one choice's exact odds may take before they are an estimate."""
ADVICE_SAMPLES = 1_000
"""Seeded samples of one choice's estimate."""


@dataclass(frozen=True)
class Advised:
    """One choice of the advice."""

    rank: int
    """1 for the best (the tactics' own choice)."""
    plan: Plan
    odds: Odds | None
    """The odds of its attack in the state it is taken in (none for a choice without
    an attack)."""
    win: float | None
    """The side's chance to win after it, where the chain can say."""


@dataclass(frozen=True)
class Advice:
    """The advice for the combatant whose turn it is."""

    actor: str
    side: str
    choices: tuple[Advised, ...]
    win: float | None
    """The side's chance to win now (the tactics' choice taken), where the chain can say."""
    method: str | None
    """How the chances to win were found: ``exact`` or ``float`` (None: not found)."""
    states: int = 0
    preset: str = "default"
    """The preset the actor plays by: its first choice is "the tactics' choice" only
    where that is ``default`` (``naive`` and ``random`` choose otherwise)."""
    cut_by_time: bool = field(default=False)
    """The wall-time bound cut some of the work (a choice's odds, or the chain): the
    advice depends on the machine's speed."""
    unsolved: str | None = None
    """Why the chances to win were asked and not found, in plain words (None: found, or
    not asked)."""

    def to_json(self, state: Encounter) -> dict[str, Any]:
        """The advice as data (``fracas lab advise --json``, the page's panel)."""
        out: list[dict[str, Any]] = []
        for c in self.choices:
            p = c.plan
            entry: dict[str, Any] = {
                "rank": c.rank,
                "kind": p.kind,
                "tactics": c.rank == 1 and self.preset == "default",
                "steps": [action_json(a) for a in p.steps],
                "why": p.why,
                "plain": plain_why(p, c.odds, state),
                "score": {"downs": float(p.score[0]), "hp": float(p.score[1])},
                "target": p.attack.target if p.attack is not None else None,
                "odds": c.odds.to_json() if c.odds is not None else None,
                "win": c.win,
            }
            out.append(entry)
        return {
            "actor": self.actor,
            "name": state.name(self.actor),
            "side": self.side,
            "win": self.win,
            "method": self.method,
            "states": self.states,
            "preset": self.preset,
            "cut_by_time": self.cut_by_time,
            "unsolved": self.unsolved,
            "choices": out,
        }


def plain_why(plan: Plan, odds: Odds | None, state: Encounter) -> str:
    """The line on why without the chance to take anyone down nor any HP figure (for
    someone who does not see the enemies' HP exactly)."""
    lead = [_step(a) for a in plan.steps[:-1]] if plan.attack is not None else []
    if plan.attack is not None:
        a = plan.attack
        bits = []
        if odds is not None and a.target is not None and a.target in odds.combatants:
            o = odds.combatants[a.target]
            if o.hit is not None:
                bits.append(f"hits {float(o.hit) * 100:.0f}% of the time")
            bits.append(f"{float(o.mean):.1f} damage expected")
        on = state.name(a.target) if a.target is not None else "the tile"
        text = f"{a.do} {on}: " + (", ".join(bits) or "the odds above")
        if plan.kind == "none":
            text += " (helps nothing)"
        return ", then ".join([*lead, text])
    if plan.kind == "prepare":
        return f"{_step(plan.first)}: a better attack at its next turn"
    if plan.kind == "guard":
        return f"{_step(plan.first)}: the enemies' best attacks take less"
    return plan.why


def _step(action: Any) -> str:
    if action.do == "move":
        to = action.params.get("to")
        return f"walk to [{to[0]}, {to[1]}]"
    return " ".join([action.do.replace("_", " "), *(str(v) for v in action.params.values())])


def advise(
    keep: Kept,
    state: Encounter,
    *,
    seconds: float = ADVICE_SECONDS,
    seed: int = 0,
    win: bool = True,
    max_paths: int = ADVICE_PATHS,
    samples: int = ADVICE_SAMPLES,
    max_states: int = ADVICE_STATES,
) -> Advice:
    """The advice for whoever's turn it is in ``state`` (``keep``: the table's tactics
    and chains). ``win``: work out the chances to win too (:func:`with_chances`). Each
    choice's odds take at most ``max_paths`` dice paths (then ``samples`` samples), the
    chain ``max_states`` states; ``seconds`` bounds the wall time of it all.

    Raises:
        FracasError: what the rules refuse of a choice's odds (a bug: every choice is
            one the rules take).
    """
    begun = time.monotonic()
    policy = keep.policy
    rs = keep.ruleset
    actor = state.turn.actor
    side = state.get(actor).side
    plans = rank(policy, state, every=True)
    odds: list[Odds | None] = []
    cut = False
    for p in plans:
        if p.attack is None or p.before is None:
            odds.append(None)
            continue
        left = seconds - (time.monotonic() - begun)
        found = action_odds(
            rs, p.before, p.attack, seed=seed, seconds=max(0.05, left), max_paths=max_paths,
            samples=samples,
        )  # fmt: skip
        cut = cut or found.cut_by_time
        odds.append(found)
    listed = Advice(
        actor,
        side,
        tuple(Advised(i + 1, p, o, None) for i, (p, o) in enumerate(zip(plans, odds, strict=True))),
        None,
        None,
        0,
        policy.preset(state, actor),
        cut,
    )
    if not win:
        return listed
    return with_chances(keep, state, listed, deadline=begun + seconds, max_states=max_states)


def with_chances(
    keep: Kept,
    state: Encounter,
    listed: Advice,
    *,
    deadline: float,
    max_states: int = ADVICE_STATES,
) -> Advice:
    """``listed`` (:func:`advise`'s choices of ``state``, without the chances) with the
    side's chance to win now and after each choice, where a chain within ``max_states``
    states (or ``deadline``, :func:`time.monotonic`'s outer bound) can say; else why not
    (``unsolved``)."""
    side = listed.side
    outcomes = [_outcomes(keep, state, c.plan) for c in listed.choices]
    solved, why = _chain(keep, state, [o for o in outcomes if o is not None], deadline, max_states)
    unsolved = None if why is None else _UNSOLVED[why].format(states=max_states)
    method, states = (solved.method, solved.chain.size) if solved is not None else (None, 0)
    now = _value(keep, state, side)
    wins: list[float | None] = [None] * len(outcomes)
    for i, dist in enumerate(outcomes):
        if dist is None:
            continue
        total = 0.0
        for n, q in dist.items():
            v = _value(keep, n, side)
            if v is None:
                break
            total += float(q) * v
        else:
            wins[i] = total
    if method is None and now is not None:
        found_now = keep.lookup(state)
        if found_now is not None:
            method, states = found_now[0].method, found_now[0].chain.size
    return dataclasses.replace(
        listed,
        choices=tuple(
            dataclasses.replace(c, win=w) for c, w in zip(listed.choices, wins, strict=True)
        ),
        win=now,
        method=method,
        states=states,
        cut_by_time=listed.cut_by_time or why == "too_slow",
        unsolved=unsolved,
    )


def _outcomes(keep: Kept, state: Encounter, plan: Plan) -> dict[Encounter, Fraction] | None:
    """The states ``plan``'s steps lead to, with their chances (None where the rules
    refuse a step, or one has too many dice paths)."""
    policy = keep.policy
    now = state
    for step in plan.steps[:-1]:
        after = policy.certain(now, step)
        if after is None:
            return None
        now = after
    try:
        return dict(
            policy.transitions.next_states(now, plan.steps[-1], max_paths=SCORE_PATHS).states
        )
    except FracasError:
        return None


def _value(keep: Kept, state: Encounter, side: str) -> float | None:
    found = keep.lookup(state)
    return None if found is None else float(found[1][side])


def _chain(
    keep: Kept,
    state: Encounter,
    outcomes: list[dict[Encounter, Fraction]],
    deadline: float,
    max_states: int = ADVICE_STATES,
) -> tuple[Solved | None, str | None]:
    """One chain from ``state`` and every outcome state no solved chain has, grown to at
    most ``max_states`` states (or until ``deadline``, the outer bound); solved and
    kept where it ends; and, where it did not, why (the chain's refusal's code)."""
    missing = [n for dist in outcomes for n in dist if keep.lookup(n) is None]
    if keep.lookup(state) is None:
        missing.insert(0, state)
    if not missing:
        return None, None
    known = keep.unsolved.get((state, max_states))
    if known is not None:  # the same work again would end the same way
        return None, known
    chain = Chain(keep.ruleset, keep.policy, sides_of(state), max_states=max_states)
    for n in missing:
        chain.node(n)
    try:
        chain.grow(lambda: time.monotonic() > deadline)
    except FracasError as exc:
        if exc.code not in _UNSOLVED:
            raise
        if exc.code != "too_slow":  # a bound of work, not of time: kept
            keep.remember_unsolved((state, max_states), exc.code)
        return None, exc.code
    solved = chain.exact() if chain.size <= EXACT_STATES else chain.floating()
    keep.keep(solved)
    return solved, None


_UNSOLVED = {
    "too_many_states": "the fight reaches more than {states:,} states from here, too many "
    "to work out for the advice; the win bar estimates it (fracas lab win at a command line)",
    "too_many_paths": "an action of the fight has too many dice paths to work out exactly; "
    "the win bar estimates it (fracas lab win at a command line)",
    "too_slow": "the time bound stopped the work before the end (a busy machine)",
}
"""Why the chances to win were not found, per refusal of the chain."""


def advice_lines(data: dict[str, Any], top: int | None = None) -> list[str]:
    """The advice (:meth:`Advice.to_json`, as the table projects it for its asker) in
    plain lines, the best ``top`` choices: each one's steps, its odds on its target
    (hit, expected damage, and the chance to down where the asker sees it) and the
    side's chance to win after it where there is one, then why (the prompt's ``hint``)."""
    side, now = data["side"], data["win"]
    head = f"{data['name']}'s turn: the advisor's choices, best first"
    if now is not None:
        head += f" ({side} win {pct(now)} now, {data['method']})"
    out = [head]
    if data.get("unsolved"):
        out.append(f"     no chances to win: {data['unsolved']}")
    for c in data["choices"][:top]:
        steps = ", then ".join(step_words(s) for s in c["steps"])
        mark = " (the tactics' choice)" if c["tactics"] else ""
        out.append(f"{c['rank']:>3}. {steps}{mark}")
        figures = []
        odds = c["odds"]
        if odds is not None and c["target"] in odds["combatants"]:
            o = odds["combatants"][c["target"]]
            if o["hit"] is not None:
                figures.append(f"hit {pct(o['hit'])}")
            figures.append(f"mean {o['mean']:.2f}")
            if "down" in o:
                figures.append(f"down {pct(o['down'])}")
            if "estimate" in odds:
                figures.append("(estimate)")
        if c["win"] is not None:
            figures.append(f"then {side} win {pct(c['win'])}")
        if figures:
            out.append("     " + ", ".join(figures))
        out.append(f"     {c['why']}")
    return out


def step_words(step: dict[str, Any], *, actor: bool = True) -> str:
    """One step of a choice in a few words (``ana attack bo``, ``walk to [3, 4]``;
    ``actor=False``: ``attack bo``, where the heading names whose turn it is)."""
    if step["do"] == "move":
        return f"walk to {list(step['to'])}"
    parts = [str(step["actor"]), str(step["do"])] if actor else [str(step["do"])]
    if "target" in step:
        parts.append(str(step["target"]))
    if "at" in step:
        parts.append(f"at {step['at']}")
    skip = {"actor", "do", "target", "at", "dice"}
    parts += [f"{k}={v}" for k, v in step.items() if k not in skip]
    return " ".join(parts)
