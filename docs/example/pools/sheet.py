"""pools' sheet fields and options: frozen dataclasses, validated by pydantic."""

from dataclasses import dataclass
from typing import Annotated

from pydantic import ConfigDict, Field

from pools.data import ATTACK_POOL, DEFENCE_POOL, MAX_POOL, SUCCESS_ON

DOCS = ConfigDict(extra="forbid", use_attribute_docstrings=True)  # `fracas rules` shows them


@dataclass(frozen=True, slots=True)
class Sheet:
    """A combatant's two pools, beyond the shared id/name/side/at/hp/max_hp (PO-1)."""

    __pydantic_config__ = DOCS
    attack: Annotated[int, Field(ge=1, le=MAX_POOL)] = ATTACK_POOL
    """d6 rolled to attack (PO-2)."""
    defence: Annotated[int, Field(ge=0, le=MAX_POOL)] = DEFENCE_POOL
    """d6 rolled against an attack (PO-2)."""


@dataclass(frozen=True, slots=True)
class Options:
    """One field per option, with its default."""

    __pydantic_config__ = DOCS
    success_on: Annotated[int, Field(ge=2, le=6)] = SUCCESS_ON
    """A die showing this or more is a success (PO-2)."""
