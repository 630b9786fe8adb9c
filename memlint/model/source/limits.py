"""memlint's own bounds on the work a repository can cause (docs/limits.md). Claude Code has no
such limits: when one is reached memlint says so (ML904) and checks the rest without it.

Set in `[tool.memlint.limits]` or `[limits]` of .memlint.toml, e.g. `max-includes-per-file = 5000`."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import fields
from pathlib import Path
from typing import Any

from memlint.errors import ConfigError
from memlint.records import dataclass


@dataclass(frozen=True)
class Limits:
    """How much of a hostile tree memlint follows before it stops and says so."""

    max_includes_per_file: int = 1_000  # distinct `@includes` followed in one file
    max_excludes: int = 1_000  # `claudeMdExcludes` patterns applied (all settings files of a start together)


DEFAULT_LIMITS = Limits()


@dataclass(frozen=True)
class LimitHit:
    """One limit reached on one file."""

    path: Path
    limit: str  # the option name, e.g. "max-includes-per-file"
    value: int  # the limit in force
    detail: str  # what was left unchecked


def option_name(attribute: str) -> str:
    return attribute.replace("_", "-")


def parse_limits(raw: Any) -> Limits:
    """The `limits` table of the configuration: positive integers under known names."""
    if not isinstance(raw, Mapping):
        raise ConfigError("limits: expected a table of limit = number")
    known = {option_name(f.name): f.name for f in fields(Limits)}
    values: dict[str, int] = {}
    for key, value in raw.items():
        if key not in known:
            raise ConfigError(f"limits.{key}: unknown limit (known: {', '.join(sorted(known))})")
        if isinstance(value, bool) or not isinstance(value, int) or value < 1:
            raise ConfigError(f"limits.{key}: expected a positive whole number, got {value!r}")
        values[known[key]] = value
    return Limits(**values)
