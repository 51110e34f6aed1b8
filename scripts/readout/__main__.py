"""python3 -m readout SUBCOMMAND ARG... (from scripts/): the same as scripts/readout.py."""
import sys

from readout import cli

sys.exit(cli.main())
