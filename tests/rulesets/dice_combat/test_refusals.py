"""dice-combat refusals (dice-combat.md 2.3) and dice errors: each is reported with its
code, in the table's order, and consumes nothing (README: "An illegal action consumes
nothing: no die, no ammo, no item, no action").

Each test builds an encounter whose last action is the illegal one and checks:

- the action is refused with the expected code (``Refusal`` or ``DiceError``);
- the state is exactly the state of the same encounter without the illegal action:
  HP, ``hand.loaded``, hand and inventory items, statuses, whose turn,
  ``turn.actions_used``, ``turn.flags``, ``turn.over``, and the log length;
- no die was consumed: the generator's state is unchanged, and a legal, seeded
  follow-up action rolls and does exactly what it does without the refused action
  before it.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import pytest
import yaml

from fracas.engine.play import Engine
from fracas.errors import DiceError, FracasError, Refusal
from fracas.model import Encounter
from fracas.rulesets.dice_combat.items import Item
from tests.helpers import Played, load_text, play
from tests.rulesets.builders import Checked, refused_consuming_nothing
from tests.rulesets.dice_combat.support import DICE_COMBAT

Combatants = list[dict[str, Any]]
Actions = list[dict[str, Any]]

SEED = 20240611

# Two bystanders far from everyone: the follow-up action is zed's unarmed attack on
# yan with advantage, which rolls two `attack` dice (and more) from the seed.
BYSTANDERS: Combatants = [
    {"id": "zed", "at": [60, 60]},
    {"id": "yan", "at": [61, 60]},
]
SWORD_DUEL: Combatants = [{"id": "ana", "at": [0, 0], "hand": "sword"}, {"id": "bo", "at": [1, 0]}]
"""ana, a sword in hand, beside bo."""
FOLLOW_UP: dict[str, Any] = {"actor": "zed", "do": "attack", "target": "yan", "edge": "advantage"}


def encounter(
    combatants: Combatants,
    actions: Actions,
    *,
    round_: int = 2,
    options: dict[str, Any] | None = None,
) -> str:
    """The YAML text of a dice-combat encounter; the bystanders come last in the order."""
    people = [*combatants, *BYSTANDERS]
    data = DICE_COMBAT.doc(
        *people, actions=actions, options=options, order=(), seed=SEED, round=round_
    )
    return yaml.safe_dump(data, sort_keys=False)


def _hand(sheet: Any) -> Item | None:
    hand: Item | None = sheet.hand
    return hand


def snapshot(engine: Engine) -> dict[str, Any]:
    """Everything a refused action must leave alone, spelled out."""
    state = engine.state
    out: dict[str, Any] = {
        "round": state.round,
        "turn.actor": state.turn.actor,
        "turn.actions_used": state.turn.actions_used,
        "turn.over": state.turn.over,
        "turn.flags": state.turn.flags,
        "log": len(engine.log),
        "random": engine.random.getstate(),
    }
    for cid, c in state.combatants.items():
        hand = _hand(c.sheet)
        out[f"{cid}.hp"] = c.hp
        out[f"{cid}.at"] = c.at
        out[f"{cid}.hand"] = hand
        out[f"{cid}.loaded"] = hand.loaded if hand is not None else None
        out[f"{cid}.inventory"] = tuple(c.sheet.inventory)
        out[f"{cid}.statuses"] = dict(c.statuses)
        out[f"{cid}.marks"] = c.marks
    return out


def assert_refused(
    combatants: Combatants,
    actions: Actions,
    code: str,
    *,
    round_: int = 2,
    options: dict[str, Any] | None = None,
    kind: type[FracasError] = Refusal,
) -> Checked:
    """The last action is refused with ``code`` and consumes nothing (every field of
    :func:`snapshot` too)."""

    def text(acts: Sequence[dict[str, Any]]) -> str:
        return encounter(combatants, list(acts), round_=round_, options=options)

    checked = refused_consuming_nothing(
        text, actions, code, FOLLOW_UP, kind=kind, snapshot=snapshot
    )
    assert len(checked.follow_up.rolls) >= 2  # the follow-up really draws from the seed
    return checked


def assert_legal(
    combatants: Combatants,
    actions: Actions,
    *,
    round_: int = 2,
    options: dict[str, Any] | None = None,
) -> Played:
    """Every action is played (the boundary case next to a refusal)."""
    played = play(encounter(combatants, actions, round_=round_, options=options))
    assert played.error is None, played.error
    return played


def hand_of(state: Encounter, cid: str) -> Item | None:
    return _hand(state.get(cid).sheet)


# --- the helper itself --------------------------------------------------------------


def test_snapshot_sees_a_consumed_action() -> None:
    """The comparison is not blind: a legal attack changes what a refusal must not."""
    people: Combatants = [
        {"id": "ana", "at": [0, 0], "hand": {"is": "pistol", "loaded": 5}},
        {"id": "bo", "at": [3, 0]},
    ]
    actions: Actions = [{"actor": "ana", "do": "attack", "target": "bo"}]
    after = play(encounter(people, actions))
    before = play(encounter(people, []))
    assert after.error is None
    a, b = snapshot(after.engine), snapshot(before.engine)
    for key in ("turn.actions_used", "log", "random", "ana.loaded", "ana.hand"):
        assert a[key] != b[key], key


# --- knocked_out --------------------------------------------------------------------


def test_knocked_out_actor_cannot_attack() -> None:
    """DC-G10: 0 HP, refused; bo is not the current actor, so the turn would also
    advance: it must not."""
    people: Combatants = [
        {"id": "ana", "at": [0, 0], "hand": "sword"},
        {"id": "bo", "at": [1, 0], "hp": 0, "hand": "sword"},
    ]
    checked = assert_refused(
        people, [{"actor": "bo", "do": "attack", "target": "ana"}], "knocked_out"
    )
    assert checked.state.turn.actor == "ana"


@pytest.mark.parametrize(
    "action",
    [
        {"do": "reload"},
        {"do": "equip", "item": "knife"},
        {"do": "throw", "target": "ana"},
    ],
    ids=["reload", "equip", "throw"],
)
def test_knocked_out_refuses_every_ruleset_action(action: dict[str, Any]) -> None:
    people: Combatants = [
        {"id": "ana", "at": [1, 0]},
        {
            "id": "bo",
            "at": [0, 0],
            "hp": 0,
            "traits": ["strong_arm"],
            "hand": {"is": "pistol", "loaded": 3},
            "inventory": ["knife"],
        },
    ]
    bo_action = {"actor": "bo", **action}
    if action["do"] == "throw":
        people[1]["hand"] = "knife"
    assert_refused(people, [{"actor": "bo", "do": "end_turn"}, bo_action], "knocked_out")


def test_knocked_out_may_still_end_turn_move_and_set() -> None:
    """Core actions are not refused at 0 HP."""
    people: Combatants = [{"id": "ana", "at": [0, 0], "hp": 0}, {"id": "bo", "at": [5, 5]}]
    played = assert_legal(
        people,
        [
            {"actor": "ana", "do": "move", "to": [1, 1]},
            {"actor": "ana", "do": "set", "cover": True},
            {"actor": "ana", "do": "end_turn"},
        ],
    )
    assert played.state.get("ana").at == (1, 1)
    assert played.state.turn.actor == "bo"


# --- turn_over ----------------------------------------------------------------------


def test_turn_over_after_critical_failure() -> None:
    """DC-38: the turn ends on a natural 1. Two actions per turn, so only turn_over applies."""
    people = SWORD_DUEL
    actions: Actions = [
        {"actor": "ana", "do": "attack", "target": "bo", "dice": {"attack": 1}},
        {"actor": "ana", "do": "attack", "target": "bo", "dice": {"attack": 15}},
    ]
    checked = assert_refused(people, actions, "turn_over", options={"actions_per_turn": 2})
    assert checked.state.turn.over
    assert checked.state.turn.actions_used == 1


def test_turn_over_after_explosive() -> None:
    """DC-32: an explosive ends the turn; the thrower's free equip is refused too."""
    people: Combatants = [
        {"id": "ana", "at": [0, 0], "hand": "molotov", "inventory": ["knife"]},
        {"id": "bo", "at": [5, 0]},
    ]
    actions: Actions = [
        {"actor": "ana", "do": "throw", "target": "bo", "dice": {"attack": 10, "defend": 3}},
        {"actor": "ana", "do": "equip", "item": "knife"},
    ]
    checked = assert_refused(people, actions, "turn_over", options={"actions_per_turn": 3})
    assert hand_of(checked.state, "ana") is None
    assert [i.name for i in checked.state.get("ana").sheet.inventory] == ["knife"]


