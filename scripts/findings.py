#!/usr/bin/python3
"""The command of readout/findings.py (its usage there, or: scripts/findings.py -h)."""
import sys

from readout import findings

sys.exit(findings.cli())
