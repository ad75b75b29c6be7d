"""The docs' example ruleset, pools (docs/example/pools, docs/writing-a-ruleset.md "A
whole ruleset in an afternoon"): registered only for these tests, never shipped, and
played by every face a shipped ruleset is: the conformance suite (its tests run over it,
``tests/rulesets/test_conformance.py``), the pooled odds against the plain enumeration,
``fracas odds`` and ``fracas lab win`` checked against icepool and a chain of our own,
the table service, the rule text, and the designer's own command line.
"""

from __future__ import annotations

import json
import re
import shutil
import subprocess
import sys
from collections.abc import Iterator
from fractions import Fraction
from pathlib import Path

import icepool
import pytest
import yaml
from click.testing import CliRunner

from fracas.errors import FracasError
from fracas.io.store import open_store
from fracas.main import main
from fracas.model import Action
from fracas.rulesets import RULESETS, find_ruleset, registered
from fracas.table import Table, TableService
from pools.rules import Pools
from tests.test_odds_pooled import (
    test_pooled_and_merged_odds_equal_the_plain_enumeration as pooled_equals_plain,
)

ROOT = Path(__file__).resolve().parents[2]
EXAMPLE = ROOT / "docs" / "example"
DUEL = EXAMPLE / "pools" / "duel.yaml"


@pytest.fixture(autouse=True)
def _pools() -> Iterator[None]:
    with registered(Pools):
        yield


def _cli(*args: str) -> str:
    result = CliRunner().invoke(main, list(args), catch_exceptions=False)
    assert result.exit_code == 0, result.output
    return result.output


# --- an oracle: icepool's distribution of the net successes ----------------------


def _damage(attack: int, defence: int, success_on: int = 5) -> dict[int, Fraction]:
    """PO-2, PO-3 by icepool: ``attack`` d6 against ``defence`` d6, each die on
    ``success_on`` or more a success; the net successes above 0 are the damage."""
    success = icepool.d6.map(lambda face: int(face >= success_on))
    net = (attack @ success) - (defence @ success) if defence else attack @ success
    out: dict[int, Fraction] = {}
    for outcome, quantity in net.items():
        damage = max(0, int(outcome))
        out[damage] = out.get(damage, Fraction(0)) + Fraction(quantity, net.denominator())
    return out


# --- not shipped ------------------------------------------------------------------


def test_pools_is_registered_only_in_the_docs_example() -> None:
    assert Pools not in RULESETS  # the tuple fracas ships
    assert find_ruleset("pools") is Pools  # inside registered(...)


def test_the_shipped_command_line_does_not_know_pools() -> None:
    """``fracas`` as installed (no launcher): the duel names an unknown ruleset."""
    done = subprocess.run(
        [sys.executable, "-m", "fracas", "run", str(DUEL)],
        capture_output=True, text=True, timeout=120, cwd=ROOT,
    )  # fmt: skip
    assert done.returncode == 1
    assert "unknown_ruleset: 'pools' is not a ruleset; valid: dice-combat," in done.stderr


def test_pools_is_under_150_lines_of_python_besides_its_data() -> None:
    modules = [p for p in (EXAMPLE / "pools").glob("*.py") if p.name != "data.py"]
    lines = sum(len(p.read_text().splitlines()) for p in modules)
    assert {p.name for p in modules} == {"__init__.py", "rules.py", "sheet.py"}
    assert lines < 150, lines


def test_the_walkthroughs_code_is_the_examples_code() -> None:
    """Every line of docs/writing-a-ruleset.md's walkthrough in a code block is a line of
    the example (a block that elides with ``...`` aside): the excerpts cannot drift."""
    doc = (ROOT / "docs" / "writing-a-ruleset.md").read_text()
    walkthrough = doc[doc.index("## A whole ruleset in an afternoon: pools") :]
    sources = {
        "python": "".join(p.read_text() for p in (EXAMPLE / "pools").glob("*.py")),
        "yaml": DUEL.read_text(),
    }
    blocks = re.findall(r"```(python|yaml)\n(.*?)```", walkthrough, re.S)
    assert len(blocks) >= 6
    lines = {kind: set(text.splitlines()) for kind, text in sources.items()}
    for kind, block in blocks:
        if "\n        ...\n" not in block:
            assert [x for x in block.splitlines() if x not in lines[kind]] == [], block


# --- the odds ---------------------------------------------------------------------


def test_po_2_po_3_fracas_odds_on_the_duel_are_icepools_3d6_against_2d6() -> None:
    """PO-2, PO-3: the duel's last action, Ana's 3d6 against Bo's 2d6 (Bo at 3 of 4 HP),
    by ``fracas odds --json``: the damage distribution icepool gives, exactly."""
    out = json.loads(_cli("odds", str(DUEL), "--json"))
    bo = out["exact"]["combatants"]["bo"]
    expected = _damage(3, 2)
    assert {int(k): Fraction(v) for k, v in bo["damage"].items()} == expected
    assert expected == {
        0: Fraction(46, 81), 1: Fraction(73, 243), 2: Fraction(28, 243), 3: Fraction(4, 243)
    }  # fmt: skip
    assert Fraction(bo["hit"]) == 1 - expected[0] == Fraction(35, 81)
    assert Fraction(bo["down"]) == expected[3] == Fraction(4, 243)  # 3 damage takes Bo's 3 HP


