"""Issue 35, item 7, "Wasteland's economy in view": what an action costs before it is
confirmed, from the rules' own decision (``Ruleset.costs``: the AP of WL-5, WL-29,
WL-30, WL-34; the Overwatch shot of WL-30; the Reactions and Free Reactions of WL-31),
on the bundled example at its start and played through; and the reactions offered to
their owner off turn exactly when the rules allow them (WL-30, WL-31, WL-36), with the
page's prompt (``react``) on the owner's options."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from fracas.engine.may_do import Option, options_now
from fracas.io.store import open_store
from fracas.model import Action, Encounter
from fracas.rulesets.base import Cost, Ruleset, costs_of
from fracas.table import Act, Identity, OddsQuestion, TableService, View
from tests.helpers import Played, play
from tests.rulesets.wasteland.support import act, fight, ok, who

ROOT = Path(__file__).parents[3]
START = (ROOT / "examples" / "start" / "wasteland.yaml").read_text()
PLAYED = (ROOT / "examples" / "wasteland.yaml").read_text()
CLUB = {"name": "club", "kind": "melee", "damage": "1d4", "ap": 3}
GRENADE = {"name": "grenade", "kind": "explosive", "damage": "2d6", "ap": 4}


def _start() -> Played:
    return ok(play(START))


def _knox_turn() -> Played:
    """examples/wasteland.yaml played up to Knox's attack (Knox's turn, 8 AP)."""
    text = PLAYED.split("  - {actor: knox")[0] + "  - {actor: raider, do: end_turn}\n"
    return ok(play(text))


def _costs(p: Played | tuple[Ruleset, Encounter], actor: str, do: str,
           target: str | None = None, **params: Any) -> tuple[Cost, ...]:  # fmt: skip
    ruleset, state = (p.file.ruleset, p.state) if isinstance(p, Played) else p
    return costs_of(ruleset, state, Action(actor, do, target, params=params))


def _ap(actor: str, spent: int, before: int, owed: int = 0) -> tuple[Cost, ...]:
    return (Cost(actor, "AP", spent, before, before - spent + owed, owed=owed),)


def _then(*steps: str) -> str:
    """Actions after the start's combatants: ``actor do`` pairs flattened."""
    out = "actions:\n"
    for actor, do in zip(steps[::2], steps[1::2], strict=True):
        out += f"  - {{actor: {actor}, do: {do}}}\n"
    return out


def _option(p: Played, actor: str, do: str) -> Option:
    return next(o for o in options_now(p.file.ruleset, p.state, actor) if o.spec.name == do)


# --- the costs, before any die ---------------------------------------------------------


def test_WL_5_an_attacks_cost_on_the_example_at_its_start() -> None:
    p = _start()
    assert p.state.turn.actor == "vera"
    assert _costs(p, "vera", "attack", "raider") == _ap("vera", 3, 9)
    assert _costs(p, "vera", "attack", "raider", burst=True) == _ap("vera", 4, 9)
    assert _costs(p, "vera", "attack", "raider", called="torso") == _ap("vera", 4, 9)
    both = _costs(p, "vera", "attack", "raider", called="head", burst=True)
    assert both == _ap("vera", 5, 9)


def test_WL_29_WL_30_final_actions_cost_on_the_example_at_its_start() -> None:
    p = _start()
    assert _costs(p, "vera", "defend") == _ap("vera", 3, 9)  # all AP up to 3
    assert _costs(p, "vera", "overwatch") == _ap("vera", 9, 9)  # all remaining AP
    assert _costs(p, "vera", "peek") == ()  # refused (no full cover): nothing to show


def test_WL_5_costs_on_the_example_played_to_knoxs_turn() -> None:
    p = _knox_turn()
    assert p.state.turn.actor == "knox"
    assert _costs(p, "knox", "attack", "raider", called="torso") == _ap("knox", 6, 8)
    assert _costs(p, "knox", "attack", "raider") == _ap("knox", 5, 8)
    assert _costs(p, "knox", "defend") == _ap("knox", 3, 8)
    assert _costs(p, "knox", "overwatch") == _ap("knox", 8, 8)
    # Vera spent her 9 AP (move 2, burst 4, Defend 3): an attack of hers is refused
    assert _costs(p, "vera", "attack", "raider") == ()


