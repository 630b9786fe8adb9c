"""`memlint context` as a budget picture: subtotals per kind of memory against the context window and
against the room left before auto-compact, a bar per file, and deferred files grouped per folder."""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable
from pathlib import Path
from typing import Any

import click

from memlint.model.loading.compaction import after_compact
from memlint.model.loading.loader import Deferred, LoadedContext
from memlint.model.loading.windows import COMPACT_BUFFER, SUMMARY_RESERVE, Window
from memlint.records import dataclass

KINDS = ("managed", "user", "project", "local", "rules", "AGENTS.md", "auto memory")
BAR_CELLS = 20


def kind_of(path: str, kind: str) -> str:
    """The subtotal a loaded file counts in: rules files and AGENTS.md apart from other project files."""
    parts = Path(path).parts
    if kind == "automem":
        return "auto memory"
    if Path(path).name == "AGENTS.md":
        return "AGENTS.md"
    if any(parts[i : i + 2] == (".claude", "rules") for i in range(len(parts) - 1)):
        return "rules"
    return kind


@dataclass(frozen=True)
class Subtotal:
    kind: str
    files: int
    tokens: int


def subtotals(files: list[dict[str, Any]]) -> list[Subtotal]:
    counts: Counter[str] = Counter()
    tokens: Counter[str] = Counter()
    for f in files:
        kind = kind_of(f["path"], f["kind"])
        counts[kind] += 1
        tokens[kind] += f["tokens"]
    return [Subtotal(k, counts[k], tokens[k]) for k in KINDS if counts[k]]


def budget_dict(files: list[dict[str, Any]], window: Window) -> dict[str, Any]:
    """The `budget` object of `memlint context --format json`."""
    total = sum(f["tokens"] for f in files)
    return {
        "window": window.tokens,
        "window_source": window.source,
        "summary_reserve": SUMMARY_RESERVE,
        "compact_buffer": COMPACT_BUFFER,
        "room_before_compact": window.room,
        "tokens": total,
        "share_of_window": round(total / window.tokens, 6) if window.tokens else None,
        "share_of_room": round(total / window.room, 6) if window.room else None,
        "kinds": [{"kind": s.kind, "files": s.files, "tokens": s.tokens,
                   "share_of_window": round(s.tokens / window.tokens, 6) if window.tokens else None,
                   "share_of_room": round(s.tokens / window.room, 6) if window.room else None}
                  for s in subtotals(files)],
    }


def bar(tokens: int, largest: int) -> str:
    """A bar of BAR_CELLS cells, full for the largest file; any non-empty file gets at least one."""
    if largest <= 0 or tokens <= 0:
        return " " * BAR_CELLS
    cells = max(1, round(BAR_CELLS * tokens / largest))
    return "█" * cells + "·" * (BAR_CELLS - cells)


def _pct(part: int, whole: int) -> str:
    return f"{100 * part / whole:.1f}%" if whole else "-"


def render_budget(files: list[dict[str, Any]], window: Window, unit: str, out: Callable[[str], None]) -> None:
    """The window, the room before auto-compact, and a line per kind of memory."""
    total = sum(f["tokens"] for f in files)
    out(click.style(
        f"Budget: {window.tokens:,}-token window ({window.source}); auto-compact fires at {window.room:,} "
        f"(the window less {SUMMARY_RESERVE:,} kept for the summary and a {COMPACT_BUFFER:,} buffer)", bold=True))
    out(f"  {'kind':<12} {'files':>5} {unit:>16} {'of window':>10} {'of room':>9}")
    for s in subtotals(files):
        out(f"  {s.kind:<12} {s.files:>5} {s.tokens:>16,} {_pct(s.tokens, window.tokens):>10} "
            f"{_pct(s.tokens, window.room):>9}")
    out(f"  {'memory':<12} {len(files):>5} {total:>16,} {_pct(total, window.tokens):>10} {_pct(total, window.room):>9}")


def _group(d: Deferred, ctx: LoadedContext, short: Callable[[str, LoadedContext], str]) -> str:
    """The folder a deferred file is listed under: its `.claude/rules` folder, else the first folder
    of its path below the start folder."""
    path = short(str(d.path), ctx)
    parts = Path(path).parts
    for i in range(len(parts) - 1):
        if parts[i : i + 2] == (".claude", "rules"):
            return "/".join(parts[: i + 2]) + "/"
    return (parts[0] + "/") if len(parts) > 1 else "./"


def render_deferred(ctx: LoadedContext, show_all: bool, out: Callable[[str], None],
                    short: Callable[[str, LoadedContext], str]) -> None:
    """Every deferred file with `--all`; else one line per folder with counts per reason."""
    if not ctx.deferred:
        return
    out(click.style(f"Deferred ({len(ctx.deferred)}), loaded later when Claude reads matching files:", bold=True))
    if show_all or len(ctx.deferred) <= 10:
        for d in ctx.deferred:
            globs = f" paths: {', '.join(d.paths)}" if d.paths else ""
            out(f"  {click.style(d.reason, fg='blue')} {short(str(d.path), ctx)}{globs}")
        return
    groups: dict[str, Counter[str]] = {}
    for d in ctx.deferred:
        groups.setdefault(_group(d, ctx, short), Counter())[d.reason] += 1
    for folder, reasons in sorted(groups.items()):
        n = sum(reasons.values())
        detail = ", ".join(f"{reason} {count}" for reason, count in sorted(reasons.items()))
        out(f"  {folder:<40} {n:>5} file{'s' if n != 1 else ' '}  ({detail})")
    out("  (every file: memlint context --all)")


def after_compact_dict(ctx: LoadedContext) -> dict[str, Any]:
    """The `after_compact` object of `memlint context --format json`."""
    view = after_compact(ctx)
    return {"reinjected": [str(f.path) for f in view.reinjected],
            "gone_until_read": [str(d.path) for d in view.gone_until_read]}


def render_after_compact(ctx: LoadedContext, files: list[dict[str, Any]], unit: str, out: Callable[[str], None]) -> None:
    """What survives `/compact`: the start-up memory comes back whole; memory attached during the
    session (nested CLAUDE.md, rules with `paths:`) is gone until Claude reads a matching file again."""
    view = after_compact(ctx)
    total = sum(f["tokens"] for f in files)
    out(click.style("After /compact (or auto-compact):", bold=True))
    out(f"  sent again whole: the {len(view.reinjected)} files loaded at start ({total:,} {unit}); "
        "files Claude read recently may come back as re-attached reads")
    if view.gone_until_read:
        reasons = Counter(d.reason for d in view.gone_until_read)
        detail = ", ".join(f"{reason} {count}" for reason, count in sorted(reasons.items()))
        out(f"  dropped, back only when Claude reads a matching file again: memory attached during the session "
            f"({detail}), even when the read that brought it is restored")
