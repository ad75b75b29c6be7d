"""What faces show of a ruleset's state: the :class:`Presenter` (words and ``--json``
only, never a decision) with its five hooks, the :class:`Shown` items and the
:class:`Reach` rings it gives, and the functions faces call on it."""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from fracas.model import Combatant, Encounter
from fracas.model.frozen import thaw

if TYPE_CHECKING:  # the ruleset holds its presenter's type (base.Contract.presenter)
    from fracas.rulesets.base import Rules, Ruleset

__all__ = [
    "Presenter",
    "Reach",
    "Shown",
    "choice_words",
    "encounter_shown",
    "full_shown",
    "gear_note",
    "item_json",
    "rings",
    "sheet_json_raw",
    "statuses_shown",
    "values_json",
]


@dataclass(frozen=True, slots=True)
class Shown:
    """One thing a face shows of a combatant or the encounter: a short ``label`` and
    ``value`` (``AP`` ``3/5``), and a longer ``detail`` for a tooltip or ``status NAME``."""

    label: str
    value: str
    detail: str = ""


@dataclass(frozen=True, slots=True)
class Reach:
    """One range a face draws around a combatant as a ring: a ``label`` (``pistol close``)
    and the farthest tile it reaches, by the ruleset's metric. A ``ring`` is one the rule
    texts ask for beside the hand's ranges (dice-combat's 15 and 20 tiles, DC-A5): a
    face's tile counter does not read it as a band."""

    label: str
    tiles: int
    ring: bool = False


class Presenter:
    """What a face shows of a ruleset's state: words, numbers and ``--json``, never a
    decision. Five hooks, each with a default: :meth:`fields`, :meth:`gear`,
    :meth:`ranges`, :meth:`sheet_json`, :meth:`item_words`.
    """

    def __init__(self, ruleset: Ruleset) -> None:
        self.ruleset = ruleset

    def fields(self, state: Encounter, c: Combatant, full: bool = False) -> tuple[Shown, ...]:
        """The ruleset's own state of ``c`` for a row of the status table (short). With
        ``full`` (``status NAME``) it may add a sheet field's own words, which then stand
        in that field's place (:func:`full_shown`). Default: none."""
        return ()

    def gear(self, state: Encounter, c: Combatant) -> str:
        """What ``c`` fights with, in a few words: by default the ``hand`` item (with its
        ammunition) or the names of the ``weapons``."""
        info = self.sheet_json(state, c)
        hand = info.get("hand")
        if isinstance(hand, dict):
            text = str(hand.get("name", ""))
            loaded, capacity = hand.get("loaded"), hand.get("capacity")
            if isinstance(loaded, bool):
                text += " loaded" if loaded else " empty"
            elif loaded is not None and capacity is not None:
                text += f" {loaded}/{capacity}"
            return text
        weapons = info.get("weapons")
        if isinstance(weapons, list):
            return ", ".join(str(w.get("name", "")) for w in weapons if isinstance(w, dict))
        return ""

    def ranges(self, state: Encounter, c: Combatant) -> tuple[Reach, ...]:
        """The ranges of what ``c`` holds, nearest first, for rings around it on a map
        (band edges, maximum ranges, reaches), then any ``ring`` the rule texts ask for.
        Default: none."""
        return ()

    def sheet_json(self, state: Encounter, c: Combatant) -> dict[str, Any]:
        """``c``'s ruleset fields for ``--json`` output (derived values included, and
        what depends on the encounter: whose turn it is): by default the raw fields
        (:func:`sheet_json_raw`), a ``hand`` and ``inventory`` item by item
        (:func:`item_json`)."""
        out = sheet_json_raw(c)
        hand = getattr(c.sheet, "hand", None)
        if "hand" in out:
            out["hand"] = item_json(hand) if hand is not None else None
        if "inventory" in out:
            out["inventory"] = [item_json(i) for i in c.sheet.inventory]
        return out

    def item_words(self, state: Encounter, c: Combatant, item: Any) -> tuple[str, str]:
        """How a face names ``item`` of ``c``'s (``knife (scrap)``), and the line it shows
        on it where a rule changes what it does now (dice-combat's scrap, DC-11 and
        DC-26, only where they apply; empty where none). Default: its name, no line."""
        return str(getattr(item, "name", "")), ""


