"""Tests of the io layer (fracas/io): encounter files (the store's are in tests/store)."""