def test_turn_over_ends_with_the_turn() -> None:
    """After end_turn and a new round, the same attack is legal again."""
    people = SWORD_DUEL
    played = assert_legal(
        people,
        [
            {"actor": "ana", "do": "attack", "target": "bo", "dice": {"attack": 1}},
            {"actor": "ana", "do": "end_turn"},
            {"actor": "ana", "do": "attack", "target": "bo", "dice": {"attack": 15, "defend": 2}},
        ],
    )
    assert played.state.round == 3
    assert played.state.get("bo").hp == 10


# --- changed_weapon -----------------------------------------------------------------


@pytest.mark.parametrize(
    "then",
    [
        {"do": "attack", "target": "bo"},
        {"do": "throw", "target": "bo"},
        {"do": "reload"},
        {"do": "equip", "item": "pistol"},
    ],
    ids=["attack", "throw", "reload", "equip"],
)
def test_changed_weapon(then: dict[str, Any]) -> None:
    """DC-21: after a melee <-> ranged switch nothing else follows that turn, even with
    actions left (actions_per_turn 3)."""
    people: Combatants = [
        {
            "id": "ana",
            "at": [0, 0],
            "traits": ["strong_arm"],
            "hand": {"is": "pistol", "loaded": 3},
            "inventory": ["knife"],
        },
        {"id": "bo", "at": [1, 0]},
    ]
    actions: Actions = [{"actor": "ana", "do": "equip", "item": "knife"}, {"actor": "ana", **then}]
    checked = assert_refused(people, actions, "changed_weapon", options={"actions_per_turn": 3})
    assert "changed_weapon" in checked.state.turn.flags
    assert checked.state.turn.actions_used == 1


