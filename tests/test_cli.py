"""The command line's contract (README, "Command line"; dice-combat.md 2.1, 2.2, 2.5, 2.6).

- ``fracas run`` prints the log: rolls, totals, HIT/miss, damage, HP after, CRITICAL
  FAILURE; ``--json`` gives the state with every sheet field, items with ``class`` and
  ``group``, the log and the events.
- ``fracas odds --json`` gives the exact distribution of the last action; the numbers
  are checked against an independent enumeration of the rules written here.
- ``fracas rules`` lists the rulesets and one ruleset's contract.
"""

from __future__ import annotations

import dataclasses
import itertools
import json
import re
from dataclasses import dataclass, field
from fractions import Fraction
from pathlib import Path
from typing import Any

import click
import pytest

from fracas.errors import UnknownRulesetError
from fracas.rulesets import RULESETS, Ruleset, find_ruleset, registered, rulesets
from fracas.rulesets.dice_combat import DiceCombat
from fracas.web.setup import ruleset_forms
from tests.helpers import GM_ACTIONS, cli, cli_json, write

EXAMPLES = Path(__file__).resolve().parent.parent / "examples"
EXAMPLE = str(EXAMPLES / "dice-combat.yaml")

SHEET_FIELDS = (  # dice-combat.md 2.1
    "hp",
    "max_hp",
    "attack_bonus",
    "defend_close_bonus",
    "defend_ranged_bonus",
    "crit",
    "luck",
    "traits",
    "cover",
    "surrendered",
    "hand",
    "inventory",
)
ITEM_FIELDS = (  # dice-combat.md 2.2, without the `is` short-hand
    "name",
    "type",
    "hands",
    "fires",
    "automatic",
    "sawn_off",
    "subtype",
    "short",
    "scrap",
    "capacity",
    "loaded",
)
OPTIONS: dict[str, Any] = {  # dice-combat.md 2.5, with the defaults
    "revision": "B",
    "ties_hit": True,
    "gun_defend": "ranged",
    "cover_all_ranged": True,
    "gun_trait_bonus": 1,
    "gun_trait_stacks": False,
    "strong_arm_penalty": 1,
    "ammo_on_miss": True,
    "scrap_floor": 1,
    "scrap_molotov": "per_hit",
    "actions_per_turn": 1,
    "free_same_kind_swap": True,
    "machine_pistol": "pistol",
    "burn_reignite": "max",
    "ko_burns": True,
}
DICE_LABELS = {  # dice-combat.md 2.4
    "attack": 20,
    "ammo": 3,
    "defend": 20,
    "crit": 4,
    "fumble": 4,
    "scatter": 3,
    "direction": 8,
}
ACTIONS = ("attack", "throw", "reload", "equip", "end_turn", "move", "set", *GM_ACTIONS)


# --- fracas run: the log -------------------------------------------------------------

DUEL = """\
ruleset: dice-combat
seed: 99
round: 2
order: [ana, bo]
combatants:
  - id: ana
    name: Ana
    at: [0, 0]
    attack_bonus: 1
    hand: sword
  - id: bo
    name: Bo
    at: [1, 0]
actions:
  - {actor: ana, do: attack, target: bo, dice: {attack: 12, defend: 5}}
  - {actor: bo, do: attack, target: ana, dice: {attack: 1}}
  - {actor: ana, do: attack, target: bo, dice: {attack: 20, defend: 19, crit: 3}}
  - {actor: bo, do: attack, target: ana, dice: {attack: 8, defend: 14}}
  - {actor: bo, do: end_turn}
  - {actor: ana, do: attack, target: bo, dice: {attack: 2, defend: 1, fumble: 4}}
"""
"""1: 12+1 = 13 vs 5: HIT, 2 damage, bo 12 -> 10. 2: bo's natural 1: CRITICAL FAILURE,
no defence. 3: natural 20 +1 = 21 vs 19: HIT, 2 + crit 3 = 5, bo 10 -> 5. 4: 8 vs 14:
miss. 6: 2+1 = 3 vs a natural 1 (fumble): HIT whatever the totals, 2 + fumble 4 = 6,
bo 5 -> 0, down."""


def run_json(*args: str) -> dict[str, Any]:
    """A command's JSON output; it printed nothing on stderr."""
    out: dict[str, Any] = cli_json(*args, quiet=True)
    return out


