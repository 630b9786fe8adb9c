"""Inline suppression in HTML comments, which Claude Code strips before the model sees them:

    <!-- memlint: disable-next-line ML101 -->
    <!-- memlint: disable ML101, ML102 -->  ...  <!-- memlint: enable ML101, ML102 -->
    <!-- memlint: disable-file ML301 -->

Codes or slugs; none means every rule. A suppression that silences nothing is reported as ML902.
"""

from __future__ import annotations

import re
from pathlib import Path

from memlint.lazy_regex import compile_lazily
from memlint.model.loading.workspace import Workspace
from memlint.records import dataclass
from memlint.violations import Violation

DIRECTIVE = compile_lazily(r"<!--\s*memlint:\s*(disable-next-line|disable-file|disable|enable)\b([^>]*?)\s*-->")


@dataclass
class _Directive:
    """A `memlint: disable...` comment: which rules, which lines, and whether it silenced anything."""

    kind: str
    names: frozenset[str]  # empty: all rules
    line: int
    end: int  # last line it covers (inclusive)
    used: bool = False

    def covers(self, v: Violation) -> bool:
        named = not self.names or v.code in self.names or v.slug in self.names
        return named and self.line <= v.line <= self.end


def parse_directives(text: str) -> list[_Directive]:
    lines = text.split("\n")
    out: list[_Directive] = []
    open_ranges: list[_Directive] = []
    for number, line in enumerate(lines, start=1):
        for match in DIRECTIVE.finditer(line):
            kind = match.group(1)
            names = frozenset(n for n in re.split(r"[\s,]+", match.group(2).strip()) if n)
            names = frozenset(n.upper() if n.upper().startswith("ML") else n.lower() for n in names)
            if kind == "disable-next-line":
                out.append(_Directive(kind, names, number + 1, number + 1))
            elif kind == "disable-file":
                out.append(_Directive(kind, names, 1, len(lines)))
            elif kind == "disable":
                directive = _Directive(kind, names, number, len(lines))
                out.append(directive)
                open_ranges.append(directive)
            else:
                for directive in open_ranges:
                    if directive.end == len(lines) and (not names or directive.names & names or not directive.names):
                        directive.end = number
    return out


def _directives(path: Path, workspace: Workspace) -> list[_Directive]:
    doc = workspace.document(path)
    return parse_directives(doc.text) if doc.readable and doc.contains("memlint:") else []


def apply_suppressions(
    violations: list[Violation], workspace: Workspace, report_unused: bool, paths: tuple[Path, ...] = ()
) -> list[Violation]:
    """Drop suppressed violations; add ML902 for directives (in any of `paths` or of the violated
    files) that silenced nothing."""
    by_path: dict[Path, list[_Directive]] = {p: _directives(p, workspace) for p in paths}
    kept: list[Violation] = []
    for v in violations:
        directives = by_path.get(v.path)
        if directives is None:
            directives = by_path[v.path] = _directives(v.path, workspace)
        if not directives:  # most files: nothing to look through
            kept.append(v)
            continue
        hit = next((d for d in directives if d.covers(v)), None)
        if hit is None:
            kept.append(v)
        else:
            hit.used = True
    if report_unused:
        for path, directives in by_path.items():
            for d in directives:
                if not d.used:
                    kept.append(_unused(path, d))
    return kept


def _unused(path: Path, d: _Directive) -> Violation:
    names = ", ".join(sorted(d.names)) or "all rules"
    line = d.line - 1 if d.kind == "disable-next-line" else d.line
    return Violation(path, max(line, 1), 1, "ML902", "unused-suppression", "warning",
                     f"this `memlint: {d.kind}` ({names}) suppresses nothing; remove it", max(line, 1), 1)
