"""The built-in rules' pages without importing the rules, for `memlint rules` and `memlint explain`.

Importing every rule module imports the whole model with it (loader, parsers, markdown-it): about
0.1 s that listing or explaining rules does not need. Each page exists once, as its rule module's
docstring; this module reads it from the module's source with `ast`, with the module's META:

- a family's `MODULES` (in `rules/<family>/__init__.py`) names its rule modules;
- of each rule module only the head is parsed (`page_head`: the docstring, the `__doc__` edits and
  META come first in every rule module);
- nothing is run: literals are read as they are, a name as the literal it is bound to in memlint's
  own modules (`TOKENIZERS`), and a `__doc__ = __doc__.replace(old, new)` edit is evaluated from
  string literals, f-strings, `+`, `str.join` over a comprehension and `range` alone.

It answers only for the built-in families: with a plugin installed, a family or rule it cannot read
(an install without sources) or a form it does not know, `builtin_entries()` is None and the rules
are imported, as `check` does. tests/test_rule_catalog.py compares every entry with the imported rule.
"""

from __future__ import annotations

import ast
import os
from collections.abc import Callable, Iterator
from typing import Any

from memlint.lazy_regex import compile_lazily
from memlint.rules import Entry, RuleMeta, _entry_points, _is_builtin, all_rules, rules_imported

__all__ = ["Entry", "builtin_entries", "page_head"]

PACKAGE = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))  # the memlint package folder
_PAREN = compile_lazily(rb"[()]")


class Unreadable(Exception):
    """A source this module does not read without running it."""


def page_head(text: bytes) -> bytes:
    """The part of a rule module its page and META come from: the text up to the end of the
    `META = ...` statement (every rule module puts its docstring, `__doc__` edits and META first),
    or the whole text without one. Parentheses are counted naively; a head that does not parse is
    read whole."""
    start = text.find(b"\nMETA = ")
    if start < 0:
        return text
    depth = 0
    for paren in _PAREN.finditer(text, start):
        depth += 1 if paren.group() == b"(" else -1
        if depth == 0:
            end = text.find(b"\n", paren.end())
            return text if end < 0 else text[:end]
    return text


def builtin_entries() -> tuple[Entry, ...] | None:
    """Every registered rule, sorted by code, read from the sources; None when only importing the
    rules can tell (a plugin is installed, or a source is missing or of a form not read here)."""
    families = [ep.value for ep in _entry_points()]
    if not families or not all(_is_builtin(value) and ":" not in value for value in families):
        return None
    try:
        entries = [_entry(module) for family in families for module in _family(family)]
    except (OSError, SyntaxError, UnicodeDecodeError, Unreadable, ValueError, TypeError, KeyError):
        return None
    return tuple(sorted(entries, key=lambda e: e.code))


_PARSED: dict[tuple[str, bool], ast.Module] = {}


def _source(module: str, head_only: bool = False) -> ast.Module:
    """The parsed source of a memlint module (`memlint.rules.size`), read as UTF-8 with CRLF as LF."""
    key = (module, head_only)
    if key not in _PARSED:
        _PARSED[key] = _parse(module, head_only)
    return _PARSED[key]


def _path(module: str) -> str:
    parts = module.split(".")
    if parts[0] != "memlint":
        raise Unreadable(module)
    base = os.path.join(PACKAGE, *parts[1:])
    return os.path.join(base, "__init__.py") if os.path.isdir(base) else base + ".py"


def _read(module: str) -> bytes:
    """The source of a memlint module, with CRLF as LF."""
    with open(_path(module), "rb") as handle:
        return handle.read().replace(b"\r\n", b"\n")


def _parse(module: str, head_only: bool) -> ast.Module:
    path = _path(module)
    text = _read(module)
    if head_only:
        head = page_head(text)
        try:
            return ast.parse(head.decode("utf-8"), path)
        except SyntaxError:
            pass  # a head cut inside a construct the naive count misread: the whole file
    return ast.parse(text.decode("utf-8"), path)


def _family(module: str) -> list[str]:
    """The rule modules a family's `MODULES` names (memlint.rules.families), in its order."""
    tree = _source(module)
    for node in tree.body:
        if isinstance(node, ast.Assign) and _assigns(node, "MODULES"):
            if not isinstance(node.value, (ast.Tuple, ast.List)) or not node.value.elts:
                raise Unreadable(f"{module}.MODULES")
            names = [item.value for item in node.value.elts
                     if isinstance(item, ast.Constant) and isinstance(item.value, str)]
            if len(names) != len(node.value.elts):
                raise Unreadable(f"{module}.MODULES")
            return [f"{module}.{name}" for name in names]
    raise Unreadable(f"{module}.MODULES")


