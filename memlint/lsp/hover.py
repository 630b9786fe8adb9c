"""Hovers: on an `@include` (where it points, which start folders load it, and why the others do
not), on a MEMORY.md line past Claude Code's cut, and on a rule's `paths:` (the files it matches)."""

from __future__ import annotations

from pathlib import Path

from lsprotocol import types

from memlint.engine import RuleContext
from memlint.lsp import includes
from memlint.lsp.positions import Lines
from memlint.lsp.rule_matches import matching_files
from memlint.model.memory.automem import MAX_LINES, MAX_UNITS, cut_index
from memlint.model.run.include_problems import looks_like_a_file
from memlint.model.text.markdown import IncludeRef
from memlint.rules._paths import show

SHOWN = 5  # start folders (or files) named before "and N more"


def _names(ctx: RuleContext, paths: list[Path]) -> str:
    names = ", ".join(f"`{show(ctx, p)}`" for p in paths[:SHOWN])
    return names + (f" and {len(paths) - SHOWN} more" if len(paths) > SHOWN else "")


def include_hover(ctx: RuleContext, path: Path, ref: IncludeRef) -> str:
    where = includes.target(ctx, path, ref)
    exists = "exists" if where.exists() else "does not exist"
    out = [f"**`@{ref.written}`** \u2192 `{where}` ({exists})"]
    results = list(includes.outcomes(ctx, path, ref))
    loaded = [o for o in results if o.loaded is not None]
    if loaded:
        depth = loaded[0].loaded.depth if loaded[0].loaded is not None else 0
        out.append(f"Loaded at start (include level {depth}) from {len(loaded)} start folder"
                   f"{'' if len(loaded) == 1 else 's'}: {_names(ctx, [o.start for o in loaded])}")
    reasons: dict[str, list[Path]] = {}
    for o in results:
        if o.skipped is not None:
            why = f"{o.why} ({o.skipped.reason})" if o.why else o.skipped.reason
            reasons.setdefault(why.replace(f"outside {o.start}", "outside the start folder"), []).append(o.start)
    for why, starts in reasons.items():
        out.append(f"Not loaded from {_names(ctx, starts)}: {why}")
    if not where.exists() and not looks_like_a_file(ref.path):
        out.append("An @-word that names no file (a package or a handle): Claude Code tries it as a path, finds "
                   "nothing and loads nothing; harmless, so check reports nothing for it")
    if not results:
        out.append("Not loaded: no start folder of this run loads this file at start, so Claude Code "
                   "follows none of its includes then")
    return "\n\n".join(out)


def memory_hover(ctx: RuleContext, path: Path, line: int) -> str | None:
    """For a line of MEMORY.md that Claude Code cuts off: which line it is, and where the cut is."""
    doc = ctx.workspace.document(path)
    if not doc.readable:
        return None
    cut = cut_index(doc.text, ctx.release)
    if not cut.truncated:
        return None
    last = doc.line_of_offset(max(cut.kept_end - 1, 0)) if cut.kept_end > 0 else 0
    total = doc.text.rstrip().count("\n") + 1
    if line <= last or line > total:
        return None
    limit = f"{MAX_LINES} lines" if cut.over_lines else f"{MAX_UNITS:,} UTF-16 units"
    return (f"**Not loaded**: line {line} of {total}. Claude Code loads MEMORY.md only up to line {last} "
            f"(its limit: {limit}); lines {last + 1}-{total} never reach the model. Move detail into "
            "topic files (the code action splits the index).")


def paths_hover(ctx: RuleContext, path: Path, line: int, project: Path | None = None) -> str | None:
    """On a rule's `paths:` block: how many files of the tree match it, and a few of them (of
    `project`, the editor's folder, for a rule of HOME's `.claude/rules/`)."""
    from memlint.rules.layout._common import find_key

    doc = ctx.workspace.document(path)
    if not doc.readable or doc.frontmatter is None or not doc.rule_globs:
        return None
    block = find_key(doc.text, doc.frontmatter, "paths")
    if block is None or not block.line <= line <= doc.line_of_offset(max(block.end - 1, block.start)):
        return None
    project = project or next((r for r in ctx.roots if r.is_dir()), None)
    found = matching_files(ctx.workspace, path, doc.rule_globs, home=ctx.home, project=project)
    if found is None:
        return None
    folder = show(ctx, found.base)
    where = "the project" if folder == "." else f"`{folder}`"
    if not found.count:
        return f"`paths:` matches **no file** of the {found.total} in {where}: Claude Code never loads this rule"
    names = ", ".join(f"`{n}`" for n in found.first)
    more = f" and {found.count - len(found.first)} more" if found.count > len(found.first) else ""
    return (f"`paths:` matches **{found.count}** of the {found.total} files in {where}: {names}{more}. "
            "Claude Code loads this rule when it reads one of them.")


def hover(ctx: RuleContext, path: Path, lines: Lines, position: types.Position,
          project: Path | None = None) -> types.Hover | None:
    ref = includes.ref_at(ctx, path, lines, position)
    if ref is not None:
        text: str | None = include_hover(ctx, path, ref)
        where: types.Range | None = includes.ref_range(lines, ref)
    elif any(f.path == path and f.role == "automem-index" for f in ctx.files):
        text, where = memory_hover(ctx, path, position.line + 1), None
    else:
        text, where = paths_hover(ctx, path, position.line + 1, project), None
    if text is None:
        return None
    return types.Hover(types.MarkupContent(types.MarkupKind.Markdown, text), where)
