"""memlint's imports flow one way and form no cycle (docs/architecture.md, issue 27 point 3).

The graph is read from the source with `ast`: every `import` and `from ... import` of a memlint
module, at the top, inside functions and under `if TYPE_CHECKING:` alike (a type-only import is a
dependency of the design too). Dynamic imports (the rule families found through entry points) are
not in it. Each module belongs to one layer; a module may import its own layer and the layers
below it, never one above."""

from __future__ import annotations

import ast
from collections.abc import Mapping
from fnmatch import fnmatchcase
from pathlib import Path

import pytest

PACKAGE = Path(__file__).resolve().parent.parent / "memlint"

# Highest first. The same table is in docs/architecture.md; change both together.
LAYERS: tuple[tuple[str, tuple[str, ...]], ...] = (
    ("cli", ("memlint.__main__", "memlint.cli", "memlint.docgen", "memlint.commands", "memlint.commands.*",
             "memlint.lsp", "memlint.lsp.*")),
    ("api", ("memlint.api", "memlint.hook", "memlint.hook.*")),
    ("reporters", ("memlint.reporters", "memlint.reporters.*", "memlint.baseline")),
    ("engine", ("memlint.engine", "memlint.reading", "memlint.staged", "memlint.selection", "memlint.config", "memlint.cache", "memlint.cache_folders",
                "memlint.conventions")),
    ("rules", ("memlint.rules", "memlint.rules.*")),
    ("fixes", ("memlint.fixes", "memlint.suppression")),
    ("model", ("memlint.model", "memlint.model.*")),
    ("base", ("memlint", "memlint.errors", "memlint.records", "memlint.lazy_regex", "memlint.violations", "memlint.safe_io", "memlint.escape", "memlint.compiled", "memlint.new_files",
              "memlint.progress")),
)

# Inside the model layer, its sub-packages, highest first (memlint/model/__init__.py; docs/architecture.md).
MODEL_PARTS: tuple[tuple[str, tuple[str, ...]], ...] = tuple(
    (part, (f"memlint.model.{part}", f"memlint.model.{part}.*"))
    for part in ("run", "loading", "memory", "text", "source", "cli_js", "release")
) + (("model", ("memlint.model",)),)


def modules(package: Path = PACKAGE) -> dict[str, Path]:
    out: dict[str, Path] = {}
    for path in sorted(package.rglob("*.py")):
        parts = path.relative_to(package.parent).with_suffix("").parts
        out[".".join(parts[:-1] if parts[-1] == "__init__" else parts)] = path
    return out


def _targets(name: str, path: Path, node: ast.Import | ast.ImportFrom, known: Mapping[str, Path]) -> set[str]:
    if isinstance(node, ast.Import):
        wanted = [alias.name for alias in node.names]
    else:
        base = node.module or ""
        if node.level:
            package = name if path.name == "__init__.py" else name.rpartition(".")[0]
            parts = package.split(".")[: len(package.split(".")) - node.level + 1]
            base = ".".join([*parts, base] if base else parts)
        # `from memlint.rules import catalog` imports the module memlint.rules.catalog
        wanted = [f"{base}.{a.name}" if f"{base}.{a.name}" in known else base for a in node.names]
    out = set()
    for target in wanted:
        while target not in known and "." in target:
            target = target.rpartition(".")[0]
        if target in known and target != name:
            out.add(target)
    return out


def import_graph(known: Mapping[str, Path]) -> dict[str, set[str]]:
    """Module -> the memlint modules it imports anywhere in its text."""
    graph: dict[str, set[str]] = {}
    for name, path in known.items():
        tree = ast.parse(path.read_text(encoding="utf-8"), str(path))
        graph[name] = set()
        for node in ast.walk(tree):
            if isinstance(node, (ast.Import, ast.ImportFrom)):
                graph[name] |= _targets(name, path, node, known)
    return graph


