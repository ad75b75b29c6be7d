"""The fracas command line with the docs' example ruleset, pools, registered:
``python docs/example/fracas_pools.py odds docs/example/pools/duel.yaml``."""

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from fracas.main import main
from fracas.rulesets import registered
from pools.rules import Pools

if __name__ == "__main__":
    with registered(Pools):
        main()
