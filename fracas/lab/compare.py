"""The same fight under rule variants, side by side (``fracas lab compare``).

A variant is the file with some options changed (``--set revision=A``), or another
file. Each is solved exactly where the chain can (``win``), else simulated (``sim``);
the difference of each side's win chance to the first variant's is exact where both
are, else judged by a two-proportion z test on the sampled rates.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from fractions import Fraction
from typing import Any

import yaml

from fracas.errors import FracasError
from fracas.io.files import parse_text
from fracas.lab.chain import MAX_STATES, win_odds
from fracas.lab.fight import file_start
from fracas.lab.policy import Policy
from fracas.lab.sim import simulate

__all__ = ["MAX_SWEEP", "Variant", "Verdict", "compare", "sweep", "with_options"]

MAX_SWEEP = 41
"""Values one ``--sweep`` may take."""


@dataclass(frozen=True)
class Variant:
    """One variant: a label and an encounter file's text."""

    label: str
    text: str
    name: str


@dataclass(frozen=True)
class Verdict:
    """One variant's result: each side's win chance, exact or sampled."""

    label: str
    exact: bool
    sides: dict[str, float]
    fractions: dict[str, Fraction]
    """Exact chances (``exact``), empty when sampled."""
    ci95: dict[str, tuple[float, float]]
    n: int
    """Fights sampled (0: exact)."""


def with_options(text: str, name: str, assignments: str) -> Variant:
    """The file ``text`` with options set: ``revision=A`` or ``revision=A,ko_burns=true``
    (each value read as YAML: ``true``, ``3``, ``B``)."""
    data = yaml.safe_load(text)
    if not isinstance(data, dict):
        parse_text(text, name)  # the reader's own message
        raise FracasError("bad_file", f"{name!r} is not a mapping of fields")
    options = dict(data.get("options") or {})
    for part in assignments.split(","):
        key, eq, value = part.partition("=")
        if not eq or not key.strip():
            raise FracasError(
                "bad_value", f"--set {assignments!r}: give OPTION=VALUE (e.g. revision=A)"
            )
        options[key.strip()] = yaml.safe_load(value)
    data["options"] = options
    variant = Variant(assignments, yaml.safe_dump(data, sort_keys=False), f"{name} [{assignments}]")
    parse_text(variant.text, variant.name)  # an unknown option or value fails here
    return variant


def sweep(text: str, name: str, spec: str) -> list[Variant]:
    """One variant per value of ``spec``: ``ID.FIELD=LO..HI`` (a combatant's sheet field;
    ``hp`` sets ``max_hp`` too, the fighter's full HP) or ``OPTION=LO..HI``."""
    field, eq, span = spec.partition("=")
    lo_s, dots, hi_s = span.partition("..")
    try:
        lo, hi = int(lo_s), int(hi_s)
    except ValueError:
        lo = hi = 0
        dots = ""
    if not eq or not dots or not field.strip() or hi < lo or hi - lo + 1 > MAX_SWEEP:
        raise FracasError(
            "bad_value",
            f"--sweep {spec!r}: give ID.FIELD=LO..HI (e.g. bo.hp=4..12) or OPTION=LO..HI, "
            f"integers, LO <= HI, at most {MAX_SWEEP} values",
        )
    data = yaml.safe_load(text)
    if not isinstance(data, dict):
        parse_text(text, name)
        raise FracasError("bad_file", f"{name!r} is not a mapping of fields")
    who, dot, key = field.strip().partition(".")
    out: list[Variant] = []
    for value in range(lo, hi + 1):
        copy = yaml.safe_load(yaml.safe_dump(data))
        if dot:
            entries = [c for c in copy.get("combatants") or [] if isinstance(c, dict)]
            found = [c for c in entries if c.get("id") == who]
            if not found:
                ids = ", ".join(str(c.get("id")) for c in entries)
                raise FracasError(
                    "unknown_combatant", f"--sweep {spec!r}: {who!r} is not a combatant; {ids}"
                )
            found[0][key] = value
            if key == "hp":
                found[0]["max_hp"] = value
        else:
            copy["options"] = {**(copy.get("options") or {}), who: value}
        label = f"{field.strip()}={value}"
        variant = Variant(label, yaml.safe_dump(copy, sort_keys=False), f"{name} [{label}]")
        parse_text(variant.text, variant.name)  # an unknown field or a bad value fails here
        out.append(variant)
    return out


def _verdict(variant: Variant, n: int, seed: int, max_states: int) -> Verdict:
    ef = parse_text(variant.text, variant.name)
    try:
        w = win_odds(
            ef.ruleset, file_start(ef), Policy(ef.ruleset, ef.tactics), max_states=max_states
        )
    except FracasError as exc:
        if exc.code not in ("too_many_states", "too_many_paths"):
            raise
    else:
        return Verdict(
            variant.label,
            True,
            {s: float(p) for s, p in w.sides.items()},
            dict(w.sides),
            {s: (float(p), float(p)) for s, p in w.sides.items()},
            0,
        )
    sim = simulate(variant.text, variant.name, n, seed=seed)
    return Verdict(
        variant.label,
        False,
        {s: sim.win(s) for s in sim.sides},
        {},
        {s: sim.ci95(s) for s in sim.sides},
        sim.n,
    )


def compare(
    variants: list[Variant], *, n: int = 2000, seed: int = 0, max_states: int = MAX_STATES
) -> dict[str, Any]:
    """Each variant's win chances and, for each later variant, the difference to the
    first per side: exact (``"exact": "num/den"``) or with a z test's two-sided p."""
    verdicts = [_verdict(v, n, seed, max_states) for v in variants]
    base = verdicts[0]
    out: dict[str, Any] = {
        "variants": [
            {
                "label": v.label,
                "method": "exact" if v.exact else f"sim ({v.n} fights)",
                "sides": {
                    s: {"win": p, "ci95": list(v.ci95[s])}
                    | ({"exact": _frac(v.fractions[s])} if v.exact else {})
                    for s, p in v.sides.items()
                },
            }
            for v in verdicts
        ],
        "differences": [],
    }
    for v in verdicts[1:]:
        diff: dict[str, Any] = {}
        for side in base.sides:
            d = v.sides.get(side, 0.0) - base.sides[side]
            entry: dict[str, Any] = {"diff": d}
            if v.exact and base.exact:
                exact = v.fractions.get(side, Fraction(0)) - base.fractions[side]
                entry |= {"exact": _frac(exact), "significant": exact != 0}
            else:
                p = _z_test(base, v, side)
                entry |= {"p_value": p, "significant": p < 0.05}
            diff[side] = entry
        out["differences"].append({"label": v.label, "against": base.label, "sides": diff})
    return out


def _z_test(a: Verdict, b: Verdict, side: str) -> float:
    """Two-sided p of a difference of win rates (an exact rate has no variance)."""

    def var(v: Verdict) -> float:
        if v.exact:
            return 0.0
        p = v.sides.get(side, 0.0)
        return p * (1 - p) / v.n

    se = math.sqrt(var(a) + var(b))
    d = b.sides.get(side, 0.0) - a.sides.get(side, 0.0)
    if se == 0:
        return 0.0 if d else 1.0
    return math.erfc(abs(d) / se / math.sqrt(2))


def _frac(p: Fraction) -> str:
    return f"{p.numerator}/{p.denominator}"
