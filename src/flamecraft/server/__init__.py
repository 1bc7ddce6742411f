"""Flamecraft in the browser: a FastAPI server with a lobby, live tables over WebSocket, bots
on the server and games stored in SQLite or PostgreSQL (``flamecraft serve``; docs/server.md).

Needs the ``web`` extra (``pip install 'flamecraft[web]'``); the rest of the package does not
import this one.
"""

from __future__ import annotations

from .app import create_app, serve
from .settings import Settings

__all__ = ["Settings", "create_app", "serve"]
