#!/usr/bin/python3
"""The command of readout/spread.py (its usage there, or: scripts/spread.py -h)."""
import sys

from readout import spread

sys.exit(spread.cli())
