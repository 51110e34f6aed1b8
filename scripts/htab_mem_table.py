#!/usr/bin/python3
"""The command of readout/htab_mem_table.py (its usage there, or: scripts/htab_mem_table.py -h)."""
import sys

from readout import htab_mem_table

sys.exit(htab_mem_table.cli())