def _entry(module: str) -> Entry:
    tree = _source(module, head_only=True)
    doc = ast.get_docstring(tree, clean=False)
    if doc is None:
        raise Unreadable(f"{module}: no page")
    meta: RuleMeta | None = None
    scope = _Scope(module, tree)
    for node in tree.body:
        if isinstance(node, (ast.Assign, ast.AugAssign, ast.AnnAssign)) and _assigns(node, "__doc__"):
            doc = _doc_edit(node, doc, scope)
        elif isinstance(node, ast.Assign) and _assigns(node, "META"):
            call = node.value
            if not (isinstance(call, ast.Call) and _name(call.func) == "RuleMeta"
                    and not any(isinstance(a, ast.Starred) for a in call.args)
                    and all(kw.arg is not None for kw in call.keywords)):
                raise Unreadable(f"{module}.META")
            meta = RuleMeta(*(scope.value(a) for a in call.args),
                            **{str(kw.arg): scope.value(kw.value) for kw in call.keywords})
    if meta is None:
        raise Unreadable(f"{module}: no META")
    return Entry(meta, module, doc.strip())


def _doc_edit(node: ast.stmt, doc: str, scope: _Scope) -> str:
    """`__doc__ = __doc__.replace(old, new)`, applied to `doc`."""
    call = node.value if isinstance(node, ast.Assign) else None
    if not (isinstance(call, ast.Call) and isinstance(call.func, ast.Attribute) and call.func.attr == "replace"
            and _name(call.func.value) == "__doc__" and len(call.args) == 2 and not call.keywords):
        raise Unreadable("an edit of __doc__ other than __doc__.replace(old, new)")
    old, new = (scope.value(arg) for arg in call.args)
    if not isinstance(old, str) or not isinstance(new, str):
        raise Unreadable("__doc__.replace with other than strings")
    return doc.replace(old, new)


def _assigns(node: ast.Assign | ast.AugAssign | ast.AnnAssign, name: str) -> bool:
    targets = node.targets if isinstance(node, ast.Assign) else [node.target]
    return any(isinstance(t, ast.Name) and t.id == name for t in targets)


def _name(node: ast.expr) -> str:
    if not isinstance(node, ast.Name):
        raise Unreadable(ast.dump(node))
    return node.id


class _Scope:
    """The names a module's head may use: literals bound at its top level, names imported from
    memlint modules (read the same way), and comprehension variables."""

    def __init__(self, module: str, tree: ast.Module) -> None:
        self.module = module
        self.bound: dict[str, ast.expr] = {}
        self.imported: dict[str, tuple[str, str]] = {}
        for node in tree.body:
            if isinstance(node, ast.Assign) and len(node.targets) == 1 and isinstance(node.targets[0], ast.Name):
                self.bound[node.targets[0].id] = node.value
            elif isinstance(node, ast.ImportFrom) and node.module and not node.level:
                for alias in node.names:
                    self.imported[alias.asname or alias.name] = (node.module, alias.name)
        self.local: dict[str, Any] = {}

    def lookup(self, name: str) -> Any:
        if name in self.local:
            return self.local[name]
        if name in self.bound and name not in ("__doc__", "META"):
            return self.value(self.bound[name])
        if name in self.imported:
            module, original = self.imported[name]
            return _Scope(module, _source(module)).lookup(original)
        raise Unreadable(f"{self.module}.{name}")

    def value(self, node: ast.expr) -> Any:
        handler = _HANDLERS.get(type(node))
        if handler is None:
            raise Unreadable(f"{self.module}: {ast.dump(node)[:80]}")
        return handler(self, node)

    def loop(self, node: ast.GeneratorExp | ast.ListComp) -> Iterator[Any]:
        if len(node.generators) != 1:
            raise Unreadable("nested comprehension")
        comp = node.generators[0]
        target = _name(comp.target)
        for item in self.value(comp.iter):
            self.local[target] = item
            if all(self.value(test) for test in comp.ifs):
                yield self.value(node.elt)
        self.local.pop(target, None)


