"""The tactics' hot path made cheaper with every answer unchanged (issue 34, items 3 and
5): an action that rolls no die answered without the enumerator, one object per
candidate action (its hash kept), fewer collections while the lab works, and the
approach tier's look ahead skipped where no walk could be offered."""

from __future__ import annotations

import gc
import pickle
from fractions import Fraction
from pathlib import Path

import pytest

from fracas.engine.play import plan
from fracas.io.files import load, parse_text
from fracas.lab import fight
from fracas.lab.chain import win_odds
from fracas.lab.collect import YOUNG, fewer_collections
from fracas.lab.fight import file_start, next_states, outcome
from fracas.lab.plans import _walks, enemies_of
from fracas.lab.policy import Policy
from fracas.model import Action, Encounter, fold
from fracas.model.state import kept_action
from fracas.rulesets.base import walk
from tests.lab.duels import DC_PISTOL, duel


class _Refuses:
    """Dice that refuse every roll, as the fast path's own do: next_states then always
    takes the enumerator's way (the plain one the fast path must equal)."""

    def roll(self, sides: int, label: str, *, of: str | None = None, n: int | None = None) -> int:
        raise fight._Rolled


def _played(path: Path, actions: int) -> list[tuple[Policy, Encounter]]:
    ef = load(path)
    policy = Policy(ef.ruleset, ef.tactics)
    state = file_start(ef)
    out = []
    for _ in range(actions):
        if outcome(ef.ruleset, state) is not None:
            break
        out.append((policy, state))
        after = policy.transitions.next_states(
            state, policy.choose(state), max_paths=200_000
        ).states
        state = max(after, key=lambda s: (after[s], repr(s)))  # the likeliest, one way
    return out


