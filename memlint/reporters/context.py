"""`memlint context` output: the JSON object of the CLI contract, and the tree for people."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import click

from memlint.escape import styled_for_terminal
from memlint.model.loading.loader import LoadedContext, Origin, Skipped
from memlint.model.loading.settings import ALL_SOURCES, SETTING_SOURCES
from memlint.model.loading.windows import DEFAULT_WINDOW, Window
from memlint.model.memory.automem import hidden_titles, list_topics
from memlint.model.run.include_problems import looks_like_a_file
from memlint.model.text.tokens import counter
from memlint.reporters.budget import (
    after_compact_dict,
    bar,
    budget_dict,
    render_after_compact,
    render_budget,
    render_deferred,
)

WINDOW_TOKENS = DEFAULT_WINDOW
DEFAULT = Window(DEFAULT_WINDOW, "models without a 1M window; --model or --window to change")


def _origin(origin: Origin | None) -> dict[str, Any] | None:
    return None if origin is None else {"path": str(origin.path), "line": origin.line}


def as_dict(ctx: LoadedContext, tokenizer: str = "cl100k", window: Window = DEFAULT) -> dict[str, Any]:
    """The `--format json` object: files in load order, skipped, deferred, totals, the budget."""
    count = counter(tokenizer)
    files = [
        {
            "path": str(f.path),
            "kind": f.kind,
            "parent": str(f.parent) if f.parent else None,
            "depth": f.depth,
            "content": f.content,
            "chars": f.chars,
            "tokens": count(f.content),
        }
        for f in ctx.files
    ]
    release = ctx.release
    return {
        "claude_code": release.name,
        "start": str(ctx.start),
        "home": str(ctx.home),
        # C10: how the instruction files reach the model; C17: how a deferred file arrives later
        "block_format": "own-system-reminder" if release.own_instruction_block else "claudeMd-section",
        "deferred_format": "user-system-reminder-per-file" if release.deferred_as_user_blocks else "system-message",
        "files": files,
        "skipped": [
            {"path": str(s.path), "reason": s.reason, "included_from": _origin(s.origin),
             # an `@scope/pkg` or `@handle` tried as a path: reported by no rule (the text output says so once)
             "names_no_file": _names_no_file(s)} for s in ctx.skipped
        ],
        "deferred": [{"path": str(d.path), "reason": d.reason, "paths": list(d.paths)} for d in ctx.deferred],
        "settings": [{"path": str(s.path), "source": s.source} for s in ctx.settings.files],
        # `--setting-sources`: the sources read (user, project, local; managed and --settings always)
        "setting_sources": [s for s in SETTING_SOURCES if s in ctx.settings.sources],
        # read, then ignored whole: a value Claude Code's schema refuses (ML528)
        "settings_ignored": [{"path": str(i.file.path), "source": i.file.source,
                              "key": i.refusal.key if i.refusal is not None else None,
                              "expected": i.refusal.expected if i.refusal is not None else "a JSON object"}
                             for i in ctx.settings.ignored],
        "instruction_files": ctx.settings.mode if release.agents_md and ctx.settings.agents_plugin_enabled else None,
        "total_chars": sum(f["chars"] for f in files),
        "total_tokens": sum(f["tokens"] for f in files),
        "budget": budget_dict(files, window),
        "after_compact": after_compact_dict(ctx),
    }


def _short(path: str, ctx: LoadedContext) -> str:
    bases = sorted(((str(ctx.start), "."), (str(ctx.project_root), "<root>"), (str(ctx.home), "~")),
                   key=lambda pair: -len(pair[0]))
    for base, label in bases:
        if path == base:
            return label
        if path.startswith(base + "/"):
            rest = path[len(base) + 1 :]
            return rest if label == "." else f"{label}/{rest}"
    return path


def render_text(ctx: LoadedContext, tokenizer: str = "cl100k", echo: Callable[[str], None] | None = None,
                window: Window = DEFAULT, show_all: bool = False) -> None:
    """The files as a tree with sizes and a bar each, the budget per kind against the window and the
    room before auto-compact, then skipped and deferred files (grouped per folder unless `show_all`)."""
    out = echo or (lambda line: click.echo(styled_for_terminal(line)))
    data = as_dict(ctx, tokenizer, window)
    largest = max([f["tokens"] for f in data["files"]] + [0])
    unit = "tokens" if tokenizer == "cl100k" else "tokens (chars/4)"
    out(click.style(f"Claude Code {ctx.release.name} context at start in {ctx.start}", bold=True))
    if ctx.settings.sources != ALL_SOURCES:
        read = ", ".join(s for s in SETTING_SOURCES if s in ctx.settings.sources) or "none"
        left = ", ".join(s for s in SETTING_SOURCES if s not in ctx.settings.sources)
        out(f"  setting sources: {read} (--setting-sources; the {left} memory and settings files are not read)")
    width = max([len(_short(f["path"], ctx)) + 2 * f["depth"] for f in data["files"]] + [20])
    for f in data["files"]:
        label = "  " * f["depth"] + _short(f["path"], ctx)
        kind = click.style(f"{f['kind']:<8}", fg="cyan")
        out(f"  {label:<{width}}  {kind} {f['chars']:>8,} chars {f['tokens']:>7,} {unit}  {bar(f['tokens'], largest)}")
    if not data["files"]:
        out("  (no memory files are loaded)")
    share = 100 * data["total_tokens"] / window.tokens if window.tokens else 0.0
    out(
        click.style(
            f"Total: {len(data['files'])} files, {data['total_chars']:,} chars, {data['total_tokens']:,} {unit} "
            f"= {share:.1f}% of a {window.tokens:,}-token window",
            bold=True,
        )
    )
    render_budget(data["files"], window, unit, out)
    _render_memory(ctx, out)
    _render_notes(ctx, out)
    if ctx.skipped:
        # `@scope/pkg`, `@handle`: Claude Code tries such a word as a path and finds nothing; said once
        words = [s for s in ctx.skipped if _names_no_file(s)]
        listed = [s for s in ctx.skipped if s not in words]
        out(click.style(f"Skipped ({len(ctx.skipped)}):", bold=True))
        for s in listed:
            where = f" (@{s.origin.ref.written} at {_short(str(s.origin.path), ctx)}:{s.origin.line})" if s.origin else ""
            detail = f": {ctx.detail(s)}" if ctx.detail(s) else ""
            out(f"  {click.style(s.reason, fg='red')} {_short(str(s.path), ctx)}{where}{detail}")
        if words:
            names = ", ".join(dict.fromkeys(f"@{s.origin.ref.written}" for s in words if s.origin))
            many = len(words) > 1
            out(f"  {len(words)} @-word{'s that name' if many else ' that names'} no file ({names[:200]}): Claude "
                f"Code tries {'each' if many else 'it'} as a path, finds nothing and loads nothing; harmless, so "
                f"check reports {'none of them' if many else 'nothing'}")
    if ctx.settings.ignored:
        out(click.style(f"Settings ignored whole ({len(ctx.settings.ignored)}):", bold=True))
        for ignored in ctx.settings.ignored:
            out(f"  {click.style('settings-refused', fg='red')} {_short(str(ignored.file.path), ctx)}: "
                f"{ignored.why()}, so none of its settings apply")
    render_deferred(ctx, show_all, out, _short)
    render_after_compact(ctx, data["files"], unit, out)


def _names_no_file(skipped: Skipped) -> bool:
    """A missing include written as a word, not a file (`@types/node`, `@octocat`): Claude Code tries it
    as a path and loads nothing; ML101 leaves it alone (model.include_problems.looks_like_a_file)."""
    return skipped.reason == "missing" and skipped.origin is not None and not looks_like_a_file(skipped.origin.ref.path)


def _render_memory(ctx: LoadedContext, out: Callable[[str], None]) -> None:
    """The auto-memory folder: the index as loaded, what its cut hides, the topic files."""
    index = next((f for f in ctx.files if f.kind == "automem"), None)
    topics = list_topics(ctx.automem_dir)
    if index is None and not topics:
        return
    out(click.style(f"Auto memory ({_short(str(ctx.automem_dir), ctx)}):", bold=True))
    if index is not None and index.truncation is not None:
        t = index.truncation
        if t.truncated:
            hidden = hidden_titles(t, index.document.loaded)
            shown = ", ".join(f"'{h}'" for h in hidden[:8]) + (f", ... ({len(hidden)} in all)" if len(hidden) > 8 else "")
            out(click.style(
                f"  ! MEMORY.md is cut: Claude Code loads lines 1-{t.kept_lines} of {t.line_count} "
                f"({t.size:,} chars); never seen: {shown or 'lines ' + str(t.kept_lines + 1) + '-' + str(t.line_count)}",
                fg="yellow"))
            out(f"    Claude is told: {t.warning}")
        else:
            out(f"  MEMORY.md loaded whole: {t.line_count} lines, {t.size:,} of 25,000 chars")
    for topic in topics:
        about = topic.description or click.style("(no description)", fg="red")
        out(f"  {topic.path.name:<30} {topic.size:>7,} chars  {about}")
    out("  (topic files are not loaded at start; Claude reads them on demand by description)")


def _render_notes(ctx: LoadedContext, out: Callable[[str], None]) -> None:
    """Session notes kept for this project under HOME, each as a per-section budget table."""
    from memlint.model.loading.discovery import session_notes
    from memlint.model.memory.notes_budget import sizes
    from memlint.model.memory.notes_template import DEFAULT_TEMPLATE, parse_template, split_notes
    from memlint.model.text.document import Document
    from memlint.model.text.tokens import chars4

    paths = session_notes(ctx.home, (), (), [ctx.automem_dir.parent])
    if not paths:
        return
    custom = ctx.home / ".claude" / "session-memory" / "config" / "template.md"
    template = DEFAULT_TEMPLATE
    if custom.is_file():
        doc = Document.read(custom)
        if doc.problem is None:
            template = parse_template(doc.text, str(custom))
    for path in paths:
        doc = Document.read(path)
        if doc.problem is not None:
            continue
        rows = sizes(split_notes(doc.text, template), chars4)
        total = sum(r.tokens for r in rows)
        out(click.style(f"Session notes {_short(str(path), ctx)} (tokens = chars/4; budgets 2,000 a section, "
                        f"12,000 in all):", bold=True))
        for row in rows:
            over = click.style("  over budget", fg="red") if row.tokens > 2000 else ""
            out(f"  {row.heading.lstrip('#').strip()[:40]:<40} {row.tokens:>6,} / 2,000{over}")
        mark = click.style("  over budget", fg="red") if total > 12000 else ""
        out(f"  {'Total':<40} {total:>6,} / 12,000{mark}")