def test_WL_27_WL_34_a_throw_and_an_overflowed_attack_cost() -> None:
    smg = {"name": "smg", "damage": "1d6", "ap": 3, "overflowable": True}
    two = [act("a", "set", ap=2)]  # 2 AP left of 8
    p = ok(fight(who("a", weapons=[GRENADE, smg]), who("b", at=(3, 0)), actions=two))
    short = costs_of(
        p.file.ruleset, p.state, Action("a", "throw", "b", params={"weapon": "grenade"})
    )
    assert short == ()  # 4 AP, 2 left, not overflowable: refused
    assert _costs(p, "a", "attack", "b", weapon="smg") == _ap("a", 3, 2, owed=1)
    p = ok(fight(who("a", weapons=[GRENADE]), who("b", at=(3, 0))))
    thrown = costs_of(p.file.ruleset, p.state, Action("a", "throw", "b"))
    assert thrown == _ap("a", 4, 8)


def test_WL_30_an_overwatch_shot_uses_one_of_the_allowance() -> None:
    p = ok(play(START + _then("vera", "overwatch", "vera", "end_turn")))
    assert p.state.get("vera").statuses["overwatch"]["shots"] == 4  # 9 // 3 + 1
    shot = Cost("vera", "Overwatch shot", 1, 4, 3, uses=True)
    assert _costs(p, "vera", "overwatch_attack", "raider") == (shot,)


def test_WL_31_free_reactions_and_the_reaction_use_one_of_the_rounds() -> None:
    a = who("a", weapons=[CLUB], skills={"melee": 10}, perks=["hit_the_deck", "zone_of_threat"])
    b = who("b", at=(1, 0), weapons=[CLUB])
    p = ok(fight(a, b, actions=[act("b", "attack", "a", dice={"attack": 3})]))  # b misses
    assert _costs(p, "a", "opportunity_attack", "b") == (
        Cost("a", "opportunity attack", 1, 2, 1, uses=True),  # Zone of Threat: 2
    )
    assert _costs(p, "a", "riposte", "b") == (Cost("a", "riposte", 1, 1, 0, uses=True),)
    assert _costs(p, "a", "reaction", name="hit_the_deck") == (
        Cost("a", "Reaction", 1, 1, 0, uses=True),
    )


# --- the reactions offered off turn ----------------------------------------------------


def test_WL_30_overwatch_attack_offered_off_turn_exactly_while_in_overwatch() -> None:
    p = ok(play(START + _then("vera", "end_turn")))  # the raider's turn, no Overwatch
    watch = _option(p, "vera", "overwatch_attack")
    assert not watch.allowed and watch.refusal is not None
    assert watch.refusal.code == "not_in_overwatch"
    p = ok(play(START + _then("vera", "overwatch", "vera", "end_turn")))
    assert p.state.turn.actor == "raider"
    watch = _option(p, "vera", "overwatch_attack")
    assert watch.allowed and "raider" in watch.targets
    assert watch.costs == (Cost("vera", "Overwatch shot", 1, 4, 3, uses=True),)
    # the allowance spent: refused
    shots = "".join(
        "  - {actor: vera, do: overwatch_attack, target: raider, dice: {attack: 2}}\n"
        for _ in range(4)
    )
    p = ok(play(START + _then("vera", "overwatch", "vera", "end_turn") + shots))
    watch = _option(p, "vera", "overwatch_attack")
    assert watch.refusal is not None and watch.refusal.code == "no_overwatch_shots"


