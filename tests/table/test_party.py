"""A party that carries over from fight to fight (issue 36, item 5), through the table
service: two fights in a row in each of the five rulesets (what the ruleset declares
lasting lasts, exactly; what does not is the next file's afresh), an undo of the last
action before the write-back, rest and the game master's hand, the store (SQLite and
PostgreSQL) and the command line."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
import yaml
from click.testing import CliRunner

from fracas.cli import main
from fracas.errors import FracasError
from fracas.io.store import open_store
from fracas.rulesets import RULESETS
from fracas.table import TableService
from fracas.table import party as parties
from fracas.table.party import Parties
from tests.play.support import EXAMPLES
from tests.store.pgcluster import Cluster

# Fight 1: the example with its actions (seed 1), and a few more where its dice leave
# the lasting thing untouched. Fight 2: the example's start, no actions.
MORE: dict[str, list[dict[str, Any]]] = {
    # ES-12: a trigger of 11 inflicts the ogre club's `dazed` on Ana.
    "escalation": [{"actor": "ogre", "do": "attack", "target": "ana", "condition": "dazed",
                    "dice": {"trigger": 11}}],
    # WL-21: an injury (the game master's edit: the file's own dice injure no one).
    "wasteland": [{"actor": "vera", "do": "set",
                   "limbs": {"left_arm": {"ct": 0, "injury": "minor"}}}],
}  # fmt: skip
LASTS = {  # (member, what lasts of it after fight 1, exactly)
    "dice-combat": ("ana", 7, {"hand": "knife", "loaded": 0}),  # DC-7: 6 rounds fired
    "tier-duel": ("ana", 0, {"temporary_damage": 22}),  # TD-5
    "escalation": ("ana", 18, {"energy": 2, "conditions": ["dazed"]}),  # ES-2, ES-7, ES-12
    "soak": ("mara", 8, {"superficial": 12, "av": 1, "wounds": 1}),  # SK-13, SK-14
    "wasteland": ("vera", 17, {"injury": "minor"}),  # WL-21
}


def _files(ruleset: str) -> tuple[str, str]:
    """Fight 1's text (the example, its actions and MORE) and fight 2's (its start)."""
    data = yaml.safe_load((EXAMPLES / f"{ruleset}.yaml").read_text())
    data["actions"] = [*data["actions"], *MORE.get(ruleset, [])]
    first = yaml.safe_dump(data, sort_keys=False)
    del data["actions"]
    return first, yaml.safe_dump(data, sort_keys=False)


def _seen(ruleset: str, c: Any) -> dict[str, Any]:
    """What LASTS checks of combatant ``c`` (its sheet), in the same words."""
    s = c.sheet
    if ruleset == "dice-combat":
        return {"hand": s.hand.name, "loaded": s.inventory[0].loaded}
    if ruleset == "tier-duel":
        return {"temporary_damage": s.temporary_damage}
    if ruleset == "escalation":
        return {"energy": s.energy, "conditions": list(s.conditions)}
    if ruleset == "soak":
        return {"superficial": s.superficial, "av": s.av, "wounds": s.wounds}
    return {"injury": s.limbs["left_arm"].injury}


@pytest.fixture
def tables() -> TableService:
    return TableService(open_store(":memory:"))


@pytest.mark.parametrize("ruleset", [r.about.name for r in RULESETS])
def test_issue_36_two_fights_in_a_row_what_lasts_lasts(tables: TableService, ruleset: str) -> None:
    first, second = _files(ruleset)
    one = tables.create(first, f"{ruleset}.yaml", name="one", seed=1)
    who, hp, lasting = LASTS[ruleset]
    end = one.state.combatants[who]
    assert (end.hp, _seen(ruleset, end)) == (hp, lasting)
    written = parties.write_back(tables, "one", "crew")
    assert [m.id for m in written.members] == [c.id for c in one.state.combatants.values()
                                              if c.side == end.side]  # fmt: skip
    two = parties.start(tables, "crew", second, f"{ruleset}.yaml", name="two", seed=1)
    now = two.state.combatants[who]
    assert (now.hp, now.max_hp, _seen(ruleset, now)) == (hp, end.max_hp, lasting)
    # what does not last is the file's afresh: a new round 1, the enemies whole, the
    # turn's resources (Escalation 1 again, ES-G3)
    assert two.state.round == 1
    fresh = tables.create(second, f"{ruleset}.yaml", name="fresh", seed=1).state
    for cid, c in two.state.combatants.items():
        if c.side != end.side:
            assert c == fresh.combatants[cid]
    assert dict(two.state.values) == dict(fresh.values)
    # and a second write-back of the new fight leaves the party as it was
    assert parties.write_back(tables, "two").members == written.members


def test_issue_36_what_does_not_last_is_reset(tables: TableService) -> None:
    """soak: AP spent and initiative are fight 1's alone; escalation: Escalation 1 again;
    wasteland: the AP of the turn (WL-3) is the file's afresh."""
    for ruleset, who, field in (("soak", "mara", "ap"), ("wasteland", "vera", "ap")):
        first, second = _files(ruleset)
        one = tables.create(first, f"{ruleset}.yaml", seed=1)
        parties.write_back(tables, one.name, ruleset)
        two = parties.start(tables, ruleset, second, f"{ruleset}.yaml", seed=1)
        fresh = tables.create(second, f"{ruleset}.yaml", seed=1).state
        assert getattr(one.state.get(who).sheet, field) != getattr(fresh.get(who).sheet, field)
        assert getattr(two.state.get(who).sheet, field) == getattr(fresh.get(who).sheet, field)
    first, second = _files("escalation")
    one = tables.create(first, "escalation.yaml", seed=1)
    assert one.state.values["escalation"] == 2
    parties.write_back(tables, one.name, "band")
    assert parties.start(tables, "band", second, "escalation.yaml").state.values["escalation"] == 1


