"""The pinned versions of everything ``make`` installs: constraints.txt.

``make`` installs the project's extras with ``pip install -c constraints.txt``, so a fresh
clone builds with the versions the project was last tested with, not whatever is newest that
day. ``make constraints`` refreshes the file: it installs the newest versions the extras
allow into a throw-away venv and writes their versions here (then ``make test`` tries them):

    python scripts/constraints.py requirements dev,rl   # the extras' requirements, one a line
    python scripts/constraints.py freeze dev,rl         # name==version of all they pull

``freeze`` reads the distributions installed in the running Python and keeps only those the
project's dependencies and the named extras pull, directly or not (as evaluated on this
machine: a requirement of another platform only is not pinned), and pip and setuptools; so it
may also be run in a venv that holds more (an unrelated tool installed by hand is left out).
"""

from __future__ import annotations

import argparse
import re
import sys
import tomllib
from importlib import metadata
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
SELF = re.compile(r"^flamecraft\[([^\]]+)\]$")
TOOLS = ("pip", "setuptools")  # the installers themselves, pinned too


def requirements(extras: list[str]) -> list[str]:
    """The project's own dependencies and those of ``extras``, with an extra that names
    others (``flamecraft[test]``) expanded, in order, once each."""
    project = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["project"]
    optional: dict[str, list[str]] = project["optional-dependencies"]
    found: list[str] = list(project["dependencies"])
    todo, seen = list(extras), set()
    while todo:
        extra = todo.pop(0)
        if extra in seen:
            continue
        if extra not in optional:
            raise SystemExit(f"unknown extra {extra!r} (known: {', '.join(optional)})")
        seen.add(extra)
        for requirement in optional[extra]:
            inner = SELF.match(requirement.replace(" ", ""))
            if inner:
                todo.extend(inner.group(1).split(","))
            elif requirement not in found:
                found.append(requirement)
    return found


def freeze(extras: list[str]) -> list[str]:
    """``name==version`` of every installed distribution the requirements pull."""
    from packaging.requirements import Requirement
    from packaging.utils import canonicalize_name

    installed = {canonicalize_name(d.metadata["Name"]): d for d in metadata.distributions()}
    pins: dict[str, str] = {}
    todo: list[tuple[str, frozenset[str]]] = [
        (req.name, frozenset(req.extras)) for req in map(Requirement, requirements(extras))]
    todo += [(tool, frozenset()) for tool in TOOLS]
    done: set[tuple[str, frozenset[str]]] = set()
    missing: list[str] = []
    while todo:
        name, wanted = todo.pop()
        key = canonicalize_name(name)
        if (key, wanted) in done:
            continue
        done.add((key, wanted))
        dist = installed.get(key)
        if dist is None:
            missing.append(name)
            continue
        # A local label names a build (torch's "+cpu"): the public version's pin matches it
        # and the builds for other machines alike.
        pins[key] = f"{dist.metadata['Name']}=={dist.version.split('+')[0]}"
        for line in dist.requires or []:
            req = Requirement(line)
            if req.marker is None or any(req.marker.evaluate({"extra": e})
                                         for e in ("", *sorted(wanted))):
                todo.append((req.name, frozenset(req.extras)))
    if missing:
        raise SystemExit(f"not installed here: {', '.join(sorted(set(missing)))} "
                         "(install the extras first)")
    return [pins[key] for key in sorted(pins)]


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("what", choices=["requirements", "freeze"])
    parser.add_argument("extras", help="comma-separated extras, as make installs them")
    args = parser.parse_args(argv)
    extras = [e.strip() for e in args.extras.split(",") if e.strip()]
    if args.what == "requirements":
        print("\n".join(requirements(extras)))
        return 0
    python = ".".join(map(str, sys.version_info[:3]))
    print(f"# Written by `make constraints` (scripts/constraints.py) on Python {python}: the\n"
          f"# versions of what `make` installs (the extras {','.join(extras)}), for\n"
          "# `pip install -c constraints.txt`. Refresh with `make constraints`.")
    print("\n".join(freeze(extras)))
    return 0


if __name__ == "__main__":
    sys.exit(main())
