"""Words for people: what the page shows a player or a game master at the table.

The rules, the table and the command line speak to developers and tools: a refusal's
message quotes ids (``'dee' has used its 1 action(s) this turn; end_turn to go on
(DC-23)``), a log heading is a record (``#1 ana: attack bo``), a summary names
parameters in backticks. The page reads the same facts in plain words, names for ids,
verbs for commands, and the rule IDs apart (a :class:`Said`'s ``rules``, which the page
keeps behind a small "Rules" control). The stable code and the developer's message stay
in the protocol for tools; these words are added beside them.

One pass does it for every text (:func:`plain`): rule IDs out, quoted combatant ids to
names, backticked parameters and snake_case words to words, ``1 action(s)`` to ``its
action``, ``[x, y]`` to ``tile x, y``. Refusals first get a few phrases of their own
(:func:`refusal_words`); a log heading is made from its action (:func:`action_sentence`),
an event's line from the rules' own sentence (:func:`line_said`)."""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from fracas.model import Action, Encounter, NoteWritten, Rolled
from fracas.rulesets.base import RULE_ID
from fracas.words.render import TITLE_TEXT, entry_words

if TYPE_CHECKING:  # words of the table's values; the table never imports this module
    from fracas.table.projection import Entry

__all__ = [
    "Said",
    "action_sentence",
    "line_said",
    "names_of",
    "plain",
    "refusal_words",
    "request_sentence",
    "summary_words",
    "value_words",
    "words",
]

SOMEONE = "someone"
"""What a combatant this reader may not see is called."""
GM = "The game master"


@dataclass(frozen=True, slots=True)
class Said:
    """A text in people's words, and the rule IDs it cites, moved out of the sentence
    (``("DC-23",)``), in the order first cited."""

    text: str
    rules: tuple[str, ...] = ()

    def to_json(self) -> dict[str, Any]:
        return {"words": self.text, "rules": list(self.rules)}


def names_of(state: Encounter | None, unseen: Iterable[str] = ()) -> dict[str, str]:
    """Each combatant's id -> the name a reader sees (``someone``: one in ``unseen``)."""
    if state is None:
        return {}
    hidden = frozenset(unseen)
    return {cid: SOMEONE if cid in hidden else c.name for cid, c in state.combatants.items()}


# --- words of a parameter, a value, a snake_case name ---------------------------------

WORDS = {
    "end_turn": "end turn",
    "max_hp": "max HP",
    "hp": "HP",
    "ap": "AP",
    "map": "MAP",
    "dc": "DC",
    "mod": "modifier",
}
"""Snake_case parts read otherwise than with their underscores as spaces."""

CODE_WORDS = {"at": "position"}
"""Parameters named otherwise in words than as themselves (a combatant's ``at``: its
position)."""

SNAKE = re.compile(r"\b[a-z][a-z0-9]*(?:_[a-z0-9]+)+\b")
"""A snake_case word (``end_turn``, ``clear_shot``, ``melee_10``)."""


def words(name: str) -> str:
    """A parameter's, a command's or an option's name as words: ``clear_shot`` -> ``clear
    shot``, ``max_hp`` -> ``max HP``, ``accuracy_mod`` -> ``accuracy modifier``."""
    if name in WORDS:
        return WORDS[name]
    return " ".join(WORDS.get(part, part) for part in name.split("_") if part)


def _name(names: Mapping[str, str], cid: Any) -> str:
    return names.get(cid, SOMEONE) if isinstance(cid, str) else str(cid)


def value_words(value: Any, names: Mapping[str, str]) -> str:
    """A parameter's value as words: a combatant's id as its name, a tile ``tile 3, 4``,
    a list joined, a long text cut, ``True`` as ``yes``."""
    if value is True:
        return "yes"
    if value is False:
        return "no"
    if isinstance(value, str):
        if value in names:
            return names[value]
        if len(value) > TITLE_TEXT:
            return f"{value[: TITLE_TEXT - 8]}… ({len(value)} characters)"
        return words(value) if SNAKE.fullmatch(value) else value
    if isinstance(value, (tuple, list)):
        if len(value) == 2 and all(type(v) is int for v in value):
            return f"tile {value[0]}, {value[1]}"
        return ", ".join(value_words(v, names) for v in value)
    if isinstance(value, Mapping):
        return ", ".join(
            f"{words(str(k))} {value_words(v, names)}".strip() for k, v in value.items()
        )
    return str(value)


# --- the one pass ----------------------------------------------------------------------

