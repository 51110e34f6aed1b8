#!/usr/bin/python3
"""The command of readout/nmi_results.py (its usage there, or: scripts/nmi_results.py -h)."""
import sys

from readout import nmi_results

sys.exit(nmi_results.cli())
