"""The rule registry. Built-in rules are found through the `memlint.rules` entry-point group, the
same door a third-party plugin uses. A rule is a module with a docstring (its page), `META`, and
`check(ctx) -> Iterator[Finding]`. An entry point names either one rule module or a package whose
`RULES` tuple lists rule modules (one entry point per family of built-in rules).

A rule that looks at files one at a time may say so instead of `check`: `FILES(ctx)` lists what it
looks at (paths, or items with a `.path`) and `check_file(ctx, item)` looks at one. The engine then runs all
such rules file by file, so that a file's text is read once for all of them, not once per rule
(model.source.residency lets the texts of a large run go).

Built-in codes are `ML` + three digits; a plugin's codes have a prefix of its own (`[A-Z]{1,4}` not
starting with `ML`) + three digits. A plugin that fails to import, breaks this contract, reuses a
registered code or slug, or crashes while checking is reported once (`plugin_problems()`) and skipped:
the built-in rules still run and alone decide the exit code. See docs/plugins.md."""

from __future__ import annotations

import importlib
import os
import sys
from collections.abc import Iterable, Iterator, Mapping
from dataclasses import field
from functools import lru_cache
from types import ModuleType
from typing import TYPE_CHECKING, Any, NamedTuple, Protocol, TypeVar

from memlint.errors import MemlintError
from memlint.lazy_regex import compile_lazily
from memlint.records import dataclass
from memlint.violations import Finding, Severity

if TYPE_CHECKING:
    from pathlib import Path

    from memlint.model.run.rule_context import RuleContext

CODE_PATTERN = compile_lazily(r"ML\d{3}")  # built-in rules
PLUGIN_CODE_PATTERN = compile_lazily(r"(?!ML)[A-Z]{1,4}\d{3}")  # a plugin's own prefix
SLUG_PATTERN = compile_lazily(r"[a-z0-9]+(?:-[a-z0-9]+)*")


@dataclass(frozen=True)
class RuleMeta:
    """A rule's identity and defaults."""

    code: str
    slug: str
    severity: Severity
    summary: str
    fix: str | None = None  # "safe", "unsafe" or None
    options: Mapping[str, Any] = field(default_factory=dict)
    choices: Mapping[str, tuple[str, ...]] = field(default_factory=dict)  # allowed values of str options
    # The range of a numeric option, as comparisons joined by ", " (e.g. "> 0, <= 100"); an option
    # not named here must be >= 0. Every numeric option must be finite (memlint.config checks).
    ranges: Mapping[str, str] = field(default_factory=dict)
    # Selected when the configuration names no rules. False for opt-in rules that restate a style or
    # convention preference and change nothing Claude Code does: `--select` / `extend-select` turn them on.
    default: bool = True


class RuleModule(Protocol):
    """What a rule module provides (or, instead of `check`, `FILES` and `check_file`)."""

    META: RuleMeta
    __doc__: str | None

    def check(self, ctx: RuleContext) -> Iterator[Finding]: ...


class HasPath(Protocol):
    """What a per-file rule looks at: anything naming a file."""

    @property
    def path(self) -> Path: ...


_PROBLEMS: list[str] = []  # plugin problems of this process, each once, in the order met


def _problem(message: str) -> None:
    if message not in _PROBLEMS:
        _PROBLEMS.append(message)


def plugin_problems() -> tuple[str, ...]:
    """Every plugin skipped so far (at registration, or because a plugin rule crashed), once each."""
    all_rules()
    return tuple(_PROBLEMS)


class NamedByMeta:
    """A rule's code and slug, read from its META (a `Rule`, or a built-in rule's catalog entry)."""

    meta: RuleMeta

    @property
    def code(self) -> str:
        return self.meta.code

    @property
    def slug(self) -> str:
        return self.meta.slug


