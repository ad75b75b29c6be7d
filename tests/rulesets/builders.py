"""The builders every ruleset's tests share (each ``tests/rulesets/<ruleset>/support.py``
adds its own readers of its events and sheet).

An encounter is written as Python data and handed to :func:`tests.helpers.play` as JSON
(which YAML accepts), so each test states only what its rule needs: a combatant
(:func:`who`), an action (:func:`act`), the file (:meth:`Encounters.doc`) and its play
(:meth:`Encounters.fight`), the one fight fixture, made once per ruleset with that
ruleset's defaults. Then what a test reads back: refused or not, the log, the state
after an action, the events and dice of an action, and the exact odds of a file's last
action; and for generated encounters, the file read, begun, and its records replayed
with every die given.
"""

from __future__ import annotations

import json
from collections import Counter
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from fractions import Fraction
from types import EllipsisType
from typing import Any, TypeVar

from scipy.stats import chisquare

from fracas.dice.source import RandomDice, Roll
from fracas.engine.play import Engine, Record
from fracas.errors import FracasError, Refusal
from fracas.io.files import EncounterFile, parse_text
from fracas.model import Action, Damaged, Encounter, Event, fold
from fracas.odds.action import Odds, action_odds
from fracas.rulesets import Ruleset
from fracas.rulesets.base import sheet_as
from fracas.words.render import log_lines
from tests.helpers import Played, load_text, play

__all__ = [
    "Checked",
    "Encounters",
    "NoDice",
    "act",
    "after",
    "before_last",
    "begin",
    "damage",
    "events",
    "labels",
    "load",
    "log",
    "merged_chisquare",
    "odds_of",
    "ok",
    "one",
    "refusal",
    "refused_consuming_nothing",
    "rolls",
    "rolls_by_label",
    "sheet_of",
    "who",
]

E = TypeVar("E", bound=Event)
S = TypeVar("S")

Doc = dict[str, Any]


def who(cid: str, at: Sequence[int] | None = (0, 0), **fields: Any) -> Doc:
    """One combatant: id, any sheet fields, and its tile (None: no position)."""
    out: Doc = {"id": cid, **fields}
    if at is not None:
        out["at"] = list(at)
    return out


def act(actor: str, do: str, target: str | None = None, **params: Any) -> Doc:
    """One action; ``dice=``, ``weapon=``, ``item=``, ``at=`` … go in as given."""
    out: Doc = {"actor": actor, "do": do}
    if target is not None:
        out["target"] = target
    out.update(params)
    return out


@dataclass(frozen=True)
class Encounters:
    """A ruleset's encounter files and their play, with that ruleset's defaults:
    ``order`` (``()``: the combatants' own order, None: none, the ruleset's initiative
    decides) and any other top-level keys (``round``)."""

    ruleset: str
    order: Sequence[str] | None = None
    top: Mapping[str, Any] = field(default_factory=dict)

    def doc(
        self,
        *combatants: Doc,
        actions: Sequence[Doc] = (),
        options: Mapping[str, Any] | None = None,
        order: Sequence[str] | EllipsisType | None = ...,
        seed: int = 1,
        **top: Any,
    ) -> Doc:
        """The encounter file as data (``order``: as :class:`Encounters`; ``...``: the
        ruleset's default)."""
        out: Doc = {"ruleset": self.ruleset, "seed": seed, **self.top, **top}
        if options:
            out["options"] = dict(options)
        given = self.order if isinstance(order, EllipsisType) else order
        if given is not None:
            out["order"] = list(given) or [c["id"] for c in combatants]
        out["combatants"] = list(combatants)
        out["actions"] = list(actions)
        return out

    def fight(
        self,
        *combatants: Doc,
        actions: Sequence[Doc] = (),
        options: Mapping[str, Any] | None = None,
        order: Sequence[str] | EllipsisType | None = ...,
        seed: int = 1,
        **top: Any,
    ) -> Played:
        """Play the encounter of :meth:`doc`."""
        d = self.doc(*combatants, actions=actions, options=options, order=order, seed=seed, **top)
        return play(json.dumps(d))


def ok(p: Played) -> Played:
    """The played encounter, after checking that no action was refused."""
    assert p.error is None, f"action {p.error[0]} refused: {p.error[1]}"
    return p


def refusal(p: Played) -> tuple[int, str]:
    """The number and code of the refused action."""
    assert p.error is not None, "expected a refusal, every action was played"
    return p.error[0], p.error[1].code


def log(p: Played) -> list[str]:
    """The log lines a game master reads."""
    return log_lines(p.start, p.records)


def after(p: Played, action: int) -> Encounter:
    """The state right after action number ``action`` (0: the encounter's start)."""
    state = p.start
    for record in p.records[: action + 1]:
        state = fold(state, record.events)
    return state


def sheet_of(p: Played | Encounter, cid: str, kind: type[S]) -> S:
    """``cid``'s sheet in the played encounter's end state (or in a state), as ``kind``."""
    state = p if isinstance(p, Encounter) else p.state
    return sheet_as(state.get(cid), kind)


def events(p: Played, kind: type[E], action: int = -1) -> list[E]:
    """The events of ``kind`` of a played action (the last one by default), in order."""
    return [e for e in p.records[action].events if isinstance(e, kind)]


def one(p: Played, kind: type[E], action: int = -1) -> E:
    """The one event of ``kind`` of a played action."""
    found = events(p, kind, action)
    assert len(found) == 1, found
    return found[0]


def rolls(p: Played, action: int = -1) -> tuple[Roll, ...]:
    """The dice a played action rolled, in order."""
    return p.records[action].rolls


def labels(p: Played, action: int = -1) -> list[str]:
    """The labels of the dice a played action rolled, in order."""
    return [r.label for r in rolls(p, action)]