def test_changed_weapon_after_change_weapon_into_empty_hands() -> None:
    """DC-29: equipping after an explosive costs the action and flags the turn."""
    people: Combatants = [
        {"id": "ana", "at": [0, 0], "hand": "grenade", "inventory": ["knife"]},
        {"id": "bo", "at": [1, 0]},
    ]
    actions: Actions = [
        {"actor": "ana", "do": "throw", "at": [9, 9], "dice": {"attack": 12}},
        {"actor": "ana", "do": "end_turn"},
        {"actor": "ana", "do": "equip", "item": "knife"},
        {"actor": "ana", "do": "attack", "target": "bo"},
    ]
    assert_refused(people, actions, "changed_weapon", options={"actions_per_turn": 2})


def test_free_equip_does_not_flag_the_turn() -> None:
    """DC-22 and the same-kind swap are free: the attack that follows is legal."""
    people: Combatants = [
        {"id": "ana", "at": [0, 0], "inventory": ["knife"]},  # began unarmed
        {"id": "bo", "at": [1, 0], "hand": "sword", "inventory": ["knife"]},
    ]
    played = assert_legal(
        people,
        [
            {"actor": "ana", "do": "equip", "item": "knife"},
            {"actor": "ana", "do": "attack", "target": "bo", "dice": {"attack": 10, "defend": 5}},
            {"actor": "bo", "do": "equip", "item": "knife"},
            {"actor": "bo", "do": "attack", "target": "ana", "dice": {"attack": 10, "defend": 5}},
        ],
    )
    assert played.state.get("bo").hp == 10
    assert played.state.get("ana").hp == 10
    assert played.state.turn.flags == frozenset()


# --- no_action_left -----------------------------------------------------------------


def test_no_action_left_second_attack() -> None:
    """DC-23: one action per turn."""
    people: Combatants = [
        {"id": "ana", "at": [0, 0], "hand": {"is": "pistol", "loaded": 5}},
        {"id": "bo", "at": [3, 0]},
    ]
    actions: Actions = [
        {"actor": "ana", "do": "attack", "target": "bo", "dice": {"attack": 12, "ammo": 2}},
        {"actor": "ana", "do": "attack", "target": "bo", "dice": {"attack": 12, "ammo": 2}},
    ]
    checked = assert_refused(people, actions, "no_action_left")
    hand = hand_of(checked.state, "ana")
    assert hand is not None and hand.loaded == 3  # the refused shot fired nothing


def test_no_action_left_crossbow_reload() -> None:
    """DC-10: reloading a crossbow is the action."""
    people: Combatants = [
        {"id": "ana", "at": [0, 0], "hand": "crossbow"},
        {"id": "bo", "at": [8, 0]},
    ]
    actions: Actions = [
        {"actor": "ana", "do": "attack", "target": "bo", "dice": {"attack": 12, "defend": 15}},
        {"actor": "ana", "do": "reload"},
    ]
    checked = assert_refused(people, actions, "no_action_left")
    hand = hand_of(checked.state, "ana")
    assert hand is not None and hand.loaded == 0


def test_pistol_reload_is_free_after_the_action() -> None:
    """DC-10: reloading other guns is free (boundary of the crossbow case)."""
    people: Combatants = [
        {"id": "ana", "at": [0, 0], "hand": {"is": "pistol", "loaded": 5}},
        {"id": "bo", "at": [3, 0]},
    ]
    played = assert_legal(
        people,
        [
            {"actor": "ana", "do": "attack", "target": "bo", "dice": {"attack": 12, "ammo": 2}},
            {"actor": "ana", "do": "reload"},
        ],
    )
    hand = hand_of(played.state, "ana")
    assert hand is not None and hand.loaded == 8


def test_no_action_left_paid_equip() -> None:
    """DC-21: a melee <-> ranged switch needs the action; it was used by the attack."""
    people: Combatants = [
        {"id": "ana", "at": [0, 0], "hand": {"is": "pistol", "loaded": 5}, "inventory": ["knife"]},
        {"id": "bo", "at": [3, 0]},
    ]
    actions: Actions = [
        {"actor": "ana", "do": "attack", "target": "bo", "dice": {"attack": 12, "ammo": 1}},
        {"actor": "ana", "do": "equip", "item": "knife"},
    ]
    checked = assert_refused(people, actions, "no_action_left")
    assert [i.name for i in checked.state.get("ana").sheet.inventory] == ["knife"]


