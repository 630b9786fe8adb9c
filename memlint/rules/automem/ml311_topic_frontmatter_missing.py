"""A topic file has no frontmatter, so Claude Code's memory scan knows it only by its file name.

## What it does
Reports topic files beside MEMORY.md that do not start with a `---` frontmatter block (a BOM or a
blank line before `---` hides the block too). A file that documents the folder is no memory and
needs none: one that MEMORY.md does not link, named `README` or in capitals (`README.md`,
`SETUP.md`, `SESSION_ANCHOR_0316.md`), the convention for a folder's own documents, where Claude
Code writes each memory to a lower-case file (`feedback_testing.md`).

## Why is this bad?
Claude Code decides which memories to read from the memory scan: the file name, type and
`description` of each topic file. Without frontmatter the scan shows a bare file name, so the
memory is rarely recalled, and other memories cannot link it as `[[name]]`.

## Example
```md ~/.claude/projects/<project>/memory/MEMORY.md
- [Deploy](deploy.md) — blue/green on Fridays only
```

```md ~/.claude/projects/<project>/memory/deploy.md
Blue/green deploys, Fridays only. Roll back with make rollback.
```

Use instead:
```md ~/.claude/projects/<project>/memory/MEMORY.md
- [Deploy](deploy.md) — blue/green on Fridays only
```

```md ~/.claude/projects/<project>/memory/deploy.md
---
name: deploy
description: Blue/green deploys, Fridays only.
metadata:
  type: project
---

Blue/green deploys, Fridays only. Roll back with make rollback.
```

## Fix safety
The fix is unsafe: it adds a frontmatter block derived from the file (`name`: the file name as a
kebab-case slug; `description`: the first sentence of the text, at most 150 characters;
`metadata.type`: inferred from the file name where clear, else the `default-type` option), which
changes what Claude's memory scan shows. Files with a BOM, with no text, or with a `---` block after blank lines get no fix.

## Options
- `default-type` (default `"project"`): the `metadata.type` written when the file name does not
  say (user, feedback, project or reference).
"""

from __future__ import annotations

from collections.abc import Iterator

from memlint.model.run.rule_context import RuleContext
from memlint.rules import RuleMeta
from memlint.rules.automem._topics import (
    TYPES,
    Topic,
    TopicFile,
    body_sentence,
    documents_the_folder,
    first_heading,
    topic_files,
)
from memlint.violations import Applicability, Edit, Finding, Fix

META = RuleMeta(
    code="ML311",
    slug="topic-frontmatter-missing",
    severity="warning",
    summary="a topic file has no frontmatter (name, description, type)",
    fix="unsafe",
    options={"default-type": "project"},
    choices={"default-type": TYPES},
)


def frontmatter_fix(topic: Topic, default_type: str) -> Fix | None:
    doc = topic.doc
    description = body_sentence(doc.text)
    if doc.has_bom or description is None or doc.text.lstrip().startswith("---"):
        return None
    from memlint.rules.automem.split import infer_type, slugify, yaml_scalar  # only when a fix is built

    name = slugify(topic.path.stem)
    kind = infer_type(topic.path.stem.replace("_", " ").replace("-", " "), first_heading(doc.text), default_type)
    nl = doc.newline
    block = nl.join(["---", f"name: {name}", f"description: {yaml_scalar(description)}", "metadata:",
                     f"  type: {kind}", "---", ""])
    if doc.text.strip() and not doc.text.startswith(("\n", "\r")):
        block += nl
    return Fix(f"add frontmatter to {topic.path.name}", Applicability.UNSAFE, (Edit(topic.path, 0, 0, block),))


FILES = topic_files


def check_file(ctx: RuleContext, entry: TopicFile) -> Iterator[Finding]:
    topic = entry.topic()
    if topic is None:
        return
    doc = topic.doc
    if doc.frontmatter is not None or doc.blank:
        return
    if documents_the_folder(ctx, topic):
        return  # a README or setup note of the folder, not a memory
    why = "it has no frontmatter"
    stripped = doc.text.lstrip("\ufeff \t\r\n")
    if stripped.startswith("---") and stripped != doc.text:
        why = "its `---` block does not start the file (a BOM or blank line comes first), so it is not frontmatter"
    yield Finding(
        topic.path,
        1,
        f"{why}: Claude Code's memory scan shows only the file name `{topic.path.name}` (no description, no "
        "type), so Claude rarely recalls this memory, and no `[[name]]` can link it",
        fix=frontmatter_fix(topic, str(ctx.options.get("default-type", "project"))),
    )
