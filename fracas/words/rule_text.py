"""The project's own short statement of every rule ID: ``fracas rules RULESET RULE_ID``.

Each ruleset package carries ``rule_text.yaml``, mapping every rule ID of our reading
(numbered rules, procedures, gaps, ambiguities) to ``{section, text}``: the heading
the rule stands under and one or two sentences in our own words. The full reading
lives in the shared ``rules/`` folder beside the project when it is present; nothing
here reads it.
"""

from __future__ import annotations

import importlib.resources
import re
import sys
from dataclasses import dataclass
from functools import cache
from typing import Any

import yaml

from fracas.errors import FracasError, UnknownRuleError
from fracas.rulesets import Ruleset, find_ruleset

__all__ = ["RULE_ID", "RuleText", "compress_ids", "find_rule", "rule_texts"]

RULE_TEXT_FILE = "rule_text.yaml"

RULE_ID = re.compile(r"^(?P<prefix>(?:P-)?[A-Z]+-[A-Z]?)(?P<number>\d+)$")
"""A rule ID: ``DC-29``, ``DC-G14``, ``WL-A11``, ``P-TD-3``, ``ES-0``."""


@dataclass(frozen=True, slots=True)
class RuleText:
    """One rule's short statement."""

    id: str
    ruleset: str
    section: str
    text: str

    def line(self) -> str:
        """``DC-29 (Explosives): text``."""
        return f"{self.id} ({self.section}): {self.text}"

    def as_json(self) -> dict[str, str]:
        return {"id": self.id, "ruleset": self.ruleset, "section": self.section, "text": self.text}


def _package_of(ruleset: type[Ruleset]) -> str | None:
    """The package holding the rule text of ``ruleset``: its own, else the nearest base
    class's (a ruleset derived from another plays, and cites, the base's rules)."""
    for cls in ruleset.__mro__:
        if cls is Ruleset or not (isinstance(cls, type) and issubclass(cls, Ruleset)):
            continue
        module = sys.modules.get(cls.__module__)
        package = getattr(module, "__package__", None) or ""
        if not package or package == "fracas.rulesets":
            continue
        try:
            if importlib.resources.files(package).joinpath(RULE_TEXT_FILE).is_file():
                return package
        except (ModuleNotFoundError, TypeError):
            continue
    return None


def _bad(package: str, message: str) -> FracasError:
    return FracasError("bad_rule_text", f"{package}/{RULE_TEXT_FILE}: {message}")


@cache
def _load(package: str) -> dict[str, tuple[str, str]]:
    """ID -> (section, text), in file order, checked."""
    raw: Any = yaml.safe_load(
        importlib.resources.files(package).joinpath(RULE_TEXT_FILE).read_text(encoding="utf-8")
    )
    if not isinstance(raw, dict) or not raw:
        raise _bad(package, "expected a mapping of rule IDs")
    out: dict[str, tuple[str, str]] = {}
    for key, entry in raw.items():
        if not isinstance(key, str) or not RULE_ID.match(key):
            raise _bad(package, f"{key!r} is not a rule ID like 'DC-29' or 'P-DC-1'")
        if not isinstance(entry, dict) or set(entry) != {"section", "text"}:
            raise _bad(package, f"{key}: expected exactly 'section' and 'text'")
        section, text = entry["section"], entry["text"]
        if not (isinstance(section, str) and section.strip()):
            raise _bad(package, f"{key}: 'section' must be non-empty text")
        if not (isinstance(text, str) and text.strip()):
            raise _bad(package, f"{key}: 'text' must be non-empty text")
        out[key] = (" ".join(section.split()), " ".join(text.split()))
    return out


def rule_texts(ruleset: str) -> dict[str, RuleText]:
    """Every rule statement of ``ruleset`` (a name or alias), by ID, in file order.

    Raises:
        UnknownRulesetError: ``unknown_ruleset``.
        FracasError: ``no_rule_text`` when the ruleset carries none.
    """
    cls = find_ruleset(ruleset)
    package = _package_of(cls)
    if package is None:
        raise FracasError("no_rule_text", f"{cls.about.name!r} carries no {RULE_TEXT_FILE}")
    return {
        rid: RuleText(rid, cls.about.name, section, text)
        for rid, (section, text) in _load(package).items()
    }


def compress_ids(ids: list[str]) -> str:
    """``DC-1..DC-44, DC-G1..DC-G14, P-DC-1..P-DC-5``: one run per prefix and gap-free
    stretch, prefixes in order of first appearance."""
    groups: dict[str, list[int]] = {}
    for rid in ids:
        m = RULE_ID.match(rid)
        if m is None:
            groups.setdefault(rid, [])
            continue
        groups.setdefault(m["prefix"], []).append(int(m["number"]))
    parts: list[str] = []
    for prefix, numbers in groups.items():
        if not numbers:
            parts.append(prefix)
            continue
        ordered = sorted(set(numbers))
        start = prev = ordered[0]
        for n in [*ordered[1:], None]:
            if n is not None and n == prev + 1:
                prev = n
                continue
            parts.append(
                f"{prefix}{start}" if start == prev else f"{prefix}{start}..{prefix}{prev}"
            )
            if n is not None:
                start = prev = n
    return ", ".join(parts)


def find_rule(ruleset: str, rule_id: str) -> RuleText:
    """The statement of ``rule_id`` (any case: ``dc-29``) in ``ruleset``.

    Raises:
        UnknownRuleError: ``unknown_rule``, listing the valid IDs compressed to ranges.
    """
    texts = rule_texts(ruleset)
    key = rule_id.strip().upper()
    if key in texts:
        return texts[key]
    name = next(iter(texts.values())).ruleset
    raise UnknownRuleError(
        "unknown_rule",
        f"{rule_id!r} is not a rule of {name}; valid: {compress_ids(list(texts))}",
    )
