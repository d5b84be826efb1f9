"""The package table holds: no import cycle between the project's modules, no upward import.

The table (``shared/spec/architecture.md``, "Packages"): the engine imports nothing of ours;
vision, firmware_bridge and hardware import only the engine; arbiter may import all of them.
Every import counts, at the top of a module or inside a function (a lazy import is still a
dependency, and a lazy import both ways is still a cycle); only ``if TYPE_CHECKING:`` imports,
which never run, are left out. Tests, docs and benchmarks are outside the table.
"""

from __future__ import annotations

import ast
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
PACKAGES = ("engine", "vision", "firmware_bridge", "hardware", "arbiter")
MAY_IMPORT = {
    "engine": set(),
    "vision": {"engine"},
    "firmware_bridge": {"engine"},
    "hardware": {"engine"},
    "arbiter": {"engine", "vision", "firmware_bridge", "hardware"},
}


def _modules() -> dict[str, Path]:
    out = {}
    for pkg in PACKAGES:
        for path in sorted((ROOT / pkg).rglob("*.py")):
            parts = path.relative_to(ROOT).with_suffix("").parts
            if parts[-1] == "__init__":
                parts = parts[:-1]
            out[".".join(parts)] = path
    return out


def _type_checking_lines(tree: ast.AST) -> set[int]:
    """Line numbers of imports under ``if TYPE_CHECKING:`` (they never run)."""
    lines = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.If):
            test = node.test
            name = test.id if isinstance(test, ast.Name) else getattr(test, "attr", None)
            if name == "TYPE_CHECKING":
                for inner in node.body:
                    for sub in ast.walk(inner):
                        lines.add(getattr(sub, "lineno", -1))
    return lines


def _imports(name: str, path: Path, modules: dict[str, Path]) -> set[str]:
    """The project modules ``name`` imports."""
    tree = ast.parse(path.read_text(), str(path))
    skip = _type_checking_lines(tree)
    is_package = path.name == "__init__.py"
    here = name.split(".") if is_package else name.split(".")[:-1]
    found = set()

    def resolve(target: str) -> str | None:
        while target and target not in modules:  # an attribute of a module: its module
            target = target.rpartition(".")[0]
        return target or None

    for node in ast.walk(tree):
        if getattr(node, "lineno", -1) in skip:
            continue
        if isinstance(node, ast.Import):
            for alias in node.names:
                if alias.name.split(".")[0] in PACKAGES:
                    found.add(resolve(alias.name))
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                base = here[: len(here) - node.level + 1]
                prefix = ".".join(base + ([node.module] if node.module else []))
            else:
                prefix = node.module or ""
            if prefix.split(".")[0] not in PACKAGES:
                continue
            for alias in node.names:
                full = f"{prefix}.{alias.name}"
                found.add(full if full in modules else resolve(prefix))
    found.discard(None)
    found.discard(name)
    return found


def _graph() -> dict[str, set[str]]:
    modules = _modules()
    return {name: _imports(name, path, modules) for name, path in modules.items()}


def _cycles(graph: dict[str, set[str]]) -> list[list[str]]:
    """Strongly connected components of more than one module (Tarjan, iteratively)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    on_stack: set[str] = set()
    stack: list[str] = []
    out = []
    counter = 0
    for root in graph:
        if root in index:
            continue
        work = [(root, iter(sorted(graph[root])))]
        index[root] = low[root] = counter
        counter += 1
        stack.append(root)
        on_stack.add(root)
        while work:
            node, children = work[-1]
            for child in children:
                if child not in index:
                    index[child] = low[child] = counter
                    counter += 1
                    stack.append(child)
                    on_stack.add(child)
                    work.append((child, iter(sorted(graph.get(child, ())))))
                    break
                if child in on_stack:
                    low[node] = min(low[node], index[child])
            else:
                work.pop()
                if work:
                    low[work[-1][0]] = min(low[work[-1][0]], low[node])
                if low[node] == index[node]:
                    component = []
                    while True:
                        top = stack.pop()
                        on_stack.discard(top)
                        component.append(top)
                        if top == node:
                            break
                    if len(component) > 1:
                        out.append(sorted(component))
    return out


def test_the_import_graph_is_read():
    graph = _graph()
    assert "arbiter.referee" in graph["arbiter.session"]
    assert "engine.explain" in graph["arbiter.referee"]
    assert "arbiter.cli.common" in graph["arbiter.cli.games"]


def test_no_module_imports_another_that_imports_it_back():
    cycles = _cycles(_graph())
    assert not cycles, "import cycles: " + "; ".join(" <-> ".join(c) for c in cycles)


def test_no_package_imports_what_the_package_table_forbids():
    wrong = []
    for name, targets in _graph().items():
        pkg = name.split(".")[0]
        for t in targets:
            other = t.split(".")[0]
            if other != pkg and other not in MAY_IMPORT[pkg]:
                wrong.append(f"{name} imports {t}")
    assert not wrong, "imports against the package table: " + "; ".join(sorted(wrong))


def test_the_checks_catch_a_cycle_and_an_upward_import():
    graph = {"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"a"}}
    assert _cycles(graph) == [["a", "b", "c"]]
    assert _cycles({"a": {"b"}, "b": set()}) == []
