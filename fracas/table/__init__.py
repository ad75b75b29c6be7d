"""The table service: the one door under every face (the prompt, the web server, the
command line). Create, resume or open-or-create an encounter (:class:`TableService`);
submit every change to its :class:`Table` as a command with the identity that asks
and the seq it saw (:meth:`Table.submit`); read it as a frozen :class:`Snapshot`
projected for an identity (:class:`View`: values, never words; a face's words for
them are ``fracas.words.render``'s); ask the odds of an action or the win bar as
a frozen job (:meth:`Table.odds_question`, :meth:`Table.win_question`,
:meth:`Table.advice_question`); ask what a dragged token's move would cost
(:meth:`Table.move_cost`); put or remove the map image (:meth:`Table.put_map_image`,
whose version the state carries); hear every
change on its feed. It imports no terminal or web library and prints nothing.

A face imports from here, the catalogue, errors, words (``fracas.words.render``), the store
opener and the rulesets' registry; nothing else of fracas (a test walks the imports).
"""

from fracas.dice.budget import DEFAULT_SECONDS
from fracas.dice.source import Dice
from fracas.engine.may_do import Option, options_now, param_choices, param_flags, param_numbers
from fracas.engine.play import Record
from fracas.io.files import MAX_DEPTH, EncounterFile, read_text
from fracas.odds.action import Odds
from fracas.odds.choices import DEFAULT_CHOICE_SECONDS, Choice
from fracas.table.commands import (
    Act,
    Answer,
    Cancel,
    Command,
    Give,
    Outcome,
    Redo,
    Request,
    SetDice,
    SetPolicy,
    Undo,
)
from fracas.table.feed import Change, Feed
from fracas.table.identity import Forbidden, Identity, Role
from fracas.table.moving import MoveCost
from fracas.table.physical import DieNeeded, Pending
from fracas.table.projection import Asked, Entry, View, hp_label, mentions, named, player_ids
from fracas.table.questions import AdviceQuestion, OddsQuestion, WinQuestion
from fracas.table.service import Played, Refused, TableService, check_file, fresh_seed
from fracas.table.snapshot import Snapshot
from fracas.table.table import GAME_MASTER, Table
from fracas.table.writer import StoreLost, live_seed

__all__ = [
    "DEFAULT_CHOICE_SECONDS",
    "DEFAULT_SECONDS",
    "GAME_MASTER",
    "MAX_DEPTH",
    "Act",
    "AdviceQuestion",
    "Answer",
    "Asked",
    "Cancel",
    "Change",
    "Choice",
    "Command",
    "Dice",
    "DieNeeded",
    "EncounterFile",
    "Entry",
    "Feed",
    "Forbidden",
    "Give",
    "Identity",
    "MoveCost",
    "Odds",
    "OddsQuestion",
    "Option",
    "Outcome",
    "Pending",
    "Played",
    "Record",
    "Redo",
    "Refused",
    "Request",
    "Role",
    "SetDice",
    "SetPolicy",
    "Snapshot",
    "StoreLost",
    "Table",
    "TableService",
    "Undo",
    "View",
    "WinQuestion",
    "check_file",
    "fresh_seed",
    "hp_label",
    "live_seed",
    "mentions",
    "named",
    "options_now",
    "param_choices",
    "param_flags",
    "param_numbers",
    "player_ids",
    "read_text",
]