def _lines_in_order(text: str, wanted: list[list[str]]) -> None:
    """Each entry's words all appear on one line, entries on successive lines in order."""
    lines = text.splitlines()
    at = 0
    for words in wanted:
        while at < len(lines) and not all(w in lines[at] for w in words):
            at += 1
        assert at < len(lines), f"no line with {words} in order in:\n{text}"
        at += 1


def test_run_prints_rolls_totals_hits_damage_and_hp(tmp_path: Path) -> None:
    result = cli("run", write(tmp_path, DUEL))
    assert result.exit_code == 0, result.stderr
    assert result.stderr == ""
    _lines_in_order(
        result.stdout,
        [
            ["#1", "ana", "attack", "bo"],
            ["Ana", "Bo", "sword", "d20 12", "+1", "= 13"],
            ["Bo", "d20 5", "= 5", "HIT"],
            ["Bo", "2 damage", "12 -> 10"],
            ["#2", "bo", "attack", "ana"],
            ["Bo", "Ana", "d20 1", "= 1"],
            ["CRITICAL FAILURE"],
            ["#3"],
            ["Ana", "d20 20", "= 21", "critical"],
            ["Bo", "d20 19", "= 19", "HIT"],
            ["Bo", "5 damage", "3 critical", "10 -> 5"],
            ["#4"],
            ["Bo", "Ana", "d20 8", "= 8"],
            ["Ana", "d20 14", "= 14", "miss"],
            ["#6"],
            ["Ana", "d20 2", "= 3"],
            ["Bo", "d20 1", "HIT"],
            ["Bo", "6 damage", "4 fumble", "5 -> 0"],
            ["Ana", "12/12"],
            ["Bo", "0/12", "DOWN"],
        ],
    )
    assert result.stdout.count("CRITICAL FAILURE") == 1
    assert "Traceback" not in result.stdout


def test_run_crit_failure_rolls_no_defence(tmp_path: Path) -> None:
    out = run_json("run", "--json", write(tmp_path, DUEL))
    labels = [(r["action"], r["label"]) for r in out["rolls"]]
    assert (2, "attack") in labels
    assert not any(a == 2 and label.startswith("defend") for a, label in labels)


def test_run_log_is_the_json_log(tmp_path: Path) -> None:
    """Every line of the JSON log is printed, in order, by the plain run."""
    path = write(tmp_path, DUEL)
    out = run_json("run", "--json", path)
    text = cli("run", path).stdout
    _lines_in_order(text, [[line.strip()] for line in out["log"] if line.strip()])
    assert any("CRITICAL FAILURE" in line for line in out["log"])


def test_run_seed_option_overrides_the_file(tmp_path: Path) -> None:
    text = DUEL.split("actions:")[0] + "actions:\n  - {actor: ana, do: attack, target: bo}\n"
    path = write(tmp_path, text)
    a = run_json("run", "--json", "--seed", "1", path)
    b = run_json("run", "--json", "--seed", "1", path)
    file_seed = run_json("run", "--json", path)
    assert a["seed"] == 1 and file_seed["seed"] == 99
    assert a["rolls"] == b["rolls"]
    assert a == b


# --- fracas run --json ---------------------------------------------------------------

STATE = """\
ruleset: dice-combat
seed: 3
round: 2
order: [ana, bo, cy]
combatants:
  - id: ana
    name: Ana
    side: players
    at: [0, 0]
    attack_bonus: 2
    defend_ranged_bonus: 1
    crit: wildcard
    luck: unlucky
    traits: [gunslinger, strong_arm]
    cover: true
    hand: {is: pistol, loaded: 5, scrap: true}
    inventory: [knife, {is: sawn_off_shotgun}, molotov]
  - id: bo
    at: [3, 0]
    hand: molotov
  - id: cy
    at: [4, 1]
    hp: 4
    surrendered: true
actions:
  - {actor: ana, do: attack, target: cy, dice: {attack: 10, ammo: 2, defend: 3}}
  - {actor: bo, do: throw, at: [0, 0], dice: {attack: 15, defend: 3}}
"""
"""1: ana's scrap pistol at 4 tiles (close): 10 + 2 + 1 close + 1 gunslinger - 1 strong
arm = 13 vs 3: hit, 3 - 1 scrap = 2: cy 4 -> 2; 2 rounds fired, 3 left. 2: bo's
Molotov at ana's tile: ana alone in the 3x3; 3 + 1 + 2 cover = 6 <= 15: hit, 1 HP,
burning 2 + 1 (unlucky) = 3 turns. bo's hands are empty."""


