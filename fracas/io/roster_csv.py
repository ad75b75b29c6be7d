"""Rosters from spreadsheets (issue 36, "Rosters in and out"): a CSV file's rows read as
the combatants of an encounter file.

Game masters keep their sheets in spreadsheets. Each column is one field of the
ruleset's combatant sheet: its header names the field (case, spaces and hyphens aside:
``Attack Bonus`` is ``attack_bonus``), or one of a few names a spreadsheet uses for
the core fields (``Character`` for ``name``, ``Team`` for ``side``, ``X`` and ``Y``
for the tile ``at``); an explicit mapping (``--map COLUMN=field``, ``COLUMN=-`` to
leave a column out) goes first. Each cell is read as the value after ``field:`` in a
file would be (text fields as typed; a list may leave out its brackets: ``knife,
club``), and each row is checked by the encounter-file loader itself
(:func:`fracas.io.files.parse_text`), so the rules are the ruleset's, not written
again here.

A roster is taken whole or not at all: every bad cell is named by its row (as the
spreadsheet numbers it: the header is row 1) and its column, all of them in one
refusal (:class:`RosterError`, ``bad_roster``), and nothing is imported.
"""

from __future__ import annotations

import csv
import io
import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

import yaml

from fracas.engine.combatants import CORE_FIELDS
from fracas.errors import FileError, FracasError
from fracas.io.files import parse_text
from fracas.rulesets import find_ruleset, json_schema

__all__ = [
    "MAX_ROSTER",
    "MAX_ROWS",
    "BadCell",
    "Roster",
    "RosterError",
    "read_roster",
]

MAX_ROSTER = 262_144
"""The largest CSV text read, in bytes (a few hundred combatants fit many times)."""
MAX_ROWS = 200
"""The most combatants one roster brings (the setup page's limit too)."""
SKIP = "-"
"""A mapping's field for a column left out (``--map Notes=-``)."""

ALIASES = {
    "character": "name",
    "character_name": "name",
    "team": "side",
    "faction": "side",
    "hit_points": "hp",
    "current_hp": "hp",
    "max_hit_points": "max_hp",
    "maxhp": "max_hp",
    "hp_max": "max_hp",
    "tile": "at",
}
"""Headers a spreadsheet uses for the core fields, beside the fields' own names."""
_TILE = ("x", "y")
_TEXT_CORE = ("id", "name", "side")
_SPACES = re.compile(r"[\s\-]+")
_ID_OUT = re.compile(r"[^a-z0-9_-]+")


@dataclass(frozen=True, slots=True)
class BadCell:
    """One bad cell: its row as the spreadsheet numbers it (the header is row 1; 0: the
    encounter the rows are imported into), its column's header (``""``: the row as a
    whole), the loader's code and message."""

    row: int
    column: str
    code: str
    message: str

    def to_json(self) -> dict[str, Any]:
        return {"row": self.row, "column": self.column, "code": self.code, "message": self.message}

    def __str__(self) -> str:
        where = f"row {self.row}" if self.row else "the encounter"
        where += f", column {self.column!r}" if self.column else ""
        return f"{where}: {self.code}: {self.message}"


class RosterError(FracasError, ValueError):
    """A roster refused: ``bad_roster``, with every bad cell in :attr:`cells`."""

    def __init__(self, source: str, cells: Sequence[BadCell]) -> None:
        n = len(cells)
        first = f"; first: {cells[0]}" if cells else ""
        super().__init__(
            "bad_roster",
            f"{n} bad cell{'s' if n != 1 else ''} in {source!r}, nothing imported{first}",
        )
        self.cells = tuple(cells)


@dataclass(frozen=True, slots=True)
class Roster:
    """A roster read: the encounter document it makes (``ruleset``, ``combatants`` and,
    imported into a file, that file's other fields), the combatants it brings, and which
    field each column went to."""

    document: dict[str, Any]
    combatants: tuple[dict[str, Any], ...]
    columns: dict[str, str]


