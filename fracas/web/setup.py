"""The setup page of ``fracas serve`` (given no FILE or NAME): the stored encounters,
each opened by its game master's link or downloaded as an encounter file, and a form
that starts a new encounter without writing YAML.

The form is built from a schema the server derives from each ruleset's pydantic
sheet, item and options types (:func:`ruleset_forms`); the page holds no ruleset's
names. What the form sends is turned into the encounter document a file would hold
(:func:`document`), written as YAML and loaded through the file loader
(:func:`fracas.table.check_file`), so a setup is refused exactly as a file would be,
with the same codes and messages; the error's field (``combatants[1].hp``) points the
page at the control.

Only the person who started the server may use it: a setup token (256 bits, printed at
start like the game master's link) whose SHA-256 alone is kept (:class:`SetupKey`).

``GET /setup/TOKEN``                    the page (``setup.html``)
``GET /api/setup/rulesets``              every ruleset's form schema
``GET /api/setup/encounters``            the stored encounters
``POST /api/setup/check``                validate a setup; nothing is stored
``POST /api/setup/roster``               a CSV roster's combatants, as the form holds them
``POST /api/setup/start``                validate, store, and return the GM's link
``POST /api/setup/open``                 ``{"name"}``: the GM's link of a stored one
``GET /api/setup/export/NAME``           a stored encounter as an encounter file
"""

from __future__ import annotations

import dataclasses
import functools
import hashlib
import hmac
import secrets
import threading
from collections.abc import Awaitable, Callable
from typing import Any

import anyio.to_thread
import yaml
from starlette.background import BackgroundTask
from starlette.requests import Request
from starlette.responses import JSONResponse, Response
from starlette.routing import Route

from fracas.errors import FracasError
from fracas.io.store import NAME_PATTERN, StoreError
from fracas.model.frozen import thaw
from fracas.rulesets import Ruleset, json_schema, rulesets
from fracas.rulesets.base import plain
from fracas.table import MAX_DEPTH, TableService, check_file
from fracas.web.guard import Limit, json_object
from fracas.web.links import Links, add_player_links
from fracas.web.refusal import bearer

__all__ = [
    "MAX_SETUP",
    "SETUP_BODY",
    "SetupError",
    "SetupKey",
    "combatant",
    "document",
    "export_text",
    "ruleset_forms",
    "setup_routes",
    "sheet_form",
]

MAX_SETUP = 262_144
"""The largest setup body read, in bytes (a few dozen combatants fit many times)."""
SETUP_BODY = Limit(
    MAX_SETUP,
    f"a setup form of more than {MAX_SETUP:,} bytes; at most {MAX_SETUP:,}",
    {"field": ""},
)
"""The setup API's body limit, held before the body is read
(:class:`fracas.web.guard.Guard`)."""
MAX_COMBATANTS = 200
MAX_TEXT = 4_000
"""The longest value of one control."""
_INT = {"kind": "int"}
_BLANK: Any = object()
"""A control left blank: the field is left out (its default), not given as null."""


class SetupError(FracasError):
    """A setup request refused before the file loader sees it (``bad_token``, a body
    that is not a setup, a name taken)."""

    def __init__(self, code: str, message: str, field: str = "") -> None:
        super().__init__(code, message)
        self.field = field


class SetupKey:
    """The setup page's token, minted at each start of the server; only its SHA-256 is
    kept (in memory: a restart mints a new one), compared in constant time."""

    def __init__(self) -> None:
        self._hash = ""

    def mint(self) -> str:
        token = secrets.token_urlsafe(32)
        self._hash = hashlib.sha256(token.encode()).hexdigest()
        return token

    def check(self, token: str) -> None:
        given = hashlib.sha256(token.encode()).hexdigest()
        if not self._hash or not hmac.compare_digest(given, self._hash):
            raise SetupError("bad_token", "this link does not open the setup page")


# --- the form schema ---------------------------------------------------------------


_CORE = (
    ("id", "text", "unique id, [a-z0-9_-]+; required"),
    ("name", "text", "default: the id"),
    ("side", "text", "default: the id (everyone alone)"),
    ("at", "tile", "tile [x, y]; needed where a rule measures distance"),
    ("hp", "int", "current HP; default: max_hp"),
)


