"""The wasteland ruleset (seed 002; wasteland.md, issue 4)."""

from fracas.rulesets.wasteland.rules import Wasteland

__all__ = ["Wasteland"]