@dataclass(frozen=True)
class Entry(NamedByMeta):
    """A built-in rule as the catalog holds it (memlint.rules.catalog): what its `Rule` shows,
    without the module."""

    meta: RuleMeta
    module: str  # the rule module's name
    doc: str  # its page, stripped, as `Rule.doc`


@dataclass(frozen=True)
class Rule(NamedByMeta):
    """A registered rule: its META, its module, and the plugin entry point it came from."""

    meta: RuleMeta
    module: ModuleType
    plugin: str | None = None  # the entry point of a third-party rule; None for built-in rules

    @property
    def doc(self) -> str:
        return (self.module.__doc__ or "").strip()

    @property
    def per_file(self) -> bool:
        """A built-in rule that looks at files one at a time (`files`, `check_file`)."""
        return self.plugin is None and not hasattr(self.module, "check")

    def files(self, ctx: RuleContext) -> Iterable[HasPath | os.PathLike[str]]:
        """What a per-file rule looks at, in its order: paths, or items naming one (`.path`)."""
        found: Iterable[HasPath | os.PathLike[str]] = self.module.FILES(ctx)
        return found

    def _check(self, ctx: RuleContext) -> Iterator[Finding]:
        if hasattr(self.module, "check"):
            found: Iterator[Finding] = self.module.check(ctx)
            return found
        check_file = self.module.check_file
        return (finding for item in self.files(ctx) for finding in check_file(ctx, item))

    def check(self, ctx: RuleContext) -> Iterator[Finding]:
        if self.plugin is None:
            return self._check(ctx)
        try:  # a plugin's findings count only when its check completes
            return iter(list(self._check(ctx)))
        except Exception as exc:  # noqa: BLE001 - a broken plugin must not stop the run
            _problem(f"plugin {self.plugin}: rule {self.code} crashed ({type(exc).__name__}: {exc}); its findings are skipped")
            return iter(())


def _rule_from_module(module: ModuleType, origin: str, plugin: str | None = None) -> Rule:
    meta = getattr(module, "META", None)
    per_file = callable(getattr(module, "FILES", None)) and callable(getattr(module, "check_file", None))
    if not isinstance(meta, RuleMeta) or not (callable(getattr(module, "check", None)) or per_file):
        raise MemlintError(f"plugin {origin}: a rule module needs META (RuleMeta) and check(ctx) "
                           "(or FILES(ctx) and check_file(ctx, item))")
    if not isinstance(meta.code, str) or not isinstance(meta.slug, str):
        raise MemlintError(f"plugin {origin}: META.code and META.slug must be strings")
    return Rule(meta, module, plugin)


def _contract_error(rule: Rule) -> str | None:
    """Why `rule`'s code or slug breaks the contract, or None."""
    if not (CODE_PATTERN if rule.plugin is None else PLUGIN_CODE_PATTERN).fullmatch(rule.code):
        shape = "ML + 3 digits" if rule.plugin is None else "a prefix of 1-4 capitals other than ML + 3 digits, like ACME101"
        return f"code {rule.code!r} is not {shape}"
    if not SLUG_PATTERN.fullmatch(rule.slug):
        return f"slug {rule.slug!r} is not lower-case words joined by hyphens"
    return None


def _is_builtin(value: str) -> bool:
    return value.split(":")[0].startswith("memlint.rules")