def _kind(prop: dict[str, Any], item: str | None) -> tuple[str, dict[str, Any]]:
    """A control for one JSON-schema property: its kind and what the kind needs."""
    options = [p for p in prop.get("anyOf", [prop]) if p.get("type") != "null"]
    p = options[0] if len(options) == 1 else {}
    ref = str(p.get("$ref", "")).rsplit("/", 1)[-1]
    items = p.get("items", {}) if p.get("type") == "array" else None
    if "enum" in p:
        return "choice", {
            "choices": list(p["enum"]),
            "nullable": len(options) < len(prop.get("anyOf", [prop])),
        }
    if item is not None and ref == item:
        return "item", {}
    if items is not None:
        if str(items.get("$ref", "")).rsplit("/", 1)[-1] == item and item is not None:
            return "items", {}
        if "enum" in items:
            return "choices", {"choices": list(items["enum"])}
        if items.get("type") == "string":
            return "list", {}
    kinds = {"boolean": "bool", "integer": "int", "string": "text"}
    if p.get("type") in kinds and not p.get("additionalProperties"):
        return kinds[p["type"]], {}
    return "yaml", {}


def _fields(kind: type[Any], item: str | None) -> list[dict[str, Any]]:
    schema = json_schema(kind)
    made = {
        f.name: plain(f.default_factory())
        for f in dataclasses.fields(kind)
        if f.default_factory is not dataclasses.MISSING
    }
    out = []
    for name, prop in schema.get("properties", {}).items():
        control, extra = _kind(prop, item)
        default = prop["default"] if "default" in prop else made.get(name)
        out.append(
            {
                "name": name,
                "kind": control,
                "default": default,
                "meaning": " ".join(str(prop.get("description", "")).split()).replace("``", "`"),
                **extra,
            }
        )
    return out


def _form(r: type[Ruleset]) -> dict[str, Any]:
    item = r.contract.item_type.__name__ if r.contract.item_type is not None else None
    core: list[dict[str, Any]] = [
        {"name": n, "kind": k, "default": None, "meaning": m} for n, k, m in _CORE
    ]
    core.append(
        {
            "name": "max_hp",
            "kind": "int",
            "default": r.contract.default_max_hp,
            "meaning": "maximum HP",
        }
    )
    return {
        "name": r.about.name,
        "title": r.about.title,
        "summary": r.about.summary,
        "options": _fields(r.contract.options, None),
        "core": core,
        "sheet": _fields(r.contract.sheet, item),
        "shorthands": list(r.contract.item_shorthands),
    }


_FORMS: dict[type[Ruleset], dict[str, Any]] = {}
_FORMS_LOCK = threading.Lock()


def ruleset_forms() -> list[dict[str, Any]]:
    """Every registered ruleset's form: its options, the core fields, its sheet fields
    (a control kind each: int, bool, text, choice, choices, list, tile, item, items,
    yaml) and its item short-hands. Each derived once from its types; the rulesets are
    the registry's now."""
    with _FORMS_LOCK:
        every = rulesets()
        for r in every:
            if r not in _FORMS:
                _FORMS[r] = _form(r)
        return [_FORMS[r] for r in every]


Fields = dict[str, dict[str, Any]]


def _controls(ruleset: str) -> dict[str, Fields]:
    for form in ruleset_forms():
        if form["name"] == ruleset:
            return {
                "options": {f["name"]: f for f in form["options"]},
                "combatant": {f["name"]: f for f in form["core"] + form["sheet"]},
            }
    return {"options": {}, "combatant": {}}  # the loader names the valid rulesets


# --- what the form sends, as an encounter document ----------------------------------


def _text(value: Any, where: str) -> str:
    if not isinstance(value, str):
        raise SetupError("bad_value", f"{value!r}: the form sends text here", where)
    if len(value) > MAX_TEXT:
        raise SetupError("too_large", f"{len(value):,} characters: at most {MAX_TEXT:,}", where)
    return value.strip()


def _yaml(text: str, where: str) -> Any:
    """``text`` read as a file reads the value after ``field:``."""
    if _too_deep(_text_depth(text)):
        raise SetupError(
            "too_large", f"{text[:40]!r}…: nesting deeper than {MAX_DEPTH} levels", where
        )
    try:
        return yaml.safe_load(text)
    except yaml.YAMLError as exc:
        problem = getattr(exc, "problem", None) or str(exc).splitlines()[0]
        raise SetupError(
            "bad_yaml", f"{text!r} is not a value a file could hold: {problem}", where
        ) from None


def _too_deep(levels: int) -> bool:
    return levels > MAX_DEPTH