def _call(scope: _Scope, node: ast.Call) -> Any:
    if node.keywords:
        raise Unreadable("keyword arguments")
    args = [scope.value(arg) for arg in node.args]
    if isinstance(node.func, ast.Name) and node.func.id == "range" and "range" not in scope.bound:
        if not all(isinstance(a, int) and abs(a) <= 1_000_000 for a in args):
            raise Unreadable("range")
        return range(*args)
    if isinstance(node.func, ast.Attribute) and node.func.attr in ("join", "replace"):
        owner = scope.value(node.func.value)
        if isinstance(owner, str):
            return getattr(owner, node.func.attr)(*args)
    raise Unreadable(f"a call: {ast.dump(node.func)[:80]}")


def _binop(scope: _Scope, node: ast.BinOp) -> Any:
    left, right = scope.value(node.left), scope.value(node.right)
    if isinstance(node.op, ast.Add) and type(left) is type(right) and isinstance(left, (str, int, float, tuple)):
        return left + right
    if isinstance(node.op, ast.Mult) and isinstance(left, (int, float)) and isinstance(right, (int, float)):
        return left * right
    raise Unreadable("an operator")


def _formatted(scope: _Scope, node: ast.FormattedValue) -> str:
    if node.conversion != -1 or node.format_spec is not None:
        raise Unreadable("a conversion or format spec")
    return str(scope.value(node.value))


_HANDLERS: dict[type, Callable[[_Scope, Any], Any]] = {
    ast.Constant: lambda scope, node: node.value,
    ast.Tuple: lambda scope, node: tuple(scope.value(e) for e in node.elts),
    ast.List: lambda scope, node: [scope.value(e) for e in node.elts],
    ast.Dict: lambda scope, node: {scope.value(_present(k)): scope.value(v) for k, v in zip(node.keys, node.values)},
    ast.Name: lambda scope, node: scope.lookup(node.id),
    ast.UnaryOp: lambda scope, node: -scope.value(node.operand) if isinstance(node.op, ast.USub) else _unreadable(),
    ast.BinOp: _binop,
    ast.JoinedStr: lambda scope, node: "".join(scope.value(v) for v in node.values),
    ast.FormattedValue: _formatted,
    ast.Call: _call,
    ast.GeneratorExp: lambda scope, node: list(scope.loop(node)),
    ast.ListComp: lambda scope, node: list(scope.loop(node)),
}


def _unreadable() -> Any:
    raise Unreadable("a form not read here")


def _present(key: ast.expr | None) -> ast.expr:
    if key is None:  # `{**other}`
        raise Unreadable("a dict unpacking")
    return key


def default_codes() -> frozenset[str]:
    """The rules selected when nothing is selected: every rule whose finding states a consequence.
    Read from the built-in rules' sources when they are all there is (no plugin): a configuration
    that names no rule is then built without importing them, which `memlint hook` after a write to
    a memory file cannot afford. Only each module's META statement is parsed, not its page (4 ms). When
    the rules are imported already (`check` and `fix` import them before reading the configuration:
    they run them all the same), their METAs answer."""
    if rules_imported():
        return frozenset(r.code for r in all_rules() if r.meta.default)
    families = [ep.value for ep in _entry_points()]
    if families and all(_is_builtin(value) and ":" not in value for value in families):
        try:
            return frozenset(code for family in families for module in _family(family)
                             for code, default in [_code_and_default(module)] if default)
        except (OSError, SyntaxError, UnicodeDecodeError, Unreadable, ValueError):
            pass
    return frozenset(r.code for r in all_rules() if r.meta.default)


def _code_and_default(module: str) -> tuple[str, bool]:
    """The code and the `default` of a rule module's META, read from the `META = RuleMeta(...)`
    statement alone, when both are written as literals."""
    text = page_head(_read(module))
    start = text.find(b"\nMETA = ")
    if start < 0:
        raise Unreadable(f"{module}: no META")
    node = ast.parse(text[start + 1:].decode("utf-8")).body[0]
    call = node.value if isinstance(node, ast.Assign) else None
    if not (isinstance(call, ast.Call) and _name(call.func) == "RuleMeta"
            and all(kw.arg is not None for kw in call.keywords)):  # no `**options`
        raise Unreadable(f"{module}.META")
    given = {kw.arg: kw.value for kw in call.keywords}
    code = call.args[0] if call.args else given.get("code")
    default = given.get("default", ast.Constant(True))
    if not (isinstance(code, ast.Constant) and isinstance(code.value, str)
            and isinstance(default, ast.Constant) and isinstance(default.value, bool)):
        raise Unreadable(f"{module}.META")
    return code.value, default.value
