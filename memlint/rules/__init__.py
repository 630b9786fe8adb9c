"""The rule registry. Built-in rules are found through the `memlint.rules` entry-point group, the
same door a third-party plugin uses. A rule is a module with a docstring (its page), `META`, and
`check(ctx) -> Iterator[Finding]`. An entry point names either one rule module or a package whose
`RULES` tuple lists rule modules (one entry point per family of built-in rules)."""

from __future__ import annotations

import importlib
import re
from collections.abc import Iterator, Mapping
from dataclasses import dataclass, field
from functools import lru_cache
from importlib.metadata import entry_points
from types import ModuleType
from typing import TYPE_CHECKING, Any, Protocol

from memlint.errors import MemlintError
from memlint.violations import Finding, Severity

if TYPE_CHECKING:
    from memlint.model.rule_context import RuleContext

CODE_PATTERN = re.compile(r"ML\d{3}")
SLUG_PATTERN = re.compile(r"[a-z0-9]+(?:-[a-z0-9]+)*")


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
    # Selected when the configuration names no rules. False for opt-in rules that restate a style or
    # convention preference and change nothing Claude Code does: `--select` / `extend-select` turn them on.
    default: bool = True


class RuleModule(Protocol):
    """What a rule module provides."""

    META: RuleMeta
    __doc__: str | None

    def check(self, ctx: RuleContext) -> Iterator[Finding]: ...


@dataclass(frozen=True)
class Rule:
    meta: RuleMeta
    module: ModuleType

    @property
    def code(self) -> str:
        return self.meta.code

    @property
    def slug(self) -> str:
        return self.meta.slug

    @property
    def doc(self) -> str:
        return (self.module.__doc__ or "").strip()

    def check(self, ctx: RuleContext) -> Iterator[Finding]:
        result: Iterator[Finding] = self.module.check(ctx)
        return result


def _rule_from_module(module: ModuleType, origin: str) -> Rule:
    meta = getattr(module, "META", None)
    if not isinstance(meta, RuleMeta) or not callable(getattr(module, "check", None)):
        raise MemlintError(f"plugin {origin}: a rule module needs META (RuleMeta) and check(ctx)")
    if not CODE_PATTERN.fullmatch(meta.code) or not SLUG_PATTERN.fullmatch(meta.slug):
        raise MemlintError(f"plugin {origin}: bad code {meta.code!r} or slug {meta.slug!r}")
    return Rule(meta, module)


@lru_cache(maxsize=1)
def all_rules() -> tuple[Rule, ...]:
    """Every registered rule, sorted by code."""
    rules: dict[str, Rule] = {}
    for ep in entry_points(group="memlint.rules"):
        try:
            module = importlib.import_module(ep.value.split(":")[0])
        except Exception as exc:
            raise MemlintError(f"plugin {ep.name} ({ep.value}) failed to import: {exc}") from exc
        members = getattr(module, "RULES", None)
        for member in members if members is not None else (module,):
            rule = _rule_from_module(member, ep.value)
            if rule.code in rules and rules[rule.code].module is not member:
                raise MemlintError(f"rule code {rule.code} is registered twice ({ep.value})")
            rules[rule.code] = rule
    return tuple(sorted(rules.values(), key=lambda r: r.code))


def default_codes() -> frozenset[str]:
    """The rules selected when nothing is selected: every rule whose finding states a consequence."""
    return frozenset(r.code for r in all_rules() if r.meta.default)


def find_rule(name: str) -> Rule | None:
    """A rule by code (`ML101`) or slug (`include-target-missing`)."""
    key = name.strip()
    for rule in all_rules():
        if rule.code == key.upper() or rule.slug == key.lower():
            return rule
    return None
