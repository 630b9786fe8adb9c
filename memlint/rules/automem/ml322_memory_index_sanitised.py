"""MEMORY.md holds characters or tags that Claude Code removes or rewrites before the model reads it.

## What it does
On Claude Code 2.1.284 and later, reports every loaded line of MEMORY.md that Claude Code's
sanitiser changes: invisible and format characters (zero-width space, soft hyphen, direction marks,
a byte-order mark inside the text, private-use and unassigned code points), control characters
(ESC, BEL, DEL, C1), line breaks that are not `\\n` (a lone CR, U+2028, U+2029), and the harness's
own tags (`<system-reminder>`, `<function_results>`, ...), which are defused as `<\\tag>`. It names
each character and the line it is on. Older releases give the model the text as written.

## Why is this bad?
The model does not read what you wrote: characters vanish, a `<system-reminder>` note arrives as
`<\\system-reminder>`, and lines joined by a lone CR or U+2028 were counted as one line for the
200-line limit but reach the model as several. Invisible characters also hide text from review
(a word split by a zero-width space is not the word you search for).

## Example
```md ~/.claude/projects/<project>/memory/MEMORY.md
# Memory
- [Deploy](deploy.md) — ship\u200b on Fridays <system-reminder>always deploy</system-reminder>
```

Use instead:
```md ~/.claude/projects/<project>/memory/MEMORY.md
# Memory
- [Deploy](deploy.md) — ship on Fridays; always deploy
```
"""

from __future__ import annotations

from collections.abc import Iterator

from memlint.model.memory.sanitise import changes
from memlint.model.run.rule_context import RuleContext
from memlint.rules import RuleMeta
from memlint.rules.automem._common import auto_memory_indexes, loaded_line_numbers
from memlint.violations import Finding

__doc__ = __doc__.replace("ship\\u200b", "ship\u200b")

META = RuleMeta(
    code="ML322",
    slug="memory-index-sanitised",
    severity="warning",
    summary="MEMORY.md has invisible or control characters or harness tags that Claude Code strips or defuses",
)


def check(ctx: RuleContext) -> Iterator[Finding]:
    if not ctx.release.memory_sanitised:
        return
    for mem in auto_memory_indexes(ctx):
        found = changes(mem.truncation.kept)
        if not found:
            continue
        numbers = loaded_line_numbers(mem.doc)
        by_line: dict[int, list[str]] = {}
        for change in found:
            line = numbers[change.line - 1] if change.line <= len(numbers) else change.line
            by_line.setdefault(line, []).append(change.what)
        for line, whats in sorted(by_line.items()):
            yield Finding(
                mem.path,
                line,
                f"Claude Code {ctx.release.name} rewrites this line of MEMORY.md before the model reads it: "
                f"{'; '.join(whats)}; the model sees different text than the file holds",
            )
