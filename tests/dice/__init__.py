"""Unit tests of the dice layer: sources, the exact enumerator, the notation."""
