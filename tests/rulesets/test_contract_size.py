"""What a ruleset author meets (issue 24): the members of ``Ruleset`` an author sets,
reads or overrides, plus the presenter's hooks, at most 16; every shipped ruleset
overrides only those. Data fields of ``About``, ``Contract`` and the specs do not count."""

from __future__ import annotations

import pytest

from fracas.rulesets import RULESETS
from fracas.rulesets.base import Presenter, Ruleset, TypedRuleset

RULESET_MEMBERS = [
    "about",
    "contract",
    "initial_values",
    "initiative",
    "move",
    "options",
    "order_after_set",
    "param_choices",
    "settle",
    "turn_end",
    "turn_start",
]
PRESENTER_HOOKS = ["fields", "gear", "item_words", "ranges", "sheet_json"]


def _public(cls: type) -> set[str]:
    return {n for n in (*vars(cls), *vars(cls).get("__annotations__", {})) if n[0] != "_"}


def test_an_author_meets_at_most_16_members() -> None:
    ruleset = sorted(_public(Ruleset) | _public(TypedRuleset))
    presenter = sorted(_public(Presenter))
    assert ruleset == RULESET_MEMBERS
    assert presenter == PRESENTER_HOOKS
    assert len(ruleset) + len(presenter) == 16


@pytest.mark.parametrize("ruleset", RULESETS, ids=lambda r: r.about.name)
def test_a_ruleset_overrides_only_the_hooks(ruleset: type[Ruleset]) -> None:
    assert _public(ruleset) <= {*RULESET_MEMBERS}, ruleset.about.name
    presenter = ruleset.contract.presenter
    assert _public(presenter) <= {*PRESENTER_HOOKS}, presenter.__name__
