"""Tests of the odds layer (fracas/odds): an action's odds, outcomes, folds, choices."""
