#!/usr/bin/python3
"""The command of readout/benchout.py (its usage there, or: scripts/benchout.py -h)."""
import sys

from readout import benchout

sys.exit(benchout.cli())
