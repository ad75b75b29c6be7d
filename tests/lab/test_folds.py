"""The shared scores: a fold's reads decide the score only where the traced fold
proves it, and a shared score always equals the score of the state's own fold."""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass
from pathlib import Path

import pytest

from fracas.io.files import Tactic, load, parse_text
from fracas.lab.fight import file_start, fold_runs
from fracas.lab.folds import traced_fold, traced_gains
from fracas.lab.plans import attacks
from fracas.lab.policy import SCORE_PATHS, Policy, Score
from fracas.model import Action, Damaged, Encounter, Event
from fracas.rulesets.base import is_down
from tests.lab.test_transitions import TWO_V_TWO, _loaded, played

EXAMPLES = sorted(Path("examples").glob("*.yaml"))


def _plain_score(policy: Policy, state: Encounter, action: Action) -> Score:
    """The score from the state's own fold of every run (nothing shared)."""
    fresh = Policy(policy.ruleset, policy.tactics)
    runs = fresh.transitions.runs(state, action, max_paths=SCORE_PATHS)
    return fresh._total(state, runs, action.actor)


@pytest.mark.parametrize("path", EXAMPLES, ids=lambda p: p.stem)
def test_shared_scores_equal_the_states_own_fold(path: Path) -> None:
    """Along played fights with random HPs, every candidate attack's score through the
    shared cache equals the score of the state's own fold (whatever the ruleset's
    events read)."""
    ef = load(path)
    policy = Policy(ef.ruleset, ef.tactics)
    checked = 0
    for state in played(ef, policy, path.stem, 4 if path.stem == "wasteland" else 16):
        me = state.get(state.turn.actor)
        enemies = [
            c.id
            for c in state.combatants.values()
            if c.side != me.side and not is_down(ef.ruleset, c)
        ]
        tactic = ef.tactics.get(me.id, Tactic())
        for action in attacks(policy, state, enemies, tactic):
            try:
                want = _plain_score(policy, state, action)
            except Exception:  # too many paths: the sampled ranking, not shared
                continue
            assert policy.score(state, action) == want, action
            checked += 1
    assert checked


def test_dc9_a_shot_scored_once_serves_every_bystander(monkeypatch: pytest.MonkeyPatch) -> None:
    """Ana's shot at Bo reads Ana and Bo: its score serves every HP and load of Cy and
    Dee (one fold), each equal to the state's own; a different HP of Bo folds again."""
    ef = parse_text(TWO_V_TWO)
    start = file_start(ef)
    policy = Policy(ef.ruleset)
    action = Action("ana", "attack", "bo")
    folds = 0
    real = traced_gains

    def counted(*args):  # type: ignore[no-untyped-def]
        nonlocal folds
        folds += 1
        return real(*args)

    monkeypatch.setattr("fracas.lab.policy.traced_gains", counted)
    for n in (8, 5, 1):
        s = _loaded(start, "dee", n)
        s = s.with_combatant(dataclasses.replace(s.get("cy"), hp=n))
        assert policy.score(s, action) == _plain_score(policy, s, action)
    assert folds == 1
    hurt = start.with_combatant(dataclasses.replace(start.get("bo"), hp=2))
    assert policy.score(hurt, action) == _plain_score(policy, hurt, action)
    assert folds == 2


@dataclass(frozen=True, slots=True)
class _EveryoneBleeds(Event):
    """A test event that looks at every combatant (a wide read)."""

    def apply(self, state: Encounter) -> Encounter:
        for c in list(state.combatants.values()):
            state = state.with_combatant(dataclasses.replace(c, hp=max(0, c.hp - 1)))
        return state


@dataclass(frozen=True, slots=True)
class _Blind(Event):
    """A test event that changes a combatant it never read (writes Cy from scratch)."""

    def apply(self, state: Encounter) -> Encounter:
        bo = state.get("bo")
        return state.with_combatant(dataclasses.replace(bo, id="cy", name="Cy"))


