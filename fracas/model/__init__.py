"""The encounter state, the core events, and the fold that applies them.

State is immutable: an event's :meth:`Event.apply` returns a new
:class:`Encounter`. The state of an encounter is the fold of its log.
A ruleset's per-combatant data lives in ``Combatant.sheet`` (the ruleset's
own frozen dataclass); this module never looks inside it.

The place to import them from; they are written in :mod:`fracas.model.state` (the state
dataclasses), :mod:`fracas.model.events` (``Event``, ``fold``, ``event_json`` and the core
events) and :mod:`fracas.model.table_events` (the game master's table events).
"""

from fracas.model.events import (
    ActionUsed,
    Attempted,
    Damaged,
    Event,
    FieldsSet,
    Moved,
    Note,
    StatusCleared,
    StatusSet,
    TurnEnded,
    TurnFlagged,
    TurnOver,
    TurnStarted,
    ValueSet,
    Walked,
    event_json,
    fold,
)
from fracas.model.state import (
    GAME_MASTER_NAME,
    HP_SHOWN,
    NO_ACTOR,
    PRESETS,
    Action,
    Combatant,
    Encounter,
    HouseRules,
    Policy,
    Turn,
)
from fracas.model.table_events import (
    CombatantAdded,
    CombatantRemoved,
    Concealed,
    Ended,
    HpChanged,
    InitiativeEachRound,
    NoteWritten,
    OrderSet,
    PolicySet,
    Revealed,
    RevealSet,
    Rolled,
    TacticsSet,
    TurnSkipped,
    policy_words,
)

__all__ = [
    "GAME_MASTER_NAME",
    "HP_SHOWN",
    "NO_ACTOR",
    "PRESETS",
    "Action",
    "ActionUsed",
    "Attempted",
    "Combatant",
    "CombatantAdded",
    "CombatantRemoved",
    "Concealed",
    "Damaged",
    "Encounter",
    "Ended",
    "Event",
    "FieldsSet",
    "HouseRules",
    "HpChanged",
    "InitiativeEachRound",
    "Moved",
    "Note",
    "NoteWritten",
    "OrderSet",
    "Policy",
    "PolicySet",
    "RevealSet",
    "Revealed",
    "Rolled",
    "StatusCleared",
    "StatusSet",
    "TacticsSet",
    "Turn",
    "TurnEnded",
    "TurnFlagged",
    "TurnOver",
    "TurnSkipped",
    "TurnStarted",
    "ValueSet",
    "Walked",
    "event_json",
    "fold",
    "policy_words",
]