def _key(header: str) -> str:
    return _SPACES.sub("_", header.strip().lower())


def _kinds(ruleset_name: str) -> dict[str, str]:
    """Each field a roster may fill: ``text``, ``list`` (of text), ``tile`` or ``array``
    (a list of values, its brackets optional) or ``yaml`` (read as a file reads a
    value), from the ruleset's sheet schema."""
    ruleset = find_ruleset(ruleset_name)
    out = {"id": "text", "name": "text", "side": "text", "at": "tile", "hp": "yaml"}
    out.update({f: "yaml" for f in CORE_FIELDS if f not in out})
    for name, prop in json_schema(ruleset.contract.sheet).get("properties", {}).items():
        if prop.get("type") == "string":
            out[name] = "text"
        elif prop.get("type") == "array" and prop.get("items", {}).get("type") == "string":
            out[name] = "list"
        elif prop.get("type") == "array":
            out[name] = "array"
        else:
            out[name] = "yaml"
    return out


def _columns(
    headers: list[str], kinds: Mapping[str, str], mapping: Mapping[str, str], ruleset: str
) -> tuple[dict[int, str], list[BadCell]]:
    """Each column's field (by index; left out: skipped), and the headers that name none."""
    fields = {**{k: k for k in kinds}, **ALIASES, **{t: t for t in _TILE}}
    given = {_key(k): v for k, v in mapping.items()}
    bad: list[BadCell] = []
    out: dict[int, str] = {}
    valid = ", ".join([*kinds, *_TILE])
    for k in mapping:
        if not any(_key(h) == _key(k) for h in headers):
            bad.append(BadCell(1, k, "unknown_column", f"--map names {k!r}, no column's header"))
    for i, header in enumerate(headers):
        key = _key(header)
        field = given.get(key, fields.get(key))
        if field == SKIP:
            continue
        if field is None or (field not in kinds and field not in _TILE):
            what = f"field {field!r}" if key in given else "no field"
            bad.append(
                BadCell(
                    1,
                    header,
                    "unknown_column",
                    f"{header!r} maps to {what} of {ruleset}; valid: {valid}; "
                    f"or map it to '{SKIP}' to leave it out",
                )
            )
            continue
        if field in out.values():
            bad.append(BadCell(1, header, "duplicate_column", f"a second column for {field!r}"))
            continue
        out[i] = field
    return out, bad


def _cell(kind: str, text: str) -> Any:
    """A cell's value as a file would hold it (``yaml.YAMLError`` where it is no value)."""
    if kind == "text":
        return text
    if kind == "list":
        inner = text[1:-1] if text.startswith("[") and text.endswith("]") else text
        return [part.strip() for part in inner.split(",") if part.strip()]
    if kind in ("tile", "array"):
        return yaml.safe_load(text if text.startswith("[") else f"[{text}]")
    return yaml.safe_load(text)


def _rows(text: str, source: str) -> list[list[str]]:
    if len(text.encode("utf-8", "surrogatepass")) > MAX_ROSTER:
        raise FracasError(
            "too_large", f"{source!r} holds more than {MAX_ROSTER:,} bytes: at most that"
        )
    text = text.removeprefix("\ufeff")  # a spreadsheet's byte-order mark
    try:
        dialect: Any = csv.Sniffer().sniff(text.split("\n", 1)[0], delimiters=",;\t")
    except csv.Error:
        dialect = csv.excel  # one column, or no separator the sniffer trusts
    try:
        return list(csv.reader(io.StringIO(text, newline=""), dialect))
    except csv.Error as exc:
        raise FracasError("bad_csv", f"{source!r} is not CSV: {exc}") from None


def _id_from(name: str, taken: set[str]) -> str:
    """An id from a name (``Ana the Bold`` -> ``ana-the-bold``), unique in ``taken``."""
    base = _ID_OUT.sub("-", name.lower()).strip("-") or "c"
    cid, n = base, 2
    while cid in taken:
        cid, n = f"{base}-{n}", n + 1
    return cid