_ID = RULE_ID.pattern.removeprefix(r"\b").removesuffix(r"\b")
_SEP = r"\s*(?:,|;|/|&|\bto\b|\band\b|\bor\b)\s*"
_GROUP = rf"\b{_ID}\b(?:{_SEP}\b{_ID}\b)*"
_RULES_ALONE = re.compile(rf"\s*\(\s*(?:see\s+)?{_GROUP}\s*\)")
"""``(DC-23)``, ``(WL-5 to WL-26)``, ``(WL-31, WL-36)``: a parenthesis of rule IDs."""
_RULES_AFTER = re.compile(rf"\s*[;,]\s*{_GROUP}(?=\s*[)\]])")
"""``...; TD-13)``: rule IDs closing a parenthesis of words."""
_RULES_BEFORE = re.compile(rf"(?<=\()\s*{_GROUP}\s*[;,:]\s*")
"""``(WL-31: ...``: rule IDs opening one."""
_RULES_BARE = re.compile(rf"\s*(?:\brules?\s+)?{_GROUP}:?")
"""Any other rule ID, with a ``rule`` before it."""

_QUOTED = re.compile(r"(?<![\w'])'([^'\n]+?)'(?![\w])")
_BACKTICKED = re.compile(r"`([^`\n]+)`")
_TILE = re.compile(r"(\btile\s+)?\[(-?\d+), (-?\d+)\]")
_LIST = re.compile(r"\[([^\[\]\d][^\[\]]*)\]")
_NUMBER = re.compile(r"#(\d+)\b")
_PLURAL = re.compile(r"\b(\d+) ([a-z][a-z -]*?)\(s\)")
_CODE_KEY = re.compile(r"^([a-z][a-z0-9_]*)\s*:\s*(.*)$")


def _rules(text: str) -> tuple[str, tuple[str, ...]]:
    """``text`` without its rule IDs, and the IDs in the order cited."""
    cited: list[str] = []
    for found in RULE_ID.finditer(text):
        if found.group(0) not in cited:
            cited.append(found.group(0))
    if not cited:
        return text, ()
    for pattern in (_RULES_ALONE, _RULES_AFTER, _RULES_BEFORE, _RULES_BARE):
        text = pattern.sub("", text)
    return text, tuple(cited)


def _code(code: str, names: Mapping[str, str]) -> str:
    """What a backticked bit of a summary or a refusal says: ``clear_shot: true`` ->
    ``clear shot``, ``mode: single|burst`` -> ``mode single or burst``, ``at`` ->
    ``position``."""
    code = code.strip()
    key = _CODE_KEY.match(code)
    if key is None:
        if code in CODE_WORDS:
            return CODE_WORDS[code]
        if code in names:
            return names[code]
        return words(code) if SNAKE.fullmatch(code) or code.isidentifier() else code
    name, value = key.group(1), key.group(2).strip()
    said = words(name)
    if value in ("true", "n", "N", "NAME", "ID", "...") or value.startswith(("[", "{")):
        return said  # a switch, a number or a list to give: the parameter's name says it
    if "|" in value:
        options = [words(v) for v in value.split("|")]
        return f"{said} {', '.join(options[:-1])} or {options[-1]}"
    return f"{said} {value_words(value, names)}"


def _plural(found: re.Match[str]) -> str:
    count, noun = int(found.group(1)), found.group(2)
    return f"1 {noun}" if count == 1 else f"{count} {noun}s"


def plain(text: str, names: Mapping[str, str] | None = None, *, sentence: bool = True) -> Said:
    """``text`` in people's words: rule IDs moved out, quoted ids as names (``names``:
    id -> name; a quoted other word as itself, underscores as spaces), backticked
    parameters and snake_case words as words, ``1 action(s)`` as ``1 action`` (``its 1
    action`` as ``its action``), ``[3, 4]`` as ``tile 3, 4``, ``#3`` as ``action 3``;
    ``sentence``: its first letter a capital."""
    names = names or {}
    text, rules = _rules(text)
    text = _QUOTED.sub(lambda m: names.get(m.group(1)) or words(m.group(1)), text)
    text = _BACKTICKED.sub(lambda m: _code(m.group(1), names), text)
    text = _TILE.sub(lambda m: f"{m.group(1) or 'tile '}{m.group(2)}, {m.group(3)}", text)
    text = _LIST.sub(lambda m: m.group(1), text)
    text = _NUMBER.sub(r"action \1", text)
    text = _PLURAL.sub(_plural, text)
    text = re.sub(r"\bits 1 ", "its ", text).replace("(s)", "s")
    text = SNAKE.sub(lambda m: words(m.group(0)), text)
    text = re.sub(r"\(\s*\)", "", text)
    text = re.sub(r"(?<=\S) {2,}", " ", text)
    text = re.sub(r"\s+([,;:.)])", r"\1", text).rstrip()
    text = re.sub(r"[;,:]$", "", text)
    if sentence:
        text = _capital(text)
    return Said(text, rules)