def test_issue_36_undo_of_the_last_action_before_the_write_back_counts(
    tables: TableService,
) -> None:
    """dice-combat: the fight's last blow (Cy's greataxe on Ana, a natural 20 against a
    defence of 1) taken back before the game master writes back: the party keeps Ana as
    the undo left her."""
    first, second = _files("dice-combat")
    one = tables.create(first, "dice-combat.yaml", name="one", seed=1)
    one.act({"actor": "cy", "do": "end_turn"})  # the next round's: dee's, ana's, bo's end first
    one.act({"actor": "cy", "do": "attack", "target": "ana", "dice": {"attack": 20, "defend": 1}})
    assert one.state.get("ana").hp == 0
    one.undo()
    assert parties.write_back(tables, "one", "crew").member("ana").hp == 7
    two = parties.start(tables, "crew", second, "dice-combat.yaml")
    assert two.state.get("ana").hp == 7
    assert two.state.get("ana").sheet.inventory[0].loaded == 0  # the shots before it stand


def test_issue_36_a_lasting_status_is_set_as_the_next_fight_opens(tables: TableService) -> None:
    """escalation: `dead` (ES-20) outlasts the fight, set by the game master's `set`."""
    first, second = _files("escalation")
    one = tables.create(first, "escalation.yaml", seed=1)
    one.act({"actor": "cy", "do": "set", "statuses": {"dead": {}}})
    parties.write_back(tables, one.name, "band")
    two = parties.start(tables, "band", second, "escalation.yaml")
    assert dict(two.state.get("cy").statuses) == {"dead": {"by": ""}}
    assert (two.state.round, two.state.turn.actor, two.state.turn.actions_used) == (1, "ana", 0)
    assert "dead" not in two.state.get("ana").statuses


def test_issue_36_rest_and_the_game_masters_hand(tables: TableService) -> None:
    """tier-duel: a rest gives the temporary damage back (TD-5, PROPOSED); wasteland: a
    Long Rest gives back the once-per-Long-Rest abilities (WL-19) and heals nothing;
    soak: the game master's hp sets the health track (SK-15)."""
    store = Parties(tables.store)
    first, _ = _files("tier-duel")
    parties.write_back(tables, tables.create(first, "tier-duel.yaml", seed=1).name, "duo")
    rested = store.put(parties.rest(store.get("duo")))
    assert (rested.member("ana").hp, rested.member("ana").fields["temporary_damage"]) == (20, 0)
    first, _ = _files("wasteland")
    one = tables.create(first, "wasteland.yaml", seed=1)
    one.act({"actor": "vera", "do": "set", "rest_uses": ["too_stubborn_to_die"]})
    party = parties.rest(parties.write_back(tables, one.name, "vault"))
    assert (party.member("vera").hp, party.member("vera").fields["rest_uses"]) == (17, [])
    first, _ = _files("soak")
    party = parties.write_back(tables, tables.create(first, "soak.yaml", seed=1).name, "pair")
    mara = parties.set_member(party, "Mara", {"hp": 15}).member("mara")
    assert (mara.hp, mara.fields["superficial"]) == (15, 5)
    with pytest.raises(FracasError) as no:
        parties.set_member(party, "mara", {"ap": 1})
    assert no.value.code == "unknown_field"
    with pytest.raises(FracasError) as bad:
        parties.set_member(party, "mara", {"hp": 30})
    assert bad.value.code == "bad_value"


