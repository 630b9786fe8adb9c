"""An `AGENTS.md` that Claude Code does not load: no CLAUDE.md includes it, and the release or the mode in force never reads it.

## What it does
Reports an `AGENTS.md` that Claude Code does not load from any start folder and that no
`CLAUDE.md`, `CLAUDE.local.md` or rule mentions by a link or a path. Which AGENTS.md files load
depends on the release modelled (`--claude-code`):

- before 2.1.281, with `instructionFiles = "claude-md"` or the AGENTS.md plugin turned off, and when
  started without the project source (`--setting-sources user,local`), Claude Code never reads
  AGENTS.md unless a memory file includes it;
- from 2.1.281, in the default mode (`claude-md-or-agents-md`), it reads AGENTS.md only when no
  `CLAUDE.md`, `.claude/CLAUDE.md` or `CLAUDE.local.md` loads from the start folder or above it:
  a repository that keeps both, and edits AGENTS.md for every agent, silently loses AGENTS.md. One
  that is there and could load counts even when it does not (a rule includes a `CLAUDE.local.md`
  with `paths:`, which holds it back): the message names it.

By default only an `AGENTS.md` that no `CLAUDE.md` stands for is reported: one in a folder where
neither that folder nor a folder above it (up to the checked root) has a `CLAUDE.md`. Where the
user keeps a CLAUDE.md for Claude, an AGENTS.md beside or below it is taken to be kept for other
agents (Codex, Copilot, a bot's workspace, a tool's own file) on purpose; set `beside-claude-md`
to report those too. An `AGENTS.md` whose lines are (nearly all) in the `CLAUDE.md` beside it, a
copy kept in step, is left alone either way.

## Why is this bad?
Codex, Cursor, Copilot and other agents read `AGENTS.md`. The instructions written for "every
agent" never reach Claude when a CLAUDE.md wins over them, and the two files drift apart.

## Example
```md .memlint.toml
[options.ML510]
beside-claude-md = true
```

```md CLAUDE.md
# Project
Use pnpm.
```

```md AGENTS.md
# Agents
Run `npm test` before every commit.
```

Use instead:
```md CLAUDE.md
# Project
Use pnpm.
@AGENTS.md
```

## Fix safety
When there is no `CLAUDE.md` in the folder, the fix creates one that holds `@AGENTS.md`. It is
unsafe: Claude Code then loads AGENTS.md's text. When the `CLAUDE.md` that wins exists, the fix
appends `@AGENTS.md` to it (unsafe too, for the same reason; an AGENTS.md that CLAUDE.md includes
loads once, at the include). In `claude-md-and-agents-md` mode AGENTS.md loads beside CLAUDE.md
anyway, so an include would only load it twice: that mode is never reported here, and no fix adds
one. An AGENTS.md in a dot folder (`.github/AGENTS.md`) gets no fix. An AGENTS.md that holds only
`@CLAUDE.md` (a stub for other agents) loses nothing and is never reported.

## Options
- `beside-claude-md` (default `false`): also report an AGENTS.md when a CLAUDE.md in its folder or
  above it stands for Claude (by default it is taken to be kept for other agents).
"""

from __future__ import annotations

import os
from collections.abc import Iterator
from pathlib import Path

from memlint.lazy_regex import compile_lazily
from memlint.model.run.rule_context import RuleContext
from memlint.rules import RuleMeta
from memlint.rules._paths import show
from memlint.rules.layout._agents import load_of, mode_in_force
from memlint.violations import Applicability, Edit, Finding, Fix

META = RuleMeta(
    code="ML510",
    slug="agents-md-not-read",
    severity="warning",
    summary="An AGENTS.md that no CLAUDE.md includes or links to",
    fix="unsafe",
    options={"beside-claude-md": False},
)

_MENTION = compile_lazily(r"[^\s()<>\[\]`'\"|,;:*]*AGENTS\.md")


