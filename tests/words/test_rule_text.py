"""The project's own statement of every rule ID (``fracas/rulesets/*/rule_text.yaml``).

Every rule ID the code, the docs, the examples and the tests cite has a statement, and
every statement's ID is a rule of our reading (``rules/<ruleset>.md`` in the shared
folder beside the project, checked when that folder is present; the statements never
read it). ``fracas rules RULESET RULE_ID`` prints one.
"""

from __future__ import annotations

import dataclasses
import json
import os
import re
import tomllib
from fnmatch import fnmatch
from pathlib import Path
from typing import Any

import pytest

import fracas
from fracas.errors import FracasError, UnknownRuleError, UnknownRulesetError
from fracas.rulesets import RULESETS, Ruleset, find_ruleset, registered
from fracas.rulesets.base import About
from fracas.rulesets.tier_duel import TierDuel
from fracas.words.rule_text import RULE_ID, compress_ids, find_rule, rule_texts
from tests.helpers import cli

HERE = Path(__file__).resolve()
"""This file: it quotes IDs that are not rules on purpose (DC-99)."""
ROOT = HERE.parents[2]
PACKAGE = Path(fracas.__file__).resolve().parent
CODES = {
    "dice-combat": "DC",
    "tier-duel": "TD",
    "escalation": "ES",
    "soak": "SK",
    "wasteland": "WL",
}
"""The rule-ID code of each ruleset (``DC-29``, ``P-DC-1``, ``DC-G3``, ``DC-A2``)."""

CITED = re.compile(r"\b(?:P-)?(?P<code>[A-Z]{2})-[A-Z]?\d+\b")


def run_json(*args: str) -> Any:
    result = cli(*args)
    assert result.exit_code == 0, result.stderr
    return json.loads(result.stdout)


def _shared_rules() -> Path | None:
    """The shared reading: ``$FRACAS_SHARED_RULES``, ``../shared/rules`` beside the
    project, or ``/work/shared/rules``; None where none exists (a user's clone)."""
    env = os.environ.get("FRACAS_SHARED_RULES")
    for candidate in (
        Path(env) if env else None,
        ROOT.parent / "shared" / "rules",
        Path("/work/shared/rules"),
    ):
        if candidate is not None and (candidate / "dice-combat.md").is_file():
            return candidate
    return None


SHARED = _shared_rules()


def _code(rule_id: str) -> str:
    return rule_id.removeprefix("P-").split("-", 1)[0]


def test_every_ruleset_has_a_code() -> None:
    assert set(CODES) == {r.about.name for r in RULESETS}


@pytest.mark.parametrize("ruleset", RULESETS, ids=lambda r: r.about.name)
def test_rule_text_loads_with_section_and_text_for_every_id(ruleset: type[Ruleset]) -> None:
    texts = rule_texts(ruleset.about.name)
    assert len(texts) > 20
    for rid, rule in texts.items():
        assert RULE_ID.match(rid), rid
        assert rule.id == rid and rule.ruleset == ruleset.about.name
        assert _code(rid) == CODES[ruleset.about.name], rid
        assert rule.section.strip() and rule.text.strip(), rid
        assert "\n" not in rule.text and "  " not in rule.text, rid


def _cited() -> dict[str, set[str]]:
    """Rule ID -> the files citing it, over the package (code, comments, docstrings, log
    strings, the rule texts themselves), the docs, the examples and the other tests."""
    out: dict[str, set[str]] = {}
    codes = set(CODES.values())
    roots = [PACKAGE, ROOT / "docs", ROOT / "examples", ROOT / "tests", ROOT / "README.md"]
    for root in roots:
        files = [root] if root.is_file() else sorted(p for p in root.rglob("*") if p.is_file())
        for path in files:
            if path.suffix not in {".py", ".md", ".yaml", ".yml", ".json"} or path == HERE:
                continue
            for m in CITED.finditer(path.read_text(encoding="utf-8", errors="replace")):
                if m["code"] in codes:
                    out.setdefault(m[0], set()).add(str(path.relative_to(ROOT)))
    return out


def test_every_rule_id_cited_in_the_project_has_a_statement() -> None:
    cited = _cited()
    by_code = {CODES[r.about.name]: set(rule_texts(r.about.name)) for r in RULESETS}
    assert "DC-29" in cited and "P-WL-2" in cited and "ES-0" in cited
    missing = {
        rid: sorted(files)[:3] for rid, files in cited.items() if rid not in by_code[_code(rid)]
    }
    assert missing == {}


