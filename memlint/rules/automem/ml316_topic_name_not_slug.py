"""A topic file's `name` is not a short kebab-case slug.

## What it does
Opt-in (`--select ML316` or `extend-select`): it restates a convention and changes nothing
Claude Code does, so the default run leaves it out.
Reports a frontmatter `name` that Claude Code would not keep as it is: anything but lower-case
letters, digits, `-` and `_` (e.g. a title with spaces and capitals, as older versions wrote).

## Why is this bad?
Memories link each other as `[[name]]`, and Claude Code now writes names as slugs: it would save
`Deploy Policy` as `deploy-policy`, so links written either way miss. Information only.

## Example
```md MEMORY.md
- [Deploy](deploy.md) — blue/green on Fridays only
```

```md deploy.md
---
name: Deploy Policy
description: Blue/green deploys, Fridays only.
---

Blue/green deploys, Fridays only.
```

Use instead:
```md MEMORY.md
- [Deploy](deploy.md) — blue/green on Fridays only
```

```md deploy.md
---
name: deploy-policy
description: Blue/green deploys, Fridays only.
---

Blue/green deploys, Fridays only.
```
"""

from __future__ import annotations

from collections.abc import Iterator

from memlint.model.run.rule_context import RuleContext
from memlint.rules import RuleMeta
from memlint.rules.automem._topics import CLAUDE_SLUG, all_topics, claude_slug
from memlint.violations import Finding

META = RuleMeta(
    default=False,
    code="ML316",
    slug="topic-name-not-slug",
    severity="info",
    summary="a topic file's name is not a kebab-case slug",
)


def check(ctx: RuleContext) -> Iterator[Finding]:
    for topic in all_topics(ctx):
        name = topic.name
        if name is None or CLAUDE_SLUG.fullmatch(name):
            continue
        slug = claude_slug(name)
        yield Finding(
            topic.path,
            topic.key_line("name"),
            f"`name: {name}` is not a kebab-case slug: Claude Code writes names as slugs (it would save this one as "
            f"`{slug}`), and `[[name]]` links are written with the slug" if slug else
            f"`name: {name}` is not a kebab-case slug and has no letters or digits Claude Code could make one of",
        )
