"""Prompt values read as YAML 1.2 core scalars (not PyYAML's YAML 1.1): ``on``, ``yes``,
``no`` and ``off`` stay text, ``010`` is ten and ``1:30`` is text; ints, floats,
``true``/``false``, quoted strings and flow lists and mappings read as YAML does.

>>> [scalar(t) for t in ("17", "+2", "on", "yes", "010", "1:30", "true", '"17"', "[a, b]")]
[17, 2, 'on', 'yes', 10, '1:30', True, '17', ['a', 'b']]
"""

from __future__ import annotations

import re
from typing import Any

import yaml

__all__ = ["scalar"]


class _Yaml12(yaml.SafeLoader):
    """YAML with the 1.2 core schema's scalars: ``on``, ``yes``, ``no``, ``010`` and
    ``1:30`` are what they say (text, text, text, ten, text), not YAML 1.1's booleans,
    octal and sexagesimal numbers."""

    yaml_implicit_resolvers: dict[Any, Any] = {}  # noqa: RUF012 (pyyaml's class registry)


for _tag, _pattern, _first in (
    ("null", r"^(?:~|null|Null|NULL|)$", ["~", "n", "N", ""]),
    ("bool", r"^(?:true|True|TRUE|false|False|FALSE)$", list("tTfF")),
    ("int", r"^(?:[-+]?[0-9]+|0o[0-7]+|0x[0-9a-fA-F]+)$", list("-+0123456789")),
    (
        "float",
        r"^(?:[-+]?(?:\.[0-9]+|[0-9]+(?:\.[0-9]*)?)(?:[eE][-+]?[0-9]+)?"
        r"|[-+]?\.(?:inf|Inf|INF)|\.(?:nan|NaN|NAN))$",
        list("-+.0123456789"),
    ),
):
    _Yaml12.add_implicit_resolver(f"tag:yaml.org,2002:{_tag}", re.compile(_pattern), _first)


def _int12(loader: yaml.SafeLoader, node: yaml.ScalarNode) -> int:
    text = str(loader.construct_scalar(node))
    if text.startswith(("0o", "0x")):
        return int(text[2:], 8 if text[1] == "o" else 16)
    return int(text)


_Yaml12.add_constructor("tag:yaml.org,2002:int", _int12)


def scalar(text: str) -> Any:
    """A prompt value read as YAML 1.2 core: ``17`` an int, ``true`` a bool, ``[a, b]`` a
    list, ``{k: v}`` a mapping, ``"on"`` and ``on`` text; what does not parse is text."""
    try:
        value = yaml.load(text, Loader=_Yaml12)  # a SafeLoader
    except yaml.YAMLError:
        return text
    return text if value is None else value