_DEFINED = re.compile(
    r"^(?:- \*\*(?P<rule>[A-Z]{2}-\d+)\*\*"  # - **DC-29** ...
    r"|\| (?P<row>[A-Z]{2}-[GA]\d+) \|"  # | DC-G1 | ... (gaps, ambiguities)
    r"|\*\*(?P<proc>P-[A-Z]{2}-\d+)\b)",  # **P-DC-1 Melee or gun attack**
    re.MULTILINE,
)


def _reading(ruleset: str) -> tuple[set[str], set[str]]:
    """(IDs the reading defines, IDs it mentions anywhere)."""
    assert SHARED is not None
    text = (SHARED / f"{ruleset}.md").read_text(encoding="utf-8")
    defined = {next(g for g in m.groups() if g) for m in _DEFINED.finditer(text)}
    mentioned = {m[0] for m in CITED.finditer(text) if m["code"] == CODES[ruleset]}
    return defined, mentioned


@pytest.mark.skipif(SHARED is None, reason="no shared rules folder beside the project")
@pytest.mark.parametrize("ruleset", RULESETS, ids=lambda r: r.about.name)
def test_statements_match_the_ids_of_the_shared_reading(ruleset: type[Ruleset]) -> None:
    """Every rule, procedure, gap and ambiguity of the reading has a statement, and every
    statement is of one of them."""
    defined, mentioned = _reading(ruleset.about.name)
    assert len(defined) > 20
    assert mentioned <= defined
    assert set(rule_texts(ruleset.about.name)) == defined


@pytest.mark.skipif(SHARED is None, reason="no shared rules folder beside the project")
def test_statements_keep_the_sections_of_the_reading() -> None:
    """A numbered rule's section is the heading it stands under in the reading."""
    assert SHARED is not None
    for ruleset in RULESETS:
        text = (SHARED / f"{ruleset.about.name}.md").read_text(encoding="utf-8")
        section = ""
        for line in text.splitlines():
            m = re.match(r"- \*\*([A-Z]{2}-\d+)\*\*", line)
            if m:
                assert rule_texts(ruleset.about.name)[m[1]].section == section, m[1]
            elif line.strip() and not line.startswith(("-", "#", "|", " ")):
                section = line.strip().split(" (", 1)[0]


def test_pyproject_ships_every_rule_text_file() -> None:
    """The package-data globs cover every ``rule_text.yaml`` (a wheel carries them)."""
    config = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))
    globs = config["tool"]["setuptools"]["package-data"]["fracas"]
    files = sorted(PACKAGE.glob("rulesets/*/rule_text.yaml"))
    assert len(files) == len(RULESETS)
    for path in files:
        rel = path.relative_to(PACKAGE).as_posix()
        assert any(fnmatch(rel, g) for g in globs), rel


# --- lookup --------------------------------------------------------------------------


def test_dc_29_is_the_explosive_leaving_both_hands_empty() -> None:
    rule = find_rule("dice-combat", "DC-29")
    assert (rule.id, rule.ruleset, rule.section) == ("DC-29", "dice-combat", "Explosives")
    assert "deleted as soon as the roll" in rule.text and "Change Weapon" in rule.text


def test_rule_ids_are_case_insensitive() -> None:
    assert find_rule("dice-combat", "dc-29") == find_rule("dice-combat", "DC-29")
    assert find_rule("wasteland", "p-wl-2").id == "P-WL-2"
    assert find_rule("escalation", " es-g1 ").id == "ES-G1"


def test_proposed_defaults_are_marked() -> None:
    assert "PROPOSED" in find_rule("dice-combat", "DC-43").text
    assert "PROPOSED" in find_rule("tier-duel", "TD-3").text
    assert "PROPOSED" not in find_rule("dice-combat", "DC-1").text


def test_unknown_rule_lists_the_valid_ids_as_ranges() -> None:
    with pytest.raises(UnknownRuleError) as info:
        find_rule("dice-combat", "DC-99")
    assert info.value.code == "unknown_rule"
    assert info.value.message == (
        "'DC-99' is not a rule of dice-combat; valid: "
        "DC-1..DC-44, DC-G1..DC-G14, DC-A1..DC-A11, P-DC-1..P-DC-5"
    )


def test_compress_ids_splits_runs_with_holes() -> None:
    ids = ["ES-0", "ES-1", "ES-2", "ES-5", "ES-G1", "ES-7", "ES-G3", "ES-G2", "P-ES-1"]
    assert compress_ids(ids) == "ES-0..ES-2, ES-5, ES-7, ES-G1..ES-G3, P-ES-1"


