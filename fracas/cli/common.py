"""What the commands of the command line share (:mod:`fracas.words.console`), under the names
the command modules use."""

from fracas.words.console import DEFAULT_DB as _DEFAULT_DB
from fracas.words.console import ActionError, error_json
from fracas.words.console import echo as _echo
from fracas.words.console import fail as _fail
from fracas.words.console import guard as _guard
from fracas.words.console import out as _out
from fracas.words.console import pct as _pct
from fracas.words.console import store_option as _store_option

__all__ = [
    "_DEFAULT_DB",
    "ActionError",
    "_echo",
    "_fail",
    "_guard",
    "_out",
    "_pct",
    "_store_option",
    "error_json",
]
