#!/usr/bin/python3
"""The command of readout/regress_results.py (its usage there, or: scripts/regress_results.py -h)."""
import sys

from readout import regress_results

sys.exit(regress_results.cli())
