"""What the current actor may do now, and tab completion of the prompt. Pure.

"May do now" asks the ruleset itself: each of its actions is planned against
the current state, against every combatant (and their tiles, for actions that
take one), with a dice source that stops at the first die. The rules refuse an
illegal action before any die is rolled (``Ruleset.resolve``'s contract), so
an action that reaches a die, or needs none, is allowed; a refusal says why not.
"""

from __future__ import annotations

import glob
from collections.abc import Callable, Sequence
from dataclasses import dataclass

from fracas.engine import CORE_FIELDS, SET_ONLY_FIELDS, plan, spec_of
from fracas.errors import FracasError
from fracas.files import EncounterFile
from fracas.model import Action, Encounter
from fracas.play.commands import COMMANDS, action_names
from fracas.rulesets.base import ActionSpec

__all__ = ["Option", "completions", "options_now"]


class _Reached(Exception):
    """The action got as far as its first die: the rules did not refuse it."""


class _FirstDie:
    def roll(self, sides: int, label: str, *, of: str | None = None, n: int | None = None) -> int:
        raise _Reached


@dataclass(frozen=True, slots=True)
class Option:
    """One ruleset action for the current actor, now."""

    spec: ActionSpec
    targets: tuple[str, ...] = ()
    """Combatants it may target now."""
    tile: bool = False
    """It may target a tile now (tried at the combatants' tiles)."""
    refusal: FracasError | None = None
    """Why it is not allowed now (the first refusal met); None when it is."""
    checked: bool = True
    """False where a required parameter has no listed values: it was not tried."""


def _refusal(ef: EncounterFile, state: Encounter, action: Action) -> FracasError | None:
    try:
        plan(ef.ruleset, state, action, _FirstDie())
    except _Reached:
        return None
    except FracasError as exc:
        return exc
    except Exception:  # the rules could not tell without the values a player gives
        return None
    return None


def options_now(ef: EncounterFile, state: Encounter) -> list[Option]:
    """Every ruleset action of the current actor: allowed (and on what) or why not."""
    actor = state.turn.actor
    out: list[Option] = []
    for spec in ef.ruleset.actions:
        params = {p: spec.choices[p][0] for p in spec.required if p in spec.choices}
        if any(p not in params for p in spec.required):
            out.append(Option(spec, checked=False))
            continue
        tries: list[Action] = []
        if spec.targets == "none":
            tries.append(Action(actor, spec.name, params=params))
        else:
            tries += [Action(actor, spec.name, c, params=params) for c in state.combatants]
        if spec.targets == "combatant_or_tile":
            tiles = {c.at for c in state.combatants.values() if c.at is not None}
            tries += [Action(actor, spec.name, at=t, params=params) for t in sorted(tiles)]
        first: FracasError | None = None
        targets: list[str] = []
        tile = allowed = False
        for action in tries:
            refusal = _refusal(ef, state, action)
            if refusal is not None:
                first = first or refusal
                continue
            allowed = True
            if action.target is not None:
                targets.append(action.target)
            tile = tile or action.at is not None
        out.append(Option(spec, tuple(targets), tile, None if allowed else first))
    return out


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
        return [f"{key}={choice}" for choice in spec.choices.get(key, ())]
    out: list[str] = []
    named = [w for w in rest if w in state.combatants]
    if spec.targets == "combatants" or (spec.targets != "none" and not named):
        out += [c for c in state.combatants if c not in named]
    if spec.targets == "combatant_or_tile":
        out.append("at")
    if spec.name == "set":
        fields = [*CORE_FIELDS, *SET_ONLY_FIELDS, *ef.ruleset.sheet_fields()]
        out += [f"{f}=" for f in fields]
    elif "to" in spec.params:
        out.append("to")
    out += [
        f"{p}=" for p in spec.params if p != "to" and not any(w.startswith(p + "=") for w in rest)
    ]
    return out
