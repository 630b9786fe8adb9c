"""A topic file is well over 200 lines or 4,096 bytes, so a recall reads only its start.

## What it does
Reports topic files longer than 200 lines or larger than 4,096 bytes (frontmatter included) when
the part a recall leaves out is more than a tenth of the file (the `tolerance` option), with the
line where a recall stops and what is left out. A file a few bytes or lines over the cap, whose
recall shows all but its last line or two, is not reported: Claude reads nearly all of it, is told
that the rest exists, and trimming a line would change little. What counts is the part cut, not
how far the size is over: a recall stops at a whole line, so a file 3 bytes over whose last line is
half the file loses half the file, and is reported. A file that documents the folder rather than
holding a memory (a `README.md` or capital-named note without frontmatter that MEMORY.md does not
link: see ML311) is not recalled as a memory and is left alone.

## Why is this bad?
When Claude Code recalls a memory into the conversation it reads at most the first 200 lines and
4,096 bytes of the file, and appends a note that the memory was truncated. The rest is seen only if
Claude decides to read the whole file.

## Example
```md MEMORY.md
- [Deploy](deploy.md) — blue/green on Fridays only
```

```md deploy.md
---
name: deploy
description: Blue/green deploys, Fridays only.
---

- step {1..210}: check the blue pool, then switch
```
(`step {1..210}` stands for 210 lines, `step 1` to `step 210`.)

Use instead:
```md MEMORY.md
- [Deploy](deploy.md) — blue/green on Fridays only
```

```md deploy.md
---
name: deploy
description: Blue/green deploys, Fridays only.
---

Blue/green deploys, Fridays only.
```

## Options
- `tolerance` (default `10`): the share of the file, in percent of its bytes, that a recall may
  leave out without a finding; `0` reports every file over the cap.
"""

from __future__ import annotations

from collections.abc import Iterator

from memlint.model.memory.topicscan import RECALL_BYTES, RECALL_LINES
from memlint.model.run.rule_context import RuleContext
from memlint.rules import RuleMeta
from memlint.rules.automem._topics import TopicFile, documents_the_folder, topic_files
from memlint.violations import Finding

META = RuleMeta(
    code="ML319",
    slug="topic-over-recall-cap",
    severity="warning",
    summary="a topic file is well over 200 lines or 4,096 bytes: a recall leaves out more than a tenth of it",
    options={"tolerance": 10},
    ranges={"tolerance": ">= 0, < 100"},
)


def _recall_stop(text: str, line_count: int) -> int:
    """The line where a recall stops: the 200-line cut, or the last whole line within 4,096 bytes
    (a line counts its bytes and one for its line break, the last one too)."""
    stop = min(line_count, RECALL_LINES)
    if text.isascii():
        # One byte a character: a line runs past the cap when its line break (or, for a last
        # line without one, the text's end) stands at offset RECALL_BYTES or later. The lines
        # whose line break comes before that offset are kept; the next line is the first cut.
        whole = text.count("\n", 0, RECALL_BYTES)
        if whole >= stop:
            return stop
        last_unbroken = whole + 1 == line_count and not text.endswith("\n")
        return stop if last_unbroken and len(text) < RECALL_BYTES else whole
    size = 0
    for number, line in enumerate(text.split("\n")[:stop], 1):
        size += len(line.encode("utf-8")) + 1
        if size > RECALL_BYTES:
            return number - 1
    return stop


FILES = topic_files


def check_file(ctx: RuleContext, entry: TopicFile) -> Iterator[Finding]:
    topic = entry.topic()
    if topic is None:
        return
    size, line_count = topic.doc.byte_size, topic.doc.line_count  # (no text read for a file within the caps)
    over_lines, over_bytes = line_count > RECALL_LINES, size > RECALL_BYTES
    if not over_lines and not over_bytes:
        return
    if documents_the_folder(ctx, topic):
        return  # a README or setup note of the folder, not a memory
    stop = _recall_stop(topic.doc.text, line_count)
    left = _left_out(topic.doc.text, stop, size)
    if left * 100 <= float(ctx.options.get("tolerance", 10)) * size:
        return  # all but a line or two is read: nothing worth a change
    what = []
    if over_lines:
        what.append(f"{line_count} lines (cap {RECALL_LINES})")
    if over_bytes:
        what.append(f"{size:,} bytes (cap {RECALL_BYTES:,})")
    yield Finding(
        topic.path,
        max(stop + 1, 1),
        f"the file is {' and '.join(what)}: when Claude recalls this memory, Claude Code reads only up to line "
        f"{stop} and notes that it was truncated; the rest ({_lines(stop + 1, line_count)}, {left:,} bytes, "
        f"{_percent(left, size)} of the file) is seen only if Claude reads the whole file",
    )


def _left_out(text: str, stop: int, size: int) -> int:
    """The bytes of the file after the line where a recall stops."""
    if stop == 0:
        return size
    at = -1
    for _ in range(stop):
        at = text.find("\n", at + 1)
        if at < 0:
            return 0  # the recall reads the whole text
    kept = len(text[: at + 1].encode("utf-8")) if not text.isascii() else at + 1
    return max(0, size - kept)


def _lines(first: int, last: int) -> str:
    return f"line {first}" if first >= last else f"lines {first}-{last}"


def _percent(part: int, whole: int) -> str:
    share = 100 * part / whole
    return f"{share:.0f} %" if share >= 1 else "under 1 %"