@pytest.mark.parametrize("success_on", [2, 4, 6])
def test_po_2_the_option_success_on_moves_the_odds_as_icepool_says(
    success_on: int, tmp_path: Path
) -> None:
    """PO-2's option: the same attack with successes on ``success_on``+."""
    data = yaml.safe_load(DUEL.read_text())
    data["options"] = {"success_on": success_on}
    path = tmp_path / "duel.yaml"
    path.write_text(yaml.safe_dump(data))
    bo = json.loads(_cli("odds", str(path), "--json"))["exact"]["combatants"]["bo"]
    expected = _damage(3, 2, success_on)
    assert {int(k): Fraction(v) for k, v in bo["damage"].items()} == expected
    assert Fraction(bo["hit"]) == 1 - expected[0]


@pytest.mark.parametrize("seed", [1, 2])
def test_pools_pooled_odds_equal_the_plain_enumeration(seed: int, tmp_path: Path) -> None:
    """The key (successes per pool) tells apart all the rules read of the faces."""
    pooled_equals_plain(Pools, seed, tmp_path)


# --- the table service --------------------------------------------------------------


def _table(tmp_path: Path) -> Table:
    data = yaml.safe_load(DUEL.read_text())
    data["actions"] = []
    return TableService(open_store(tmp_path / "s.sqlite3", durable=False)).create(
        yaml.safe_dump(data), "duel.yaml", seed=3
    )


def test_po_4_the_table_plays_a_stagger_and_undoes_it(tmp_path: Path) -> None:
    """PO-3, PO-4 at the table: 3 net successes deal 3 and stagger Bo; Bo's next attack
    rolls one die; undo puts HP and the stagger back."""
    table = _table(tmp_path)
    table.act(Action("ana", "attack", "bo", dice={"attack": (6, 5, 5), "defence": (4, 1)}))
    bo = table.state.get("bo")
    assert (bo.hp, dict(bo.statuses)) == (1, {"staggered": {}})
    # PO-4: a staggered Bo rolls one attack die, not two
    with pytest.raises(FracasError, match="'attack' has 2 values but the action rolled it 1"):
        table.act(Action("bo", "attack", "ana", dice={"attack": (6, 6), "defence": (1, 1)}))
    table.act(Action("bo", "attack", "ana", dice={"attack": (6,), "defence": (2, 3)}))
    ana, bo = table.state.get("ana"), table.state.get("bo")
    assert (ana.hp, bo.hp, dict(bo.statuses)) == (5, 1, {})  # the stagger went
    table.undo()
    ana, bo = table.state.get("ana"), table.state.get("bo")
    assert (ana.hp, bo.hp, dict(bo.statuses)) == (6, 1, {"staggered": {}})


def test_the_table_refuses_a_second_attack_citing_po_5(tmp_path: Path) -> None:
    table = _table(tmp_path)
    table.act(Action("ana", "attack", "bo", dice={"attack": (1, 1, 1), "defence": (1, 1)}))
    with pytest.raises(FracasError, match=r"has attacked this turn; end_turn \(PO-5\)"):
        table.act(Action("ana", "attack", "bo", dice={"attack": (6, 6, 6), "defence": (1, 1)}))
    allowed = {o.spec.name for o in table.options() if o.allowed}
    assert "attack" not in allowed and table.state.get("bo").hp == 4


# --- the balance lab ---------------------------------------------------------------

_Node = tuple[str, int, int, bool, bool]
"""Who attacks next, Ana's and Bo's HP, whether each is staggered."""