# --- not_in_inventory, not_a_gun, already_full --------------------------------------


def test_not_in_inventory() -> None:
    people: Combatants = [
        {"id": "ana", "at": [0, 0], "hand": "sword", "inventory": ["knife"]},
        {"id": "bo", "at": [3, 0]},
    ]
    assert_refused(
        people, [{"actor": "ana", "do": "equip", "item": "greataxe"}], "not_in_inventory"
    )


@pytest.mark.parametrize("hand", ["knife", None, "molotov"], ids=["knife", "nothing", "molotov"])
def test_not_a_gun(hand: str | None) -> None:
    people: Combatants = [{"id": "ana", "at": [0, 0], "hand": hand}, {"id": "bo", "at": [3, 0]}]
    assert_refused(people, [{"actor": "ana", "do": "reload"}], "not_a_gun")


@pytest.mark.parametrize(
    "hand",
    ["pistol", {"is": "rifle", "loaded": 5}, "crossbow"],
    ids=["pistol", "rifle", "crossbow"],
)
def test_already_full(hand: str | dict[str, Any]) -> None:
    people: Combatants = [{"id": "ana", "at": [0, 0], "hand": hand}, {"id": "bo", "at": [3, 0]}]
    assert_refused(people, [{"actor": "ana", "do": "reload"}], "already_full")


# --- self_target, tile_needs_explosive, not_throwable, needs_strong_arm -------------


@pytest.mark.parametrize(
    ("do", "hand"),
    [("attack", "pistol"), ("attack", "knife"), ("attack", None), ("throw", "knife")],
    ids=["gun", "melee", "unarmed", "weapon-throw"],
)
def test_self_target(do: str, hand: str | None) -> None:
    people: Combatants = [
        {"id": "ana", "at": [0, 0], "traits": ["strong_arm"], "hand": hand},
        {"id": "bo", "at": [3, 0]},
    ]
    assert_refused(people, [{"actor": "ana", "do": do, "target": "ana"}], "self_target")


@pytest.mark.parametrize("do", ["attack", "throw"])
def test_explosive_at_own_tile_is_not_self_target(do: str) -> None:
    """An explosive may be thrown at the thrower (DC-31: the blast hits yourself)."""
    people: Combatants = [
        {"id": "ana", "at": [0, 0], "hand": "grenade"},
        {"id": "bo", "at": [9, 9]},
    ]
    played = assert_legal(
        people,
        [{"actor": "ana", "do": do, "target": "ana", "dice": {"attack": 10, "defend": 2}}],
    )
    assert played.state.get("ana").hp == 8


@pytest.mark.parametrize("do", ["attack", "throw"])
@pytest.mark.parametrize("hand", ["pistol", "knife", None])
def test_tile_needs_explosive(do: str, hand: str | None) -> None:
    people: Combatants = [
        {"id": "ana", "at": [0, 0], "traits": ["strong_arm"], "hand": hand},
        {"id": "bo", "at": [3, 0]},
    ]
    assert_refused(people, [{"actor": "ana", "do": do, "at": [3, 0]}], "tile_needs_explosive")


@pytest.mark.parametrize(
    "hand",
    ["pistol", "sword", "greataxe", None, {"name": "rock", "type": "other"}],
    ids=["gun", "long-blade", "two-handed", "nothing", "other"],
)
def test_not_throwable(hand: str | dict[str, Any] | None) -> None:
    """DC-15: only short blades, short blunt weapons and explosives are thrown."""
    people: Combatants = [
        {"id": "ana", "at": [0, 0], "traits": ["strong_arm"], "hand": hand},
        {"id": "bo", "at": [3, 0]},
    ]
    assert_refused(people, [{"actor": "ana", "do": "throw", "target": "bo"}], "not_throwable")


@pytest.mark.parametrize("hand", ["knife", "club"])
def test_needs_strong_arm(hand: str) -> None:
    """DC-15: short weapons are thrown only with Strong Arm."""
    people: Combatants = [
        {"id": "ana", "at": [0, 0], "traits": ["spotter"], "hand": hand},
        {"id": "bo", "at": [3, 0]},
    ]
    assert_refused(people, [{"actor": "ana", "do": "throw", "target": "bo"}], "needs_strong_arm")


# --- explosives_round_one -----------------------------------------------------------


@pytest.mark.parametrize("do", ["attack", "throw"])
@pytest.mark.parametrize("hand", ["molotov", "grenade", "pipe_bomb"])
def test_explosives_round_one(do: str, hand: str) -> None:
    """DC-28: refused, item kept."""
    people: Combatants = [{"id": "ana", "at": [0, 0], "hand": hand}, {"id": "bo", "at": [3, 0]}]
    checked = assert_refused(
        people, [{"actor": "ana", "do": do, "target": "bo"}], "explosives_round_one", round_=1
    )
    held = hand_of(checked.state, "ana")
    assert held is not None and held.name == hand


