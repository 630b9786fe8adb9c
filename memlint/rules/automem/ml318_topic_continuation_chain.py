"""Topic files continue each other (`deploy-2.md` beside `deploy.md`).

## What it does
Reports a topic file named `<base>-<n>.md` or `<base>_<n>.md` (a small number) when `<base>.md` or
another numbered file of the same base is in the same memory folder, unless the numbered file has
a `name` of its own (one that does not start with the base). Bases ending in a digit (dates,
versions) are left alone.

## Why is this bad?
One memory spread over a chain of files is recalled piecewise: Claude Code's memory scan and recall
pick files one by one by their description, so Claude often reads one part and misses the rest.
Merge the parts, or split them by subject with descriptions that say what each holds.

## Example
```md MEMORY.md
- [Deploy](deploy.md) — blue/green on Fridays only
- [Deploy 2](deploy-2.md) — more deploy notes
```

```md deploy.md
Blue/green deploys, Fridays only.
```

```md deploy-2.md
Roll back with make rollback.
```

Use instead:
```md MEMORY.md
- [Deploy](deploy.md) — blue/green on Fridays only
- [Rollback](deploy-2.md) — roll back with make rollback
```

```md deploy.md
Blue/green deploys, Fridays only.
```

```md deploy-2.md
---
name: rollback
description: Roll back with make rollback.
---

Roll back with make rollback.
```
"""

from __future__ import annotations

from collections.abc import Iterator

from memlint.lazy_regex import compile_lazily
from memlint.model.run.rule_context import RuleContext
from memlint.rules import RuleMeta
from memlint.rules.automem._topics import Topic, folders
from memlint.violations import Finding

META = RuleMeta(
    code="ML318",
    slug="topic-continuation-chain",
    severity="warning",
    summary="topic files continue each other (`deploy-2.md` beside `deploy.md`)",
)

_NUMBERED = compile_lazily(r"(?P<base>.*[^\d\W_])[-_](?P<n>\d{1,3})")


def _slugify(title: str) -> str:
    from memlint.rules.automem.split import slugify  # the split machinery is imported only when needed

    return slugify(title)


def check(ctx: RuleContext) -> Iterator[Finding]:
    for paths in folders(ctx).values():
        stems = {p.stem: p for p in paths}
        chains: dict[str, list[str]] = {}
        for stem, path in stems.items():
            match = _NUMBERED.fullmatch(stem)
            name = Topic(path, ctx.document(path)).name
            if match and (not name or _slugify(name).startswith(_slugify(match.group("base")))):
                chains.setdefault(match.group("base"), []).append(stem)
        for base, numbered in sorted(chains.items()):
            if base not in stems and len(numbered) < 2:
                continue
            parts = ([f"{base}.md"] if base in stems else []) + [f"{s}.md" for s in sorted(numbered)]
            for stem in sorted(numbered):
                yield Finding(
                    stems[stem],
                    1,
                    f"`{stem}.md` continues `{base}`: one memory spread over {', '.join(f'`{p}`' for p in parts)} is "
                    "recalled file by file, so Claude often reads one part and misses the rest; merge them or split "
                    "them by subject",
                )
