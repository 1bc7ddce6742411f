"""Compiles the rules core (and the search bots' and RL encoding's hot modules) with mypyc.

Why a separate folder: CPython prefers an extension module over a ``.py`` file of the same
name in the same folder, so compiled modules built in place beside their sources could never
be switched off. They are built into ``src/flamecraft/_native/`` instead, with a manifest of
the source hashes they were built from; ``flamecraft/core/__init__.py`` puts that folder
first on the package's ``__path__`` (``flamecraft.ai`` and ``flamecraft.research`` follow it
for the groups built into ``_native/ai`` and ``_native/research``) only when the manifest
matches the sources and ``FLAMECRAFT_PURE`` is unset (``flamecraft info`` says which form
runs, and why).

Run by ``make`` whenever a compiled source changes, beside the editable install. Without a C
compiler it says so and leaves the pure-Python form; with one, a failed build is an error (a
project bug to fix). The build itself is ``scripts/native_build.py``, which the wheel's build
(``setup.py``: ``pip install .``) runs too.

    python scripts/compile_core.py           # build (skipped when up to date)
    python scripts/compile_core.py --clean   # remove the compiled form
"""

from __future__ import annotations

import argparse
import os
import shutil
import subprocess
import sys
import time

import native_build

NATIVE = native_build.PACKAGE / "_native"


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
    if not args.force and native_build.up_to_date(NATIVE):
        print("compiled core: up to date")
        return 0
    missing = native_build.why_not_compiled()
    if missing:
        shutil.rmtree(NATIVE, ignore_errors=True)
        print(f"compiled core: {missing}, running pure Python")
        return 0
    started = time.monotonic()
    print(f"compiled core: building {len(native_build.sources())} modules with mypyc …",
          flush=True)
    native_build.build_into(NATIVE, args.jobs)
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
