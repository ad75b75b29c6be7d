"""Issue 36, item 2: ``fracas roll NOTATION`` and ``fracas odds --roll NOTATION`` (d20's
notation), and ``fracas odds`` of a file whose last action is a free roll, exact by
pooling."""

from __future__ import annotations

from pathlib import Path

import yaml

from tests.helpers import cli, cli_json

ROOT = Path(__file__).resolve().parents[2]


def test_roll_prints_the_dice_and_the_total_seeded() -> None:
    """Issue 36: the same seed, the same roll; JSON with the notation, total and dice
    (each die's faces, what it counts, whether it is kept)."""
    out = cli_json("roll", "4d6kh3", "--seed", "3", "--json", quiet=True)
    assert out == {
        "notation": "4d6kh3",
        "total": 12,
        "dice": [
            {"die": "d6", "rolls": [2], "value": 2, "kept": True},
            {"die": "d6", "rolls": [5], "value": 5, "kept": True},
            {"die": "d6", "rolls": [5], "value": 5, "kept": True},
            {"die": "d6", "rolls": [2], "value": 2, "kept": False},
        ],
        "shown": "4d6kh3 (2, 5, 5, 2 dropped)",
        "seed": 3,
    }
    text = cli("roll", "4d6kh3", "--seed", "3")
    assert text.exit_code == 0 and text.stdout.splitlines()[0] == "4d6kh3 (2, 5, 5, 2 dropped) = 12"
    # the words of the command line are joined by a space: 1d20 + 5 is one notation
    assert cli_json("roll", "1d20", "+", "5", "--seed", "3", "--json")["notation"] == "1d20 + 5"


def test_roll_refuses_a_bad_notation_on_one_line() -> None:
    """Issue 36: ``1d2 0`` is refused (never a d20), one error line naming the column."""
    result = cli("roll", "1d2", "0")
    assert result.exit_code == 1
    (line,) = result.stderr.strip().splitlines()
    assert line.startswith("error: bad_dice_expression: '1d2 0' is not a dice expression")
    assert "at column 5" in line
    out = cli("roll", "6d0", "--json")
    assert out.exit_code == 1 and '"code": "bad_roll"' in out.stdout


def test_odds_of_a_roll_exact() -> None:
    """Issue 36: ``fracas odds --roll 2d6 --json`` gives floats and exact fractions."""
    out = cli_json("odds", "--roll", "2d6", "--json", quiet=True)
    assert (out["notation"], out["min"], out["max"], out["mean"]) == ("2d6", 2, 12, 7.0)
    assert out["exact"]["mean"] == "7/1"
    assert out["exact"]["distribution"]["7"] == "1/6" and out["distribution"]["2"] == 1 / 36
    assert "estimate" not in out
    text = cli("odds", "--roll", "4d6kh3")
    assert (
        text.stdout.splitlines()[0] == "Odds of 4d6kh3   min 3   max 18   mean 12.2446 (15869/1296)"
    )


def test_odds_of_an_explosion_say_they_are_an_estimate() -> None:
    """Issue 36: d20's ``e`` explodes without end: the odds are cut at a depth and say
    so (``estimate``, the depth, the chance a chain reaches the cut)."""
    out = cli_json("odds", "--roll", "1d6e6", "--json")
    assert out["estimate"] is True and out["explode_depth"] == 12
    assert out["max"] == 78 and out["exact"]["distribution"]["5"] == "1/6"
    assert "chain is cut at 12 new dice" in out["note"]


def test_odds_of_a_files_free_roll_are_pooled(tmp_path: Path) -> None:
    """Issue 36, item 3: ``fracas odds`` on a file ending in ``roll 8d6`` is exact (it
    was a Monte Carlo estimate past 30,000 dice paths)."""
    data = yaml.safe_load((ROOT / "examples" / "dice-combat.yaml").read_text())
    data["actions"] = [{"actor": data["combatants"][-1]["id"], "do": "roll", "notation": "8d6"}]
    file = tmp_path / "gm.yaml"
    file.write_text(yaml.safe_dump(data))
    out = cli_json("odds", str(file), "--json")
    assert "estimate" not in out and out["paths"] == 6**8
    assert out["roll"]["exact"]["mean"] == "28/1" and out["roll"]["min"] == 8
    assert out["roll"]["exact"]["distribution"]["8"] == f"1/{6**8}"


def test_odds_takes_a_file_or_a_roll() -> None:
    """Issue 36: ``--roll`` with a FILE is click's usage error (exit status 2)."""
    result = cli("odds", "x.yaml", "--roll", "2d6")
    assert result.exit_code == 2
    assert result.stderr.endswith("Error: give FILE or --roll NOTATION, not both\n")
