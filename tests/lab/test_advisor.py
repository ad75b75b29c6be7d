"""The advisor (issue 23): every choice of whoever's turn it is, ranked by the lab's
tactics (one scoring function, :func:`fracas.lab.plans.rank`), each with the odds
``fracas odds`` gives for it and the side's chance to win after it; asked through the
table, which alone decides who may ask (:meth:`Identity.check_advice`)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from click.testing import CliRunner

from fracas.cli import main
from fracas.errors import FracasError
from fracas.io.files import parse_text
from fracas.io.store import open_store
from fracas.lab.advisor import advice_lines, advise
from fracas.lab.chain import Chain
from fracas.lab.fight import file_start
from fracas.lab.keep import Kept
from fracas.lab.plans import pct
from fracas.lab.policy import Policy
from fracas.lab.win import percent
from fracas.table import Identity, SetPolicy, TableService

DUEL = """\
ruleset: dice-combat
seed: 5
order: [ana, bo]
combatants:
  - {id: ana, name: Ana, side: players, at: [0, 0], hp: 6, max_hp: 6,
     hand: {is: pistol, loaded: 6}, inventory: [knife]}
  - {id: bo, name: Bo, side: raiders, at: [2, 0], hp: 5, max_hp: 5, hand: club}
"""


def _advice(text: str) -> tuple[Policy, object, dict[str, object]]:
    ef = parse_text(text, "duel.yaml")
    policy = Policy(ef.ruleset, ef.tactics)
    state = file_start(ef)
    advice = advise(Kept(ef.ruleset, ef.tactics, policy), state, seconds=20.0, seed=5)
    return policy, state, advice.to_json(state)


def test_the_advisors_top_choice_is_the_one_the_tactics_take() -> None:
    policy, state, data = _advice(DUEL)
    choices = data["choices"]
    assert isinstance(choices, list) and len(choices) >= 3
    taken = policy.choose(state)  # type: ignore[arg-type]
    top = choices[0]
    assert top["rank"] == 1 and top["tactics"] is True
    assert top["steps"][0]["do"] == taken.do
    assert top["steps"][0].get("target") == taken.target
    assert [c["rank"] for c in choices] == list(range(1, len(choices) + 1))
    assert sum(c["tactics"] for c in choices) == 1
    # the chances to win: exact chain on this small duel, between 0 and 1, and the
    # chance now is the one after the tactics' choice
    assert data["method"] == "exact"
    assert isinstance(data["win"], float) and 0 < data["win"] < 1
    assert top["win"] == pytest.approx(data["win"], abs=1e-12)
    print(json.dumps([(c["steps"], c["win"], c["why"]) for c in choices], indent=1))


def test_each_figure_of_the_advice_equals_fracas_odds_for_that_choice(tmp_path: Path) -> None:
    _, _, data = _advice(DUEL)
    checked = 0
    for c in data["choices"]:  # type: ignore[attr-defined]
        if c["odds"] is None or len(c["steps"]) != 1:
            continue
        path = tmp_path / f"choice{checked}.yaml"
        path.write_text(DUEL + f"actions:\n  - {json.dumps(c['steps'][0])}\n")
        result = CliRunner().invoke(main, ["odds", str(path), "--json"])
        assert result.exit_code == 0, result.output
        odds = json.loads(result.output)
        assert odds["combatants"] == c["odds"]["combatants"]
        checked += 1
    assert checked >= 1


def _table(tmp_path: Path, text: str = DUEL):  # type: ignore[no-untyped-def]
    store = open_store(tmp_path / "s.sqlite3", durable=False)
    return store, TableService(store).create(text, "duel.yaml", seed=5)


def test_who_may_ask_the_advisor_is_the_tables_policy(tmp_path: Path) -> None:
    store, table = _table(tmp_path)
    gm = table.advice_question(Identity.gm(), table.seq).answer()
    assert gm["actor"] == "ana" and gm["choices"][0]["tactics"] is True
    pat = Identity.player("Pat", "ana")
    with pytest.raises(FracasError) as err:
        table.advice_question(pat, table.seq)
    assert err.value.code == "forbidden" and "policy `advisor`" in err.value.message
    with pytest.raises(FracasError) as err:
        table.advice_question(Identity.viewer(), table.seq)
    assert err.value.code == "forbidden"
    with pytest.raises(FracasError) as err:
        table.submit(SetPolicy({"advisor": True}), pat)
    assert err.value.code == "forbidden"
    table.submit(SetPolicy({"advisor": True}))
    mine = table.advice_question(pat, table.seq).answer()
    assert [c["steps"] for c in mine["choices"]] == [c["steps"] for c in gm["choices"]]
    # enemy HP is hidden from players by default: no chance to down Bo, no win figure
    assert all("down" not in (c["odds"] or {}).get("combatants", {}).get("bo", {})
               for c in mine["choices"])  # fmt: skip
    assert all(c["win"] is None for c in mine["choices"])
    with pytest.raises(FracasError) as err:
        table.advice_question(Identity.player("Sam", "bo"), table.seq)
    assert err.value.code == "forbidden" and "Ana's" in err.value.message
    with pytest.raises(FracasError) as err:
        table.advice_question(Identity.gm(), table.seq - 1)
    assert err.value.code == "moved_on"
    store.close()


def test_a_chance_is_never_printed_as_0_or_100_percent_it_is_not() -> None:
    """The advisor's figures (and the tactics' words): a chance of 2 in 10,000 to take an
    enemy down (wasteland's crit on a full-HP raider) is ``<0.1%``, not ``0.0%``."""
    assert pct(0.0002) == "<0.1%"
    assert pct(0.9999) == ">99.9%"
    assert (pct(0.0), pct(1.0), pct(0.125)) == ("0.0%", "100.0%", "12.5%")


def test_issue_34_the_advice_says_why_there_are_no_chances_to_win(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A chain past the advisor's states says so in plain words (and `fracas lab advise`
    prints them); the choices and their odds are there all the same; asked again, it is
    not worked out again. ``--no-win``: the choices alone, no chain grown."""
    ef = parse_text(DUEL, "duel.yaml")
    state = file_start(ef)
    keep = Kept(ef.ruleset, ef.tactics, Policy(ef.ruleset, ef.tactics))
    small = advise(keep, state, seconds=20.0, seed=5, max_states=10)
    assert small.method is None and small.win is None
    assert small.unsolved == (
        "the fight reaches more than 10 states from here, too many to work out for the "
        "advice; the win bar estimates it (fracas lab win at a command line)"
    )
    grown: list[int] = []
    monkeypatch.setattr(Chain, "grow", lambda self, stop=None: grown.append(1))
    again = advise(keep, state, seconds=20.0, seed=5, max_states=10)
    assert again.unsolved == small.unsolved and grown == []  # a bound of work: kept
    monkeypatch.undo()
    said = advice_lines(small.to_json(state))  # the prompt's `hint`
    assert said[1] == f"     no chances to win: {small.unsolved}"
    assert [c.plan.steps for c in small.choices] == [
        c.plan.steps for c in advise(keep, state, seconds=20.0, seed=5).choices
    ]
    solved = advise(Kept(ef.ruleset, ef.tactics, Policy(ef.ruleset, ef.tactics)), state)
    assert solved.unsolved is None and solved.method == "exact"
    path = tmp_path / "duel.yaml"
    path.write_text(DUEL)
    quick = CliRunner().invoke(main, ["lab", "advise", str(path), "--no-win", "--json"])
    assert quick.exit_code == 0, quick.output
    data = json.loads(quick.output)
    assert data["win"] is None and data["unsolved"] is None
    assert all(c["win"] is None for c in data["choices"]) and len(data["choices"]) >= 3
    whole = CliRunner().invoke(main, ["lab", "advise", str(path)])
    assert whole.exit_code == 0, whole.output
    lines = whole.output.splitlines()
    chances = lines.index(f"Chances to win (exact, {solved.states:,} states): players win "
                          f"{percent(solved.win or 0)} now")  # fmt: skip
    assert chances > len(data["choices"])  # after the choices, each printed first
    assert lines[chances + 1] == f"   1. then players win {percent(solved.choices[0].win or 0)}"
    assert "No chances to win" not in whole.output


def test_issue_34_the_tables_advice_lists_the_choices_first(tmp_path: Path) -> None:
    """The table's question of the advice: where the chances to win are asked, a first
    question of the choices alone (``working``), answered without a chain."""
    store, table = _table(tmp_path)
    try:
        question = table.advice_question(Identity.gm(), table.seq)
        first = question.list_first()
        assert first is not None
        listed = first.answer()
        assert listed["working"] is True and listed["chances"] is True
        assert listed["win"] is None and all(c["win"] is None for c in listed["choices"])
        whole = question.answer()
        assert whole["working"] is False and whole["method"] == "exact"
        assert [c["steps"] for c in whole["choices"]] == [c["steps"] for c in listed["choices"]]
    finally:
        store.close()