def test_a_derived_ruleset_cites_its_base_rules() -> None:
    class Derived(TierDuel):
        about = dataclasses.replace(TierDuel.about, name="derived-for-tests")

    with registered(Derived):
        texts = rule_texts("derived-for-tests")
    assert set(texts) == set(rule_texts("tier-duel"))
    assert texts["TD-11"].ruleset == "derived-for-tests"


def test_a_ruleset_without_rule_text_says_so() -> None:
    class Bare(Ruleset):
        about = About(name="bare-for-tests", title="bare", rule_text="", summary="")

    with registered(Bare), pytest.raises(FracasError) as info:
        rule_texts("bare-for-tests")
    assert info.value.code == "no_rule_text"
    assert "'bare-for-tests'" in info.value.message


# --- the command ---------------------------------------------------------------------


def test_cli_prints_one_rule_with_its_section() -> None:
    result = cli("rules", "dice-combat", "DC-29")
    assert result.exit_code == 0, result.stderr
    assert result.stdout == find_rule("dice-combat", "DC-29").line() + "\n"
    assert result.stdout.startswith("DC-29 (Explosives): The explosive must be in the primary")
    assert cli("rules", "dice-combat", "dc-29").stdout == result.stdout


def test_cli_rule_json() -> None:
    out = run_json("rules", "tier-duel", "td-11", "--json")
    assert set(out) == {"id", "ruleset", "section", "text"}
    assert (out["id"], out["ruleset"], out["section"]) == ("TD-11", "tier-duel", "Crossbows")
    assert "crossbow skill level in tiles" in out["text"]


def test_cli_unknown_rule_is_one_line_exit_1() -> None:
    result = cli("rules", "dice-combat", "DC-99")
    assert result.exit_code == 1 and result.stdout == ""
    assert result.stderr == (
        "error: unknown_rule: 'DC-99' is not a rule of dice-combat; valid: "
        "DC-1..DC-44, DC-G1..DC-G14, DC-A1..DC-A11, P-DC-1..P-DC-5\n"
    )
    line = cli("rules", "soak", "TD-1").stderr
    assert line.startswith("error: unknown_rule: 'TD-1' is not a rule of soak; valid: SK-1..")


def test_cli_unknown_ruleset_with_a_rule_id() -> None:
    result = cli("rules", "nope", "DC-1")
    assert result.exit_code == 1 and result.stderr.startswith("error: unknown_ruleset: 'nope'")


def test_cli_ruleset_contract_tells_how_to_print_a_rule() -> None:
    result = cli("rules", "wasteland")
    assert result.exit_code == 0, result.stderr
    last = result.stdout.splitlines()[-1]
    assert last == (
        "fracas rules wasteland RULE_ID prints one rule (its section and a short statement)"
    )


# --- ruleset aliases -----------------------------------------------------------------


@pytest.mark.parametrize("alias", ["tier-duel", "tier_duel", "tierduel", "TIER-DUEL", "Tier Duel"])
def test_find_ruleset_accepts_aliases(alias: str) -> None:
    assert find_ruleset(alias) is TierDuel


@pytest.mark.parametrize("name", ["tier", "duel-tier", "", "--", "tier-duels"])
def test_find_ruleset_refuses_other_names(name: str) -> None:
    with pytest.raises(UnknownRulesetError) as info:
        find_ruleset(name)
    assert "valid: dice-combat, tier-duel" in info.value.message


def test_cli_rules_by_alias() -> None:
    want = cli("rules", "tier-duel").stdout
    for alias in ("tier_duel", "tierduel", "TIER-DUEL"):
        result = cli("rules", alias)
        assert result.exit_code == 0 and result.stdout == want, alias
    assert cli("rules", "DICE_COMBAT", "dc-29").stdout.startswith("DC-29 (Explosives): ")
    assert json.loads(cli("rules", "tierduel", "--json").stdout)["name"] == "tier-duel"


def test_encounter_file_names_the_ruleset_by_alias(tmp_path: Path) -> None:
    text = (ROOT / "examples" / "tier-duel.yaml").read_text(encoding="utf-8")
    assert "ruleset: tier-duel" in text
    path = tmp_path / "alias.yaml"
    path.write_text(text.replace("ruleset: tier-duel", "ruleset: TIER_DUEL", 1), encoding="utf-8")
    aliased = run_json("run", str(path), "--json")
    canonical = run_json("run", str(ROOT / "examples" / "tier-duel.yaml"), "--json")
    assert aliased["ruleset"] == "tier-duel"
    assert aliased["combatants"] == canonical["combatants"]