def test_WL_36_riposte_offered_off_turn_exactly_after_a_melee_miss() -> None:
    a = who("a", weapons=[CLUB], skills={"melee": 7})
    b = who("b", at=(1, 0), weapons=[CLUB])
    p = ok(fight(a, b, actions=[act("a", "end_turn")]))  # b's turn, no miss yet
    riposte = _option(p, "a", "riposte")
    assert riposte.refusal is not None and riposte.refusal.code == "no_riposte_trigger"
    p = ok(fight(a, b, actions=[act("b", "attack", "a", dice={"attack": 3})]))
    riposte = _option(p, "a", "riposte")
    assert riposte.allowed and riposte.targets == ("b",)
    p = ok(fight(a, b, actions=[act("b", "attack", "a", dice={"attack": 19, "location": 5,
                                                           "damage": [1]})]))  # fmt: skip
    assert _option(p, "a", "riposte").refusal is not None  # a hit: no Riposte


def test_WL_31_opportunity_attack_offered_off_turn_exactly_with_melee_3() -> None:
    b = who("b", at=(1, 0), weapons=[CLUB])
    p = ok(fight(who("a", weapons=[CLUB], skills={"melee": 3}), b, actions=[act("a", "end_turn")]))
    assert _option(p, "a", "opportunity_attack").targets == ("b",)
    p = ok(fight(who("a", weapons=[CLUB], skills={"melee": 2}), b, actions=[act("a", "end_turn")]))
    refused = _option(p, "a", "opportunity_attack").refusal
    assert refused is not None and refused.code == "needs_melee_3"


def test_WL_30_the_owners_page_is_prompted_to_react_off_turn(tmp_path: Path) -> None:
    table = TableService(open_store(tmp_path / "s.sqlite3", durable=False)).create(
        START, "w.yaml", seed=1
    )
    pat = Identity.player("Pat", "vera")
    view = View(table.snapshot(), pat)
    watch = next(o for o in view.options()["vera"] if o["do"] == "overwatch_attack")
    assert watch["react"] == []  # Vera's turn, no Overwatch
    attack = next(o for o in view.options()["vera"] if o["do"] == "attack")
    assert attack["costs"] == [
        {"actor": "vera", "what": "AP", "spent": 3, "before": 9, "after": 6, "owed": 0,
         "uses": False}
    ]  # fmt: skip
    table.submit(Act({"actor": "vera", "do": "overwatch"}), pat)
    table.submit(Act({"actor": "vera", "do": "end_turn"}), pat)
    view = View(table.snapshot(), pat)
    watch = next(o for o in view.options()["vera"] if o["do"] == "overwatch_attack")
    assert watch["allowed"] and watch["react"] == ["raider"]  # the enemy only, not Knox
    gm = View(table.snapshot(), Identity.gm(), frozenset({"vera", "knox"}))
    assert list(gm.options()) == ["raider"]  # Vera's reaction is her player's
    assert "vera" in View(table.snapshot(), Identity.gm()).options()  # nobody known plays her
    # the raider (nobody plays it) enters Overwatch: in Knox's turn the game master's
    # page is prompted for the raider's reaction, on Vera and on Knox
    table.submit(Act({"actor": "raider", "do": "overwatch"}))
    table.submit(Act({"actor": "raider", "do": "end_turn"}))
    assert table.state.turn.actor == "knox"
    gm = View(table.snapshot(), Identity.gm(), frozenset({"vera", "knox"}))
    options = gm.options()
    assert list(options) == ["knox", "raider"]
    assert [(o["do"], o["react"]) for o in options["raider"]] == [
        ("overwatch_attack", ["vera", "knox"])
    ]


def test_WL_5_the_odds_answer_carries_the_cost(tmp_path: Path) -> None:
    table = TableService(open_store(tmp_path / "s.sqlite3", durable=False)).create(
        START, "w.yaml", seed=1
    )
    pat = Identity.player("Pat", "vera")
    action = Action("vera", "attack", "raider", params={"burst": True})
    question = OddsQuestion.of(table.ruleset, table.state, action, 1, pat, {})
    shown = question.shown(table.odds(action))
    assert shown["costs"] == [
        {"actor": "vera", "what": "AP", "spent": 4, "before": 9, "after": 5, "owed": 0,
         "uses": False}
    ]  # fmt: skip
