"""The command line (``flamecraft ...``, ``python -m flamecraft``): one sub-command each for
play, watch, replay, check, simulate, serve and the research tools."""

from __future__ import annotations

from .main import main

__all__ = ["main"]