@pytest.mark.parametrize("name", ["dice-combat", "tier-duel", "escalation", "soak", "wasteland"])
def test_issue_34_an_action_without_dice_has_the_enumerations_one_outcome(
    name: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The end of a turn and every walk the tactics try, along a played fight: the fast
    path's outcome equals the enumerator's (the same state, probability 1, one path,
    nothing cut), and an action that rolls goes the enumerator's way."""
    checked = 0
    for policy, state in _played(Path("examples") / f"{name}.yaml", 12):
        rs = policy.ruleset
        actor = state.turn.actor
        enemies = enemies_of(policy, state, actor)
        tries = [Action(actor, "end_turn"), policy.choose(state)]
        tries += [own for own, _, _ in _walks(policy, state, enemies, policy.tactic(actor))]
        for action in tries:
            try:
                fast = next_states(rs, state, action, max_paths=200_000)
            except Exception as exc:  # the plain way must refuse alike
                with monkeypatch.context() as m:
                    m.setattr(fight, "_NO_DICE", _Refuses())
                    with pytest.raises(type(exc)):
                        next_states(rs, state, action, max_paths=200_000)
                continue
            with monkeypatch.context() as m:
                m.setattr(fight, "_NO_DICE", _Refuses())
                plain = next_states(rs, state, action, max_paths=200_000)
            assert fast == plain
            checked += 1
    assert checked >= 20


def test_issue_34_a_walk_is_one_certain_state() -> None:
    """A walk rolls no die: one state, probability 1, the fold of the engine's plan."""
    ef = parse_text(duel(DC_PISTOL, 8, 6))
    state = file_start(ef)
    own = walk(ef.ruleset, state, "ana", (1, 0))
    assert own is not None and own is walk(ef.ruleset, state, "ana", (1, 0))
    got = next_states(ef.ruleset, state, own, max_paths=10)
    (after,) = got.states
    assert got.states[after] == 1 and got.paths == 1 and got.truncated == 0
    assert after.get("ana").at == (1, 0)
    assert after == fold(state, plan(ef.ruleset, state, own, _Refuses()))


def test_issue_34_candidate_actions_are_one_object_per_value() -> None:
    a = kept_action("ana", "attack", "bo", None, {})
    assert a is kept_action("ana", "attack", "bo", None, {})
    assert a == Action("ana", "attack", "bo")
    # a value's type is part of it: True is not 1, though they compare equal
    one, true = (
        kept_action("ana", "x", None, None, {"n": 1}),
        kept_action("ana", "x", None, None, {"n": True}),
    )
    assert one is not true and type(true.params["n"]) is bool
    # an unhashable parameter: a new (equal) object each time
    listed = kept_action("ana", "x", None, None, {"targets": ["bo"]})
    assert listed == kept_action("ana", "x", None, None, {"targets": ["bo"]})


def test_issue_34_an_actions_hash_is_kept_not_pickled() -> None:
    a = Action("ana", "attack", "bo", params={"edge": "up"})
    want = hash(("ana", "attack", "bo", None, a.params, a.dice))
    assert hash(a) == want == hash(a)
    back = pickle.loads(pickle.dumps(a))
    assert back == a and hash(back) == want
    assert not hasattr(back, "_hash") or back._hash == want


def test_issue_34_fewer_collections_puts_the_thresholds_back() -> None:
    before = gc.get_threshold()
    with fewer_collections():
        inside = gc.get_threshold()
        with fewer_collections():  # nested: the outer block's thresholds stay
            assert gc.get_threshold() == inside
        assert gc.get_threshold() == inside
    assert inside[0] == max(YOUNG, before[0]) and inside[1:] == before[1:]
    assert gc.get_threshold() == before
    with pytest.raises(KeyError), fewer_collections():
        raise KeyError("x")
    assert gc.get_threshold() == before


def test_issue_34_the_duel_is_exact_as_before() -> None:
    """The 8 v 6 HP pistol duel's exact odds and mean rounds, as commit 087c697 (before
    this work) gave them; the hand-made chain of tests/lab/test_chain.py checks such
    figures themselves."""
    ef = parse_text(duel(DC_PISTOL, 8, 6))
    odds = win_odds(ef.ruleset, file_start(ef))
    assert odds.sides == {
        "a": Fraction(111969493207804700, 140104972757483667),
        "b": Fraction(28135479549678967, 140104972757483667),
    }
    assert odds.draw == 0 and odds.states == 197
    assert odds.rounds_mean == Fraction(93811918217578801250, 31803828815948792409)


@pytest.mark.parametrize("name", ["dice-combat", "wasteland"])
def test_issue_34_tiles_are_tried_only_where_a_decision_lets_them(
    name: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    """DC-31: a strike (no explosive in hand) says a tile is no aim for it
    (``Decision.tile_too``), and the tactics try no tile for it. Along played fights of
    the examples with an action at a tile (dice-combat's Molotov, wasteland's grenade),
    the candidates are the same as when every tile is tried, and where the tiles were
    skipped every one of them is refused by the rules."""
    from fracas.lab import plans
    from fracas.rulesets.memo import decision_of

    tried = plans._tile_too
    skipped = 0
    for path in (Path(f"examples/{name}.yaml"), Path(f"examples/start/{name}.yaml")):
        for policy, state in _played(path, 40):
            enemies = enemies_of(policy, state, state.turn.actor)
            tactic = policy.tactic(state.turn.actor)
            fast = plans.attacks(policy, state, enemies, tactic, tiles=True)
            monkeypatch.setattr(plans, "_tile_too", lambda *_: True)
            every = plans.attacks(policy, state, enemies, tactic, tiles=True)
            monkeypatch.setattr(plans, "_tile_too", tried)
            assert fast == every
            for spec in policy.ruleset.contract.actions:
                if spec.targets != "combatant_or_tile":
                    continue
                aimed = [
                    a for t in enemies if (a := Action(state.turn.actor, spec.name, t)) in fast
                ]
                if aimed and not tried(policy, state, aimed):
                    skipped += 1
                    for tile in plans._next_to(state, enemies):
                        tile_action = Action(state.turn.actor, spec.name, at=tile)
                        assert isinstance(
                            decision_of(policy.ruleset, state, tile_action), Exception
                        )
    assert skipped > 0 if name == "dice-combat" else skipped == 0
