"""Puts tests/ on sys.path, for ``import peers``: tests/peers.py is the one definition of
the card notation (masks, counts, text) and of the conversions to the peers' cards
(DouZero's ints, RLCard's strings and Card objects, OpenSpiel's strings and ids), which
the benchmarks share with the differential tests. Imported for that effect by the bench
modules that import peers, so they work run as scripts, imported by one, or collected by
pytest (whose pythonpath, set in pyproject.toml, holds tests/ already)."""
import os
import sys

TESTS = os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))), "tests")
if TESTS not in sys.path:
    sys.path.insert(0, TESTS)
