#!/usr/bin/python3
"""The command of readout/records.py (its usage there, or: scripts/records.py -h)."""
import sys

from readout import records

sys.exit(records.cli())
