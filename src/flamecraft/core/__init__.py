"""The rules core: the game's state, its legal decisions, applying one, and what each seat may
see. It knows nothing of terminals, sockets or files; every adapter (the command line, the
terminal and web games, the bots, the research interfaces) imports it, never the reverse.

This package is the set of modules compiled by mypyc when a C compiler is present
(``scripts/compile_core.py``, run by ``make``); the public API is re-exported by
``flamecraft`` itself.

Which form runs is decided here, once, before any core module is imported. The compiled
extensions live in ``flamecraft/_native/`` rather than beside their sources, because CPython
prefers an extension module over a ``.py`` of the same name in the same folder, which would
make the pure form impossible to choose. That folder is put first on this package's
``__path__`` (and on ``flamecraft.ai``'s, for the search modules compiled with it) only if
``FLAMECRAFT_PURE`` is unset and the build's manifest matches the sources byte for byte, so a
stale build never runs edited code's old version. ``FORM`` says which form runs and why, and
for the pure form what to do for the compiled one, as fits how flamecraft was installed: in a
checkout (``CHECKOUT``) ``make`` builds it; an installed wheel has it when pip built the wheel
with a C compiler (``setup.py``), the pure wheel does not.
"""

from __future__ import annotations

import hashlib
import importlib.machinery
import json
import os
from pathlib import Path

NATIVE_DIR = Path(__file__).resolve().parent.parent / "_native"
# What to do for the compiled form, by how flamecraft was installed: a checkout's build is
# ``make``'s (scripts/compile_core.py), an installed wheel's is made by pip from the source.
_RUN_MAKE = "run make"
_REINSTALL = ("for the compiled core, pip install flamecraft from its source with a C "
              "compiler present")


def _checkout(package: Path) -> bool:
    """Whether ``package`` (the ``flamecraft`` folder) is a source checkout's ``src/flamecraft``
    (an editable install, or ``PYTHONPATH=src``), where ``make`` builds the compiled core,
    rather than an installed wheel."""
    root = package.parent.parent
    return package.parent.name == "src" and (root / "scripts" / "compile_core.py").is_file()


def _why_pure() -> str:
    """Why the pure-Python form must run, or "" when the compiled build may; with what to do
    about it, fitting how flamecraft was installed (a checkout or a wheel)."""
    if os.environ.get("FLAMECRAFT_PURE", "") not in ("", "0"):
        return "FLAMECRAFT_PURE is set"
    package = NATIVE_DIR.parent
    checkout = _checkout(package)
    try:
        manifest = json.loads((NATIVE_DIR / "manifest.json").read_text(encoding="utf-8"))
    except (OSError, ValueError):
        if checkout:
            return f"no compiled build ({_RUN_MAKE})"
        return f"no compiled build: the pure wheel was installed; {_REINSTALL}"
    again = _RUN_MAKE if checkout else "reinstall flamecraft"
    if manifest.get("suffix") != importlib.machinery.EXTENSION_SUFFIXES[0]:
        return f"the compiled build is for another Python ({again})"
    for name, digest in manifest.get("sources", {}).items():
        try:
            found = hashlib.sha256((package / name).read_bytes()).hexdigest()
        except OSError:
            found = ""
        if found != digest:
            return f"the compiled build is older than {name} ({again})"
    return ""


# Whether this is a checkout's source (``make`` builds its compiled core) or an installed wheel.
CHECKOUT: bool = _checkout(NATIVE_DIR.parent)
_reason = _why_pure()
COMPILED: bool = not _reason
FORM: str = ("compiled (mypyc)" if COMPILED else f"pure Python ({_reason})")
if COMPILED:
    __path__.insert(0, str(NATIVE_DIR / "core"))