def read_roster(
    text: str,
    ruleset: str | None = None,
    *,
    mapping: Mapping[str, str] | None = None,
    into: str | None = None,
    into_source: str = "<encounter>",
    source: str = "roster.csv",
) -> Roster:
    """The combatants of CSV ``text`` for ``ruleset``, or added to the encounter file
    whose text is ``into`` (its ruleset, options and map then apply; ``ruleset``, where
    also given, must be the same).

    Raises:
        RosterError: ``bad_roster``, naming every bad cell; nothing is imported.
        FileError: ``into`` is not a valid encounter file.
        FracasError: ``unknown_ruleset``, ``too_large``, ``bad_csv``, ``empty_roster``.
    """
    base: dict[str, Any] = {}
    if into is not None:
        parsed = parse_text(into, into_source)
        base = {k: v for k, v in yaml.safe_load(into).items()}
        name = parsed.ruleset.about.name
        if ruleset is not None and find_ruleset(ruleset).about.name != name:
            raise FracasError(
                "bad_ruleset",
                f"--ruleset {ruleset!r}, but {into_source!r} plays {name}: give that or none",
            )
        ruleset = name
    if ruleset is None:
        raise FracasError("bad_ruleset", "which ruleset? give --ruleset NAME (`fracas rules`)")
    ruleset = find_ruleset(ruleset).about.name
    kinds = _kinds(ruleset)
    rows = _rows(text, source)
    while rows and not any(c.strip() for c in rows[-1]):
        rows.pop()
    if len(rows) < 2:
        raise FracasError(
            "empty_roster", f"{source!r} has no rows under its header: one row per combatant"
        )
    headers = rows[0]
    columns, bad = _columns(headers, kinds, dict(mapping or {}), ruleset)
    if len(rows) - 1 > MAX_ROWS:
        raise FracasError(
            "too_large", f"{source!r} has {len(rows) - 1} rows: at most {MAX_ROWS} combatants"
        )
    if bad:
        raise RosterError(source, bad)
    shell: dict[str, Any] = {k: base[k] for k in ("ruleset", "options", "map") if k in base}
    shell["ruleset"] = ruleset
    taken = {str(c.get("id")) for c in base.get("combatants", []) if isinstance(c, dict)}
    entries: list[tuple[int, dict[str, Any], dict[str, str]]] = []
    for number, row in enumerate(rows[1:], 2):
        if not any(c.strip() for c in row):
            continue  # a blank line between groups
        entry, where, cells = _entry(row, headers, columns, kinds, number)
        bad += cells
        if "id" not in entry and isinstance(entry.get("name"), str):
            entry = {"id": _id_from(entry["name"], taken), **entry}
        taken.add(str(entry.get("id")))
        bad += _checked(shell, entry, where, number)
        entries.append((number, entry, where))
    if not bad:
        bad = _together(base, shell, entries)
    if bad:
        order = {h: i for i, h in enumerate(headers)}
        raise RosterError(source, sorted(bad, key=lambda b: (b.row, order.get(b.column, -1))))
    made = tuple(e for _, e, _ in entries)
    document: dict[str, Any] = {**base, **shell}
    document["combatants"] = [*base.get("combatants", []), *made]
    if isinstance(base.get("order"), list):  # the file's order, the newcomers last
        document["order"] = [*base["order"], *(e["id"] for e in made)]
    return Roster(document, made, {headers[i]: f for i, f in columns.items()})