def test_a_fold_that_reads_by_id_names_what_it_read() -> None:
    state = file_start(parse_text(TWO_V_TWO))
    runs = [(Damaged("bo", 2),), (Damaged("bo", 1), Damaged("dee", 1))]
    folded, read = traced_fold(state, runs)
    assert read == ("bo", "dee")
    assert folded == fold_runs(state, runs)
    assert {k: v.get("bo").hp for k, v in folded.items()} == {runs[0]: 10, runs[1]: 11}


@pytest.mark.parametrize("event", [_EveryoneBleeds(), _Blind()], ids=["wide", "unread"])
def test_a_wide_or_unread_change_shares_nothing(event: Event) -> None:
    state = file_start(parse_text(TWO_V_TWO))
    folded, read = traced_fold(state, [(event,)])
    assert read is None
    assert folded == fold_runs(state, [(event,)])


def test_damage_of_one_amount_is_applied_once_whatever_its_cause() -> None:
    """``Damaged.effect``: the cause is for the log line; two runs whose damage differs
    only in its cause end in the very same state, folded once, equal to the plain fold."""
    from fracas.model import fold

    state = file_start(parse_text(TWO_V_TWO))
    runs = [
        (Damaged("bo", 3, "3 base"),),
        (Damaged("bo", 3, "2 base + 1 critical"),),
        (Damaged("bo", 4, "3 base + 1 fumble"),),
    ]
    folded = fold_runs(state, runs)
    assert folded[runs[0]] is folded[runs[1]] and folded[runs[2]] is not folded[runs[0]]
    for run in runs:
        assert folded[run] == fold(state, run)


def test_a_subclass_with_its_own_apply_keeps_its_whole_event_as_effect() -> None:
    @dataclass(frozen=True, slots=True)
    class Doubled(Damaged):
        def apply(self, state: Encounter) -> Encounter:
            c = state.get(self.target)
            return state.with_combatant(dataclasses.replace(c, hp=max(0, c.hp - 2 * self.amount)))

    a, b = Doubled("bo", 1, "x"), Doubled("bo", 1, "y")
    assert a.effect() == a and a.effect() != b.effect()
    assert Damaged("bo", 1, "x").effect() == Damaged("bo", 1, "y").effect()


# --- the gains without a whole state per run (issue 34) ---------------------------------


def _fold_gains(
    policy: Policy, state: Encounter, runs: list[tuple[Event, ...]], actor: str
) -> list[tuple[int, int, int, int]]:
    """Each run's gain from the state's own fold, worked out here over whole states (the
    reference the gains followed record by record must equal)."""
    side = state.get(actor).side
    folded = fold_runs(state, runs)
    return [_gain(policy, state, folded[run], side, actor) for run in runs]


def _gain(
    policy: Policy, before: Encounter, after: Encounter, side: str, actor: str
) -> tuple[int, int, int, int]:
    """(enemies down minus allies, enemy HP lost minus allies', enemy HP lost, HP lost
    by the actor's allies but itself) from ``before`` to ``after``."""
    rs = policy.ruleset
    downs = hp = harm = friendly = 0
    for cid, c in before.combatants.items():
        now = after.combatants.get(cid)
        if now is None or now is c:
            continue
        lost = max(0, c.hp - now.hp)
        sign = 1 if c.side != side else -1
        downs += sign * (is_down(rs, now) and not is_down(rs, c))
        hp += sign * lost
        if sign > 0:
            harm += lost
        elif cid != actor:
            friendly += lost
    return downs, hp, harm, friendly


def _gains(
    policy: Policy, state: Encounter, runs: list[tuple[Event, ...]], actor: str
) -> tuple[list[tuple[int, int, int, int]], tuple[str, ...] | None]:
    """Each run's gain through :func:`traced_gains` (one run at a time, numerator 1)."""
    side = state.get(actor).side
    out = []
    read: tuple[str, ...] | None = ()
    for run in runs:
        sums, ids = traced_gains(policy.ruleset, state, ((run, 1),), side, actor)
        out.append(sums)
        read = None if ids is None or read is None else tuple(sorted({*read, *ids}))
    return out, read