def damage(p: Played, action: int = -1) -> dict[str, int]:
    """Damage dealt by a played action, per combatant (its final damage, summed)."""
    out: dict[str, int] = {}
    for e in events(p, Damaged, action):
        out[e.target] = out.get(e.target, 0) + e.amount
    return out


def before_last(text_or_doc: str | Doc) -> tuple[Ruleset, Encounter, Action]:
    """The ruleset, the state before the file's last action (every earlier action
    played), and that action."""
    text = text_or_doc if isinstance(text_or_doc, str) else json.dumps(text_or_doc)
    ef = load_text(text)
    engine = Engine(ef.ruleset, ef.start, ef.seed)
    engine.begin(ef.dice, ef.order)
    for action in ef.actions[:-1]:
        engine.act(action)
    return ef.ruleset, engine.state, ef.actions[-1]


def odds_of(text_or_doc: str | Doc, max_rolls: int | None = None, **how: Any) -> Odds:
    """Exact odds of the file's last action, every earlier action played first."""
    ruleset, state, action = before_last(text_or_doc)
    return action_odds(ruleset, state, action, max_rolls=max_rolls, **how)


def load(d: Mapping[str, Any]) -> EncounterFile:
    """A generated encounter as a file (JSON is YAML too; the JSON reader is faster)."""
    return parse_text(json.dumps(d), "generated.json")


def begin(ef: EncounterFile, seed: int | None) -> tuple[Engine, Record]:
    """An engine over the file's start, seeded, and its start record."""
    engine = Engine(ef.ruleset, ef.start, seed)
    return engine, engine.begin(ef.dice, ef.order)


class NoDice(RandomDice):
    """A fallback that refuses every roll: a replay must give every die."""

    def roll(self, sides: int, label: str, *, of: str | None = None, n: int | None = None) -> int:
        raise AssertionError(f"the replay rolled {label!r} (of={of!r}) that the log did not give")


def rolls_by_label(record: Record) -> dict[str, tuple[int, ...]]:
    """A record's dice as an action's given dice: every face by its full label, in order."""
    out: dict[str, list[int]] = {}
    for roll in record.rolls:
        out.setdefault(roll.label, []).append(roll.value)
    return {label: tuple(values) for label, values in out.items()}


def merged_chisquare(
    observed: Counter[int],
    expected: Mapping[int, Fraction],
    *,
    cut: bool = False,
    min_cells: int = 2,
) -> float:
    """Pearson's chi-square p-value; neighbouring outcomes merged until each expects >= 5,
    the tail in the last cell. ``cut``: the odds were cut (exploding dice), so the
    samples above the highest expected outcome and the cut mass join the tail."""
    n = sum(observed.values())
    top = max(expected)
    if cut:
        assert all(k in expected or k > top for k in observed), "an impossible damage was sampled"
    else:
        assert set(observed) <= set(expected), "an outcome of probability 0 was sampled"
    cells: list[tuple[int, float]] = []
    obs_acc, exp_acc = 0, 0.0
    for outcome in sorted(expected):
        obs_acc += observed.get(outcome, 0)
        exp_acc += float(expected[outcome]) * n
        if exp_acc >= 5:
            cells.append((obs_acc, exp_acc))
            obs_acc, exp_acc = 0, 0.0
    if cut:
        obs_acc += sum(c for k, c in observed.items() if k > top)
        exp_acc += float(1 - sum(expected.values(), Fraction(0))) * n
    if exp_acc or obs_acc:  # the tail joins the last full cell
        last_obs, last_exp = cells.pop()
        cells.append((last_obs + obs_acc, last_exp + exp_acc))
    assert len(cells) >= min_cells
    obs = [c[0] for c in cells]
    exp = [c[1] for c in cells]
    scale = sum(obs) / sum(exp)  # float rounding only (and the cut mass, where cut)
    return float(chisquare(obs, [e * scale for e in exp]).pvalue)


@dataclass(frozen=True)
class Checked:
    """A refusal checked: the state right after it, the error, and the follow-up's record
    (as it is played without the refused action before it)."""

    state: Encounter
    error: FracasError
    follow_up: Record


def refused_consuming_nothing(
    text: Callable[[Sequence[Doc]], str],
    actions: Sequence[Doc],
    code: str,
    follow_up: Doc,
    *,
    kind: type[FracasError] = Refusal,
    snapshot: Callable[[Engine], object] | None = None,
) -> Checked:
    """The last of ``actions`` is refused with ``code`` (an error of ``kind``) and consumes
    nothing (README: "An illegal action consumes nothing"): the state, the records and the
    generator are those of the same file without it (and so is what ``snapshot`` spells
    out of the engine), and a seeded follow-up then plays exactly as it does there.
    ``text`` makes the encounter file of a list of actions."""
    refused = play(text(actions))
    assert refused.error is not None, "the last action was not refused"
    number, error = refused.error
    assert number == len(actions), f"action {number} was refused, not the last: {error}"
    assert error.code == code, str(error)
    assert isinstance(error, kind), repr(error)

    before = play(text(actions[:-1]))
    assert before.error is None, before.error
    if snapshot is not None:
        assert snapshot(refused.engine) == snapshot(before.engine)
    assert refused.state == before.state
    assert refused.records == before.records
    assert refused.engine.random.getstate() == before.engine.random.getstate()
    state = refused.state

    # No die consumed: the same legal follow-up rolls the same faces and does the same.
    follow = play(text([*actions[:-1], follow_up]))
    assert follow.error is None, follow.error
    expected = follow.records[-1]
    assert refused.engine.act(follow.file.actions[-1]) == expected
    assert refused.state == follow.state
    return Checked(state, error, expected)
