"""The package's import graph: no module imports itself back through others (no cycle),
and the stages below the database never reach up into it: nothing in `extract.results`
or `extract.mail` imports `extract.db`. Imports inside functions count too."""

from __future__ import annotations

import ast
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent / "extract"


def module_name(path: Path) -> str:
    parts = path.relative_to(ROOT.parent).with_suffix("").parts
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def import_graph() -> dict[str, set[str]]:
    """Each module of `extract` -> the modules of `extract` it imports."""
    paths = {module_name(p): p for p in ROOT.rglob("*.py")}
    graph: dict[str, set[str]] = {}
    for name, path in paths.items():
        package = name if path.name == "__init__.py" else name.rpartition(".")[0]
        found: set[str] = set()
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.Import):
                found |= {a.name for a in node.names}
            elif isinstance(node, ast.ImportFrom):
                base = node.module or ""
                if node.level:  # relative: from the package, `level` steps up
                    up = package.split(".")[: len(package.split(".")) - node.level + 1]
                    base = ".".join([*up, *([node.module] if node.module else [])])
                # `from pkg import mod` imports the module pkg.mod where there is one
                found |= {f"{base}.{a.name}" if f"{base}.{a.name}" in paths else base
                          for a in node.names}  # fmt: skip
        graph[name] = {m for m in found if m in paths and m != name}
    return graph


def cycles(graph: dict[str, set[str]]) -> list[list[str]]:
    """The strongly connected components of more than one module (Tarjan)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    out: list[list[str]] = []

    def visit(v: str) -> None:
        index[v] = low[v] = len(index)
        stack.append(v)
        for w in sorted(graph[v]):
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in stack:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            component = []
            while (w := stack.pop()) != v:
                component.append(w)
            if component:
                out.append(sorted([v, *component]))

    for v in sorted(graph):
        if v not in index:
            visit(v)
    return out


def test_no_import_cycle():
    assert cycles(import_graph()) == []


def test_results_and_mail_never_import_the_database():
    reach = [
        (module, imported)
        for module, imports in import_graph().items()
        if module.startswith(("extract.results", "extract.mail"))
        for imported in imports
        if imported.startswith("extract.db")
    ]
    assert reach == []


def test_the_check_sees_a_cycle_and_a_reach_up():
    """(The checks above would pass on an empty graph: this one shows they can fail.)"""
    graph = import_graph()
    assert "extract.results.formats._layout" in graph["extract.results.formats._rows"]
    assert cycles({"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"a"}}) == [["a", "b", "c"]]