def test_explosives_round_one_at_a_tile() -> None:
    people: Combatants = [
        {"id": "ana", "at": [0, 0], "hand": "molotov"},
        {"id": "bo", "at": [3, 0]},
    ]
    assert_refused(
        people, [{"actor": "ana", "do": "throw", "at": [2, 2]}], "explosives_round_one", round_=1
    )


# --- no_position, out_of_reach ------------------------------------------------------


@pytest.mark.parametrize("missing", ["ana", "bo"])
@pytest.mark.parametrize(
    ("do", "hand"),
    [("attack", "sword"), ("attack", "pistol"), ("throw", "knife"), ("throw", "molotov")],
)
def test_no_position(missing: str, do: str, hand: str) -> None:
    people: Combatants = [
        {"id": "ana", "at": [0, 0], "traits": ["strong_arm"], "hand": hand},
        {"id": "bo", "at": [1, 0]},
    ]
    for c in people:
        if c["id"] == missing:
            del c["at"]
    assert_refused(people, [{"actor": "ana", "do": do, "target": "bo"}], "no_position")


def test_no_position_explosive_at_a_tile() -> None:
    people: Combatants = [{"id": "ana", "hand": "grenade"}, {"id": "bo", "at": [1, 0]}]
    assert_refused(people, [{"actor": "ana", "do": "attack", "at": [1, 0]}], "no_position")


@pytest.mark.parametrize(
    ("hand", "bo_at"),
    [("sword", [2, 0]), ("greataxe", [2, 2]), (None, [0, 5]), ("knife", [0, 0])],
    ids=["two-tiles", "two-diagonal", "unarmed-far", "same-tile"],
)
def test_out_of_reach(hand: str | None, bo_at: list[int]) -> None:
    """DC-6: melee reaches exactly 1 tile (distance 0 is not 1 either)."""
    people: Combatants = [{"id": "ana", "at": [0, 0], "hand": hand}, {"id": "bo", "at": bo_at}]
    assert_refused(people, [{"actor": "ana", "do": "attack", "target": "bo"}], "out_of_reach")


def test_melee_reaches_diagonals() -> None:
    people: Combatants = [{"id": "ana", "at": [0, 0], "hand": "sword"}, {"id": "bo", "at": [1, 1]}]
    played = assert_legal(
        people,
        [{"actor": "ana", "do": "attack", "target": "bo", "dice": {"attack": 10, "defend": 5}}],
    )
    assert played.state.get("bo").hp == 10


# --- out_of_range -------------------------------------------------------------------

GUN_RANGES = [
    ("pistol", 15),
    ("revolver", 15),
    ("smg", 15),
    ("shotgun", 15),
    ("rifle", 20),
    ("sawn_off_rifle", 20),
    ("machine_gun", 20),
    ("crossbow", 20),
    ("hand_crossbow", 20),
]


@pytest.mark.parametrize(("gun", "reach"), GUN_RANGES)
def test_out_of_range_guns(gun: str, reach: int) -> None:
    """DC-7: beyond the class's maximum range, refused before any roll (diagonal counts
    as Chebyshev distance)."""
    people: Combatants = [
        {"id": "ana", "at": [0, 0], "hand": gun},
        {"id": "bo", "at": [reach + 1, 3]},
    ]
    assert_refused(people, [{"actor": "ana", "do": "attack", "target": "bo"}], "out_of_range")


@pytest.mark.parametrize(("gun", "reach"), GUN_RANGES)
def test_guns_reach_their_maximum_range(gun: str, reach: int) -> None:
    people: Combatants = [
        {"id": "ana", "at": [0, 0], "hand": gun},
        {"id": "bo", "at": [reach, reach]},
    ]
    played = assert_legal(people, [{"actor": "ana", "do": "attack", "target": "bo"}])
    assert played.state.turn.actions_used == 1


@pytest.mark.parametrize(("revision", "reach"), [("B", 15), ("A", 13)])
def test_out_of_range_weapon_throw(revision: str, reach: int) -> None:
    """DC-17: Strong Arm throws reach 15 in revision B, 13 in A."""
    people: Combatants = [
        {"id": "ana", "at": [0, 0], "traits": ["strong_arm"], "hand": "knife"},
        {"id": "bo", "at": [0, reach + 1]},
    ]
    assert_refused(
        people,
        [{"actor": "ana", "do": "throw", "target": "bo"}],
        "out_of_range",
        options={"revision": revision},
    )
    people[1]["at"] = [0, reach]
    played = assert_legal(
        people,
        [{"actor": "ana", "do": "throw", "target": "bo", "dice": {"attack": 10, "defend": 5}}],
        options={"revision": revision},
    )
    assert played.state.get("bo").hp == 9  # 2 + 1 Strong Arm (DC-16)


