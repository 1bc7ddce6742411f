"""The one build of the compiled core, shared by ``make`` and the wheel.

mypyc compiles the rules core (and the search bots' and RL encoding's hot modules) to C
extensions, which go to ``flamecraft/_native/<group>/`` rather than beside their sources,
with a manifest of the source hashes they were built from (``flamecraft/core/__init__.py``
loads them only when the manifest matches; see ``scripts/compile_core.py`` for why a separate
folder). Two callers:

- ``scripts/compile_core.py`` (run by ``make``) builds into the checkout's
  ``src/flamecraft/_native/``, beside an editable install;
- ``setup.py`` (``pip install .``, ``pip wheel .``) builds into the wheel's
  ``flamecraft/_native/`` through the ``build_ext`` command below, or leaves the wheel pure
  when there is no C compiler (or ``FLAMECRAFT_PURE_BUILD=1`` asks for it).

mypy (with mypyc) and setuptools are imported only when compiling: the pure form needs
neither.
"""

from __future__ import annotations

import hashlib
import importlib.machinery
import json
import os
import shutil
import sysconfig
import tempfile
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
PACKAGE = ROOT / "src" / "flamecraft"
# Compiled groups: name -> the modules of one package folder compiled together into one shared
# library, built into ``_native/<name>/``, which that package puts first on its ``__path__``.
# A package's ``__init__`` is never compiled: the core's is what chooses the form.
AI_MODULES = ("evaluate", "planner", "ismcts")
# The research adapter's hot path: the action catalogue and observation vector, and the
# vector environments' observation rows (``flamecraft/research/__init__`` loads the build).
RESEARCH_MODULES = ("encoding", "rows", "cut", "batched")
FOLDERS = {"core": "core", "ai": "ai", "research": "research"}  # group -> package folder
# The environment variable that asks for the pure wheel even where a C compiler is present.
PURE_BUILD = "FLAMECRAFT_PURE_BUILD"


def groups() -> dict[str, list[Path]]:
    core = sorted(p for p in (PACKAGE / "core").glob("*.py") if p.name != "__init__.py")
    return {"core": core, "ai": [PACKAGE / "ai" / f"{m}.py" for m in AI_MODULES],
            "research": [PACKAGE / "research" / f"{m}.py" for m in RESEARCH_MODULES]}


def sources() -> list[Path]:
    return [p for files in groups().values() for p in files]


def library(name: str) -> str:
    """The dotted name of a group's shared library (mypyc adds ``__mypyc``)."""
    return ".".join(["flamecraft", *filter(None, [FOLDERS[name]]), "native"])


def digests(files: list[Path]) -> dict[str, str]:
    """The sources' SHA-256 by path relative to the package, as the manifest records them."""
    return {p.relative_to(PACKAGE).as_posix(): hashlib.sha256(p.read_bytes()).hexdigest()
            for p in files}


def compiler() -> str | None:
    """The C compiler Python's build uses, if it is installed."""
    cc = (os.environ.get("CC") or sysconfig.get_config_var("CC") or "cc").split()[0]
    return shutil.which(cc)


def why_not_compiled() -> str:
    """Why this machine cannot compile the core, or "" when it can: a C compiler and this
    Python's headers (``Python.h``; Debian's python3-dev) are both needed."""
    if compiler() is None:
        return "no C compiler found"
    if not (Path(sysconfig.get_paths()["include"]) / "Python.h").is_file():
        return "no Python.h for this Python (the python3-dev package on Debian)"
    return ""


def pure_build_asked() -> bool:
    return os.environ.get(PURE_BUILD, "") not in ("", "0")


def read_manifest(native: Path) -> dict[str, Any] | None:
    try:
        manifest: dict[str, Any] = json.loads((native / "manifest.json").read_text("utf-8"))
    except (OSError, ValueError):
        return None
    return manifest


def up_to_date(native: Path) -> bool:
    """Whether ``native`` holds a build of the current sources for this Python."""
    manifest = read_manifest(native)
    return bool(manifest is not None
                and manifest.get("suffix") == importlib.machinery.EXTENSION_SUFFIXES[0]
                and manifest.get("sources") == digests(sources()))


def write_manifest(native: Path, built_from: dict[str, str]) -> None:
    from mypy.version import __version__ as mypy_version

    (native / "manifest.json").write_text(json.dumps({
        "suffix": importlib.machinery.EXTENSION_SUFFIXES[0],
        "mypy": str(mypy_version),
        "sources": built_from,
    }, indent=1, sort_keys=True) + "\n", encoding="utf-8")


