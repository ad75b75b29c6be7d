"""Tests of the engine layer (fracas/engine): catalogue, checking, play, table actions."""