def test_issue_36_refusals(tables: TableService) -> None:
    first, second = _files("soak")
    one = tables.create(first, "soak.yaml", seed=1)
    with pytest.raises(FracasError) as none:
        parties.write_back(tables, one.name)
    assert none.value.code == "no_party"
    parties.write_back(tables, one.name, "pair")
    other = _files("wasteland")[1]
    with pytest.raises(FracasError) as wrong:
        parties.start(tables, "pair", other, "wasteland.yaml")
    assert wrong.value.code == "wrong_ruleset"
    with pytest.raises(FracasError) as unknown:
        parties.start(tables, "nobody", second, "soak.yaml")
    assert (unknown.value.code, "pair" in unknown.value.message) == ("unknown_party", True)


def _store_round_trip(location: str) -> None:
    store = open_store(location)
    try:
        tables = TableService(store)
        first, _ = _files("soak")
        parties.write_back(tables, tables.create(first, "soak.yaml", seed=1).name, "pair")
        assert list(store.parties()) == ["pair"]
        assert Parties(store).get("pair").member("mara").fields["wounds"] == 1
        store.put_party("pair", None)
        assert store.party("pair") is None
    finally:
        store.close()


def test_issue_36_the_party_is_kept_in_a_sqlite_store_and_outlives_it(tmp_path: Path) -> None:
    _store_round_trip(str(tmp_path / "a.sqlite3"))
    db = str(tmp_path / "b.sqlite3")
    store = open_store(db)
    tables = TableService(store)
    first, _ = _files("soak")
    parties.write_back(tables, tables.create(first, "soak.yaml", name="one", seed=1).name, "pair")
    store.close()
    again = open_store(db)
    assert Parties(again).get("pair").member("mara").hp == 8
    assert parties.party_of(TableService(again), "one") == "pair"
    again.close()


def test_issue_36_the_party_is_kept_in_a_postgres_store(pg_server: Cluster) -> None:
    _store_round_trip(pg_server.database())


def test_issue_36_the_command_line(tmp_path: Path) -> None:
    db = str(tmp_path / "s.sqlite3")
    run = CliRunner()
    first, second = _files("wasteland")
    (tmp_path / "one.yaml").write_text(first)
    (tmp_path / "two.yaml").write_text(second)
    store = open_store(db)
    TableService(store).create(first, "one.yaml", name="one", seed=1)
    store.close()
    out = run.invoke(main, ["party", "write-back", "one", "--party", "vault", "--db", db])
    assert out.exit_code == 0, out.output
    assert "vera (Vera, players): HP 17/20" in out.output
    listed = run.invoke(main, ["party", "list", "--db", db])
    assert listed.output == "vault: wasteland, Vera, Knox\n"
    shown = json.loads(run.invoke(main, ["party", "show", "vault", "--json", "--db", db]).output)
    assert (shown["encounter"], shown["members"][0]["fields"]["limbs"]["left_arm"]["injury"]) == (
        "one",
        "minor",
    )
    exported = yaml.safe_load(run.invoke(main, ["party", "export", "vault", "--db", db]).output)
    assert exported["members"][0] | {"limbs": None, "weapons": None} == {
        "id": "vera", "name": "Vera", "side": "players", "hp": 17, "max_hp": 20,
        "limbs": None, "weapons": None, "rest_uses": [],
    }  # fmt: skip
    out = run.invoke(main, ["party", "set", "vault", "vera", "hp=20", "--db", db])
    assert "HP 20/20" in out.output
    out = run.invoke(main, ["party", "start", "vault", str(tmp_path / "two.yaml"), "--name",
                            "two", "--db", db])  # fmt: skip
    assert out.output == "started two with party vault: fracas serve two\n"
    store = open_store(db)
    assert TableService(store).open("two").state.get("vera").hp == 20
    store.close()
    bad = run.invoke(main, ["party", "show", "nobody", "--db", db])
    assert (bad.exit_code, bad.output) == (
        1,
        f"error: unknown_party: no party 'nobody' in {db}; parties: vault\n",
    )
