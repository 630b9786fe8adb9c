"""What a fix run says: the summary (fixes applied, findings they resolved, files written), the
`--show-fixes` list, each fix's explanation, and the `--diff` patch.

"Fixed" means two counted things, said apart: the fixes applied (one MEMORY.md split is one fix,
however many findings carry it) and the findings they resolved (findings of the first check that
had a fix and that the last check no longer reports, per file and rule). The summary and
`--show-fixes` count both the same way, from `resolved`."""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import TYPE_CHECKING

from memlint.lazy_regex import compile_lazily

if TYPE_CHECKING:
    from memlint.fixes import FixResult
    from memlint.violations import Fix, Violation


def resolved(before: Sequence[Violation], after: Sequence[Violation]) -> dict[tuple[Path, str, str], int]:
    """Per (file, code, slug): how many findings that had a fix at the first check are gone at the last."""
    gone = Counter((v.path, v.code, v.slug) for v in before if v.fix is not None)
    gone.subtract(Counter((v.path, v.code, v.slug) for v in after))
    return {key: n for key, n in gone.items() if n > 0}


def _count(n: int, what: str, plural: str = "s") -> str:
    return f"{n} {what}{'' if n == 1 else plural}"


_NAMED = compile_lazily(r"[a-z0-9]+(?:-[a-z0-9]+)+")


def label(fix: Fix, slug: str = "") -> str:
    """What a fix is called in a summary: its own name (`split-memory-index: ...`), else the slug of
    the rule that offered it, else its title."""
    return fix.name if _NAMED.fullmatch(fix.name) else slug or fix.title


def applied_line(fixes: Sequence[Fix], resolved_findings: int, slugs: Sequence[str] = ()) -> str:
    """`Applied 3 fixes (2 × add-index-entries, split-memory-index), resolving 4 findings`."""
    names = Counter(label(fix, slug) for fix, slug in zip(fixes, [*slugs, *[""] * (len(fixes) - len(slugs))]))
    shown = ", ".join(name if n == 1 else f"{n} \u00d7 {name}" for name, n in sorted(names.items()))
    return (f"Applied {_count(len(fixes), 'fix', 'es')}" + (f" ({shown})" if shown else "")
            + f", resolving {_count(resolved_findings, 'finding')}")


def fixed_summary(result: FixResult, written: Sequence[Path], resolved_findings: int) -> str:
    """`Applied 1 fix (split-memory-index), resolving 2 findings: 1 file rewritten, 3 files created.`"""
    created = sum(1 for p in written if result.before.get(p) is None and result.after.get(p) is not None)
    deleted = sum(1 for p in written if result.after.get(p) is None)
    parts = [f"{_count(len(written) - created - deleted, 'file')} rewritten"]
    if created:
        parts.append(f"{_count(created, 'file')} created")
    if deleted:
        parts.append(f"{_count(deleted, 'file')} removed")
    return f"{applied_line(result.fixes, resolved_findings, result.slugs)}: {', '.join(parts)}."


def fixes_summary(
    before: Sequence[Violation], after: Sequence[Violation], display: Callable[[Path], str],
    fixes: Sequence[Fix] = (), slugs: Sequence[str] = (),
) -> str:
    """What `--show-fixes` prints: the fixes applied, and per file how many findings of each rule
    they resolved (the same counts as the summary)."""
    fixed = resolved(before, after)
    if not fixes and not fixed:
        return "No fixes applied."
    lines = [f"{applied_line(fixes, sum(fixed.values()), slugs)}:"]
    for path in sorted({p for p, _, _ in fixed}):
        lines.append(f"- {display(path)}:")
        for (p, code, slug), n in sorted(fixed.items()):
            if p == path:
                lines.append(f"    {n} \u00d7 {code} ({slug})")
    return "\n".join(lines)


def explanations(result: FixResult, display: Callable[[Path], str], skip: Sequence[Path] = ()) -> list[str]:
    """Each applied fix that explains itself: its name and file, then its lines, indented. A fix
    touching a file in `skip` (not written) is left out."""
    out: list[str] = []
    for fix, slug in zip(result.fixes, result.slugs):
        if not fix.explanation or fix.paths & set(skip):
            continue
        rewritten = sorted(e.path for e in fix.edits if not e.create)
        where = rewritten[0] if rewritten else min(e.path for e in fix.edits)
        out.append(f"  {label(fix, slug)} ({display(where)}):")
        out.extend(f"    {line}" for line in fix.explanation)
    return out


def unified_diff(result: FixResult, display: Callable[[Path], str]) -> str:
    import difflib  # only `--diff` needs it: a check does not pay for the import

    chunks: list[str] = []
    for path, new in sorted(result.changed.items()):
        old = result.before.get(path)
        chunks.extend(difflib.unified_diff(
            (old or "").splitlines(keepends=True), (new or "").splitlines(keepends=True),
            fromfile="/dev/null" if old is None else f"a/{display(path)}",
            tofile="/dev/null" if new is None else f"b/{display(path)}",
        ))
    return "".join(line if line.endswith("\n") else line + "\n\\ No newline at end of file\n" for line in chunks)