@pytest.mark.parametrize("hand", ["molotov", "fire_bomb", "grenade", "aerosol_bomb"])
@pytest.mark.parametrize("traits", [[], ["strong_arm"]], ids=["plain", "strong-arm"])
def test_out_of_range_explosives(hand: str, traits: list[str]) -> None:
    """DC-27: explosives reach 10 tiles, Strong Arm or not."""
    people: Combatants = [
        {"id": "ana", "at": [0, 0], "traits": traits, "hand": hand},
        {"id": "bo", "at": [11, 4]},
    ]
    checked = assert_refused(
        people, [{"actor": "ana", "do": "throw", "target": "bo"}], "out_of_range"
    )
    held = hand_of(checked.state, "ana")
    assert held is not None and held.name == hand  # not used up
    assert_refused(people, [{"actor": "ana", "do": "attack", "at": [-11, 0]}], "out_of_range")
    played = assert_legal(people, [{"actor": "ana", "do": "throw", "at": [10, -10]}])
    assert hand_of(played.state, "ana") is None


# --- empty_gun ----------------------------------------------------------------------


@pytest.mark.parametrize("gun", ["pistol", "shotgun", "rifle", "crossbow"])
def test_empty_gun(gun: str) -> None:
    """DC-8: you cannot attack with an empty gun."""
    people: Combatants = [
        {"id": "ana", "at": [0, 0], "hand": {"is": gun, "loaded": 0}},
        {"id": "bo", "at": [2, 0]},
    ]
    checked = assert_refused(
        people, [{"actor": "ana", "do": "attack", "target": "bo"}], "empty_gun"
    )
    assert checked.state.turn.actions_used == 0


def test_empty_gun_after_firing_the_last_rounds() -> None:
    people: Combatants = [
        {"id": "ana", "at": [0, 0], "hand": {"is": "pistol", "loaded": 1}},
        {"id": "bo", "at": [2, 0]},
    ]
    actions: Actions = [
        {"actor": "ana", "do": "attack", "target": "bo", "dice": {"attack": 9, "ammo": 3}},
        {"actor": "ana", "do": "end_turn"},
        {"actor": "ana", "do": "attack", "target": "bo"},
    ]
    checked = assert_refused(people, actions, "empty_gun")
    hand = hand_of(checked.state, "ana")
    assert hand is not None and hand.loaded == 0


# --- the order of the checks ----------------------------------------------------------


def test_order_knocked_out_before_turn_over() -> None:
    """A critical failure ends the turn; then a `set` knocks ana out: knocked_out wins."""
    people = SWORD_DUEL
    actions: Actions = [
        {"actor": "ana", "do": "attack", "target": "bo", "dice": {"attack": 1}},
        {"actor": "ana", "do": "set", "hp": 0},
        {"actor": "ana", "do": "attack", "target": "bo"},
    ]
    checked = assert_refused(people, actions, "knocked_out")
    assert checked.state.turn.over


def test_order_turn_over_before_no_action_left() -> None:
    """The crit failure used the action and ended the turn; the equip after it would
    also be a paid equip with no action left."""
    people: Combatants = [
        {"id": "ana", "at": [0, 0], "hand": "sword", "inventory": ["pistol"]},
        {"id": "bo", "at": [1, 0]},
    ]
    actions: Actions = [
        {"actor": "ana", "do": "attack", "target": "bo", "dice": {"attack": 1}},
        {"actor": "ana", "do": "equip", "item": "pistol"},
    ]
    assert_refused(people, actions, "turn_over")


def test_order_changed_weapon_before_no_action_left() -> None:
    """A paid equip uses the one action and flags the turn: both apply, changed_weapon
    is reported."""
    people: Combatants = [
        {"id": "ana", "at": [0, 0], "hand": "sword", "inventory": ["pistol"]},
        {"id": "bo", "at": [1, 0]},
    ]
    actions: Actions = [
        {"actor": "ana", "do": "equip", "item": "pistol"},
        {"actor": "ana", "do": "attack", "target": "bo"},
    ]
    checked = assert_refused(people, actions, "changed_weapon")
    assert checked.state.turn.actions_used == 1


def test_order_changed_weapon_before_not_in_inventory() -> None:
    people: Combatants = [
        {"id": "ana", "at": [0, 0], "hand": "sword", "inventory": ["pistol"]},
        {"id": "bo", "at": [1, 0]},
    ]
    actions: Actions = [
        {"actor": "ana", "do": "equip", "item": "pistol"},
        {"actor": "ana", "do": "equip", "item": "nothing-here"},
    ]
    assert_refused(people, actions, "changed_weapon", options={"actions_per_turn": 2})


def test_order_changed_weapon_before_not_a_gun() -> None:
    people: Combatants = [
        {"id": "ana", "at": [0, 0], "hand": "pistol", "inventory": ["knife"]},
        {"id": "bo", "at": [1, 0]},
    ]
    actions: Actions = [
        {"actor": "ana", "do": "equip", "item": "knife"},
        {"actor": "ana", "do": "reload"},
    ]
    assert_refused(people, actions, "changed_weapon")


