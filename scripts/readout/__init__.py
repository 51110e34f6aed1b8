"""The Python the lab's shell calls: it parses what ran, keeps the records, does the statistics and
writes the tables. The shell calls it one way, scripts/readout.py SUBCOMMAND ... (cli.py: each
subcommand a module of the package, whose main(argv, prog) it runs); the module's unit tests are beside
it, test_MODULE.py (tests/unit/python_tests.sh runs them: python3 -m readout.test_MODULE in
scripts/). The package calls no shell: calls go one way, shell -> Python."""
import os

LAB_ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
