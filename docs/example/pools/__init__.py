"""pools: opposed d6 pools, the example system of docs/writing-a-ruleset.md."""

from pools.rules import Pools as Pools
