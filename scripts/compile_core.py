"""Compiles the rules core (and the search bots' and RL encoding's hot modules) with mypyc.

Why a separate folder: CPython prefers an extension module over a ``.py`` file of the same
name in the same folder, so compiled modules built in place beside their sources could never
be switched off. They are built into ``src/flamecraft/_native/`` instead, with a manifest of
the source hashes they were built from; ``flamecraft/core/__init__.py`` puts that folder
first on the package's ``__path__`` (``flamecraft.ai`` and ``flamecraft.research`` follow it
for the groups built into ``_native/ai`` and ``_native/research``) only when the manifest
matches the sources and ``FLAMECRAFT_PURE`` is unset (``flamecraft info`` says which form
runs, and why).

Run by ``make`` whenever a compiled source changes. Without a C compiler it says so and
leaves the pure-Python form; with one, a failed build is an error (a project bug to fix).

    python scripts/compile_core.py           # build (skipped when up to date)
    python scripts/compile_core.py --clean   # remove the compiled form
"""

from __future__ import annotations

import argparse
import hashlib
import importlib.machinery
import json
import os
import shutil
import subprocess
import sys
import sysconfig
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
PACKAGE = ROOT / "src" / "flamecraft"
NATIVE = PACKAGE / "_native"
MANIFEST = NATIVE / "manifest.json"
# Compiled groups: name -> the modules of one package folder compiled together into one shared
# library, built into ``_native/<name>/``, which that package puts first on its ``__path__``.
# A package's ``__init__`` is never compiled: the core's is what chooses the form.
AI_MODULES = ("evaluate", "planner", "ismcts")
# The research adapter's hot path: the action catalogue and observation vector
# (``flamecraft/research/__init__`` loads the build).
RESEARCH_MODULES = ("encoding",)
FOLDERS = {"core": "core", "ai": "ai", "research": "research"}  # group -> package folder


def groups() -> dict[str, list[Path]]:
    core = sorted(p for p in (PACKAGE / "core").glob("*.py") if p.name != "__init__.py")
    return {"core": core, "ai": [PACKAGE / "ai" / f"{m}.py" for m in AI_MODULES],
            "research": [PACKAGE / "research" / f"{m}.py" for m in RESEARCH_MODULES]}


def library(name: str) -> str:
    """The dotted name of a group's shared library (mypyc adds ``__mypyc``)."""
    return ".".join(["flamecraft", *filter(None, [FOLDERS[name]]), "native"])


def digests(sources: list[Path]) -> dict[str, str]:
    """The sources' SHA-256 by path relative to the package, as the manifest records them."""
    return {p.relative_to(PACKAGE).as_posix(): hashlib.sha256(p.read_bytes()).hexdigest()
            for p in sources}


def compiler() -> str | None:
    """The C compiler Python's build uses, if it is installed."""
    cc = (os.environ.get("CC") or sysconfig.get_config_var("CC") or "cc").split()[0]
    return shutil.which(cc)


def up_to_date(sources: list[Path]) -> bool:
    if not MANIFEST.exists():
        return False
    manifest = json.loads(MANIFEST.read_text(encoding="utf-8"))
    return bool(manifest.get("suffix") == importlib.machinery.EXTENSION_SUFFIXES[0]
                and manifest.get("sources") == digests(sources))


def build(parts: dict[str, list[Path]], jobs: int) -> None:
    """mypyc into a temporary build folder, then the extensions moved into ``_native/``."""
    sources = [p for files in parts.values() for p in files]
    built_from = digests(sources)  # before compiling: a source edited meanwhile is stale
    # mypyc and setuptools are imported here: the pure form needs neither.
    from mypyc.build import mypycify
    from setuptools import Distribution

    os.chdir(ROOT)  # mypyc reads [tool.mypy] from pyproject.toml and writes C under build/
    separate: list[tuple[list[str], str | None]] = [
        ([str(p.relative_to(ROOT)) for p in files], library(name))
        for name, files in parts.items()]
    extensions = mypycify([str(p.relative_to(ROOT)) for p in sources], separate=separate,
                          target_dir="build/mypyc", opt_level="3")
    with tempfile.TemporaryDirectory(dir=ROOT / "build") as lib:
        # build_ext alone, on a bare Distribution: setup() would also read the project's own
        # pyproject.toml, which describes the package, not these extensions.
        dist = Distribution({"name": "flamecraft-native", "ext_modules": extensions})
        command = dist.get_command_obj("build_ext")
        command.build_lib = lib
        command.build_temp = "build/mypyc-temp"
        command.parallel = jobs
        dist.run_command("build_ext")
        shutil.rmtree(NATIVE, ignore_errors=True)
        for name in parts:
            built = Path(lib) / "flamecraft" / FOLDERS[name]
            (NATIVE / name).mkdir(parents=True)
            for so in built.iterdir():
                if so.is_file():
                    shutil.copy2(so, NATIVE / name / so.name)
    MANIFEST.write_text(json.dumps({
        "suffix": importlib.machinery.EXTENSION_SUFFIXES[0],
        "mypy": _mypy_version(),
        "sources": built_from,
    }, indent=1, sort_keys=True) + "\n", encoding="utf-8")


def _mypy_version() -> str:
    from mypy.version import __version__
    return str(__version__)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--clean", action="store_true", help="remove the compiled form")
    parser.add_argument("--force", action="store_true", help="build even when up to date")
    parser.add_argument("--jobs", type=int, default=os.cpu_count() or 1,
                        help="C compilations at once")
    args = parser.parse_args(argv)
    if args.clean:
        shutil.rmtree(NATIVE, ignore_errors=True)
        return 0
    parts = groups()
    sources = [p for files in parts.values() for p in files]
    if not args.force and up_to_date(sources):
        print("compiled core: up to date")
        return 0
    if compiler() is None:
        shutil.rmtree(NATIVE, ignore_errors=True)
        print("compiled core: no C compiler found, running pure Python")
        return 0
    (ROOT / "build").mkdir(exist_ok=True)
    started = time.monotonic()
    print(f"compiled core: building {len(sources)} modules with mypyc …", flush=True)
    build(parts, args.jobs)
    print(f"compiled core: built in {time.monotonic() - started:.0f} s")
    # The proof that it loads: a fresh interpreter must report the compiled form.
    check = subprocess.run([sys.executable, "-c",
                            "import flamecraft.core as c; print(c.FORM)"],
                           capture_output=True, text=True, env={**os.environ,
                                                                "FLAMECRAFT_PURE": ""})
    if check.returncode != 0 or not check.stdout.startswith("compiled"):
        print(f"compiled core: built but not loaded: {check.stdout}{check.stderr}",
              file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
