#!/usr/bin/python3
"""The command of readout/stats.py (its usage there, or: scripts/stats.py -h)."""
import sys

from readout import stats

sys.exit(stats.cli())
