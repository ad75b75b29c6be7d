"""fracas: dice combat with the rules automated.

Rules are pure code over a dice source: a ruleset reads the encounter state and
an action, asks a dice object for every roll and returns events. The same code
serves live play, physical dice, replay and exact odds.
"""

__docformat__ = "google"
__version__ = "0.1.0"