@dataclass(frozen=True, slots=True)
class _Tick(Event):
    """A test event of the turn alone (reads and changes no combatant): it commutes with
    the changes of one combatant before it."""

    def apply(self, state: Encounter) -> Encounter:
        return state.with_turn(actions_used=state.turn.actions_used + 1)


@dataclass(frozen=True, slots=True)
class _Halved(Event):
    """A test event that reads Bo as the damage before it left him (it must see it)."""

    def apply(self, state: Encounter) -> Encounter:
        bo = state.get("bo")
        return state.with_combatant(dataclasses.replace(bo, hp=bo.hp // 2))


@dataclass(frozen=True, slots=True)
class _Rebuilt(Event):
    """A test event that makes a mapping of combatants of its own (its later reads would
    go unseen)."""

    def apply(self, state: Encounter) -> Encounter:
        from typing import cast

        from fracas.model import Combatant
        from fracas.model.frozen import FrozenDict, evolve

        table = cast(dict[str, Combatant], state.combatants)
        return evolve(state, combatants=FrozenDict(dict(dict.items(table))))


@pytest.mark.parametrize(
    "tail",
    [(), (_Tick(),), (_Halved(),), (_Tick(), _Halved()), (_Rebuilt(),), (_EveryoneBleeds(),)],
    ids=["none", "commutes", "reads", "commutes-then-reads", "rebuilt", "wide"],
)
def test_gains_equal_the_fold_whatever_follows_the_damage(tail: tuple[Event, ...]) -> None:
    """Damage and a status on two combatants, then events that commute with them, read
    what they changed, rebuild the mapping or read everything: the gains equal those of
    the state's own fold; shared only where the reads are all seen."""
    from fracas.model import StatusSet

    ef = parse_text(TWO_V_TWO)
    state = file_start(ef)
    policy = Policy(ef.ruleset)
    runs = [
        (Damaged("bo", n), StatusSet("bo", "burning", {"turns": 1}), Damaged("cy", m), *tail)
        for n in (0, 3, 12, 40)
        for m in (1, 5)
    ]
    got, read = _gains(policy, state, runs, "ana")
    assert got == _fold_gains(policy, state, runs, "ana")
    if tail and isinstance(tail[-1], _Rebuilt | _EveryoneBleeds):
        assert read is None
    else:
        assert read == ("bo", "cy")
    # all runs at once, weighted: the sum of each run's gain times its numerator
    side = state.get("ana").side
    weighted = tuple((run, i + 1) for i, run in enumerate(runs))
    sums, _ = traced_gains(policy.ruleset, state, weighted, side, "ana")
    want = _fold_gains(policy, state, runs, "ana")
    assert sums == tuple(sum((i + 1) * g[k] for i, g in enumerate(want)) for k in range(4))


@pytest.mark.parametrize("path", EXAMPLES, ids=lambda p: p.stem)
def test_every_candidates_gains_equal_the_fold(path: Path) -> None:
    """Along played fights of every example, every candidate attack's runs: the gains
    :func:`traced_gains` makes equal those of the state's own fold, run by run."""
    ef = load(path)
    policy = Policy(ef.ruleset, ef.tactics)
    checked = 0
    for state in played(ef, policy, path.stem, 3 if path.stem == "wasteland" else 12):
        me = state.get(state.turn.actor)
        enemies = [
            c.id
            for c in state.combatants.values()
            if c.side != me.side and not is_down(ef.ruleset, c)
        ]
        for action in attacks(policy, state, enemies, ef.tactics.get(me.id, Tactic())):
            try:
                got = policy.transitions.shared_runs(state, action, max_paths=SCORE_PATHS)
            except Exception:  # too many paths: the sampled ranking
                continue
            if got is None:
                continue
            _, (_, nums) = got
            runs = [run for run, _ in nums]
            assert _gains(policy, state, runs, me.id)[0] == _fold_gains(
                policy, state, runs, me.id
            ), action
            checked += 1
    assert checked
