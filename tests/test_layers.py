"""The package's layers, checked from the source: the rules core (``flamecraft.core``) imports
nothing outside itself, and the modules outside it import each other without cycles, so every
adapter sits on top of the core and the tree shows the architecture (docs/architecture.md)."""

from __future__ import annotations

import ast
from pathlib import Path

PACKAGE = Path(__file__).resolve().parent.parent / "src" / "flamecraft"


def _module_name(path: Path) -> str:
    parts = list(path.relative_to(PACKAGE.parent).with_suffix("").parts)
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join(parts)


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
    modules = {_module_name(p) for p in PACKAGE.rglob("*.py")}
    return {m for m in found if m in modules} - {name}


def _graph() -> dict[str, set[str]]:
    return {_module_name(p): _imports(p) for p in PACKAGE.rglob("*.py")}


def test_the_core_imports_nothing_outside_it() -> None:
    outside = {m: sorted(i for i in deps if not i.startswith("flamecraft.core"))
               for m, deps in _graph().items() if m.startswith("flamecraft.core")}
    outside = {m: deps for m, deps in outside.items() if deps}
    assert not outside, f"core modules importing adapters: {outside}"


def test_the_adapters_import_each_other_without_cycles() -> None:
    """Seen from outside, the core is one node; every package ``__init__`` may re-export."""
    def node(m: str) -> str:
        return "flamecraft.core" if m.startswith("flamecraft.core") else m

    graph: dict[str, set[str]] = {}
    for m, deps in _graph().items():
        if m.startswith("flamecraft.core") or m == "flamecraft":
            continue
        graph.setdefault(node(m), set()).update(node(d) for d in deps if node(d) != node(m))
    graph["flamecraft.core"] = set()
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


def test_the_import_reader_resolves_relative_imports() -> None:
    """What the two tests above rest on: `from .x import` and lazy imports are seen."""
    deps = _imports(PACKAGE / "cli.py")
    assert "flamecraft.tui" in deps and "flamecraft.core.engine" in deps
    assert "flamecraft.cli" not in _imports(PACKAGE / "tui.py")
