"""The compiled and the pure-Python rules core play identical games.

``make`` compiles the core with mypyc where a C compiler is present (scripts/compile_core.py),
and ``FLAMECRAFT_PURE=1`` forces the pure form. A process cannot switch forms once the core is
imported, so each form plays the same few hundred seeded random games (every player count,
both decks, Companions on and off) in its own interpreter, with the fuzz checks on
(invariants, dump/load round trips, replay), two games of the planner against the search
(whose modules are compiled too), random games with every seat's valuation written down at
each decision (floats, to the last bit), and random games with every seat's RL observation and
the catalogue's legal indices written down (``encoding`` is compiled too); the hashes of all of
these must agree.
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
import sysconfig
from pathlib import Path
from typing import Any

import pytest

import flamecraft.core
from flamecraft.research import encoding

HERE = Path(__file__).resolve().parent
GAMES = 300
BOT_GAMES = 2  # the planner against the search: the compiled ai modules choose the same
VALUE_GAMES = 16  # random games with the bots' valuations written down at every decision
OBSERVATION_GAMES = 20  # random games with every seat's RL observation written down
CHUNKS = 4


def _has_compiler() -> bool:
    cc = (os.environ.get("CC") or sysconfig.get_config_var("CC") or "cc").split()[0]
    return shutil.which(cc) is not None


def _play(chunk: int, *, pure: bool) -> dict[str, Any]:
    env = {**os.environ, "FLAMECRAFT_PURE": "1" if pure else ""}
    done = subprocess.run(
        [sys.executable, str(HERE / "record_hashes.py"), "--chunk", str(chunk),
         "--chunks", str(CHUNKS), "--games", str(GAMES), "--bot-games", str(BOT_GAMES),
         "--value-games", str(VALUE_GAMES), "--observation-games", str(OBSERVATION_GAMES)],
        capture_output=True, text=True, env=env, cwd=HERE, timeout=600)
    assert done.returncode == 0, done.stderr
    result: dict[str, Any] = json.loads(done.stdout)
    return result


def test_the_suite_runs_the_compiled_core_where_a_compiler_is() -> None:
    """Where ``make`` could compile, the core in use is the compiled one and current: so the
    whole suite (and CI, through ``make test``) exercises it, and the pure form below."""
    if os.environ.get("FLAMECRAFT_PURE", "") not in ("", "0"):
        pytest.skip("FLAMECRAFT_PURE is set: this run tests the pure form on purpose")
    if not _has_compiler():
        pytest.skip("no C compiler: only the pure form exists here")
    assert flamecraft.core.COMPILED, flamecraft.core.FORM
    # The RL encoding is compiled with the core (the research interfaces' hot path).
    assert "_native" in Path(encoding.__file__ or "").parts


@pytest.mark.parametrize("chunk", range(CHUNKS))
def test_compiled_and_pure_play_identical_games(chunk: int) -> None:
    pure = _play(chunk, pure=True)
    default = _play(chunk, pure=False)
    assert not pure["compiled"] and pure["form"].startswith("pure Python")
    if _has_compiler():
        assert default["compiled"], default["form"]
    assert len(pure["hashes"]) == sum(len(range(chunk, games, CHUNKS))
                                      for games in (GAMES, BOT_GAMES, VALUE_GAMES,
                                                    OBSERVATION_GAMES))
    assert len(set(pure["hashes"])) == len(pure["hashes"]), "every game differs"
    assert default["hashes"] == pure["hashes"]


def test_the_pure_switch_wins_over_a_compiled_build() -> None:
    """``FLAMECRAFT_PURE=1`` loads every core module from its ``.py`` even beside a build."""
    code = ("import flamecraft.core as c, flamecraft.core.engine as e,"
            " flamecraft.ai.ismcts as i, flamecraft.research.encoding as r;"
            " print(c.COMPILED, e.__file__, i.__file__, r.__file__)")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                         env={**os.environ, "FLAMECRAFT_PURE": "1"}, check=True).stdout.split()
    assert out[0] == "False"
    assert out[1].endswith("core/engine.py") and out[2].endswith("ai/ismcts.py")
    assert out[3].endswith("flamecraft/research/encoding.py")


def test_a_stale_or_foreign_build_is_not_used(tmp_path: Path,
                                              monkeypatch: pytest.MonkeyPatch) -> None:
    """The build's manifest must match the sources byte for byte and this Python's extension
    suffix: otherwise the pure form runs, and ``FORM`` says why."""
    import hashlib
    import importlib.machinery

    source = tmp_path / "core" / "engine.py"
    source.parent.mkdir()
    source.write_text("x = 1\n")
    native = tmp_path / "_native"
    native.mkdir()
    monkeypatch.setattr(flamecraft.core, "NATIVE_DIR", native)
    monkeypatch.delenv("FLAMECRAFT_PURE", raising=False)

    def manifest(digest: str, suffix: str = importlib.machinery.EXTENSION_SUFFIXES[0]) -> str:
        (native / "manifest.json").write_text(json.dumps(
            {"suffix": suffix, "sources": {"core/engine.py": digest}}))
        return flamecraft.core._why_pure()

    good = hashlib.sha256(b"x = 1\n").hexdigest()
    assert manifest(good) == ""
    assert "older than core/engine.py" in manifest("0" * 64)
    assert "another Python" in manifest(good, suffix=".cpython-99.so")
    (native / "manifest.json").unlink()
    assert "no compiled build" in flamecraft.core._why_pure()
    monkeypatch.setenv("FLAMECRAFT_PURE", "1")
    assert flamecraft.core._why_pure() == "FLAMECRAFT_PURE is set"