def test_run_json_has_the_contract_keys(tmp_path: Path) -> None:
    out = run_json("run", "--json", write(tmp_path, STATE))
    assert {"ruleset", "round", "turn", "combatants", "log", "events"} <= out.keys()
    assert out["ruleset"] == "dice-combat"
    assert out["round"] == 2
    assert out["turn"] == "bo"
    assert set(out["combatants"]) == {"ana", "bo", "cy"}
    for cid, c in out["combatants"].items():
        for key in ("hp", "max_hp", "down", "statuses", *SHEET_FIELDS):
            assert key in c, (cid, key)
    assert isinstance(out["log"], list) and all(isinstance(x, str) for x in out["log"])
    assert isinstance(out["events"], list) and out["events"]
    for event in out["events"]:
        assert isinstance(event["type"], str) and event["action"] in (0, 1, 2)
    assert "error" not in out


def test_run_json_sheet_values(tmp_path: Path) -> None:
    out = run_json("run", "--json", write(tmp_path, STATE))
    ana, bo, cy = (out["combatants"][k] for k in ("ana", "bo", "cy"))
    assert (ana["hp"], ana["max_hp"], ana["down"]) == (11, 12, False)
    assert ana["statuses"] == {"burning": {"turns": 3, "damage": 1}}
    assert ana["attack_bonus"] == 2
    assert ana["defend_close_bonus"] == 0
    assert ana["defend_ranged_bonus"] == 1
    assert ana["crit"] == "wildcard"
    assert ana["luck"] == "unlucky"
    assert ana["traits"] == ["gunslinger", "strong_arm"]
    assert ana["cover"] is True
    assert ana["surrendered"] is False
    assert (ana["name"], ana["side"], ana["at"]) == ("Ana", "players", [0, 0])
    assert (cy["hp"], cy["down"], cy["surrendered"], cy["statuses"]) == (2, False, True, {})
    assert bo["hand"] is None and bo["inventory"] == []
    assert (bo["crit"], bo["luck"], bo["traits"], bo["cover"]) == ("normal", "none", [], False)
    assert (bo["name"], bo["side"]) == ("bo", "bo")


def test_run_json_items_have_every_field_class_and_group(tmp_path: Path) -> None:
    out = run_json("run", "--json", write(tmp_path, STATE))
    ana = out["combatants"]["ana"]
    items = [ana["hand"], *ana["inventory"]]
    for item in items:
        assert set(item) == {*ITEM_FIELDS, "class", "group"}, item
    pistol, knife, sawn_off, molotov = items
    assert pistol["name"] == "pistol"
    assert (pistol["class"], pistol["group"]) == ("pistol", "close")
    assert (pistol["capacity"], pistol["loaded"], pistol["scrap"]) == (8, 3, True)
    assert (knife["class"], knife["group"], knife["short"]) == ("one_handed_melee", None, True)
    assert (knife["capacity"], knife["loaded"]) == (None, None)
    assert (sawn_off["class"], sawn_off["group"]) == ("shotgun", "medium")  # B: sawn-off
    assert (sawn_off["capacity"], sawn_off["loaded"], sawn_off["hands"]) == (2, 2, 2)
    assert (molotov["class"], molotov["group"], molotov["type"]) == ("molotov", None, "fire")


def test_run_json_groups_follow_the_revision(tmp_path: Path) -> None:
    """dice-combat.md 1.4: pistol Close in B, Medium in A; sawn-off shotgun Medium / Close."""
    text = STATE.replace("seed: 3\n", "seed: 3\noptions: {revision: A}\n")
    ana = run_json("run", "--json", write(tmp_path, text))["combatants"]["ana"]
    assert (ana["hand"]["class"], ana["hand"]["group"]) == ("pistol", "medium")
    assert ana["inventory"][1]["group"] == "close"


def test_run_json_down_and_unarmed(tmp_path: Path) -> None:
    out = run_json("run", "--json", write(tmp_path, DUEL))
    bo = out["combatants"]["bo"]
    assert (bo["hp"], bo["down"], bo["hand"]) == (0, True, None)
    assert out["combatants"]["ana"]["hand"]["class"] == "one_handed_melee"
    assert out["round"] == 4 and out["turn"] == "ana"


