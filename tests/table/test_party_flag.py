"""Issue 36, "a party that carries over": ``--party NAME`` on ``fracas play FILE`` and
``fracas serve FILE`` brings a stored party into the new fight, through the one function
``fracas party start`` uses (:func:`fracas.table.party.start_file`); the party's codes
refuse a party gone or of another ruleset, a file holding none of its members, and a
stored encounter (a party comes in as a fight starts, never into one resumed).

The party here: Ana of a small dice-combat fight, then by the game master's hand 5 HP
and 2 rounds left in her pistol (DC-7: ammo spent lasts between fights)."""

from __future__ import annotations

import json
import signal
from collections.abc import Iterator
from pathlib import Path

import pytest
from click.testing import CliRunner, Result

from fracas.io.store import open_store
from fracas.main import main
from fracas.table import TableService
from fracas.table import party as parties
from fracas.table.party import Parties
from fracas.web.command import _with_party
from tests.helpers import cli, write
from tests.web.test_serve_command import get, link, start, stop

FIGHT = """\
ruleset: {ruleset}
seed: 5
combatants:
  - {{id: ana, name: Ana, side: players, at: [0, 0], hand: {hand}}}
  - {{id: bo, name: Bo, side: raiders, at: [1, 0], hand: {hand}}}
"""
NEXT = FIGHT.format(ruleset="dice-combat", hand="pistol")
STRANGERS = NEXT.replace("ana", "cy").replace("Ana", "Cy")


@pytest.fixture
def db(tmp_path: Path) -> str:
    """A store holding party ``crew`` (Ana, 5 of 12 HP, 2 rounds loaded) and the fight
    ``one`` it was written back from."""
    path = str(tmp_path / "s.sqlite3")
    store = open_store(path)
    tables = TableService(store)
    tables.create(NEXT, "one.yaml", name="one", seed=1)
    parties.write_back(tables, "one", "crew")
    crew = Parties(store)
    loaded = {"hp": 5, "hand": {"is": "pistol", "loaded": 2}}
    crew.put(parties.set_member(crew.get("crew"), "ana", loaded))
    store.close()
    return path


@pytest.fixture
def signals() -> Iterator[None]:
    """``fracas serve`` in-process catches SIGINT and SIGTERM for its process: given back."""
    kept = {s: signal.getsignal(s) for s in (signal.SIGINT, signal.SIGTERM)}
    yield
    for s, handler in kept.items():
        signal.signal(s, handler)


def _ana(db: str, encounter: str) -> tuple[int, int | None]:
    store = open_store(db)
    try:
        ana = TableService(store).open(encounter).state.get("ana")
        return ana.hp, ana.sheet.hand.loaded
    finally:
        store.close()


def _names(db: str) -> list[str]:
    store = open_store(db)
    try:
        return sorted(i.name for i in store.list())
    finally:
        store.close()


def test_issue_36_play_file_party_brings_the_party_in(db: str, tmp_path: Path) -> None:
    nxt = write(tmp_path, NEXT, "next.yaml")
    result = CliRunner().invoke(
        main,
        ["play", nxt, "--party", "crew", "--name", "two", "--seed", "3", "--db", db],
        input="quit\n",
        catch_exceptions=False,
    )
    assert result.exit_code == 0, result.output
    assert result.stdout.splitlines()[:2] == [
        f"party 'crew' brought into a new encounter 'two' from {nxt} (ana with what lasts "
        "of them); live dice from seed 3",
        f"resumed 'two' (dice-combat, 1 records) from {db}",
    ]
    assert _ana(db, "two") == (5, 2)  # DC-7: the rounds spent stay spent
    assert _ana(db, "one") == (12, 8)  # the fight written back is as it was
    store = open_store(db)
    assert parties.party_of(TableService(store), "two") == "crew"  # its write-back goes there
    store.close()


def _refused(result: Result) -> str:
    assert result.exit_code == 1, result.output
    assert "Traceback" not in result.output
    return result.stderr


def test_issue_36_party_flag_refusals_are_one_line_and_store_nothing(
    db: str, tmp_path: Path, signals: None
) -> None:
    nxt = write(tmp_path, NEXT, "next.yaml")
    duel = write(tmp_path, FIGHT.format(ruleset="tier-duel", hand="sword"), "duel.yaml")
    strangers = write(tmp_path, STRANGERS, "strangers.yaml")
    resumed = (
        "error: bad_command: --party 'crew' with 'one', a stored encounter: a party comes in "
        "as a fight starts, never into one resumed; give an encounter FILE to start the next "
        "fight with it, or resume 'one' without --party\n"
    )
    for command in ("play", "serve"):

        def run(*args: str, command: str = command) -> str:
            return _refused(cli(command, *args, "--db", db))

        assert run(nxt, "--party", "gang") == (
            f"error: unknown_party: no party 'gang' in {db}; parties: crew\n"
        )
        assert run(duel, "--party", "crew") == (
            "error: wrong_ruleset: party 'crew' plays dice-combat; the file's ruleset is "
            "'tier-duel': give a dice-combat encounter\n"
        )
        assert run(strangers, "--party", "crew") == (
            f"error: no_member: {strangers!r} holds no member of party 'crew': a member comes "
            "in where a combatant has its id or name; valid: ana\n"
        )
        assert run("one", "--party", "crew") == resumed
    assert _refused(cli("serve", "--party", "crew", "--db", db)) == (
        "error: missing_argument: --party 'crew' brings the party into the fight a FILE "
        "starts: give FILE (the setup page's 'Bring in the party' does it for a fight set up "
        "there)\n"
    )
    # `fracas party start` is the same door, so the same refusals
    assert _refused(cli("party", "start", "crew", "one", "--db", db)) == resumed
    assert _names(db) == ["one"]  # nothing was stored


def test_issue_36_serve_goes_on_with_the_fight_that_brought_the_party_in(
    db: str, tmp_path: Path
) -> None:
    """As ``fracas serve FILE`` goes on with the file's unfinished fight, ``--party``
    goes on with the one that brought that party in (``--new``: another)."""
    nxt = write(tmp_path, NEXT, "next.yaml")
    assert cli("play", nxt, "--name", "plain", "--db", db).exit_code == 0  # no party
    first = _with_party(db, nxt, "crew", None, new=False)
    assert first == "next" and _ana(db, first) == (5, 2)  # not `plain`: it has no party
    assert _with_party(db, nxt, "crew", None, new=False) == nxt  # served as the file: goes on
    assert _with_party(db, nxt, "crew", None, new=True) == "next-2"
    assert _names(db) == ["next", "next-2", "one", "plain"]


def test_issue_36_serve_file_party_serves_the_party_in_the_new_fight(
    db: str, tmp_path: Path
) -> None:
    nxt = write(tmp_path, NEXT, "next.yaml")
    proc, lines = start(Path(db), nxt, "--party", "crew")
    try:
        assert lines[:2] == [
            f"party 'crew' brought into a new encounter 'next' from {nxt} (ana with what "
            "lasts of them):",
            f"resumed 'next' (dice-combat, 1 records) in {db}; `fracas play next` goes on "
            "with it too",
        ]
        base, token = link(lines, "game master").rsplit("/t/", 1)
        status, body = get(f"{base}/api/state", token)
        ana = next(c for c in json.loads(body)["combatants"] if c["id"] == "ana")
        assert (status, ana["hp"]) == (200, 5)
    finally:
        stop(proc)