def _mentioned(ctx: RuleContext) -> set[str]:
    """Real paths of every AGENTS.md a CLAUDE.md, CLAUDE.local.md or rule names (link, include
    or plain path), resolved against its own folder and against the checked roots."""
    out: set[str] = set()
    for item in ctx.by_role("claude-md", "local", "rule"):
        doc = ctx.document(item.path)
        if doc.problem is not None or not doc.contains("AGENTS.md"):
            continue
        folder = os.path.dirname(ctx.workspace.resolved(item.path))
        bases = [folder, *(str(r) for r in ctx.roots)]
        if item.path.parent.name == ".claude":
            bases.append(str(item.path.parent.parent))
        for match in _MENTION.finditer(doc.text):
            written = match.group(0).lstrip("@").split("#", 1)[0]
            if written.startswith("~/") and ctx.home is not None:
                out.add(ctx.workspace.resolved(ctx.home / written[2:]))
                continue
            for base in bases:
                out.add(ctx.workspace.resolved(os.path.join(base, written)))
    return out


def _why(ctx: RuleContext, mode: str | None, path: Path) -> str:
    """Why this release and mode do not load `path`, said from Claude Code's side."""
    if mode is None and ctx.release.agents_md and "project" not in ctx.launch.setting_sources:
        return "it is started without the project source (`--setting-sources`), so it loads no AGENTS.md"
    if mode is None and ctx.release.agents_md:
        return "the AGENTS.md plugin is turned off (`enabledPlugins`), so it loads CLAUDE.md, not AGENTS.md"
    if mode is None:
        return f"release {ctx.release.name} loads CLAUDE.md, not AGENTS.md (AGENTS.md is read from 2.1.281 on)"
    if mode == "claude-md":
        return "`instructionFiles` is `claude-md`, so it loads CLAUDE.md, not AGENTS.md"
    loaded = load_of(ctx, path.parent.parent if path.parent.name == ".claude" else path.parent)
    if loaded is None or loaded.agents_md_kept_out_by is None:
        return "a session never starts in this folder"
    stop = loaded.agents_md_kept_out_by
    if any(f.path == stop for f in loaded.files):
        return (f"it reads AGENTS.md only when no CLAUDE.md, .claude/CLAUDE.md or CLAUDE.local.md loads from the "
                f"start folder or above, and `{show(ctx, stop)}` does")
    return (f"it reads AGENTS.md only when no CLAUDE.md, .claude/CLAUDE.md or CLAUDE.local.md that could load is in "
            f"the start folder or above, and `{show(ctx, stop)}` is, though it does not load itself")


def check(ctx: RuleContext) -> Iterator[Finding]:
    agents = ctx.by_role("agents")
    mode = mode_in_force(ctx)
    if not agents or mode in ("managed-only", "claude-md-and-agents-md"):
        return
    paths = {str(entry.path) for context in ctx.loads.values() for entry in context.files}
    loaded = {ctx.workspace.resolved(path) for path in paths}
    mentioned = _mentioned(ctx)
    beside = bool(ctx.options.get("beside-claude-md", False))
    for item in agents:
        path = item.path
        real = ctx.workspace.resolved(path)
        if real in loaded or real in mentioned:
            continue
        doc = ctx.document(path)
        if doc.problem is not None or doc.blank:
            continue
        where = show(ctx, path)
        folder = path.parent.parent if path.parent.name.startswith(".") and path.parent not in ctx.roots \
            else path.parent
        if not beside and _nearest_claude_md(ctx, folder) is not None:
            continue  # the user keeps a CLAUDE.md for Claude: this AGENTS.md is for other agents
        if path.parent.name.startswith(".") and path.parent not in ctx.roots:
            host = _nearest_claude_md(ctx, path.parent.parent)
            if host is not None:
                written = os.path.relpath(path, host.parent if host.parent.name != ".claude" else host.parent.parent)
                advice = f"add `@{written}` to `{show(ctx, host)}` if Claude should follow it"
            else:
                advice = f"include it from a CLAUDE.md (`@{where}` at the project root) if Claude should follow it"
            yield Finding(
                path,
                1,
                f"Claude Code never reads `{where}`: {_dot_folder_why(ctx, mode)}, and nothing includes this one; "
                f"{advice}",
            )
            continue
        claude = _claude_md(ctx, path.parent)
        if claude is None:
            new = path.with_name("CLAUDE.md")
            fix = Fix("Create CLAUDE.md that includes AGENTS.md", Applicability.UNSAFE,
                      (Edit(new, 0, 0, f"@AGENTS.md{doc.newline}", create=True),))
            yield Finding(
                path,
                1,
                f"Claude Code never reads `{where}`: {_why(ctx, mode, path)}, and there is no CLAUDE.md "
                "here; create one that says `@AGENTS.md`",
                fix=fix,
            )
            continue
        if _covered(doc.text, ctx.document(claude).text) or _stub_of(ctx, path, doc.text, claude):
            continue  # a copy, or a stub that only includes this CLAUDE.md: nothing is lost
        if mode == "claude-md-or-agents-md":
            why = (f"it reads AGENTS.md only when no CLAUDE.md, .claude/CLAUDE.md or CLAUDE.local.md loads from "
                   f"the start folder or above, and `{show(ctx, claude)}` does, so this AGENTS.md is silently left out")
        else:
            why = f"{_why(ctx, mode, path)}: it loads `{show(ctx, claude)}`, which neither includes nor mentions AGENTS.md"
        written = os.path.relpath(path, os.path.dirname(ctx.workspace.resolved(claude)))  # realpath, cached
        yield Finding(
            path,
            1,
            f"Claude Code never reads `{where}`: {why}; add `@{written}` to `{show(ctx, claude)}`, or move what "
            "Claude needs into it",
            fix=_include_fix(ctx, claude, written),
        )