def test_run_json_events_tell_what_happened(tmp_path: Path) -> None:
    out = run_json("run", "--json", write(tmp_path, DUEL))
    damaged = [(e["action"], e["target"], e["amount"]) for e in out["events"] if "amount" in e]
    assert damaged == [(1, "bo", 2), (3, "bo", 5), (6, "bo", 6)]
    assert out["events"][0] == {"action": 0, "type": "TurnStarted", "actor": "ana", "round": 2}


# --- fracas odds --json ----------------------------------------------------------------


@dataclass
class Dist:
    """An independent enumeration's result for the target."""

    hit: Fraction = Fraction(0)
    damage: dict[int, Fraction] = field(default_factory=dict)
    down: Fraction = Fraction(0)
    paths: int = 0

    @property
    def mean(self) -> Fraction:
        return sum((d * p for d, p in self.damage.items()), Fraction(0))


def expected_attack(
    *, base: int, attack_mod: int, defend_mod: int, hp: int, ties_hit: bool = True
) -> Dist:
    """DC-35 to DC-44 for one melee or gun attack by and on Normal-profile combatants,
    written out over every face: a natural 1 attack misses with no defence roll; a
    natural 1 defence is hit whatever the totals (+1d4); a natural 20 attack that hits
    adds 1d4; otherwise hit iff attack total >= defence total (ties per ``ties_hit``)."""
    out = Dist()
    face = Fraction(1, 20)
    d4 = range(1, 5)

    def add(p: Fraction, dmg: int, hit: bool) -> None:
        out.damage[dmg] = out.damage.get(dmg, Fraction(0)) + p
        out.hit += p if hit else 0
        out.down += p if dmg >= hp else 0

    for a in range(1, 21):
        if a == 1:
            add(face, 0, False)
            out.paths += 1
            continue
        for d in range(1, 21):
            p = face * face
            fumble = d == 1
            total_a, total_d = a + attack_mod, d + defend_mod
            hit = fumble or total_a > total_d or (ties_hit and total_a == total_d)
            if not hit:
                add(p, 0, False)
                out.paths += 1
                continue
            crits = list(d4) if a == 20 else [0]
            fumbles = list(d4) if fumble else [0]
            for c, f in itertools.product(crits, fumbles):
                add(p / (len(crits) * len(fumbles)), base + c + f, True)
                out.paths += 1
    return out


def test_expected_attack_closed_forms() -> None:
    """The independent enumeration agrees with counting by hand: a plain attack hits on
    (A, D) with A >= 2 and D <= A, i.e. sum(2..20) = 209 of 400 pairs."""
    plain = expected_attack(base=1, attack_mod=0, defend_mod=0, hp=12)
    assert plain.hit == Fraction(209, 400)
    assert sum(plain.damage.values()) == 1
    # without ties to the attacker: D < A or D == 1: sum over A=2..20 of (A - 1) + 0 = 190
    strict = expected_attack(base=1, attack_mod=0, defend_mod=0, hp=12, ties_hit=False)
    assert strict.hit == Fraction(190, 400)
    # 1 path for A = 1; A = 2..19: D = 1 has 4 fumble paths, 19 others: 18 * 23;
    # A = 20: D = 1 has 4 x 4, D = 2..20 hit with 4 crit paths each: 16 + 76.
    assert plain.paths == 1 + 18 * 23 + 16 + 76


def assert_exact(got: dict[str, Any], want: Dist) -> None:
    """`got` is an exact entry of `fracas odds --json`: "num/den" strings."""

    def frac(s: str) -> Fraction:
        num, den = s.split("/")
        value = Fraction(int(num), int(den))
        assert s == f"{value.numerator}/{value.denominator}", f"{s} is not in lowest terms"
        return value

    assert set(got) >= {"hit", "damage", "mean", "down"}
    assert frac(got["hit"]) == want.hit
    assert {int(k): frac(v) for k, v in got["damage"].items() if frac(v)} == want.damage
    assert frac(got["mean"]) == want.mean
    assert frac(got["down"]) == want.down


def assert_floats(got: dict[str, Any], want: Dist) -> None:
    assert got["hit"] == pytest.approx(float(want.hit))
    assert got["mean"] == pytest.approx(float(want.mean))
    assert got["down"] == pytest.approx(float(want.down))
    damage = {int(k): v for k, v in got["damage"].items() if v}
    assert damage == pytest.approx({k: float(v) for k, v in want.damage.items()})


