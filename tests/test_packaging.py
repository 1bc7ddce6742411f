"""How flamecraft is packaged (issue 20): the wheel carries the compiled core, the pure wheel
says how to get it, the extras keep players' libraries apart from the tests' tools, and the
pins of constraints.txt cover what ``make`` installs.

The two ``build`` tests build real wheels from a copy of this checkout (``pip wheel
--no-build-isolation``, with this interpreter's mypy and setuptools), install each into a
clean venv with only the runtime dependencies, and run the installed ``flamecraft``. The
compiled build takes minutes (mypyc on ~30 modules, then the C compiler), so it is built once
a run, and ``conftest.py`` starts these tests first.
"""

from __future__ import annotations

import hashlib
import importlib.machinery
import importlib.util
import json
import os
import re
import shutil
import subprocess
import sys
import tomllib
import zipfile
from pathlib import Path
from types import ModuleType

import pytest

import flamecraft.core
from flamecraft.cli.main import main as cli

ROOT = Path(__file__).resolve().parents[1]
PYPROJECT = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))
VERSION = PYPROJECT["project"]["version"]
DEMO = ["demo", "--players", "2", "--seed", "1"]


def _script(name: str) -> ModuleType:
    """A module of scripts/ (the build helper, the constraints writer), loaded by path."""
    spec = importlib.util.spec_from_file_location(name, ROOT / "scripts" / f"{name}.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules.setdefault(name, module)
    spec.loader.exec_module(module)
    return module


native_build = _script("native_build")
constraints = _script("constraints")


def _make_extras() -> list[str]:
    """The extras ``make`` installs (the Makefile's EXTRAS)."""
    found = re.search(r"^EXTRAS := (\S+)$", (ROOT / "Makefile").read_text(), re.MULTILINE)
    assert found, "the Makefile names the extras it installs in EXTRAS"
    return found.group(1).split(",")


# --- what flamecraft info and --version advise ----------------------------------------------

def _layout(tmp_path: Path, *, checkout: bool) -> Path:
    """A flamecraft folder with one compiled source, as a checkout's src/flamecraft (with
    scripts/compile_core.py beside it) or as an installed wheel's site-packages/flamecraft."""
    if checkout:
        package = tmp_path / "src" / "flamecraft"
        (tmp_path / "scripts").mkdir()
        (tmp_path / "scripts" / "compile_core.py").write_text("")
    else:
        package = tmp_path / "lib" / "python3" / "site-packages" / "flamecraft"
    (package / "core").mkdir(parents=True)
    (package / "core" / "engine.py").write_text("x = 1\n")
    return package


@pytest.mark.parametrize("checkout", [True, False], ids=["checkout", "wheel"])
def test_the_advice_fits_how_flamecraft_was_installed(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch, checkout: bool) -> None:
    """A checkout without a current build is told to run make; an installed wheel without a
    compiled core is told that the pure wheel was installed and how to get the compiled one
    (pip install from source with a C compiler), or to reinstall one that no longer matches;
    a current build gets no advice."""
    package = _layout(tmp_path, checkout=checkout)
    native = package / "_native"
    monkeypatch.setattr(flamecraft.core, "NATIVE_DIR", native)
    monkeypatch.delenv("FLAMECRAFT_PURE", raising=False)
    assert flamecraft.core._checkout(package) is checkout

    missing = flamecraft.core._why_pure()
    native.mkdir()
    suffix = importlib.machinery.EXTENSION_SUFFIXES[0]

    def manifest(digest: str) -> str:
        (native / "manifest.json").write_text(json.dumps(
            {"suffix": suffix, "sources": {"core/engine.py": digest}}))
        return flamecraft.core._why_pure()

    stale = manifest("0" * 64)
    assert manifest(hashlib.sha256(b"x = 1\n").hexdigest()) == ""  # compiled: no advice
    if checkout:
        assert missing == "no compiled build (run make)"
        assert stale == "the compiled build is older than core/engine.py (run make)"
    else:
        assert "make" not in missing + stale
        assert missing.startswith("no compiled build: the pure wheel was installed; ")
        assert "pip install flamecraft from its source with a C compiler" in missing
        assert stale.endswith("(reinstall flamecraft)")


def test_info_says_how_it_was_installed(capsys: pytest.CaptureFixture[str]) -> None:
    """These tests run on the checkout (an editable install): `info` says so."""
    assert cli(["info"]) == 0
    out = capsys.readouterr().out
    assert f"installed   a source checkout ({ROOT / 'src' / 'flamecraft'})" in out
    assert flamecraft.core.CHECKOUT


# --- extras, license, pins -------------------------------------------------------------------

def _names(requirements: list[str]) -> set[str]:
    from packaging.requirements import Requirement

    return {Requirement(r).name.lower() for r in requirements
            if not r.replace(" ", "").startswith("flamecraft[")}


def test_the_extras_keep_players_libraries_apart_from_the_test_tools() -> None:
    """`web` is what a player's server needs (PostgreSQL apart, in `postgres`); the tests'
    tools are in `test`, and `dev` is test plus the checkers and the compiler's driver."""
    extras: dict[str, list[str]] = PYPROJECT["project"]["optional-dependencies"]
    # (confusable_homoglyphs: Unicode's confusables for the seat names' look-alike check;
    # webauthn and openskill: the accounts' passkeys and people's ratings)
    assert _names(extras["web"]) == {"fastapi", "uvicorn", "confusable_homoglyphs",
                                     "webauthn", "openskill"}
    assert _names(extras["postgres"]) == {"psycopg"}
    tools = {"pytest", "pytest-xdist", "pexpect", "playwright", "axe-playwright-python", "httpx",
             "websockets"}
    assert _names(extras["test"]) == tools
    assert "flamecraft[test]" in extras["dev"]
    assert _names(extras["dev"]) == {"mypy", "ruff", "setuptools"}
    assert _names(extras["learn"]) == {"scikit-learn", "numpy"}
    # Training with sb3-contrib: large (PyTorch), so pinned but not installed by make.
    assert _names(extras["train"]) == {"sb3-contrib", "stable-baselines3", "torch"}
    assert "train" not in _make_extras()
    for players in ("web", "postgres", "rl", "reports", "ray", "learn"):
        assert not _names(extras[players]) & tools, players
    every = {name for reqs in extras.values() for name in _names(reqs)}
    assert "hypothesis" not in every  # no test uses it


def test_the_license_is_mit() -> None:
    project = PYPROJECT["project"]
    assert project["license"] == "MIT" and project["license-files"] == ["LICENSE"]
    text = (ROOT / "LICENSE").read_text(encoding="utf-8")
    assert text.startswith("MIT License\n") and "the flamecraft authors" in text


def test_constraints_pin_everything_make_installs() -> None:
    """constraints.txt pins every requirement of the extras `make` installs and of `train`
    (`make train-deps`; torch at its public version, which its CPU build matches), within
    the ranges pyproject.toml allows, and the same mypy as the wheel's build requirement (the
    compiled core of a checkout and of a wheel are built by one mypyc)."""
    from packaging.requirements import Requirement
    from packaging.utils import canonicalize_name

    pins: dict[str, str] = {}
    for line in (ROOT / "constraints.txt").read_text(encoding="utf-8").splitlines():
        if line.strip() and not line.startswith("#"):
            name, _, version = line.partition("==")
            pins[canonicalize_name(name)] = version
    assert pins["torch"] == "2.13.0"
    for text in constraints.requirements([*_make_extras(), "train"]):
        req = Requirement(text)
        pinned = pins.get(canonicalize_name(req.name))
        assert pinned is not None, f"constraints.txt does not pin {req.name}"
        assert req.specifier.contains(pinned, prereleases=True), (text, pinned)
    build = [Requirement(r) for r in PYPROJECT["build-system"]["requires"]]
    (mypy,) = [r for r in build if r.name == "mypy"]
    assert str(mypy.specifier) == f"=={pins['mypy']}"
    assert {"pip", "setuptools"} <= set(pins)


# --- the server without psycopg --------------------------------------------------------------

@pytest.mark.filterwarnings("ignore::DeprecationWarning")  # TestClient's, as test_server_api
@pytest.mark.filterwarnings("ignore:Using `httpx` with `starlette.testclient`")  # starlette's
def test_the_server_runs_on_sqlite_without_psycopg(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
        capsys: pytest.CaptureFixture[str]) -> None:
    """Without the postgres extra, a server on SQLite creates and plays games; one pointed at
    PostgreSQL stops at once with one line naming the extra to install."""
    if not os.environ.get("CI"):
        pytest.importorskip("fastapi", reason="the web extra is not installed")
    from flamecraft.server.store import require_driver
    from test_server_api import client_for, new_game, settings

    monkeypatch.setitem(sys.modules, "psycopg", None)  # `import psycopg` fails
    with client_for(settings(tmp_path)) as c:
        game = new_game(c, "random,random")
        assert c.get(f"/api/games/{game['game_id']}").status_code == 200

    url = "postgresql://nobody@127.0.0.1:1/none"
    with pytest.raises(ValueError, match=r"the 'postgres' extra .*flamecraft\[postgres\]"):
        require_driver(url)
    require_driver(f"sqlite:///{tmp_path / 'x.sqlite3'}")  # SQLite needs nothing

    monkeypatch.setenv("FLAMECRAFT_DATABASE_URL", url)
    monkeypatch.setattr("uvicorn.run", lambda *a, **k: pytest.fail("it served"))
    capsys.readouterr()
    assert cli(["serve"]) == 1  # before listening on anything
    err = capsys.readouterr().err.strip()
    assert "\n" not in err and "pip install 'flamecraft[postgres]'" in err


# --- the wheels -------------------------------------------------------------------------------

def _source_copy(dest: Path) -> Path:
    """This checkout's files (tracked or not, but not git-ignored: no .venv, no build, no
    _native), copied, so the build neither sees nor disturbs the checkout's own build."""
    try:
        listed = subprocess.run(["git", "ls-files", "-z", "--cached", "--others",
                                 "--exclude-standard"], cwd=ROOT, capture_output=True,
                                check=True).stdout.decode().split("\0")
    except (OSError, subprocess.CalledProcessError):  # not a git checkout: copy all but builds
        shutil.copytree(ROOT, dest, ignore=shutil.ignore_patterns(
            ".git", ".venv", "build", "dist", "_native", "*.egg-info", "__pycache__", ".*cache"))
        return dest
    for name in filter(None, listed):
        source = ROOT / name
        if source.is_file():
            (dest / name).parent.mkdir(parents=True, exist_ok=True)
            shutil.copy2(source, dest / name)
    return dest


def _build_wheel(tmp: Path, **env: str) -> Path:
    source = _source_copy(tmp / "source")
    out = tmp / "wheels"
    done = subprocess.run(
        [sys.executable, "-m", "pip", "wheel", "--no-deps", "--no-build-isolation",
         "--disable-pip-version-check", "-w", str(out), str(source)],
        capture_output=True, text=True, timeout=1800,
        env={**os.environ, "PIP_NO_INPUT": "1", **env})
    assert done.returncode == 0, done.stdout[-3000:] + done.stderr[-3000:]
    (wheel,) = out.glob("flamecraft-*.whl")
    return wheel


def _clean_env() -> dict[str, str]:
    """This process's environment without what points at the checkout (PYTHONPATH, under
    which pip would take the checkout for an installed flamecraft) or picks a form."""
    return {k: v for k, v in os.environ.items()
            if k not in ("PYTHONPATH", "FLAMECRAFT_PURE", "VIRTUAL_ENV")}


def _install(tmp: Path, wheel: Path) -> Path:
    """A clean venv (no pip of its own: this pip installs into it) with the wheel and only
    its runtime dependencies, Babel and wcwidth, at the pinned versions; its bin folder."""
    venv = tmp / "venv"
    subprocess.run([sys.executable, "-m", "venv", "--without-pip", str(venv)], check=True)
    pip = [sys.executable, "-m", "pip", "--python", str(venv / "bin" / "python"), "install",
           "--quiet", "--disable-pip-version-check"]
    subprocess.run([*pip, "--no-deps", str(wheel)], check=True, env=_clean_env())
    subprocess.run([*pip, "-c", str(ROOT / "constraints.txt"), "Babel", "wcwidth"],
                   check=True, env=_clean_env())
    return venv / "bin"


def _run(tmp: Path, *command: str | Path) -> str:
    """A command of the venv, run away from the checkout, with none of its settings."""
    done = subprocess.run([str(c) for c in command], capture_output=True, text=True, cwd=tmp,
                          env=_clean_env(), timeout=300)
    assert done.returncode == 0, done.stderr
    return done.stdout


def _checkout_demo(tmp: Path) -> str:
    """The same demo game played by this checkout's code (pure: the same games either way)."""
    done = subprocess.run([sys.executable, "-m", "flamecraft", *DEMO], capture_output=True,
                          text=True, cwd=tmp, check=True,
                          env={**os.environ, "FLAMECRAFT_PURE": "1"})
    return done.stdout


def _members(wheel: Path) -> list[str]:
    with zipfile.ZipFile(wheel) as z:
        return z.namelist()


@pytest.mark.build
def test_pip_wheel_builds_the_compiled_core(tmp_path: Path) -> None:
    """`pip wheel .` compiles the core into the wheel's flamecraft/_native/ (every compiled
    source's extension and the manifest) and tags it for this platform, where a C compiler
    is present; installed with its runtime dependencies only, it runs compiled, plays the
    same demo game as the checkout, and `python -m flamecraft` is the command too."""
    compiles = not native_build.why_not_compiled()
    wheel = _build_wheel(tmp_path, FLAMECRAFT_PURE_BUILD="")
    members = _members(wheel)
    tag = f"cp{sys.version_info.major}{sys.version_info.minor}"
    if not compiles:  # the fallback: the pure wheel
        assert wheel.name.endswith("-py3-none-any.whl")
        assert not [m for m in members if "_native" in m]
    else:
        assert f"-{tag}-{tag}-" in wheel.name and "none-any" not in wheel.name
        manifest = json.loads(zipfile.ZipFile(wheel).read("flamecraft/_native/manifest.json"))
        assert set(manifest["sources"]) == set(native_build.digests(native_build.sources()))
        suffix = importlib.machinery.EXTENSION_SUFFIXES[0]
        for source in manifest["sources"]:
            group, name = source.removesuffix(".py").split("/")
            assert f"flamecraft/_native/{group}/{name}{suffix}" in members
        assert not [m for m in members if m.endswith(".so") and "/_native/" not in m]
    assert "flamecraft/core/engine.py" in members  # the pure form is always inside
    assert f"flamecraft-{VERSION}.dist-info/licenses/LICENSE" in members

    bin_dir = _install(tmp_path, wheel)
    version = _run(tmp_path, bin_dir / "flamecraft", "--version")
    assert version == _run(tmp_path, bin_dir / "python", "-m", "flamecraft", "--version")
    info = _run(tmp_path, bin_dir / "flamecraft", "info")
    assert "installed   a wheel (" in info and "site-packages" in info
    if compiles:
        assert version == f"flamecraft {VERSION} (rules core: compiled (mypyc))\n"
        assert "/site-packages/flamecraft/_native/core/" in info
    else:
        assert "the pure wheel was installed" in version
    assert _run(tmp_path, bin_dir / "flamecraft", *DEMO) == _checkout_demo(tmp_path)


@pytest.mark.build
def test_the_pure_wheel_is_built_when_asked_and_says_so(tmp_path: Path) -> None:
    """FLAMECRAFT_PURE_BUILD=1 builds the pure wheel (py3-none-any, no _native/) even beside
    a C compiler; installed, it plays, and says the pure wheel runs and how to get the
    compiled one, without telling a pip user to run make."""
    wheel = _build_wheel(tmp_path, FLAMECRAFT_PURE_BUILD="1")
    assert wheel.name == f"flamecraft-{VERSION}-py3-none-any.whl"
    members = _members(wheel)
    assert not [m for m in members if "_native" in m or m.endswith(".so")]
    # the browser client ships whole: its page, scripts, style sheet and art
    static = ROOT / "src/flamecraft/server/static"
    for f in [*static.glob("*.*"), *static.glob("art/*.svg")]:
        assert f"flamecraft/server/static/{f.relative_to(static)}" in members
    bin_dir = _install(tmp_path, wheel)
    version = _run(tmp_path, bin_dir / "python", "-m", "flamecraft", "--version")
    assert version.startswith(f"flamecraft {VERSION} (rules core: pure Python (no compiled "
                              "build: the pure wheel was installed; for the compiled core, "
                              "pip install flamecraft from its source with a C compiler")
    assert "make" not in version and version.count("\n") == 1  # one line, however long
    assert _run(tmp_path, bin_dir / "flamecraft", *DEMO) == _checkout_demo(tmp_path)
