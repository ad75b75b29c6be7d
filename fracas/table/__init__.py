"""The table service: one face-free service under every face (the prompt, the web
server, the lab). Create, resume, act as an identity, undo and redo, what an actor
may do now, the odds of a candidate action, export, records since a seq, and a
change feed. It imports no terminal or web library and prints nothing."""

from fracas.table.choices import Option, options_now, param_choices
from fracas.table.feed import Change, Feed
from fracas.table.identity import Forbidden, Identity, Role, TableRules
from fracas.table.projection import View, hp_label
from fracas.table.table import StoreLost, Table, TableService, fresh_seed, live_seed

__all__ = [
    "Change",
    "Feed",
    "Forbidden",
    "Identity",
    "Option",
    "Role",
    "StoreLost",
    "Table",
    "TableRules",
    "TableService",
    "View",
    "fresh_seed",
    "hp_label",
    "live_seed",
    "options_now",
    "param_choices",
]
