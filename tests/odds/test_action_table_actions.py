"""The odds of a game master's table action are planned as the engine plans it: no
turn advance, no ruleset decision (before: `fracas odds` on a file ending in `heal`
failed with `no_position: 'the target' has no position`)."""

from __future__ import annotations

from pathlib import Path

import pytest
import yaml

from tests.helpers import cli

EXAMPLES = sorted((Path(__file__).resolve().parents[2] / "examples").glob("*.yaml"))


@pytest.mark.parametrize("path", EXAMPLES, ids=lambda p: p.stem)
@pytest.mark.parametrize(
    ("entry", "paths"),
    [({"do": "heal", "amount": 2}, 1), ({"do": "roll", "notation": "2d6"}, 36)],
    ids=["heal", "roll"],
)
def test_odds_of_a_table_action(
    path: Path, entry: dict[str, object], paths: int, tmp_path: Path
) -> None:
    data = yaml.safe_load(path.read_text())
    last = data["combatants"][-1]["id"]  # not whose turn it is: no turn passes
    data["actions"] = [{"actor": last, **entry}]
    file = tmp_path / "gm.yaml"
    file.write_text(yaml.safe_dump(data))
    result = cli("odds", str(file), "--json")
    assert result.exit_code == 0, result.stderr
    assert f'"paths": {paths}' in result.stdout