def _text_depth(text: str) -> int:
    """How deep ``text``'s flow brackets nest (read before YAML recurses into them)."""
    deepest = depth = 0
    for ch in text:
        if ch in "[{":
            depth += 1
            deepest = max(deepest, depth)
        elif ch in "]}":
            depth -= 1
    return deepest


def _item(value: Any, where: str) -> Any:
    """An item row ``{"is": short-hand, "more": "loaded: 6"}`` as a file writes it:
    ``pistol``, ``{is: pistol, loaded: 6}`` or ``{name: firebolt, type: spell}``."""
    if not isinstance(value, dict):
        raise SetupError("bad_value", f"{value!r}: an item row is {{is, more}}", where)
    base = _text(value.get("is", ""), where)
    more = _text(value.get("more", ""), where)
    if not more:
        return base or _BLANK
    fields = _yaml(more if more.startswith("{") else "{" + more + "}", where)
    if not isinstance(fields, dict):
        raise SetupError("bad_value", f"{more!r}: give fields as `key: value, ...`", where)
    return {"is": base, **fields} if base else fields


def _value(field: dict[str, Any], value: Any, where: str) -> Any:
    """One control's value as the file's value; :data:`_BLANK`: left blank (the default)."""
    kind = field.get("kind", "yaml")
    if kind == "bool":
        if not isinstance(value, bool):
            raise SetupError("bad_value", f"{value!r}: a check box sends true or false", where)
        return value
    if kind == "choices":
        if not isinstance(value, list):
            raise SetupError("bad_value", f"{value!r}: check boxes send a list", where)
        return [_text(v, where) for v in value] or _BLANK
    if kind == "tile":
        if not isinstance(value, list) or len(value) != 2:
            raise SetupError("bad_value", f"{value!r}: a tile is [x, y]", where)
        x, y = (_text(v, where) for v in value)
        if not x and not y:
            return _BLANK
        return [_yaml(x, where), _yaml(y, where)]
    if kind == "items":
        if not isinstance(value, list):
            raise SetupError("bad_value", f"{value!r}: item rows are a list", where)
        rows = [_item(v, f"{where}[{i}]") for i, v in enumerate(value)]
        return [row for row in rows if row is not _BLANK] or _BLANK
    if kind == "item":
        return _item(value, where)
    if kind == "yaml" and not isinstance(value, str):
        return value  # JSON data is what a file could hold (a field the schema lacks)
    text = _text(value, where)
    if not text:
        return _BLANK
    if kind == "choice":  # the choice itself: `hands: 2` is the number 2
        return next((c for c in field["choices"] if str(c) == text), text)
    if kind == "text":
        return text  # as typed: a name "007" stays text
    if kind == "list":
        return [part.strip() for part in text.split(",") if part.strip()] or _BLANK
    return _yaml(text, where)  # int, yaml and any field the schema lacks: as a file reads it


def _entries(given: Any, fields: Fields, where: str) -> dict[str, Any]:
    if not isinstance(given, dict):
        raise SetupError("bad_value", f"{where or 'the setup'} is a mapping of fields", where)
    out = {}
    for name, value in given.items():
        path = f"{where}.{name}" if where else name
        converted = _value(fields.get(name, {}), value, path)
        if converted is not _BLANK:
            out[name] = converted
    return out


def document(form: dict[str, Any]) -> dict[str, Any]:
    """The encounter document (what a file holds) of the setup form's data:
    ``{"ruleset", "options", "seed", "map": {"width", "height"}, "combatants": [...]}``.

    Raises:
        SetupError: a value the form could not have sent, or text that is not YAML.
    """
    ruleset = _text(form.get("ruleset", ""), "ruleset")
    controls = _controls(ruleset)
    doc: dict[str, Any] = {"ruleset": ruleset}
    options = _entries(form.get("options", {}), controls["options"], "options")
    if options:
        doc["options"] = options
    seed = _value({"kind": "int"}, form.get("seed", ""), "seed")
    if seed is not _BLANK:
        doc["seed"] = seed
    size = _entries(form.get("map", {}), {"width": _INT, "height": _INT}, "map")
    if size:
        doc["map"] = size
    combatants = form.get("combatants", [])
    if not isinstance(combatants, list) or len(combatants) > MAX_COMBATANTS:
        raise SetupError(
            "bad_value", f"combatants: a list of at most {MAX_COMBATANTS}", "combatants"
        )
    doc["combatants"] = [
        combatant(ruleset, c, f"combatants[{i}]", controls) for i, c in enumerate(combatants)
    ]
    return doc


