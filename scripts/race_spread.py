#!/usr/bin/python3
"""The command of readout/race_spread.py (its usage there, or: scripts/race_spread.py -h)."""
import sys

from readout import race_spread

sys.exit(race_spread.cli())