def _red_wins(start: _Node) -> Fraction:
    """Ana's (red's) chance to win from ``start``, each attacking the other on its turn:
    an absorbing chain of our own, solved exactly HP pair by HP pair (a miss leaves the
    HP, so the states of one pair form a system of at most 8 unknowns)."""
    pools = {"ana": (3, 2), "bo": (2, 2)}  # (attack, defence) as in the duel
    solved: dict[_Node, Fraction] = {}

    def edges(node: _Node) -> list[tuple[Fraction, _Node]]:
        mover, ha, hb, sa, sb = node
        other = "bo" if mover == "ana" else "ana"
        staggered = sa if mover == "ana" else sb
        out: list[tuple[Fraction, _Node]] = []
        for dmg, p in _damage(max(1, pools[mover][0] - staggered), pools[other][1]).items():
            na, nb, ta, tb = ha, hb, sa, sb
            if mover == "ana":
                nb, ta, tb = max(0, hb - dmg), False, sb or dmg >= 3
            else:
                na, tb, ta = max(0, ha - dmg), False, sa or dmg >= 3
            out.append((p, (other, na, nb, ta, tb)))
        return out

    def value(node: _Node) -> Fraction:
        if node[1] == 0 or node[2] == 0:
            return Fraction(node[2] == 0)
        if node not in solved:
            _solve(node[1], node[2])
        return solved[node]

    def _solve(ha: int, hb: int) -> None:
        flags = (False, True)
        nodes = [(m, ha, hb, sa, sb) for m in ("ana", "bo") for sa in flags for sb in flags]
        index = {n: i for i, n in enumerate(nodes)}
        rows = []
        for n in nodes:  # x_n - sum p x_same = sum p value(lower)
            row = [Fraction(0)] * len(nodes) + [Fraction(0)]
            row[index[n]] += 1
            for p, t in edges(n):
                if (t[1], t[2]) == (ha, hb):
                    row[index[t]] -= p
                else:
                    row[-1] += p * value(t)
            rows.append(row)
        for i in range(len(rows)):  # Gauss-Jordan
            pivot = next(r for r in range(i, len(rows)) if rows[r][i] != 0)
            rows[i], rows[pivot] = rows[pivot], rows[i]
            rows[i] = [x / rows[i][i] for x in rows[i]]
            for r in range(len(rows)):
                if r != i and rows[r][i] != 0:
                    rows[r] = [a - rows[r][i] * b for a, b in zip(rows[r], rows[i], strict=True)]
        solved.update((n, rows[index[n]][-1]) for n in nodes)

    return value(start)


def test_fracas_lab_win_on_the_duel_is_the_chain_of_the_rules() -> None:
    """``fracas lab win`` from the duel's state after its actions (Ana 6/6 has attacked
    this turn, Bo 3/4, nobody staggered; Bo attacks next) is exact and equals the chain
    worked out above from icepool's distributions."""
    played = json.loads(_cli("run", str(DUEL), "--json"))
    hp = {cid: (c["hp"], c["statuses"]) for cid, c in played["combatants"].items()}
    assert hp == {"ana": (6, {}), "bo": (3, {})}
    out = json.loads(_cli("lab", "win", str(DUEL), "--json"))
    assert out["method"] == "exact"
    red = _red_wins(("bo", 6, 3, False, False))
    assert Fraction(out["sides"]["red"]["exact"]) == red
    assert Fraction(out["sides"]["blue"]["exact"]) == 1 - red
    assert out["draw_exact"] == "0/1"


# --- the rule text and the designer's command line -----------------------------------


def test_fracas_rules_prints_pools_rule_po_4() -> None:
    assert _cli("rules", "pools", "po-4").startswith("PO-4 (Stagger): A hit of 3 net")


def test_pip_install_of_the_example_makes_fracas_play_pools_with_no_launcher(
    tmp_path: Path,
) -> None:
    """Issue 36, item 4: ``pip install ./docs/example`` (docs/writing-a-ruleset.md,
    "Publishing a ruleset") into a fresh environment beside fracas, offline (no index,
    no build isolation: the setuptools fracas's tests have); there, ``fracas`` itself
    finds pools through its entry point: ``odds`` on the duel (PO-2, PO-3: 35/81) and
    ``rules pools PO-4`` (the rule text, installed as package data)."""
    from tests.test_plugins import fresh_venv, run_in, site_packages

    python = fresh_venv(tmp_path / "env")
    source = tmp_path / "example"  # a copy: the build leaves build/ and *.egg-info in it
    shutil.copytree(
        EXAMPLE, source, ignore=shutil.ignore_patterns("__pycache__", "build", "*.egg-info")
    )
    subprocess.run(
        [str(python), "-m", "pip", "install", "-q", "--no-deps", "--no-build-isolation",
         "--no-index", "--disable-pip-version-check", str(source)],
        capture_output=True, text=True, timeout=300, check=True, cwd=tmp_path,
    )  # fmt: skip
    site = site_packages(tmp_path / "env")
    (info,) = site.glob("fracas_pools-*.dist-info")
    assert (info / "entry_points.txt").read_text().split() == [
        "[fracas.rulesets]", "pools", "=", "pools.rules:Pools"
    ]  # fmt: skip
    assert {p.name for p in (site / "pools").glob("*.yaml")} == {"duel.yaml", "rule_text.yaml"}
    duel = site / "pools" / "duel.yaml"  # the installed copy: nothing of the repository's
    odds = run_in(python, "odds", str(duel), "--json", cwd=tmp_path)
    assert odds.returncode == 0 and odds.stderr == "", odds.stderr
    bo = json.loads(odds.stdout)["exact"]["combatants"]["bo"]
    assert Fraction(bo["hit"]) == Fraction(35, 81)
    rule = run_in(python, "rules", "pools", "PO-4", cwd=tmp_path)
    assert rule.stdout.startswith("PO-4 (Stagger): A hit of 3 net"), rule.stderr
