"""The package's layers, checked from the source, so the tree shows the architecture
(docs/architecture.md): the rules core (``flamecraft.core``) imports nothing outside itself;
each layer above it imports only the layers below it (``ALLOWED``): research never imports the
terminal, the web server or the command line, the shared layers (``display``, ``session``)
import only the core, and nothing imports the command line but its entry points. Within the
package the modules import each other without cycles, and no two modules share a name."""

from __future__ import annotations

import ast
from collections import Counter
from pathlib import Path

PACKAGE = Path(__file__).resolve().parent.parent / "src" / "flamecraft"

# layer -> the layers it may import (besides itself). A layer is a subpackage of flamecraft;
# "flamecraft" is the package's own __init__ (the public API) and __main__.
ALLOWED: dict[str, set[str]] = {
    "core": set(),
    "display": {"core"},
    "session": {"core"},
    "ai": {"core"},
    "research": {"core", "ai", "display"},
    "envs": {"research"},
    "terminal": {"core", "ai", "display", "session"},
    "server": {"core", "ai", "display", "session"},
    "cli": {"core", "ai", "display", "session", "terminal", "server", "research", "flamecraft"},
    "flamecraft": {"core", "cli"},
}


def _module_name(path: Path) -> str:
    parts = list(path.relative_to(PACKAGE.parent).with_suffix("").parts)
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join(parts)


def _modules() -> list[Path]:
    return [p for p in PACKAGE.rglob("*.py") if "_native" not in p.parts]


def _imports(path: Path) -> set[str]:
    """Every flamecraft module this file imports, at the top or inside a function."""
    name = _module_name(path)
    package = name if path.name == "__init__.py" else name.rpartition(".")[0]
    found: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            found.update(a.name for a in node.names if a.name.startswith("flamecraft"))
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                base = package.split(".")[: len(package.split(".")) - node.level + 1]
                target = ".".join(base + ([node.module] if node.module else []))
            else:
                target = node.module or ""
            if not target.startswith("flamecraft"):
                continue
            found.add(target)
            found.update(f"{target}.{a.name}" for a in node.names)  # `from . import x`
    modules = {_module_name(p) for p in _modules()}
    return {m for m in found if m in modules} - {name}


def _graph() -> dict[str, set[str]]:
    return {_module_name(p): _imports(p) for p in _modules()}


def _layer(module: str) -> str:
    parts = module.split(".")
    return parts[1] if len(parts) > 1 and parts[1] != "__main__" else "flamecraft"


def test_every_layer_imports_only_the_layers_below_it() -> None:
    wrong = sorted(f"{m} -> {d}" for m, deps in _graph().items() for d in deps
                   if _layer(d) != _layer(m) and _layer(d) not in ALLOWED[_layer(m)])
    assert not wrong, "imports across layers that the layering forbids:\n" + "\n".join(wrong)


def test_every_module_is_in_a_known_layer() -> None:
    assert {_layer(m) for m in _graph()} <= set(ALLOWED)


def test_the_modules_import_each_other_without_cycles() -> None:
    """A module importing the package it belongs to (``from . import make_bot``) is not a
    cycle: Python has run the package's ``__init__`` before any of its modules."""
    graph = {m: {d for d in deps if not m.startswith(d + ".")} for m, deps in _graph().items()}
    state: dict[str, int] = {}  # 1: on the path being walked, 2: done

    def walk(m: str, path: list[str]) -> None:
        state[m] = 1
        for d in sorted(graph.get(m, set())):
            if state.get(d) == 1:
                raise AssertionError("import cycle: " + " -> ".join([*path[path.index(d):], d]))
            if d not in state:
                walk(d, [*path, d])
        state[m] = 2

    for m in sorted(graph):
        if m not in state:
            walk(m, [m])


def test_no_two_modules_share_a_name() -> None:
    names = Counter(p.stem for p in _modules() if p.name not in ("__init__.py", "__main__.py"))
    assert not [n for n, k in names.items() if k > 1], names.most_common(3)


def test_the_import_reader_sees_what_the_tests_rest_on() -> None:
    """Relative, lazy and ``from . import x`` imports are all seen, and the rules forbid what
    the architecture forbids."""
    deps = _imports(PACKAGE / "cli" / "main.py")
    assert "flamecraft.terminal.ending" in deps and "flamecraft.core.engine" in deps
    assert "flamecraft.ai.hints" in _imports(PACKAGE / "terminal" / "game_loop.py")  # lazy
    assert "flamecraft.ai.weightsets" in _imports(PACKAGE / "ai" / "__init__.py")
    assert _layer("flamecraft.research.encoding") == "research"
    assert "terminal" not in ALLOWED["research"] and "display" not in ALLOWED["core"]


def test_no_subpackage_hides_a_name_of_the_public_api() -> None:
    """Importing ``flamecraft.x`` sets the attribute ``flamecraft.x``: a subpackage named
    like a function of the API (``text``, ``view``) would replace it for every caller."""
    import flamecraft

    shadows = [n for n in flamecraft.__all__
               if (PACKAGE / n).is_dir() or (PACKAGE / f"{n}.py").is_file()]
    assert not shadows, shadows
    import flamecraft.display.i18n

    assert callable(flamecraft.text)
