"""The pinned goldens (tests/goldens.py, tests/goldens.json): perft-style counts of legal
decisions from fixed positions and the digests of fixed seeded games, at 1–5 players, both
decks, Companions on and off, in the form of the core that runs here and in the other one.

``test_compiled.py`` proves the two forms play alike; these prove that neither changed: a
rule or card change that both forms make together fails here. If the change is meant, run
``python tests/goldens.py --write`` and say so in the commit.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

import flamecraft.core
import goldens

HERE = Path(__file__).resolve().parent
REGENERATE = ("if the change is meant: python tests/goldens.py --write (and say so in the "
              "commit)")


def _pinned() -> dict[str, Any]:
    pinned: dict[str, Any] = json.loads(goldens.FILE.read_text(encoding="utf-8"))
    return pinned


def test_the_goldens_file_is_what_the_script_writes() -> None:
    """The file is in the script's own layout (so a regenerated one differs only where a
    golden did), and covers every player count with each Companion setting."""
    pinned = _pinned()
    assert goldens.dumps(pinned) == goldens.FILE.read_text(encoding="utf-8")
    configs = {(e["players"], e["companions"]) for e in pinned["perft"]}
    assert configs == {(n, c) for n in range(1, 6) for c in (False, True)}
    assert {e["players"] for e in pinned["games"] if e["bot"] == "random"} == set(range(1, 6))
    assert all(max(e["counts"]) > 100 for e in pinned["perft"])  # deep enough to tell


def test_this_form_plays_the_pinned_goldens() -> None:
    """The form that runs here (``flamecraft.core.FORM``) computes every pinned golden."""
    problems = goldens.differences(_pinned(), goldens.compute())
    assert not problems, (f"{flamecraft.core.FORM}:\n" + "\n".join(problems)
                          + f"\n{REGENERATE}")


def test_the_other_form_plays_the_pinned_goldens() -> None:
    """The other form, in a fresh interpreter (a process cannot switch forms): the pure one
    when this one is compiled; the compiled one, where a current build exists, when this one
    is pure."""
    pure_here = not flamecraft.core.COMPILED
    env = {**os.environ, "FLAMECRAFT_PURE": "" if pure_here else "1"}
    done = subprocess.run([sys.executable, str(HERE / "goldens.py")], capture_output=True,
                          text=True, env=env, cwd=HERE, timeout=300)
    assert done.returncode == 0, done.stderr
    other: dict[str, Any] = json.loads(done.stdout)
    if other["compiled"] == flamecraft.core.COMPILED:
        pytest.skip(f"only one form here: {other['form']}")
    problems = goldens.differences(_pinned(), other["goldens"])
    assert not problems, f"{other['form']}:\n" + "\n".join(problems) + f"\n{REGENERATE}"
