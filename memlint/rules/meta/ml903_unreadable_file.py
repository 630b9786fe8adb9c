"""A memory file is binary, not valid UTF-8, unreadable, a loop, or too large to load.

## What it does
Reports every memory file (found under the checked paths or loaded by Claude Code) that memlint
cannot read as UTF-8 text: it is UTF-16 text (a Windows editor's "Unicode"), holds other NUL bytes,
holds invalid UTF-8, cannot be opened (permissions, a symlink loop, a symbolic link to nothing), or
is over Claude Code's 4,194,304-byte limit.

## Why is this bad?
Claude Code silently skips an unreadable or oversized file, so none of its instructions reach the
model. It reads every other file as UTF-8, whatever its encoding: a UTF-16 file reaches the model
with a NUL byte after each character and its byte-order mark as two U+FFFD (checked with the real
Claude Code 2.1.197 and 2.1.332), a binary or invalid-UTF-8 file with replacement characters and
garbage; this costs tokens and teaches the model nothing. memlint never fixes such a file.

## Example
```md CLAUDE.md
# Project
Build with make.
```
```bytes CLAUDE.local.md
caf\xe9 is Latin-1, not UTF-8
```

Use instead:
```md CLAUDE.local.md
café is UTF-8
```
"""

from __future__ import annotations

import os
from collections.abc import Iterator
from pathlib import Path

from memlint.model.loading.loader import Skipped
from memlint.model.loading.shared import Unseen
from memlint.model.run.rule_context import RuleContext
from memlint.rules import RuleMeta
from memlint.violations import Finding

META = RuleMeta("ML903", "unreadable-file", "error",
                "A memory file is UTF-16, binary, not UTF-8, unreadable or too large")

_CONSEQUENCE = {
    "binary": "Claude Code loads it as text, NUL bytes and all",
    "utf-16": ("Claude Code reads it as UTF-8, so the model gets each character followed by a NUL byte, "
               "text it cannot follow; save it as UTF-8"),
    "invalid-utf8": "Claude Code loads it with U+FFFD replacement characters where the bytes are invalid",
    "unreadable": "Claude Code skips it silently",
    "too-large": "Claude Code skips files over 4,194,304 bytes silently",
    "not-a-file": "Claude Code skips it silently",
}


def check(ctx: RuleContext) -> Iterator[Finding]:
    paths: dict[Path, None] = {f.path: None for f in ctx.files}
    unseen: Unseen[Skipped] = Unseen()  # start folders share what their ancestors skip (model.shared)
    for loaded in ctx.loads.values():
        for item in loaded.files:
            paths.setdefault(item.path, None)
        for skipped in unseen.new(loaded.skipped):  # an include Claude Code cannot open (permissions, a loop)
            if skipped.reason == "unreadable":
                paths.setdefault(skipped.path, None)
    for path in paths:
        doc = ctx.document(path)
        problem = doc.problem
        if problem is None:
            continue
        if problem.reason == "not-found":
            target = _link_to_nothing(path)
            if target is not None:  # found as a memory file: its name is there, as a link
                yield Finding(path, 1, f"{path.name} is a symbolic link to `{target}`, which does not exist: "
                                       "Claude Code skips it silently")
            continue
        if problem.reason == "not-a-file" and path.is_dir():
            continue
        consequence = _CONSEQUENCE.get(problem.reason, "Claude Code skips it")
        if problem.reason == "utf-16":
            yield Finding(path, 1, f"{path.name} is {problem.detail}: {consequence}")
            continue
        yield Finding(path, 1, f"{path.name} is {problem.reason.replace('-', ' ')} ({problem.detail}): {consequence}")


def _link_to_nothing(path: Path) -> str | None:
    """Where `path` points, when it is a symbolic link to nothing; else None."""
    try:
        return os.readlink(path)
    except (OSError, ValueError):
        return None