def _capital(text: str) -> str:
    head = len(text) - len(text.lstrip())
    return text[:head] + text[head : head + 1].upper() + text[head + 1 :]


# --- refusals -----------------------------------------------------------------------

_PHRASES: tuple[tuple[re.Pattern[str], str], ...] = tuple(
    (re.compile(pattern), said)
    for pattern, said in (
        (r"[;:] end_turn to go on, or attack with `free: true` \(a free action\)",
         " — end your turn to go on, or make it a free attack"),
        (r"[;:] end_turn to go on", " — end your turn to go on"),
        (r"; end_turn, move or set are still allowed", " — you may still move or end your turn"),
        (r" \(`at`\)", ""),
        (r"give (?:the action )?`distance(?:: n)?` \(tiles\)", "give the distance in tiles"),
        (r"`peek` first, or say `clear_shot: true`", "peek first, or say the shot is clear"),
        (r"give `behind: true`", "say it is behind its opponent"),
        (r" \(crossbow_beyond_skill: refuse\)", ""),
        (r"^([a-z_]+) needs '([a-z_]+)', and there is none now$", r"there is no \2 to choose now"),
        (r"takes '([a-z_]+)' in its own turn \(or the game master takes it\)",
         r"may \1 only in its own turn (or the game master may)"),
        (r"^'([a-z_]+)' is the game master's; ", r"only the game master may \1; "),
    )
)  # fmt: skip
"""Phrases of the rules' and the table's refusals said otherwise (before the one pass)."""


_ID_LIST = re.compile(r"\b((?:combatants|order|valid): )([a-z0-9_-]+(?:, [a-z0-9_-]+)*)")
"""A list of combatants' ids a refusal gives (``its combatants: ana, cy``)."""


def _id_list(found: re.Match[str], names: Mapping[str, str]) -> str:
    ids = found.group(2).split(", ")
    if not all(cid in names for cid in ids):
        return found.group(0)
    return found.group(1) + ", ".join(names[cid] for cid in ids)


def refusal_words(
    code: str, message: str, state: Encounter | None = None, unseen: Iterable[str] = ()
) -> Said:
    """A refusal (its stable ``code`` and its developer's ``message``) as people read it,
    names from ``state`` (a combatant in ``unseen``: ``someone``), the rule IDs apart:
    ``'dee' has used its 1 action(s) this turn; end_turn to go on (DC-23)`` -> ``Dee has
    used its action this turn — end your turn to go on``, ``("DC-23",)``."""
    del code  # the message says it all; the code stays for tools
    names = names_of(state, unseen)
    text, rules = _rules(message)
    for pattern, said in _PHRASES:
        text = pattern.sub(said, text)
    text = _ID_LIST.sub(lambda m: _id_list(m, names), text)
    out = plain(text, names)
    return Said(out.text, rules + tuple(r for r in out.rules if r not in rules))


def summary_words(summary: str) -> Said:
    """An action's summary (a tooltip) in words: no backticks, no snake_case, the rule
    IDs apart."""
    text = re.sub(r" on tile `to: \[x, y\]`", " on a tile", summary)
    text = re.sub(r" a tile `at`", " a tile", text)
    text = re.sub(r" \(`behind: true`\)", "", text)
    text = re.sub(r" \(`table: \{move: N\}`, (\d+) by default\)", r" (\1 by default)", text)
    return plain(text)


# --- the log --------------------------------------------------------------------------

_VERBS: Mapping[str, tuple[str, str]] = {
    "attack": ("attacks", ""),
    "throw": ("throws", "at "),
    "reload": ("reloads", ""),
    "equip": ("equips", ""),
    "cast": ("casts", "at "),
    "stealth": ("sneaks up on", ""),
    "defend": ("defends", ""),
    "overwatch": ("goes into overwatch", ""),
    "overwatch_attack": ("takes an overwatch shot at", ""),
    "opportunity_attack": ("makes an opportunity attack on", ""),
    "riposte": ("ripostes against", ""),
    "reaction": ("reacts", ""),
    "peek": ("peeks out of cover", ""),
    "injury_test": ("tests a major injury", ""),
    "act": ("acts", ""),
    "end_turn": ("ends its turn", ""),
}
"""A ruleset's and the core actions' verbs (third person), and what comes before their
target: ``Bo throws at Ana``; another action reads ``Ana uses <its words> on Bo``."""

