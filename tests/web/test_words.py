"""Issue 22, item 8: the words a game master reads, over raw socket frames and the
table's projection: amounts refused quoting what was typed, a self-target refusal
naming the combatant, a cancel refusal that never says "or 'gm'", a die of a combatant
nobody plays waiting for the game master alone, a hidden turn not called the game
master's, a 2000-character note logged once, and several-target lists enemies first."""

from __future__ import annotations

from pathlib import Path

import pytest
from starlette.testclient import TestClient

from fracas.model import Action
from fracas.table import GAME_MASTER, Act, Cancel, Forbidden, Give, Identity, SetDice, View
from fracas.web.shown import page_lines, page_state
from tests.web.support import served
from tests.web.test_permissions import HIDDEN, act, answer, hello


@pytest.mark.parametrize(
    ("amount", "message"),
    [
        (99999999999, "amount: 99999999999: input should be less than or equal to 1000000"),
        ("", "amount: '': input should be a valid integer, unable to parse string as an integer"),
        (
            "abc",
            "amount: 'abc': input should be a valid integer, unable to parse string as an integer",
        ),
        (0, "amount: 0: input should be greater than or equal to 1"),
    ],
    ids=["huge", "empty", "abc", "zero"],
)
def test_a_heal_amount_out_of_bounds_is_refused_quoting_it(
    tmp_path: Path, amount: object, message: str
) -> None:
    with served(tmp_path) as s:
        seq, hp = s.table.seq, s.table.state.get("ana").hp
        with TestClient(s.app).websocket_connect(f"/ws?token={s.gm}") as gm:
            hello(gm)
            gm.send_json(act(seq, actor="ana", do="heal", amount=amount))
            reply = answer(gm)
        assert (reply["code"], reply["message"]) == ("bad_value", message)
        assert (s.table.seq, s.table.state.get("ana").hp) == (seq, hp)


def test_a_self_target_refusal_names_the_combatant(tmp_path: Path) -> None:
    with served(tmp_path) as s:
        seq = s.table.seq
        with TestClient(s.app).websocket_connect(f"/ws?token={s.ana}") as pat:
            hello(pat)
            pat.send_json(act(seq, actor="ana", do="attack", target="ana"))
            reply = answer(pat)
        assert (reply["code"], reply["message"]) == (
            "self_target",
            "Ana cannot attack itself: choose another combatant",
        )
        throw = next(o for o in s.table.options("ana") if o.spec.name == "throw")
        # the reason Ana cannot throw, not "'ana' cannot throw itself"
        assert throw.refusal is not None and throw.refusal.message == (
            "'ana' holds 'pistol': only short blades, short blunt weapons and explosives can "
            "be thrown (DC-15)"
        )


def test_a_die_waits_for_the_game_master_alone_where_nobody_plays_its_owner(
    tmp_path: Path,
) -> None:
    """Physical dice: Pat's attack on Bo waits, after Ana's dice, for Bo's defend die.
    Where Sam plays Bo: "Bo's player or the game master"; where nobody plays Bo (an NPC):
    the game master alone. Sam may not cancel Pat's action, in words without 'gm'."""
    with served(tmp_path) as s:
        pat = Identity.player("Pat", "ana")
        s.table.submit(SetDice(True), GAME_MASTER)
        s.table.submit(Act(Action("ana", "attack", target="bo")), pat)
        s.table.submit(Give(20), pat)  # Ana's attack d20
        s.table.submit(Give(2), pat)  # Ana's ammo d3
        snap = s.table.snapshot()
        with_sam = page_state(View(snap, pat, frozenset({"ana", "bo"})))["pending"]
        nobody = page_state(View(snap, pat, frozenset({"ana"})))["pending"]
        assert (with_sam["owner"], with_sam["question"]) == ("bo", "Bo's defend d20?")
        assert with_sam["waiting"] == "Bo's player or the game master"
        assert nobody["waiting"] == "the game master"
        with pytest.raises(Forbidden) as err:
            s.table.submit(Cancel(), Identity.player("Sam", "bo"))
        assert err.value.message == (
            "only the game master or Pat, who took it, may cancel this action; 'Sam' may not"
        )


def test_a_cancel_refusal_of_the_game_masters_action_says_no_gm(tmp_path: Path) -> None:
    with served(tmp_path) as s:
        s.table.submit(SetDice(True), GAME_MASTER)
        s.table.submit(Act(Action("ana", "attack", target="bo")), GAME_MASTER)
        with pytest.raises(Forbidden) as err:
            s.table.submit(Cancel(), Identity.player("Pat", "ana"))
        assert err.value.message == "only the game master may cancel this action; 'Pat' may not"


def test_a_hidden_combatants_turn_is_not_called_the_game_masters(tmp_path: Path) -> None:
    with served(tmp_path, HIDDEN) as s:
        for _ in range(3):  # Ana, Bo, Cy end their turns: Grik's (hidden) turn
            actor = s.table.state.turn.actor
            s.table.submit(Act(Action(actor, "end_turn")), GAME_MASTER)
        assert s.table.state.turn.actor == "grik"
        seen = page_state(View(s.table.snapshot(), Identity.player("Pat", "ana")))
        assert (seen["turn"], seen["turn_words"]) == (
            None,
            "a turn the game master plays out of sight",
        )
        gm = page_state(View(s.table.snapshot(), GAME_MASTER))
        assert gm["turn_words"] == "Grik's turn"


def test_a_2000_character_note_is_logged_once(tmp_path: Path) -> None:
    with served(tmp_path) as s:
        text = "x" * 2000
        s.table.submit(Act(Action("ana", "note", params={"text": text})), GAME_MASTER)
        lines = page_lines(View(s.table.snapshot(), GAME_MASTER), s.table.seq - 1)
        assert sum(line["text"].count(text) for line in lines) == 1, lines
        assert [line["text"] for line in lines] == [
            "The game master writes a note on Ana",
            f"Note on Ana: {text}",
        ]


ESCALATION = """\
ruleset: escalation
seed: 11
combatants:
  - {id: cy, name: Cy, side: players, at: [0, 2], level: 2, whelm_rating: 2, energy: 1,
     weapons: [{is: whelm, name: fireball, range: 8}]}
  - {id: ana, name: Ana, side: players, at: [0, 0], level: 3, melee_rating: 3,
     weapons: [{is: melee, name: sword}]}
  - {id: gob, name: Gob, side: enemies, at: [4, 1], size: small, max_hp: 10,
     weapons: [{is: remote, name: sling, range: 12}]}
  - {id: rat, name: Giant rat, side: enemies, at: [5, 3], size: small, max_hp: 6,
     weapons: [{is: melee, name: teeth}]}
"""


def test_a_several_target_list_puts_the_enemies_first(tmp_path: Path) -> None:
    """The audit fireballed an ally: Cy's fireball (Whelm, several targets) lists Gob
    and the rat before Ana, though Ana comes first in the file."""
    with served(tmp_path, ESCALATION) as s:
        fireball = next(o for o in s.table.options("cy") if o.spec.name == "attack")
        assert fireball.targets[:2] == ("gob", "rat") and fireball.targets[2:] == ("ana",)
