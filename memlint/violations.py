"""What rules report: findings, violations, and the text edits that fix them."""

from __future__ import annotations

from dataclasses import field
from enum import Enum
from pathlib import Path
from typing import Literal

from memlint.records import dataclass

Severity = Literal["error", "warning", "info"]
SEVERITIES: tuple[Severity, ...] = ("error", "warning", "info")


class Applicability(str, Enum):
    """How safe a fix is. SAFE changes nothing the agent reads but white space and layout."""

    SAFE = "safe"
    UNSAFE = "unsafe"
    DISPLAY_ONLY = "display-only"


@dataclass(frozen=True, order=True, slots=True)
class Edit:
    """Replace `text[start:end]` of the file at `path` with `replacement` (character offsets in
    the decoded text). `create=True` writes a new file that must not exist yet; `delete=True`
    removes the file (a rename is a create plus a delete in one Fix)."""

    path: Path
    start: int
    end: int
    replacement: str
    create: bool = False
    delete: bool = False


@dataclass(frozen=True)
class Fix:
    """A set of edits applied all together or not at all.

    `verified`: the fix is lossless by construction and checked itself before it was offered
    (every line of text it takes away is byte-identical somewhere in what it writes; the MEMORY.md
    split). Such a fix may still be UNSAFE (it changes what the agent reads at start): `memlint fix`
    applies it without `--unsafe-fixes`, since the user asked for the fix; `memlint check --fix`
    and the pre-commit fix hook still need `--unsafe-fixes`.

    `explanation`: lines that say what the fix does in words (what moved where, sizes before and
    after), printed by `memlint fix --diff` before the patch and under the summary of a fix run."""

    title: str
    applicability: Applicability
    edits: tuple[Edit, ...]
    verified: bool = False
    explanation: tuple[str, ...] = ()

    @property
    def paths(self) -> frozenset[Path]:
        return frozenset(e.path for e in self.edits)

    @property
    def name(self) -> str:
        """The fix's name: its title up to the first colon (`split-memory-index`)."""
        return self.title.split(":", 1)[0].strip()


@dataclass(frozen=True, slots=True)
class Finding:
    """What a rule yields; the engine stamps it with the rule's code, slug and severity."""

    path: Path
    line: int
    message: str
    column: int = 1
    end_line: int | None = None
    end_column: int | None = None
    fix: Fix | None = None
    severity: Severity | None = None  # overrides the rule's default when set


@dataclass(frozen=True, order=True, slots=True)
class Violation:
    """A finding of a rule, as reported."""

    path: Path
    line: int
    column: int
    code: str
    slug: str = field(compare=False)
    severity: Severity = field(compare=False)
    message: str = field(compare=False)
    end_line: int = field(compare=False)
    end_column: int = field(compare=False)
    fix: Fix | None = field(default=None, compare=False)
