"""Runs pytest on the files given, for ctest: exit 77 (skipped) when numpy
or pytest cannot be imported, else pytest's exit status."""
import sys

try:
    import numpy  # noqa: F401
    import pytest
except ImportError as e:
    print(f"skipped: {e}")
    sys.exit(77)

sys.exit(pytest.main(["-q", "-p", "no:cacheprovider", *sys.argv[1:]]))
