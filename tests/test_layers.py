"""The import rules (docs/ARCHITECTURE.md): no import runs up the layers (errors, dice,
model, rulesets, engine, odds, io, lab, table, words, faces); the faces (``fracas/cli``,
``fracas/play``, ``fracas/web``) import from fracas only the table service, the
catalogue, errors, words, the store opener, the rulesets' registry and the values the
table speaks in; never the engine, the odds, the validator or another face. And no
module of ``fracas`` imports, at run time, one that imports it back."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

ROOT = Path(__file__).parent.parent / "fracas"
FACES = ("cli", "play", "web")

ALLOWED = (
    "fracas.table",
    "fracas.engine.catalogue",
    "fracas.errors",
    "fracas.words",
    "fracas.io.store",
    "fracas.rulesets",
    "fracas.model",
    "fracas.lab",
)
"""What a face may import of fracas (its own package aside). ``fracas.lab`` is the
balance service, under ``fracas lab``'s commands as the table is under play."""
FORBIDDEN = (
    "fracas.engine",
    "fracas.odds",
    "fracas.model.validation",
    "fracas.io.files",
    "fracas.dice",
)
"""What no face imports, within or beside what it may (the engine but its catalogue;
the model but its validator)."""


def _may_import(name: str) -> bool:
    """Whether a face may import ``name``: allowed, and not forbidden unless allowed by
    a longer (more precise) entry."""

    def longest(entries: tuple[str, ...]) -> int:
        return max((len(e) for e in entries if name == e or name.startswith(e + ".")), default=-1)

    return longest(ALLOWED) > longest(FORBIDDEN)


def _module(path: Path) -> str:
    parts = path.relative_to(ROOT.parent).with_suffix("").parts
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def _imports(path: Path, runtime_only: bool) -> list[str]:
    """The fracas modules ``path`` imports (``runtime_only``: not those imported only for
    type checking)."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    skip: set[int] = set()
    if runtime_only:
        for node in ast.walk(tree):
            if isinstance(node, ast.If) and "TYPE_CHECKING" in ast.unparse(node.test):
                skip |= {id(n) for n in ast.walk(node)}
    out: list[str] = []
    for node in ast.walk(tree):
        if id(node) in skip:
            continue
        if isinstance(node, ast.Import):
            out += [a.name for a in node.names if a.name.startswith("fracas")]
        elif isinstance(node, ast.ImportFrom) and (node.module or "").startswith("fracas"):
            assert node.module is not None
            if node.module == "fracas":  # `from fracas import table`
                out += [f"fracas.{a.name}" for a in node.names]
            else:
                out.append(node.module)
    return out


def _violations() -> list[str]:
    found = []
    for face in FACES:
        own = f"fracas.{face}"
        for path in sorted((ROOT / face).rglob("*.py")):
            for name in _imports(path, runtime_only=False):
                if name == own or name.startswith(own + "."):
                    continue
                other_face = any(name.startswith(f"fracas.{f}") for f in FACES)
                if other_face or not _may_import(name):
                    found.append(f"{path.relative_to(ROOT.parent)} imports {name}")
    return found


def test_faces_import_only_the_table_service_and_what_it_speaks_in() -> None:
    assert _violations() == []


@pytest.mark.parametrize("name", FORBIDDEN)
def test_the_rule_names_what_no_face_may_import(name: str) -> None:
    assert not _may_import(name)
    assert not _may_import(f"{name}.anything")


def test_no_import_cycle_at_run_time() -> None:
    graph: dict[str, set[str]] = {}
    for path in ROOT.rglob("*.py"):
        graph[_module(path)] = set(_imports(path, runtime_only=True))
    # a module's import of a package runs the package's __init__ too
    for deps in graph.values():
        for dep in list(deps):
            parts = dep.split(".")
            deps.update(".".join(parts[:i]) for i in range(2, len(parts)))
    cycles: list[list[str]] = []
    state: dict[str, int] = {}

    def visit(node: str, path: list[str]) -> None:
        state[node] = 1
        for dep in sorted(graph.get(node, ())):
            if dep not in graph or dep == node or dep.startswith(node + "."):
                continue  # a package importing its own modules is how packages work
            if node.startswith(dep + "."):
                continue  # nor is a module importing through its own package
            if state.get(dep) == 1:
                cycles.append([*path[path.index(dep) :], dep] if dep in path else [node, dep])
            elif dep not in state:
                visit(dep, [*path, dep])
        state[node] = 2

    for node in sorted(graph):
        if node not in state:
            visit(node, [node])
    assert cycles == []


def test_faces_never_touch_the_tables_insides() -> None:
    """No face reaches for a table's lock, engine or private state, nor sets what it
    holds (the seq, the dice mode, a pending die)."""
    found = []
    for face in FACES:
        for path in sorted((ROOT / face).rglob("*.py")):
            text = path.read_text(encoding="utf-8")
            for needle in ("table._", "session._", ".engine", ".pending =", ".physical ="):
                # the engine's catalogue by its module's name is not a table's engine
                if needle in text.replace("fracas.engine.", "fracas.ENGINE."):
                    found.append(f"{path.relative_to(ROOT.parent)}: {needle}")
    assert found == []


RULESET_PACKAGES = sorted(
    p.name for p in (ROOT / "rulesets").iterdir() if (p / "__init__.py").is_file()
)
"""The rule systems' own packages (``fracas/rulesets/dice_combat``, ...)."""