def odds_file(tmp_path: Path, *, ana: str, bo: str, action: str, options: str = "") -> str:
    text = (
        "ruleset: dice-combat\n"
        + (f"options: {options}\n" if options else "")
        + "round: 2\norder: [ana, bo]\ncombatants:\n"
        + f"  - {{id: ana, at: [0, 0], {ana}}}\n"
        + f"  - {{id: bo, {bo}}}\n"
        + f"actions:\n  - {action}\n"
    )
    return write(tmp_path, text)


def test_odds_plain_melee(tmp_path: Path) -> None:
    """Unarmed (1 HP) between two plain combatants: hit 209/400."""
    path = odds_file(
        tmp_path, ana="hand: null", bo="at: [1, 1]", action="{actor: ana, do: attack, target: bo}"
    )
    out = run_json("odds", "--json", path)
    want = expected_attack(base=1, attack_mod=0, defend_mod=0, hp=12)
    assert set(out) >= {"paths", "combatants", "exact"}
    assert set(out["exact"]) == {"combatants"}
    assert set(out["combatants"]) == {"bo"} == set(out["exact"]["combatants"])
    exact = out["exact"]["combatants"]["bo"]
    assert exact["hit"] == "209/400"
    assert exact["down"] == "0/1"
    assert_exact(exact, want)
    assert_floats(out["combatants"]["bo"], want)
    assert out["paths"] <= want.paths  # die by die at most; pools branch by class
    assert "truncated" not in out


@pytest.mark.parametrize(
    ("ana", "bo", "base", "attack_mod", "defend_mod", "hp"),
    [
        ("hand: sword, attack_bonus: 2", "at: [1, 0], hp: 3, defend_close_bonus: 1", 2, 2, 1, 3),
        ("hand: greataxe", "at: [0, 1], hp: 4, defend_ranged_bonus: 5", 3, 0, 0, 4),
        ("hand: knife, traits: [strong_arm]", "at: [1, 1], hp: 2", 2, -1, 0, 2),
        ("hand: club, attack_bonus: -3", "at: [1, 0], defend_close_bonus: -2, hp: 1", 2, -3, -2, 1),
    ],
    ids=["sword-bonuses", "greataxe-ranged-bonus-ignored", "strong-arm-penalty", "negatives"],
)
def test_odds_melee_exact(
    tmp_path: Path, ana: str, bo: str, base: int, attack_mod: int, defend_mod: int, hp: int
) -> None:
    path = odds_file(tmp_path, ana=ana, bo=bo, action="{actor: ana, do: attack, target: bo}")
    out = run_json("odds", "--json", path)
    want = expected_attack(base=base, attack_mod=attack_mod, defend_mod=defend_mod, hp=hp)
    assert_exact(out["exact"]["combatants"]["bo"], want)
    assert_floats(out["combatants"]["bo"], want)


@pytest.mark.parametrize(
    ("revision", "bo", "attack_mod", "defend_mod"),
    [
        ("B", "at: [3, 2]", 1, 0),  # close band: pistol +1 in B
        ("A", "at: [3, 2]", 0, 0),  # ... and 0 in A
        ("B", "at: [3, 2], cover: true", 1, 2),  # cover +2 on Defend (ranged)
        ("B", "at: [14, 0], defend_close_bonus: 4", -2, 0),  # long band: -2; close bonus unused
    ],
    ids=["close-B", "close-A", "cover", "long"],
)
def test_odds_pistol_exact(
    tmp_path: Path, revision: str, bo: str, attack_mod: int, defend_mod: int
) -> None:
    """A pistol (3 HP) at range: DC-12, DC-13, DC-G8 (the ammo die does not change the odds)."""
    path = odds_file(
        tmp_path,
        ana="hand: pistol",
        bo=bo,
        action="{actor: ana, do: attack, target: bo}",
        options=f"{{revision: {revision}}}",
    )
    out = run_json("odds", "--json", path)
    want = expected_attack(base=3, attack_mod=attack_mod, defend_mod=defend_mod, hp=12)
    assert_exact(out["exact"]["combatants"]["bo"], want)
    assert_floats(out["combatants"]["bo"], want)