_ITEM = {"equip": "item", "cast": "spell"}
"""The parameter an action's verb takes as its object (``Ana equips the knife``)."""


def _targets(action: Action, names: Mapping[str, str], before: str) -> str:
    if action.target is not None:
        return f" {before}{_name(names, action.target)}"
    if action.at is not None:
        return f" {before}tile {action.at[0]}, {action.at[1]}"
    several = action.params.get("targets")
    if isinstance(several, (list, tuple)) and several:
        return f" {before}{', '.join(_name(names, t) for t in several)}"
    return ""


def _extras(params: Mapping[str, Any], names: Mapping[str, str]) -> str:
    parts = []
    for k, v in params.items():
        if v is True:
            parts.append(words(k))
        elif v is False:
            parts.append(f"no {words(k)}")
        else:
            parts.append(f"{words(k)}: {value_words(v, names)}")
    return f" ({', '.join(parts)})" if parts else ""


_POLICY: Mapping[str, tuple[str, str]] = {
    "winbar": ("turns the win bar on for players", "turns the win bar off for players"),
    "player_undo": (
        "lets players undo their own latest action",
        "keeps undo to the game master",
    ),
    "player_move": ("lets players move their own tokens", "keeps token moves to the game master"),
    "advisor": ("lets players ask the advisor", "keeps the advisor to the game master"),
}
_ENEMY_HP = {"exact": "exactly", "label": "as a label", "hidden": "not at all"}


def _policy(params: Mapping[str, Any]) -> str:
    said = []
    for k, v in params.items():
        if k in _POLICY and isinstance(v, bool):
            said.append(_POLICY[k][0 if v else 1])
        elif k == "enemy_hp":
            said.append(f"shows players enemy HP {_ENEMY_HP.get(str(v), words(str(v)))}")
        elif k == "player_calls" and isinstance(v, (list, tuple)):
            calls = ", ".join(words(str(c)) for c in v)
            said.append(
                f"lets players make these calls themselves: {calls}"
                if calls
                else "keeps every judgement call to the game master"
            )
        else:
            said.append(f"sets {words(k)} to {value_words(v, {})}")
    return f"{GM} " + (" and ".join(said) if said else "changes the table's rules")


def _table_action(action: Action, names: Mapping[str, str]) -> str | None:
    """A game master's action as a sentence; None: not one."""
    do, p = action.do, action.params
    who = _name(names, action.actor)
    amount = p.get("amount")
    by = f" by {amount}" if amount is not None else ""
    if do == "policy":
        return _policy(p)
    if do == "note":
        text = p.get("text")
        return f"{GM} clears the note on {who}" if text == "" else f"{GM} writes a note on {who}"
    if do == "status":
        add, remove = p.get("add"), p.get("remove")
        parts = []
        if add:
            parts.append(f"gives {who} {value_words(add, names)}")
        if remove:
            parts.append(f"takes {value_words(remove, names)} off {who}")
        return f"{GM} " + (" and ".join(parts) if parts else f"changes {who}'s conditions")
    if do == "add":
        c = p.get("combatant")
        new = c.get("name") or c.get("id") if isinstance(c, Mapping) else None
        return f"{GM} adds {new}" if new else f"{GM} adds a combatant"
    if do == "delay":
        after = p.get("after")
        return f"{GM} delays {who}" + (f" until after {_name(names, after)}" if after else "")
    if do == "initiative" and isinstance(p.get("each_round"), bool):
        if p["each_round"]:
            return f"{GM} has initiative rolled again at the start of each round"
        return f"{GM} keeps the turn order from round to round"
    if do == "reveal":
        if p.get("on") is False:
            return f"{GM} keeps {who} hidden when its turn begins"
        return f"{GM} marks {who} to be revealed when its turn begins"
    if do == "tactics":
        preset = p.get("preset")
        return f"{GM} sets {who}'s tactics" + (f" to {preset}" if preset else "")
    if do == "set" and p:
        fields = ", ".join(f"{words(k)} to {value_words(v, names)}" for k, v in p.items())
        return f"{GM} sets {who}'s {fields}"
    if do == "roll":
        return f"A free roll of {p.get('notation', 'dice')}"
    if do == "move" and not p.get("walk") and "ap" not in p:
        return None  # a move: the mover's own sentence (a game master's drop reads the same)
    fixed = {
        "set": f"{GM} edits {who}'s sheet",
        "heal": f"{GM} heals {who}{by}",
        "damage": f"{GM} damages {who}{by}",
        "remove": f"{GM} removes {who} from the fight",
        "initiative": f"{GM} sets the turn order",
        "hide": f"{GM} hides {who} from the players",
        "show": f"{GM} shows {who}",
        "finish": f"{GM} ends the fight",
        "reopen": f"{GM} reopens the fight",
    }
    return fixed.get(do)