@lru_cache(maxsize=1)
def all_rules() -> tuple[Rule, ...]:
    """Every registered rule, sorted by code. Built-in rules are registered first; a plugin that
    cannot be registered is skipped whole and reported by `plugin_problems()`."""
    rules: dict[str, Rule] = {}
    _PROBLEMS.clear()
    eps = sorted(_entry_points(), key=lambda ep: (not _is_builtin(ep.value), ep.name))
    for ep in eps:
        builtin = _is_builtin(ep.value)
        try:
            module = importlib.import_module(ep.value.split(":")[0])
            members = getattr(module, "RULES", None)
            found = [_rule_from_module(m, ep.value, None if builtin else f"{ep.name} ({ep.value})")
                     for m in (members if members is not None else (module,))]
        except Exception as exc:  # a broken plugin is reported and skipped
            if builtin:
                raise MemlintError(f"built-in rules {ep.value} failed to load: {exc}") from exc
            _problem(f"plugin {ep.name} ({ep.value}) skipped: {exc}")
            continue
        slugs = {r.slug: r for r in rules.values()}
        clash = next(((r, rules.get(r.code) or slugs[r.slug]) for r in found
                      if (r.code in rules and rules[r.code].module is not r.module)
                      or (r.slug in slugs and slugs[r.slug].code != r.code)), None)
        broken = next((error for error in map(_contract_error, found) if error), None)
        if clash is not None or broken is not None:
            why = broken if clash is None else (
                f"{clash[0].code} {clash[0].slug} collides with the registered rule {clash[1].code} {clash[1].slug}")
            if builtin:
                raise MemlintError(f"built-in rules {ep.value}: {why}")
            _problem(f"plugin {ep.name} ({ep.value}) skipped: {why}")
            continue
        for rule in found:
            rules[rule.code] = rule
    return tuple(sorted(rules.values(), key=lambda r: r.code))


def rules_imported() -> bool:
    """Whether `all_rules` has imported the rules already in this process."""
    return all_rules.cache_info().currsize > 0


class _EntryPoint(NamedTuple):
    name: str
    value: str


def _entry_points() -> list[_EntryPoint]:
    """The `memlint.rules` entry points. Read straight from the `entry_points.txt` of the
    distributions on sys.path when only memlint itself registers rules there (importing
    importlib.metadata costs 40 ms, a tenth of a small run); with any plugin installed, or any doubt,
    importlib.metadata answers."""
    found: list[list[_EntryPoint]] = []
    for base in sys.path:
        try:
            names = [e.name for e in os.scandir(base or ".") if e.name.endswith((".dist-info", ".egg-info"))]
        except OSError:
            continue
        for name in names:
            try:
                with open(os.path.join(base or ".", name, "entry_points.txt"), encoding="utf-8") as handle:
                    text = handle.read()
            except (OSError, UnicodeDecodeError):
                continue
            if "[memlint.rules]" in text:
                found.append(_section(text, "memlint.rules"))
    # an editable install lists memlint twice (its dist-info, and the checkout's egg-info): the same
    # entry points twice are one registration
    if found and all(section == found[0] for section in found) and found[0] and (
            all(_is_builtin(ep.value) for ep in found[0])):
        return found[0]
    from importlib.metadata import entry_points

    return [_EntryPoint(ep.name, ep.value) for ep in entry_points(group="memlint.rules")]


def _section(text: str, wanted: str) -> list[_EntryPoint]:
    out: list[_EntryPoint] = []
    current = None
    for raw in text.splitlines():
        line = raw.strip()
        if not line or line.startswith(("#", ";")):
            continue
        if line.startswith("[") and line.endswith("]"):
            current = line[1:-1].strip()
        elif current == wanted and "=" in line:
            name, value = line.split("=", 1)
            out.append(_EntryPoint(name.strip(), value.strip()))
    return out


class Named(Protocol):
    """What finding a rule by name needs: a `Rule`, or a built-in rule's catalog entry."""

    @property
    def code(self) -> str: ...

    @property
    def slug(self) -> str: ...


NamedT = TypeVar("NamedT", bound=Named)


def pick_rule(rules: Iterable[NamedT], name: str) -> NamedT | None:
    """The first of `rules` with code (`ML101`) or slug (`include-target-missing`) `name`."""
    key = name.strip()
    for rule in rules:
        if rule.code == key.upper() or rule.slug == key.lower():
            return rule
    return None


def find_rule(name: str) -> Rule | None:
    """A rule by code (`ML101`) or slug (`include-target-missing`)."""
    return pick_rule(all_rules(), name)