def test_odds_are_conditional_on_given_dice(tmp_path: Path) -> None:
    """attack fixed at 15 with a sword (2 HP): hit iff D <= 15 (D = 1 a fumble, +1d4)."""
    path = odds_file(
        tmp_path,
        ana="hand: sword",
        bo="at: [1, 0]",
        action="{actor: ana, do: attack, target: bo, dice: {attack: 15}}",
    )
    exact = run_json("odds", "--json", path)["exact"]["combatants"]["bo"]
    assert exact["hit"] == "3/4"
    assert exact["damage"] == {
        "0": "1/4",
        "2": "7/10",  # D = 2..15
        "3": "1/80",  # D = 1, fumble 1
        "4": "1/80",
        "5": "1/80",
        "6": "1/80",
    }
    mean = Fraction(14, 20) * 2 + Fraction(1, 80) * (3 + 4 + 5 + 6)
    assert exact["mean"] == f"{mean.numerator}/{mean.denominator}" == "13/8"


def test_odds_text_output(tmp_path: Path) -> None:
    path = odds_file(
        tmp_path, ana="hand: null", bo="at: [1, 1]", action="{actor: ana, do: attack, target: bo}"
    )
    result = cli("odds", path)
    assert result.exit_code == 0, result.stderr
    assert "#1 ana: attack bo" in result.stdout
    assert "52.25%" in result.stdout  # 209/400 hit
    paths = expected_attack(base=1, attack_mod=0, defend_mod=0, hp=12).paths
    shown = re.search(r"([\d,]+) dice paths, exact", result.stdout)
    assert shown is not None and int(shown.group(1).replace(",", "")) <= paths


# --- the bundled example ---------------------------------------------------------------


def test_example_runs() -> None:
    result = cli("run", EXAMPLE)
    assert result.exit_code == 0, result.stderr
    assert result.stderr == ""
    assert "#13 cy: attack ana" in result.stdout
    out = run_json("run", "--json", EXAMPLE)
    assert out["ruleset"] == "dice-combat"
    assert set(out["combatants"]) == {"ana", "bo", "cy", "dee"}
    assert "error" not in out


def test_example_odds(tmp_path: Path) -> None:
    """The last action is cy's greataxe (3 HP) at ana, who has Defend (close) +1."""
    result = cli("odds", EXAMPLE)
    assert result.exit_code == 0, result.stderr
    out = run_json("odds", "--json", EXAMPLE)
    text = Path(EXAMPLE).read_text(encoding="utf-8").rstrip("\n")
    head, last = text.rsplit("\n", 1)
    assert last.strip() == "- {actor: cy, do: attack, target: ana}"
    # ana's HP when the last action is taken: the file without it (nobody burns at the
    # start of cy's turn, so the turn advance changes no HP)
    hp = run_json("run", "--json", write(tmp_path, head + "\n"))["combatants"]["ana"]["hp"]
    assert hp == 10
    want = expected_attack(base=3, attack_mod=0, defend_mod=1, hp=hp)
    assert set(out["combatants"]) == {"ana"}
    assert_exact(out["exact"]["combatants"]["ana"], want)
    assert_floats(out["combatants"]["ana"], want)


# --- fracas rules ----------------------------------------------------------------------


def test_rules_lists_the_rulesets() -> None:
    result = cli("rules")
    assert result.exit_code == 0, result.stderr
    names = ["dice-combat", "tier-duel", "escalation", "soak", "wasteland"]
    for name in names:
        assert name in result.stdout, name
    rows = json.loads(cli("rules", "--json").stdout)
    assert [r["name"] for r in rows] == names == [r.about.name for r in RULESETS]


@pytest.mark.parametrize("ruleset", RULESETS, ids=lambda r: r.about.name)
def test_every_ruleset_has_an_example_that_runs(ruleset: type[Ruleset]) -> None:
    """README: ``examples/NAME.yaml`` plays each ruleset, and odds of its last action."""
    path = str(EXAMPLES / f"{ruleset.about.name}.yaml")
    out = run_json("run", path, "--json")
    assert out["ruleset"] == ruleset.about.name
    assert "error" not in out
    odds = run_json("odds", path, "--json")
    assert odds["exact"]["combatants"]


class _Dummy(DiceCombat):
    about = dataclasses.replace(DiceCombat.about, name="dummy-for-tests")


