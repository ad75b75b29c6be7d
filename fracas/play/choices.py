"""Tab completion of the prompt. Pure: the words come from the prompt's grammar and
the table service's parameter choices (weapons, items, limbs, closed sets)."""

from __future__ import annotations

import glob
from collections.abc import Callable, Sequence

from fracas.engine.catalogue import CORE_FIELDS, SET_ONLY_FIELDS, spec_of
from fracas.model import Encounter
from fracas.play.commands import COMMANDS, action_names
from fracas.table import EncounterFile, param_choices

__all__ = ["completions"]


def completions(
    line: str, ef: EncounterFile, state: Encounter, stored: Callable[[], Sequence[str]]
) -> list[str]:
    """The words that complete the last word of ``line`` (the line up to the cursor).

    ``stored`` gives the stored encounters' names (for ``delete``).
    """
    words = line.split()
    text = "" if not line or line[-1].isspace() else words.pop()
    if not words:
        candidates = [*COMMANDS, *state.combatants, *action_names(ef)]
    elif words[0] == "dice":
        candidates = ["manual", "auto"] if len(words) == 1 else []
    elif words[0] == "delete":
        candidates = list(stored()) if len(words) == 1 else []
    elif words[0] == "help":
        candidates = action_names(ef) if len(words) == 1 else []
    elif words[0] == "save":
        candidates = glob.glob(glob.escape(text) + "*") if len(words) == 1 else []
    elif words[0] == "odds":
        candidates = _action_words(words[1:], text, ef, state) if len(words) > 1 else []
        if len(words) == 1:
            candidates = [*state.combatants, *action_names(ef)]
    elif words[0] in COMMANDS:
        candidates = []
    else:
        candidates = _action_words(words, text, ef, state)
    return sorted({c for c in candidates if c.startswith(text)})


def _action_words(
    words: Sequence[str], text: str, ef: EncounterFile, state: Encounter
) -> list[str]:
    if words[0] in state.combatants:
        if len(words) == 1:
            return [*action_names(ef), "end"]
        do, rest = words[1], words[2:]
    else:
        do, rest = words[0], words[1:]
    spec = spec_of(ef.ruleset, "end_turn" if do == "end" else do)
    if spec is None or (rest and rest[-1] in ("at", "to")):
        return []
    if "=" in text:
        key = text.split("=", 1)[0]
        actor = words[0] if words[0] in state.combatants else state.turn.actor
        values = param_choices(ef.ruleset, state, actor, spec).get(key, ())
        return [f"{key}={choice}" for choice in values]
    out: list[str] = []
    named = [w for w in rest if w in state.combatants]
    if spec.targets == "combatants" or (spec.targets != "none" and not named):
        out += [c for c in state.combatants if c not in named]
    if spec.targets == "combatant_or_tile":
        out.append("at")
    if spec.name == "set":
        fields = [*CORE_FIELDS, *SET_ONLY_FIELDS, *ef.ruleset.contract.sheet_fields()]
        out += [f"{f}=" for f in fields]
    elif "to" in spec.params:
        out.append("to")
    out += [
        f"{p}=" for p in spec.params if p != "to" and not any(w.startswith(p + "=") for w in rest)
    ]
    return out
