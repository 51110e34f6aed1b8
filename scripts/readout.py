#!/usr/bin/python3
"""The lab's one Python command: scripts/readout.py SUBCOMMAND ARG... (readout/cli.py; -h lists them)."""
import sys

from readout import cli

sys.exit(cli.main())