def combatant(
    ruleset: str, given: Any, where: str, controls: dict[str, Fields] | None = None
) -> dict[str, Any]:
    """One combatant's sheet form (``{field: control's value}``, as the setup page and
    the game master's page send it) as the entry a file's ``combatants:`` holds, which
    the file loader (a setup) and the ``add`` action (mid-fight) then check. ``where``:
    its path in errors (``combatants[1]``, ``combatant``).

    Raises:
        SetupError: a value the form could not have sent, or text that is not YAML.
    """
    fields = (controls or _controls(ruleset))["combatant"]
    return _entries(given, fields, where)


def _flow(value: Any) -> str:
    """``value`` as one line of YAML, as a control reads it back."""
    return str(yaml.safe_dump([value], default_flow_style=True, width=10**6).strip()[1:-1])


def _row(value: Any) -> dict[str, str]:
    """A file's item (``pistol``, ``{is: pistol, loaded: 6}``) as an item row."""
    if not isinstance(value, dict):
        return {"is": str(value), "more": ""}
    more = ", ".join(f"{_flow(k)}: {_flow(v)}" for k, v in value.items() if k != "is")
    return {"is": str(value.get("is", "")), "more": more}


def form_values(ruleset: str, entry: dict[str, Any]) -> dict[str, Any]:
    """A file's combatant entry as the sheet form's controls hold it (what
    :func:`combatant` reads back): the setup page fills its form with a CSV roster's
    combatants (issue 36) and sends them as any other."""
    fields = _controls(ruleset)["combatant"]
    out: dict[str, Any] = {}
    for name, value in entry.items():
        kind = fields.get(name, {}).get("kind", "yaml")
        if kind == "bool":
            out[name] = value
        elif kind in ("choices", "tile"):
            out[name] = [str(v) for v in value]
        elif kind in ("item", "items"):
            out[name] = _row(value) if kind == "item" else [_row(v) for v in value]
        elif kind == "list":
            out[name] = ", ".join(str(v) for v in value)
        else:
            out[name] = value if isinstance(value, str) and kind != "yaml" else _flow(value)
    return out


def sheet_form(ruleset: str) -> dict[str, Any]:
    """The combatant-sheet form of ruleset ``ruleset`` (its canonical name), as
    :func:`ruleset_forms` gives it: ``core``, ``sheet``, ``shorthands``, ..."""
    for form in ruleset_forms():
        if form["name"] == ruleset:
            return form
    raise SetupError("unknown_ruleset", f"no ruleset {ruleset!r}")


def _source(name: str) -> str:
    return f"{name or 'setup'}.yaml"


def loaded(form: dict[str, Any]) -> tuple[str, str]:
    """The setup's name and its encounter file's text, checked by the file loader.

    Raises:
        SetupError: a bad name, or a value no file could hold.
        FileError: what the loader refuses, as it refuses a file.
    """
    name = _text(form.get("name", ""), "name")
    if name and not NAME_PATTERN.match(name):
        raise SetupError(
            "bad_name", f"encounter name {name!r} must match [a-z0-9][a-z0-9_-]*", "name"
        )
    doc = document(form)
    text = "# set up on the page of `fracas serve`\n" + yaml.safe_dump(
        doc, sort_keys=False, allow_unicode=True, width=100, default_flow_style=None
    )
    check_file(text, _source(name))
    return name, text


def export_text(tables: TableService, name: str) -> str:
    """Stored encounter ``name`` as an encounter file that ``fracas run`` replays."""
    data = thaw(tables.open(name).export())
    return yaml.safe_dump(data, sort_keys=False, allow_unicode=True, width=100)


# --- the routes ---------------------------------------------------------------------


Endpoint = Callable[[Request], Awaitable[Response]]


