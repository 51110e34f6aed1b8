"""The Python the lab's shell calls: it parses what ran, keeps the records, does the statistics and
writes the tables. Each module has a thin entry script of the same name in scripts/ (records.py,
matrix.py, findings.py, benchout.py, ...), which the shell calls; the module's unit tests are beside
it, test_MODULE.py (tests/unit/python_tests.sh runs them: python3 -m readout.test_MODULE in
scripts/). The package calls no shell: calls go one way, shell -> Python."""
import os

LAB_ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