def test_order_no_action_left_before_self_target() -> None:
    people = SWORD_DUEL
    actions: Actions = [
        {"actor": "ana", "do": "attack", "target": "bo", "dice": {"attack": 5, "defend": 9}},
        {"actor": "ana", "do": "attack", "target": "ana"},
    ]
    assert_refused(people, actions, "no_action_left")


def test_order_no_action_left_before_empty_gun() -> None:
    people: Combatants = [
        {"id": "ana", "at": [0, 0], "hand": {"is": "pistol", "loaded": 1}},
        {"id": "bo", "at": [1, 0]},
    ]
    actions: Actions = [
        {"actor": "ana", "do": "attack", "target": "bo", "dice": {"attack": 5, "ammo": 1}},
        {"actor": "ana", "do": "attack", "target": "bo"},
    ]
    assert_refused(people, actions, "no_action_left")


def test_order_no_action_left_before_already_full() -> None:
    """A crossbow reload is the action: the second reload finds both no action left and
    a full crossbow; no_action_left is reported (with two actions: already_full)."""
    people: Combatants = [
        {"id": "ana", "at": [0, 0], "hand": {"is": "crossbow", "loaded": 0}},
        {"id": "bo", "at": [5, 0]},
    ]
    actions: Actions = [{"actor": "ana", "do": "reload"}, {"actor": "ana", "do": "reload"}]
    checked = assert_refused(people, actions, "no_action_left")
    hand = hand_of(checked.state, "ana")
    assert hand is not None and hand.loaded == 1
    assert_refused(people, actions, "already_full", options={"actions_per_turn": 2})


def test_order_self_target_before_no_position_and_out_of_reach() -> None:
    people: Combatants = [{"id": "ana", "hand": "sword"}, {"id": "bo", "at": [1, 0]}]
    assert_refused(people, [{"actor": "ana", "do": "attack", "target": "ana"}], "self_target")


def test_order_tile_needs_explosive_before_no_position() -> None:
    people: Combatants = [{"id": "ana", "hand": "pistol"}, {"id": "bo", "at": [1, 0]}]
    assert_refused(people, [{"actor": "ana", "do": "attack", "at": [1, 0]}], "tile_needs_explosive")


def test_order_not_throwable_before_needs_strong_arm() -> None:
    people: Combatants = [{"id": "ana", "at": [0, 0], "hand": "sword"}, {"id": "bo", "at": [1, 0]}]
    assert_refused(people, [{"actor": "ana", "do": "throw", "target": "bo"}], "not_throwable")


def test_order_needs_strong_arm_before_no_position_and_out_of_range() -> None:
    people: Combatants = [{"id": "ana", "at": [0, 0], "hand": "knife"}, {"id": "bo", "at": [40, 0]}]
    assert_refused(people, [{"actor": "ana", "do": "throw", "target": "bo"}], "needs_strong_arm")
    del people[0]["at"]
    assert_refused(people, [{"actor": "ana", "do": "throw", "target": "bo"}], "needs_strong_arm")


def test_order_explosives_round_one_before_no_position_and_out_of_range() -> None:
    people: Combatants = [{"id": "ana", "hand": "grenade"}, {"id": "bo", "at": [40, 0]}]
    assert_refused(
        people, [{"actor": "ana", "do": "throw", "target": "bo"}], "explosives_round_one", round_=1
    )


def test_order_no_position_before_out_of_reach() -> None:
    people: Combatants = [{"id": "ana", "at": [0, 0], "hand": "sword"}, {"id": "bo"}]
    assert_refused(people, [{"actor": "ana", "do": "attack", "target": "bo"}], "no_position")


def test_order_out_of_range_before_empty_gun() -> None:
    people: Combatants = [
        {"id": "ana", "at": [0, 0], "hand": {"is": "pistol", "loaded": 0}},
        {"id": "bo", "at": [16, 0]},
    ]
    assert_refused(people, [{"actor": "ana", "do": "attack", "target": "bo"}], "out_of_range")


def test_order_knocked_out_before_everything_else() -> None:
    """0 HP, not its turn, an empty gun, a target out of range: knocked_out."""
    people: Combatants = [
        {"id": "ana", "at": [0, 0]},
        {"id": "bo", "at": [0, 0], "hp": 0, "hand": {"is": "pistol", "loaded": 0}},
    ]
    assert_refused(people, [{"actor": "bo", "do": "attack", "target": "bo"}], "knocked_out")


# --- dice errors when the action runs -------------------------------------------------


def test_unused_die_crit_on_a_miss() -> None:
    """`crit` is rolled only on a hit whose attack natural is a critical success."""
    people = SWORD_DUEL
    actions: Actions = [
        {
            "actor": "ana",
            "do": "attack",
            "target": "bo",
            "dice": {"attack": 5, "defend": 15, "crit": 2},
        }
    ]
    checked = assert_refused(people, actions, "unused_die", kind=DiceError)
    assert "'crit'" in checked.error.message