def extensions() -> list[Any]:
    """mypyc's extensions of every group: the modules type-checked and turned into C under
    ``build/mypyc`` (run from the project folder: mypyc reads ``[tool.mypy]`` from
    pyproject.toml)."""
    from mypyc.build import mypycify

    os.chdir(ROOT)
    parts = groups()
    separate: list[tuple[list[str], str | None]] = [
        ([str(p.relative_to(ROOT)) for p in files], library(name))
        for name, files in parts.items()]
    return list(mypycify([str(p.relative_to(ROOT)) for files in parts.values() for p in files],
                         separate=separate, target_dir="build/mypyc", opt_level="3"))


def native_path(built: Path) -> Path | None:
    """Where an extension that setuptools would write to ``built`` (a path relative to the
    build folder, ``flamecraft/core/engine….so``) goes instead: ``flamecraft/_native/core/``.
    None for a path outside the compiled groups' folders."""
    parts = built.parts
    for name, folder in FOLDERS.items():
        if parts[:2] == ("flamecraft", folder) and len(parts) == 3:
            return Path("flamecraft", "_native", name, parts[2])
    return None


def build_ext_command() -> type[Any]:
    """setuptools' ``build_ext``, made to compile the core with mypyc into
    ``<build_lib>/flamecraft/_native/`` and write the manifest there. The wheel's build
    (``setup.py``) and ``make``'s (``build_into`` below) both run it. Defined in a function:
    setuptools is imported only when something is built."""
    from setuptools.command.build_ext import build_ext

    class IntoNative(build_ext):  # type: ignore[misc]  # setuptools has no types
        """build_ext writing each extension to ``flamecraft/_native/<group>/`` under the build
        folder, where setuptools would put it beside its source."""

        def get_ext_fullpath(self, ext_name: str) -> str:
            path = Path(super().get_ext_fullpath(ext_name))
            moved = native_path(path.relative_to(self.build_lib))
            return str(Path(self.build_lib) / moved) if moved is not None else str(path)

    class BuildNative(build_ext):  # type: ignore[misc]
        """mypyc's extensions into ``_native/``, except in an editable install, whose compiled
        core ``make`` builds into the checkout.

        mypyc type-checks and writes the C code when it makes the extensions, so they are
        made when the command runs, not when it is set up: setuptools also sets up
        ``build_ext`` to list the sources for the metadata alone, where nothing is built."""

        outputs: list[str]

        def run(self) -> None:
            self.outputs = []
            if self.inplace or self.editable_mode:
                print("compiled core: not built by an editable install (make builds it)")
                return
            built_from = digests(sources())  # before compiling: an edit meanwhile is stale
            self.distribution.ext_modules = extensions()
            compile_ = IntoNative(self.distribution)
            for option in ("build_lib", "build_temp", "parallel", "force", "debug",
                           "compiler", "plat_name"):
                setattr(compile_, option, getattr(self, option))
            if compile_.parallel is None:  # C compilations at once, unless given (-j)
                compile_.parallel = os.cpu_count() or 1
            compile_.ensure_finalized()
            compile_.run()
            native = Path(self.build_lib) / "flamecraft" / "_native"
            write_manifest(native, built_from)
            self.outputs = [*compile_.get_outputs(), str(native / "manifest.json")]

        def get_outputs(self) -> list[str]:
            return list(getattr(self, "outputs", []))

    return BuildNative


def build_into(native: Path, jobs: int) -> None:
    """``make``'s build: the same ``build_ext`` on a bare Distribution into a temporary folder,
    whose ``_native/`` then replaces ``native``. (setup() would also read the project's own
    pyproject.toml, which describes the package, not these extensions.)"""
    from setuptools import Distribution

    (ROOT / "build").mkdir(exist_ok=True)
    with tempfile.TemporaryDirectory(dir=ROOT / "build") as lib:
        dist = Distribution({"name": "flamecraft-native",
                             "cmdclass": {"build_ext": build_ext_command()}})
        command = dist.get_command_obj("build_ext")
        command.build_lib = lib
        command.build_temp = "build/mypyc-temp"
        command.parallel = jobs
        dist.run_command("build_ext")
        built = Path(lib) / "flamecraft" / "_native"
        if not (built / "manifest.json").is_file():
            raise RuntimeError(f"the build wrote no manifest to {built}")
        shutil.rmtree(native, ignore_errors=True)
        shutil.copytree(built, native)
