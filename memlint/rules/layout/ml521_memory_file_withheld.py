"""A memory file or include that the modelled Claude Code release refuses to read where it stands.

## What it does
Reports a CLAUDE.md, CLAUDE.local.md, rule, AGENTS.md or `@include` that Claude Code skips because
of where it is or what covers it, per the release modelled:

- a `Read(...)` deny rule in any settings file covers it, or a deny rule names the whole Read tool
  (`Read`, `Read(*)`, or a name with `*` such as `*`) (2.1.290+; project and local files and their
  includes, not user files or MEMORY.md);
- it lies in (or is reached through) a `connector-downloads` folder, a folder named
  `.artifact-work` or a session scratchpad (2.1.319+);
- it is a device or process file such as `/proc/self/...` or `/dev/...` (2.1.332);
- it is a rule file, a rules subfolder or a `.claude/rules` folder reached through a symlink whose
  target lies outside the start folder, and external includes are not approved (2.1.232+; an
  `@include` leaving the start folder is ML107's).

## Why is this bad?
The file looks like part of the project's memory, and it loaded on older releases, but Claude
never sees a word of it now, without any notice in the session.

## Example
```md CLAUDE.md
Setup: @connector-downloads/setup.md
```

```md connector-downloads/setup.md
Run `make bootstrap` first.
```

Use instead:
```md CLAUDE.md
Setup: @docs/setup.md
```

```md docs/setup.md
Run `make bootstrap` first.
```
"""

from __future__ import annotations

from collections.abc import Iterator

from memlint.model.run.rule_context import RuleContext
from memlint.rules import RuleMeta
from memlint.rules._paths import show
from memlint.rules.layout._agents import only_claude_md_withheld
from memlint.violations import Finding

META = RuleMeta(
    code="ML521",
    slug="memory-file-withheld",
    severity="warning",
    summary="A memory file or include the modelled Claude Code release refuses to read",
)

_REASONS = ("read-denied", "special-folder", "process-file", "external")



def check(ctx: RuleContext) -> Iterator[Finding]:
    seen: set[tuple[str, int, str]] = set()
    for start, loaded in sorted(ctx.loads.items()):
        for skipped in loaded.skipped:
            if skipped.reason not in _REASONS or (skipped.reason == "external" and skipped.origin is not None):
                continue
            if only_claude_md_withheld(loaded, skipped):
                continue  # one problem, one finding: ML520 reports it on the deny rule
            where = (str(skipped.origin.path), skipped.origin.line) if skipped.origin else (str(skipped.path), 1)
            key = (*where, str(skipped.path))
            if key in seen:
                continue
            seen.add(key)
            what = f"`@{skipped.origin.ref.written}`" if skipped.origin else f"`{show(ctx, skipped.path)}`"
            yield Finding(
                skipped.origin.path if skipped.origin else skipped.path,
                where[1],
                f"Claude Code {ctx.release.name} does not read {what} for a session started in `{show(ctx, start)}`: "
                f"{loaded.detail(skipped)}" + (", and external includes are not approved" if skipped.reason == "external" else ""),
                column=skipped.origin.ref.column if skipped.origin else 1,
            )