def cycles(graph: Mapping[str, set[str]]) -> list[list[str]]:
    """The strongly connected components of more than one module (Tarjan's algorithm, iterative)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    found: list[list[str]] = []
    for root in sorted(graph):
        if root in index:
            continue
        work = [(root, iter(sorted(graph[root])))]
        index[root] = low[root] = len(index)
        stack.append(root)
        on_stack.add(root)
        while work:
            node, children = work[-1]
            child = next(children, None)
            if child is not None:
                if child not in index:
                    index[child] = low[child] = len(index)
                    stack.append(child)
                    on_stack.add(child)
                    work.append((child, iter(sorted(graph.get(child, ())))))
                elif child in on_stack:
                    low[node] = min(low[node], index[child])
                continue
            work.pop()
            if work:
                low[work[-1][0]] = min(low[work[-1][0]], low[node])
            if low[node] == index[node]:
                component = []
                while True:
                    member = stack.pop()
                    on_stack.discard(member)
                    component.append(member)
                    if member == node:
                        break
                if len(component) > 1:
                    found.append(sorted(component))
    return found


Layers = tuple[tuple[str, tuple[str, ...]], ...]


def layer_of(module: str, layers: Layers = LAYERS) -> int | None:
    for rank, (_, patterns) in enumerate(layers):
        if any(fnmatchcase(module, pattern) for pattern in patterns):
            return rank
    return None


def upward(graph: Mapping[str, set[str]], layers: Layers = LAYERS) -> list[str]:
    """Every import of a module in a higher layer than the importer's."""
    out = []
    for module, targets in sorted(graph.items()):
        own = layer_of(module, layers)
        for target in sorted(targets):
            theirs = layer_of(target, layers)
            if own is not None and theirs is not None and theirs < own:
                out.append(f"{module} ({layers[own][0]}) imports {target} ({layers[theirs][0]})")
    return out


KNOWN = modules()
GRAPH = import_graph(KNOWN)


def test_every_module_has_a_layer() -> None:
    assert [m for m in KNOWN if layer_of(m) is None] == []


def test_the_graph_sees_imports_inside_functions_and_type_checking_blocks() -> None:
    assert "memlint.fixes" in GRAPH["memlint.api"]  # imported inside `fix`
    assert "memlint.model.text.markdown" in GRAPH["memlint.model.text.document"]  # inside a method and under TYPE_CHECKING
    assert len(GRAPH) > 150 and sum(map(len, GRAPH.values())) > 500


def test_no_import_cycles() -> None:
    assert cycles(GRAPH) == []


def test_no_layer_imports_a_higher_one() -> None:
    assert upward(GRAPH) == []


def test_every_model_module_is_in_a_sub_package() -> None:
    model = [m for m in KNOWN if m.startswith("memlint.model")]
    assert [m for m in model if layer_of(m, MODEL_PARTS) is None] == []
    assert len([m for m in model if m.count(".") == 2]) == len(MODEL_PARTS) - 1  # the parts, no loose module


def test_no_model_sub_package_imports_a_higher_one() -> None:
    assert upward(GRAPH, MODEL_PARTS) == []


def test_each_model_sub_package_says_what_it_owns_and_may_import() -> None:
    for part, _ in MODEL_PARTS[:-2]:
        doc = ast.get_docstring(ast.parse(KNOWN[f"memlint.model.{part}"].read_text(encoding="utf-8"))) or ""
        assert "Owns:" in doc and "May import:" in doc, part


def test_the_checks_catch_a_cycle_and_an_upward_import() -> None:
    toy = {"memlint.model.a": {"memlint.model.b"}, "memlint.model.b": {"memlint.engine"},
           "memlint.engine": {"memlint.model.a"}}
    assert cycles(toy) == [["memlint.engine", "memlint.model.a", "memlint.model.b"]]
    assert upward(toy) == ["memlint.model.b (model) imports memlint.engine (engine)"]
    inside = {"memlint.model.text.document": {"memlint.model.loading.loader"}}
    assert upward(inside, MODEL_PARTS) == [
        "memlint.model.text.document (text) imports memlint.model.loading.loader (loading)"]


@pytest.mark.parametrize("name", [name for name, _ in LAYERS])
def test_docs_architecture_lists_each_layer(name: str) -> None:
    text = (PACKAGE.parent / "docs" / "architecture.md").read_text(encoding="utf-8")
    row = next(line for line in text.splitlines() if line.startswith(f"| {name} |"))
    patterns = dict(LAYERS)[name]
    assert all(f"`{pattern}`" in row for pattern in patterns), row