def test_unused_die_crit_without_critical_success() -> None:
    """Natural 15 is no critical success, hit or miss: `crit` is never rolled. The
    defence die comes from the seed and must be put back."""
    people = SWORD_DUEL
    actions: Actions = [
        {
            "actor": "ana",
            "do": "attack",
            "target": "bo",
            "dice": {"attack": 15, "crit": 2},
        }
    ]
    assert_refused(people, actions, "unused_die", kind=DiceError)


def test_unused_die_ammo_on_melee() -> None:
    people = SWORD_DUEL
    actions: Actions = [{"actor": "ana", "do": "attack", "target": "bo", "dice": {"ammo": 2}}]
    checked = assert_refused(people, actions, "unused_die", kind=DiceError)
    assert "'ammo'" in checked.error.message


def test_unused_die_defend_after_critical_failure() -> None:
    """No defence roll on an attacker's critical failure (DC-38); ammo stays loaded."""
    people: Combatants = [
        {"id": "ana", "at": [0, 0], "hand": {"is": "pistol", "loaded": 4}},
        {"id": "bo", "at": [3, 0]},
    ]
    actions: Actions = [
        {
            "actor": "ana",
            "do": "attack",
            "target": "bo",
            "dice": {"attack": 1, "ammo": 3, "defend": 9},
        }
    ]
    checked = assert_refused(people, actions, "unused_die", kind=DiceError)
    hand = hand_of(checked.state, "ana")
    assert hand is not None and hand.loaded == 4
    assert not checked.state.turn.over


def test_unused_die_too_many_values() -> None:
    people = SWORD_DUEL
    actions: Actions = [
        {"actor": "ana", "do": "attack", "target": "bo", "dice": {"attack": [15, 3], "defend": 5}}
    ]
    assert_refused(people, actions, "unused_die", kind=DiceError)


def test_unused_die_on_a_refused_turn_advance_keeps_the_burn_tick() -> None:
    """The illegal action by the next combatant would first end ana's turn and fire bo's
    burn tick: all of it is discarded."""
    people: Combatants = [
        {"id": "ana", "at": [0, 0], "hand": "molotov"},
        {"id": "bo", "at": [1, 0], "hand": "sword"},
    ]
    actions: Actions = [
        {
            "actor": "ana",
            "do": "throw",
            "target": "bo",
            "dice": {"attack": 15, "defend:ana": 20, "defend:bo": 3},
        },
        {
            "actor": "bo",
            "do": "attack",
            "target": "ana",
            "dice": {"attack": 5, "defend": 15, "crit": 1},
        },
    ]
    checked = assert_refused(people, actions, "unused_die", kind=DiceError)
    state = checked.state
    assert state.turn.actor == "ana"
    assert state.get("bo").hp == 11
    assert state.get("bo").statuses["burning"]["turns"] == 2


def test_ambiguous_die_label_two_explosion_victims() -> None:
    """Plain `defend` when the blast catches two combatants: name `defend:id`."""
    people: Combatants = [
        {"id": "ana", "at": [0, 0], "hand": "grenade"},
        {"id": "bo", "at": [5, 0]},
        {"id": "cy", "at": [6, 1]},
    ]
    actions: Actions = [
        {"actor": "ana", "do": "throw", "target": "bo", "dice": {"attack": 12, "defend": 4}}
    ]
    checked = assert_refused(people, actions, "ambiguous_die_label", kind=DiceError)
    held = hand_of(checked.state, "ana")
    assert held is not None and held.name == "grenade"  # not deleted (DC-29 needs a roll)
    assert checked.state.get("bo").hp == 12
    assert checked.state.get("cy").hp == 12
    assert not checked.state.turn.over


def test_plain_defend_with_one_explosion_victim_is_accepted() -> None:
    people: Combatants = [
        {"id": "ana", "at": [0, 0], "hand": "grenade"},
        {"id": "bo", "at": [5, 0]},
        {"id": "cy", "at": [9, 9]},
    ]
    played = assert_legal(
        people,
        [{"actor": "ana", "do": "throw", "target": "bo", "dice": {"attack": 12, "defend": 4}}],
    )
    assert played.state.get("bo").hp == 8
    assert played.state.get("cy").hp == 12


def test_dice_errors_are_fracas_errors_not_refusals() -> None:
    """A dice error is a DiceError; the engine still restores the generator."""
    text = encounter(
        [{"id": "ana", "at": [0, 0], "hand": "sword"}, {"id": "bo", "at": [1, 0]}],
        [{"actor": "ana", "do": "attack", "target": "bo", "dice": {"ammo": 3}}],
    )
    ef = load_text(text)
    engine = Engine(ef.ruleset, ef.start, ef.seed)
    engine.begin(ef.dice, ef.order)
    saved = engine.random.getstate()
    state = engine.state
    with pytest.raises(DiceError) as info:
        engine.act(ef.actions[0])
    assert not isinstance(info.value, Refusal)
    assert engine.random.getstate() == saved
    assert engine.state is state
    assert len(engine.log) == 1
