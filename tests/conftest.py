"""Lets tests import the shared helpers in this folder (helpers.py, fuzz.py), and starts the
slow `build` tests first."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).parent))


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    """The tests marked ``build`` (tests/test_packaging.py: they build and install wheels, the
    compiled one in minutes) run first, so that under ``-n 2`` the other worker runs the rest
    meanwhile instead of the build ending the run alone."""
    items.sort(key=lambda item: item.get_closest_marker("build") is None)