def sheet_json_raw(c: Combatant) -> dict[str, Any]:
    """The sheet fields of ``c`` as a file would give them (what ``set`` edits)."""
    return {f.name: thaw(getattr(c.sheet, f.name)) for f in dataclasses.fields(c.sheet)}


def item_json(item: Any) -> dict[str, Any]:
    """One item of a sheet's ``hand`` or ``inventory`` for ``--json`` output: every field."""
    return {f.name: getattr(item, f.name) for f in dataclasses.fields(item)}


def values_json(rules: Rules[Any], state: Encounter) -> dict[str, Any]:
    """Encounter-wide values for ``--json`` output."""
    names = (v.name for v in rules.contract.encounter_values)
    return {k: state.values[k] for k in names if k in state.values}


def encounter_shown(p: Presenter, state: Encounter) -> tuple[Shown, ...]:
    """The encounter-wide values (``Escalation`` ``3``), with the contract's words."""
    specs = {v.name: v for v in p.ruleset.contract.encounter_values}
    return tuple(
        Shown(specs[k].label or k, str(v), specs[k].summary)
        for k, v in values_json(p.ruleset, state).items()
    )


def statuses_shown(state: Encounter, c: Combatant) -> tuple[Shown, ...]:
    """``c``'s statuses, each with its details (``burning`` ``turns=2 damage=1``); a game
    master's mark that lasts until a combatant's next turn says so in words (``until
    the end of Bo's next turn``; its count of that combatant's turns left is the
    table's own)."""
    return tuple(
        Shown(name, _details_words(state, details)) for name, details in c.statuses.items()
    )


def _details_words(state: Encounter, details: Mapping[str, Any]) -> str:
    until, of = details.get("until"), details.get("of")
    if until not in ("start", "end") or not isinstance(of, str):
        return " ".join(f"{k}={v}" for k, v in details.items())
    who = state.combatants.get(of)
    name = who.name if who is not None else of
    rest = [f"{k}={v}" for k, v in details.items() if k not in ("until", "of", "left")]
    return " ".join([*rest, f"until the {until} of {name}'s next turn"])


def full_shown(p: Presenter, state: Encounter, c: Combatant) -> tuple[Shown, ...]:
    """Everything of ``c``: the presenter's short fields, then every sheet field
    (``status NAME``), in the words ``fields(..., full=True)`` gives it where it does."""
    shown = list(p.fields(state, c))
    seen = {s.label for s in shown}
    own = {s.label: s for s in p.fields(state, c, full=True) if s.label not in seen}
    for key, value in p.sheet_json(state, c).items():
        if key not in seen:
            shown.append(own.get(key) or Shown(key, _words(value)))
    return tuple(shown)


def rings(p: Presenter, state: Encounter, c: Combatant) -> tuple[Reach, ...]:
    """The ``ring`` entries of the presenter's ranges."""
    return tuple(r for r in p.ranges(state, c) if r.ring)


def gear_note(p: Presenter, state: Encounter, c: Combatant) -> str:
    """The line a face shows on ``c``'s hand item (:meth:`Presenter.item_words`)."""
    hand = getattr(c.sheet, "hand", None)
    return "" if hand is None else p.item_words(state, c, hand)[1]


def choice_words(
    p: Presenter, state: Encounter, c: Combatant, param: str, value: str
) -> tuple[str, str] | None:
    """How a face names ``value`` of ``c``'s ``item`` parameter (the first inventory item
    of that name, as an equip takes it) and the line it would show on it in the hand,
    where the presenter's :meth:`~Presenter.item_words` say more than its name; None:
    as given."""
    if param != "item":
        return None
    item = next((i for i in getattr(c.sheet, "inventory", ()) if i.name == value), None)
    if item is None:
        return None
    words = p.item_words(state, c, item)
    return None if words == (item.name, "") else words


def _words(value: Any) -> str:
    """A JSON value in a few words: mappings ``k v, ...``, lists ``a, b``."""
    if isinstance(value, Mapping):
        return ", ".join(f"{k} {_words(v)}" for k, v in value.items())
    if isinstance(value, list | tuple):
        return ", ".join(_words(v) for v in value)
    if value is None:
        return "-"
    return str(value)
