"""Tests of the model layer (fracas/model): frozen values, the grid, the state."""