def action_sentence(action: Action, names: Mapping[str, str]) -> str:
    """An action as a sentence (a log heading, the action a die waits for): ``Ana
    attacks Bo``, ``Vera attacks the raider (burst)``, ``Bo moves to tile 4, 1``, ``The
    game master turns the win bar on for players``; an action of no known verb: ``Ana
    uses <its words> on Bo``."""
    table = _table_action(action, names)
    if table is not None:
        return _capital(table)
    who = _name(names, action.actor)
    params = dict(action.params)
    if action.do == "move":
        to = params.pop("to", None)
        verb = "walks" if params.pop("walk", None) is True else "moves"
        where = f" to {value_words(to, names)}" if to is not None else ""
        return _capital(f"{who} {verb}{where}{_extras(params, names)}")
    params.pop("targets", None)
    verb, before = _VERBS.get(action.do, (f"uses {words(action.do)}", "on "))
    thing = params.pop(_ITEM[action.do], None) if action.do in _ITEM else None
    said = f"{who} {verb}"
    if thing is not None:
        said += f" {'the ' if action.do == 'equip' else ''}{value_words(thing, names)}"
    if action.do == "act" and "note" in params:
        said += f": {value_words(params.pop('note'), names)}"
    return _capital(said + _targets(action, names, before) + _extras(params, names))


def line_said(entry: Entry, state: Encounter, unseen: Iterable[str] = ()) -> Said:
    """One line of a projected log (:class:`fracas.table.Entry`) in people's words: a
    heading as the action's sentence (an undo: ``Taken back: ...``), an event's line
    as the rules wrote it, made plain, its rule IDs apart. ``state``: the table before
    the entry's record (names of the heading's combatants)."""
    names = names_of(state, unseen)
    kind, action = entry.kind, entry.action
    if kind == "covered":
        return Said(f"{GM} acts out of sight")
    if kind in ("title", "undo", "redo"):
        assert action is not None
        said = action_sentence(action, names)
        if kind != "title" and said.startswith(GM):
            said = "the" + said[3:]  # "Taken back: the game master ..."
        if kind == "undo":
            return Said(f"Taken back: {said}")
        if kind == "redo":
            return Said(f"Put back: {said}")
        return Said(said)
    event = entry.event
    if isinstance(event, NoteWritten) and entry.before is not None:
        who = _name(names_of(entry.before, unseen), event.actor)
        return Said(
            f"Note on {who}: {event.text}" if event.text else f"The note on {who} is cleared"
        )
    text = entry_words(entry)
    if not text:
        return Said("")
    if isinstance(event, Rolled):  # the notation as typed: plain words would eat its [notes]
        return Said(text)
    lead = len(text) - len(text.lstrip())
    body = text[lead:]
    if body.startswith("GM "):
        body = f"{GM} {body[3:]}"
    elif not body.strip():
        body = "Something happens"
    if entry.before is not None:
        names = names_of(entry.before, unseen)
    body = _FROM.sub(lambda m: f"(from {names.get(m.group(1), m.group(1))})", body)
    out = plain(body, names, sentence=body.startswith(GM))
    return Said(text[:lead] + out.text, out.rules)


_FROM = re.compile(r"\(from ([a-z0-9_-]+)\)")
"""``(from dee)``: an event's source named by its id (tier-duel's burning)."""


def request_sentence(
    by: str, action: Action, calls: Iterable[str], names: Mapping[str, str]
) -> str:
    """A player's request: ``Pat asks for advantage on Ana's attack``."""
    asked = []
    for k in calls:
        v = action.params.get(k)
        if v is True:
            asked.append(words(k))
        elif isinstance(v, str):
            asked.append(words(v) if SNAKE.fullmatch(v) else v)
        else:
            asked.append(f"{words(k)} {value_words(v, names)}")
    what = " and ".join(asked) or "a call"
    return f"{by} asks for {what} on {_name(names, action.actor)}'s {words(action.do)}"