def test_registered_adds_a_ruleset_for_a_block_only(tmp_path: Path) -> None:
    text = (
        Path(EXAMPLE)
        .read_text(encoding="utf-8")
        .replace("ruleset: dice-combat", f"ruleset: {_Dummy.about.name}", 1)
    )
    path = tmp_path / "dummy.yaml"
    path.write_text(text, encoding="utf-8")
    before = rulesets()
    result = cli("run", str(path))
    assert result.exit_code == 1 and "unknown_ruleset" in result.stderr
    with registered(_Dummy):
        assert find_ruleset(_Dummy.about.name) is _Dummy
        assert run_json("run", str(path), "--json")["ruleset"] == _Dummy.about.name
    with pytest.raises(UnknownRulesetError):
        find_ruleset(_Dummy.about.name)
    assert rulesets() == before


def test_every_face_reads_the_registry_at_call_time() -> None:
    """One registry (issue 33): the rules listing and the setup page's forms list a
    ruleset added after they were imported, and leave it out once it is gone."""

    def listed() -> list[str]:
        return [r["name"] for r in json.loads(cli("rules", "--json").stdout)]

    names = listed()
    assert _Dummy.about.name not in names
    with registered(_Dummy):
        assert listed() == [*names, _Dummy.about.name]
        assert _Dummy.about.name in [f["name"] for f in ruleset_forms()]
    assert listed() == names
    assert _Dummy.about.name not in [f["name"] for f in ruleset_forms()]


def test_rules_dice_combat_text() -> None:
    result = cli("rules", "dice-combat")
    assert result.exit_code == 0, result.stderr
    text = result.stdout
    for heading in ("sheet fields", "item fields", "options", "actions", "dice labels"):
        assert heading in text
    for name in (*SHEET_FIELDS, *ITEM_FIELDS, *OPTIONS, *ACTIONS, *DICE_LABELS):
        assert name in text, name
    for label, sides in DICE_LABELS.items():
        assert any(label in line and f"d{sides}" in line for line in text.splitlines()), label
    for option, default in OPTIONS.items():
        shown = json.dumps(default)
        assert any(f" {option} " in line and shown in line for line in text.splitlines()), option


def test_rules_dice_combat_json() -> None:
    out = run_json("rules", "dice-combat", "--json")
    assert out["name"] == "dice-combat"
    sheet = {row["name"]: row for row in out["sheet"]}
    assert set(SHEET_FIELDS) <= set(sheet)
    assert sheet["max_hp"]["default"] == 12
    assert sheet["crit"]["default"] == "normal"
    assert sheet["traits"]["default"] == []
    assert set(ITEM_FIELDS) <= {row["name"] for row in out["item"]}
    assert {row["name"]: row["default"] for row in out["options"]} == OPTIONS
    assert {row["label"]: row["sides"] for row in out["dice"]} == DICE_LABELS
    assert [row["do"] for row in out["actions"]] == list(ACTIONS)
    assert "pistol" in out["shorthands"] and "molotov" in out["shorthands"]


def test_rules_unknown_ruleset_exits_1() -> None:
    result = cli("rules", "nope")
    assert result.exit_code == 1
    lines = result.stderr.splitlines()
    assert len(lines) == 1 and lines[0].startswith("error: ")
    assert "nope" in lines[0]
    assert result.stdout == ""


def test_help_imports_no_command_and_lists_each_as_its_own_help_would() -> None:
    """Issue 34 (startup): ``fracas --help`` imports no command's module; each listed
    line is what the command's own help makes of it (the kept first sentence agrees)."""
    import subprocess
    import sys

    probe = (
        "import sys; from fracas.main import main\n"
        "try:\n    main(['--help'])\nexcept SystemExit:\n    pass\n"
        "heavy = [m for m in ('fracas.cli.cmd_run', 'fracas.cli.cmd_lab', 'fracas.table',"
        " 'fracas.rulesets.dice_combat', 'fracas.web.command', 'fracas.play.command')"
        " if m in sys.modules]\n"
        "print('HEAVY', heavy)"
    )
    out = subprocess.run(
        [sys.executable, "-c", probe], capture_output=True, text=True, check=True
    ).stdout
    assert "HEAVY []" in out
    from fracas.main import main

    group = main
    for name, (_, first) in group.lazy.items():
        command = group.get_command(click.Context(group), name)
        assert command is not None
        for width in (20, 45, 70, 200):
            kept = click.Command(name, help=first).get_short_help_str(width)
            assert kept == command.get_short_help_str(width), name