def _include_fix(ctx: RuleContext, claude: Path, written: str) -> Fix | None:
    """Append `@AGENTS.md` on a line of its own at the end of the CLAUDE.md that wins."""
    doc = ctx.document(claude)
    if doc.problem is not None:
        return None
    text = doc.text
    newline = doc.newline
    lead = "" if not text or text.endswith(("\n", "\r")) else newline
    edit = Edit(claude, len(text), len(text), f"{lead}@{written}{newline}")
    return Fix(f"Include {written} from {claude.name}", Applicability.UNSAFE, (edit,))


def _dot_folder_why(ctx: RuleContext, mode: str | None) -> str:
    if mode is None or mode == "claude-md":
        return _why(ctx, mode, Path("."))
    return "it reads only the AGENTS.md of the start folder and the folders above it"


def _covered(agents: str, claude: str, share: float = 0.9) -> bool:
    """Whether (nearly) every non-blank line of AGENTS.md is also in CLAUDE.md."""
    lines = [line.strip() for line in agents.splitlines() if line.strip()]
    present = {line.strip() for line in claude.splitlines()}
    return bool(lines) and sum(1 for line in lines if line in present) >= share * len(lines)


def _stub_of(ctx: RuleContext, path: Path, text: str, claude: Path) -> bool:
    """Whether AGENTS.md holds nothing but includes of `claude` (`@CLAUDE.md`): including it back
    would make a cycle, and Claude already has every line of it."""
    lines = [line.strip() for line in text.splitlines() if line.strip()]
    target = ctx.workspace.resolved(claude)
    return bool(lines) and all(
        line.startswith("@") and ctx.workspace.resolved(path.parent / line[1:]) == target for line in lines)


def _nearest_claude_md(ctx: RuleContext, folder: Path) -> Path | None:
    """The CLAUDE.md of `folder` or of the closest folder above it, up to the checked root."""
    roots = {Path(r) for r in ctx.roots}
    for candidate in (folder, *folder.parents):
        found = _claude_md(ctx, candidate)
        if found is not None:
            return found
        if candidate in roots:
            break
    return None


def _claude_md(ctx: RuleContext, folder: Path) -> Path | None:
    for candidate in (folder / "CLAUDE.md", folder / ".claude" / "CLAUDE.md"):
        doc = ctx.document(candidate)
        if doc.problem is None or doc.problem.reason not in ("not-found", "not-a-file"):
            return candidate
    return None
