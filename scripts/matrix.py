#!/usr/bin/python3
"""The command of readout/matrix.py (its usage there, or: scripts/matrix.py -h)."""
import sys

from readout import matrix

sys.exit(matrix.cli())