def test_nothing_outside_the_rulesets_names_a_ruleset() -> None:
    """One ruleset = one package, found through the registry (issue 33): no module of
    fracas outside ``fracas/rulesets`` imports a ruleset's package, names its class or
    compares against its name; a difference between rule systems is the ruleset's own
    hook (the lab's chain key is ``Ruleset.chain_key``)."""
    from fracas.rulesets import RULESETS

    assert RULESET_PACKAGES  # the scan sees the packages
    packages = tuple(f"fracas.rulesets.{p}" for p in RULESET_PACKAGES)
    classes = {r.__name__ for r in RULESETS}
    names = {r.about.name for r in RULESETS}
    found = []
    for path in sorted(ROOT.rglob("*.py")):
        if path.is_relative_to(ROOT / "rulesets"):
            continue
        where = path.relative_to(ROOT.parent)
        found += [
            f"{where} imports {n}"
            for n in _imports(path, runtime_only=False)
            if n.startswith(packages)
        ]
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.Name | ast.Attribute) and (
                getattr(node, "id", None) in classes or getattr(node, "attr", None) in classes
            ):
                found.append(f"{where}:{node.lineno} names a ruleset's class")
            if isinstance(node, ast.Compare):
                for side in (node.left, *node.comparators):
                    if isinstance(side, ast.Constant) and side.value in names:
                        found.append(f"{where}:{node.lineno} compares with {side.value!r}")
    assert found == []


LAYERS: tuple[tuple[str, tuple[str, ...]], ...] = (
    ("errors", ("fracas.errors",)),
    ("dice", ("fracas.dice",)),
    ("model", ("fracas.model",)),
    ("rulesets", ("fracas.rulesets",)),
    ("engine", ("fracas.engine",)),
    ("odds", ("fracas.odds",)),
    ("io", ("fracas.io",)),
    ("lab", ("fracas.lab",)),
    ("table", ("fracas.table",)),
    ("words", ("fracas.words",)),
    ("faces", ("fracas.cli", "fracas.play", "fracas.web", "fracas.main", "fracas.__main__")),
)
"""docs/ARCHITECTURE.md's layers, bottom up: each imports, at run time, only its own
and those below it (issue 33). The package ``fracas`` itself (its version) is below all."""

TOP = {"__init__.py", "__main__.py", "errors.py", "main.py", "py.typed"}
"""What the top of ``fracas/`` keeps: what a reader needs first."""


def _layer(name: str) -> int | None:
    best: tuple[int, int] | None = None
    for i, (_, prefixes) in enumerate(LAYERS):
        for prefix in prefixes:
            if (name == prefix or name.startswith(prefix + ".")) and (
                best is None or len(prefix) > best[1]
            ):
                best = (i, len(prefix))
    return None if best is None else best[0]


def test_every_module_is_in_a_layer_and_the_top_keeps_only_the_entry_points() -> None:
    loose = sorted(p.name for p in ROOT.iterdir() if p.is_file() and p.name not in TOP and p.suffix)
    assert loose == []
    unplaced = [
        _module(p)
        for p in sorted(ROOT.rglob("*.py"))
        if _module(p) != "fracas" and _layer(_module(p)) is None
    ]
    assert unplaced == []


def test_no_import_runs_up_the_layers() -> None:
    """Type-only imports aside, no module imports one of a layer above its own."""
    found = []
    for path in sorted(ROOT.rglob("*.py")):
        me = _layer(_module(path))
        if me is None:
            continue
        for name in _imports(path, runtime_only=True):
            other = _layer(name)
            if other is not None and other > me:
                found.append(
                    f"{path.relative_to(ROOT.parent)} ({LAYERS[me][0]}) imports {name} "
                    f"({LAYERS[other][0]})"
                )
    assert found == []


def test_the_layer_test_sees_an_import_that_runs_up(tmp_path: Path) -> None:
    """The scan reads an up import as one (the test above cannot pass by reading nothing)."""
    path = tmp_path / "m.py"
    path.write_text("from fracas.table import Table\nif TYPE_CHECKING:\n    import fracas.web\n")
    assert _imports(path, runtime_only=True) == ["fracas.table"]
    assert _layer("fracas.table") > _layer("fracas.engine.play")  # type: ignore[operator]
