#!/usr/bin/python3
"""The command of readout/cover_letter.py (its usage there, or: scripts/cover_letter.py -h)."""
import sys

from readout import cover_letter

sys.exit(cover_letter.cli())
