"""The wheel's build step: the compiled core, where it can be built.

pyproject.toml describes the package; this file only adds the build of the compiled core
(``scripts/native_build.py``, the same one ``make`` runs through ``scripts/compile_core.py``):
``pip install .`` and ``pip wheel .`` compile the core with mypyc into the wheel's
``flamecraft/_native/`` and tag the wheel for this platform and Python. Where there is no C
compiler (or no Python.h), or when ``FLAMECRAFT_PURE_BUILD=1`` asks for it, the wheel is the
pure one (``py3-none-any``), which runs the same games more slowly. An editable install
(``pip install -e .``, as ``make`` does) compiles nothing: ``make`` builds the core into the
checkout.
"""

from __future__ import annotations

import shutil
import sys
from pathlib import Path
from typing import Any

from setuptools import Distribution, setup
from setuptools.command.build_py import build_py

sys.path.insert(0, str(Path(__file__).resolve().parent / "scripts"))
import native_build  # scripts/, beside this file (the path above)

# Why this build is pure, or "" when it compiles.
PURE_REASON = (f"{native_build.PURE_BUILD} is set" if native_build.pure_build_asked()
               else native_build.why_not_compiled())


class CompiledDistribution(Distribution):  # type: ignore[misc]  # setuptools has no types
    """A distribution with extension modules, so that the wheel is tagged for this platform
    and Python, when the core is compiled (the extensions are made at build time, not here)."""

    def has_ext_modules(self) -> bool:
        return not PURE_REASON


class BuildPy(build_py):  # type: ignore[misc]
    """The usual build_py, which first clears a ``_native/`` left in the build folder by an
    earlier build, so that a pure wheel never ships a stale compiled core."""

    def run(self) -> None:
        shutil.rmtree(Path(self.build_lib) / "flamecraft" / "_native", ignore_errors=True)
        if PURE_REASON and not self.editable_mode:
            print(f"flamecraft: building the pure wheel ({PURE_REASON})")
        super().run()


cmdclass: dict[str, Any] = {"build_py": BuildPy, "build_ext": native_build.build_ext_command()}
setup(distclass=CompiledDistribution, cmdclass=cmdclass)
