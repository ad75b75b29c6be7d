"""Tests of the words layer (fracas/words): the log and odds in words, the rules' text."""
