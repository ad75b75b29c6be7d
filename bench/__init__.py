"""Benchmarks, run by hand (each script says how); a package so that the tests can
import the odds cases (``bench.odds_cases``)."""