def setup_routes(
    tables: TableService,
    links: Links,
    key: SetupKey,
    gm_tokens: dict[str, str],
    page: Callable[[str], Response],
) -> list[Route]:
    """The setup page's routes. ``gm_tokens``: the game master's token of each
    encounter this process has minted one for (opening it again gives the same link,
    so a game master's open page keeps working); ``page`` serves a static file. The API
    routes raise their refusals: the app answers them (:mod:`fracas.web.refusal`'s
    handler, which :func:`fracas.web.app.create_app` registers)."""
    lock = threading.Lock()

    def keyed(fn: Endpoint) -> Endpoint:
        """An API route behind the setup key (``bad_token`` without it; every refusal
        answered by the app's handler, :mod:`fracas.web.refusal`, its field named)."""

        async def run(request: Request) -> Response:
            key.check(bearer(request))
            return await fn(request)

        return run

    async def form_of(request: Request) -> dict[str, Any]:
        raw = await request.body()  # at most MAX_SETUP bytes: the guard stops the rest
        return json_object(raw, SetupError, deepest=MAX_DEPTH, too_deep="too_large")

    def gm_link(name: str) -> str:
        with lock:
            token = gm_tokens.get(name)
            if token is None:
                token = gm_tokens[name] = links.gm(name, renew=False)
        return f"/t/{token}"

    async def setup_page(request: Request) -> Response:
        try:
            key.check(request.path_params["token"])
        except SetupError as exc:
            return Response(f"{exc.message}\n", status_code=403, media_type="text/plain")
        response = page("setup.html")
        # The forms (about 0.2 s of CPU) derived once the page is sent, while the browser
        # loads its script, rather than at every start of `fracas serve` whether the
        # setup page is opened or not; the page's ask for them waits for that.
        response.background = BackgroundTask(ruleset_forms)
        return response

    async def rulesets(request: Request) -> Response:
        return JSONResponse(ruleset_forms())

    async def encounters(request: Request) -> Response:
        return JSONResponse(
            [
                {"name": i.name, "ruleset": i.ruleset, "records": i.records, "updated": i.updated}
                for i in tables.list()
            ]
        )

    async def check(request: Request) -> Response:
        loaded(await form_of(request))
        return JSONResponse({"ok": True})

    async def roster(request: Request) -> Response:
        """``{"ruleset", "text", "source"?, "map"?}``: a CSV roster's combatants as the
        form holds them. ``map`` (``{column: field}``, ``"-"``: leave it out) is the
        page's answer to a column that names no field. A refusal is raised as any other
        route's: the app's handler answers ``bad_roster`` with its every bad cell
        (``cells``: row, column, code, message; a column naming no field is row 1's
        ``unknown_column``, which the page offers to map)."""
        form = await form_of(request)
        ruleset, source = form.get("ruleset"), form.get("source") or "roster.csv"
        text, mapping = form.get("text"), form.get("map") or {}
        if not isinstance(text, str) or not isinstance(ruleset, str) or not isinstance(source, str):
            raise SetupError("bad_value", "send {ruleset, text}: the CSV file's text", "roster")
        if not isinstance(mapping, dict) or not all(isinstance(v, str) for v in mapping.values()):
            raise SetupError("bad_value", "map: {column: field}", "roster")
        # each row checked by the file loader: off the event loop, as the pages go on
        made = await anyio.to_thread.run_sync(
            functools.partial(tables.roster, text, source, ruleset=ruleset, mapping=mapping)
        )
        name = made.document["ruleset"]
        return JSONResponse(
            {
                "ruleset": name,
                "columns": made.columns,
                "combatants": [form_values(name, c) for c in made.combatants],
            }
        )

    async def start(request: Request) -> Response:
        name, text = loaded(await form_of(request))
        try:
            table = tables.create(text, _source(name), name=name or None)
        except StoreError as exc:
            raise SetupError(exc.code, exc.message, "name") from None
        add_player_links(links, table)  # one per player-side combatant; the GM's page edits them
        return JSONResponse({"name": table.name, "gm": gm_link(table.name)})

    async def open_one(request: Request) -> Response:
        name = (await form_of(request)).get("name")
        if not isinstance(name, str) or name not in tables.names():
            raise SetupError("unknown_encounter", f"no stored encounter {name!r}")
        tables.open(name)  # it must still replay before a link is handed out
        return JSONResponse({"name": name, "gm": gm_link(name)})

    async def download(request: Request) -> Response:
        name = request.path_params["name"]
        if name not in tables.names():
            raise SetupError("unknown_encounter", f"no stored encounter {name!r}")
        return Response(
            export_text(tables, name),
            media_type="application/yaml",
            headers={"Content-Disposition": f'attachment; filename="{name}.yaml"'},
        )

    return [
        Route("/setup/{token}", setup_page),
        Route("/api/setup/rulesets", keyed(rulesets)),
        Route("/api/setup/encounters", keyed(encounters)),
        Route("/api/setup/check", keyed(check), methods=["POST"]),
        Route("/api/setup/roster", keyed(roster), methods=["POST"]),
        Route("/api/setup/start", keyed(start), methods=["POST"]),
        Route("/api/setup/open", keyed(open_one), methods=["POST"]),
        Route("/api/setup/export/{name}", keyed(download)),
    ]
