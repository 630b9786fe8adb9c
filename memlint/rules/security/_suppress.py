"""Suppression of single occurrences inside a once-per-file finding.

The security rules report each file once, at its first occurrence. A `memlint: disable-next-line`
or `disable ... enable` comment around one occurrence (a documented example) must silence that
occurrence only, not the whole file: the occurrences it covers are yielded as findings of their
own on their own lines (which the engine then drops, marking the comment used), and the file's
finding lists the rest."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from pathlib import Path
from typing import TypeVar

from memlint.model.run.rule_context import RuleContext
from memlint.model.text.document import Document
from memlint.rules import RuleMeta
from memlint.rules._paths import show
from memlint.rules.security._text import Lines
from memlint.suppression import parse_directives
from memlint.violations import Finding

T = TypeVar("T")


def split(doc: Document, meta: RuleMeta, offsets: Sequence[int]) -> tuple[list[int], list[int]]:
    """(indices of the occurrences to report, lines of the occurrences a comment suppresses)."""
    if not offsets:
        return [], []  # most files: nothing to suppress, and no need to look for a comment
    if "memlint:" not in doc.text:
        return list(range(len(offsets))), []
    directives = [d for d in parse_directives(doc.text)
                  if not d.names or meta.code in d.names or meta.slug in d.names]
    if not directives:
        return list(range(len(offsets))), []
    lines = Lines(doc.text)
    kept: list[int] = []
    quiet: set[int] = set()
    for index, offset in enumerate(offsets):
        line = lines.line(offset)
        if any(d.line <= line <= d.end for d in directives):
            quiet.add(line)
        else:
            kept.append(index)
    return kept, sorted(quiet)


def unsuppressed(ctx: RuleContext, path: Path, doc: Document, meta: RuleMeta, found: Sequence[T],
                 offset: Callable[[T], int]) -> tuple[list[T], list[Finding]]:
    """(the occurrences to report, one finding per suppressed line: the engine drops those and
    marks their comment used)."""
    if not found:
        return [], []  # most files: nothing found, nothing to suppress
    keep, quiet = split(doc, meta, [offset(item) for item in found])
    dropped = [Finding(path, line, f"`{show(ctx, path)}`: a suppressed occurrence of {meta.slug}") for line in quiet]
    return [found[i] for i in keep], dropped
