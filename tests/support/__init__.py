"""Test builders shared by the test modules, imported as `from tests.support.X import ...`.

pytest puts the repository root on sys.path (`pythonpath` in pyproject.toml), so no test edits
sys.path; fixtures stay in tests/conftest.py, where pytest looks for them.
"""