def _entry(
    row: list[str],
    headers: list[str],
    columns: Mapping[int, str],
    kinds: Mapping[str, str],
    number: int,
) -> tuple[dict[str, Any], dict[str, str], list[BadCell]]:
    """One row as a file's combatant entry, which column gave each field, and the cells
    that are no value at all."""
    entry: dict[str, Any] = {}
    where: dict[str, str] = {}
    bad: list[BadCell] = []
    if len(row) > len(headers):
        extra = ", ".join(repr(c) for c in row[len(headers) :] if c.strip())
        if extra:
            bad.append(BadCell(number, "", "bad_row", f"cells past the last column: {extra}"))
    tile: dict[str, Any] = {}
    tile_columns = {f: headers[i] for i, f in columns.items() if f in _TILE}
    for i, field in columns.items():
        text = row[i].strip() if i < len(row) else ""
        if not text:
            continue
        try:
            value = _cell(kinds.get(field, "yaml"), text)
        except yaml.YAMLError as exc:
            problem = getattr(exc, "problem", None) or str(exc).splitlines()[0]
            bad.append(BadCell(number, headers[i], "bad_value", f"{text!r} is no value: {problem}"))
            continue
        if field in _TILE:
            tile[field] = value
            continue
        entry[field] = value
        where[field] = headers[i]
    if tile and "at" not in entry:
        missing = next((t for t in _TILE if t not in tile), None)
        if missing is None:
            entry["at"] = [tile["x"], tile["y"]]
            where["at"] = tile_columns["x"]
        else:
            given = next(t for t in _TILE if t in tile)
            bad.append(
                BadCell(
                    number,
                    tile_columns.get(missing, tile_columns[given]),
                    "bad_value",
                    f"{missing} is blank, {given} is {tile[given]!r}: a tile needs both",
                )
            )
    return entry, where, bad


def _check(shell: Mapping[str, Any], combatants: list[dict[str, Any]]) -> FileError | None:
    document = {**shell, "combatants": combatants}
    try:
        parse_text(yaml.safe_dump(document, sort_keys=False, allow_unicode=True), "roster")
    except FileError as exc:
        return exc
    return None


def _checked(
    shell: Mapping[str, Any], entry: dict[str, Any], where: Mapping[str, str], number: int
) -> list[BadCell]:
    """Every bad cell of one row, as the loader finds them: each field it refuses is
    named, then left out and the row checked again (a field it refuses twice, or one no
    column gave, ends the search)."""
    bad: list[BadCell] = []
    left = dict(entry)
    seen: set[str] = set()
    for _ in range(len(entry) + 1):
        exc = _check(shell, [left])
        if exc is None:
            break
        field = next((str(p) for p in exc.path[2:3]), "")
        column = where.get(field, "")
        if field in seen or not column:
            bad.append(BadCell(number, column, exc.code, _with_field(exc, field, column)))
            break
        seen.add(field)
        bad.append(BadCell(number, column, exc.code, exc.message))
        left.pop(field, None)
    return bad


def _with_field(exc: FileError, field: str, column: str) -> str:
    """A refusal about no one column: its field named (``id: ...``) where the message
    lacks it."""
    return exc.message if column or not field else f"{field}: {exc.message}"


def _together(
    base: Mapping[str, Any],
    shell: Mapping[str, Any],
    entries: list[tuple[int, dict[str, Any], dict[str, str]]],
) -> list[BadCell]:
    """What only the rows together break (two with one id): each found in turn, its row
    left out, until the rest is sound."""
    bad: list[BadCell] = []
    whole = {k: v for k, v in base.items() if k != "combatants"} | dict(shell)
    first = list(base.get("combatants", []))
    kept = list(entries)
    order = whole.get("order")
    while kept:
        if isinstance(order, list):
            whole["order"] = [*order, *(e.get("id") for _, e, _ in kept)]
        try:
            text = yaml.safe_dump(
                {**whole, "combatants": [*first, *(e for _, e, _ in kept)]},
                sort_keys=False,
                allow_unicode=True,
            )
            parse_text(text, "roster")
            break
        except FileError as exc:
            at = exc.path[1] if len(exc.path) > 1 and exc.path[0] == "combatants" else None
            if not isinstance(at, int) or at < len(first):
                bad.append(BadCell(0, "", exc.code, f"{exc.field}: {exc.message}"))
                break
            number, _, where = kept.pop(at - len(first))
            field = next((str(p) for p in exc.path[2:3]), "")
            bad.append(BadCell(number, where.get(field, ""), exc.code, exc.message))
    return bad
