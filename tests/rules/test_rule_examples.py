"""`memlint explain` pages stay readable: each side of a rule's Example (before and after
"Use instead:") shows at most 15 lines of files."""

from __future__ import annotations

import re

import pytest

from memlint.rules import all_rules

MAX_EXAMPLE_LINES = 15
# Pages owned elsewhere that still build long examples in code (ML301, ML302: see the lead's notes),
# and ML401, whose "Use instead" is Claude Code's whole ten-section template.
LONG_SIDES = {("ML301", 0), ("ML302", 0), ("ML401", 1)}
FENCED = re.compile(r"^```\S*[^\n]*\n(.*?)^```$", re.MULTILINE | re.DOTALL)


def example_lines(text: str) -> int:
    """Lines of file text shown in the fenced blocks of `text`."""
    return sum(len(body.splitlines()) for body in FENCED.findall(text))


@pytest.mark.parametrize("rule", all_rules(), ids=[r.code for r in all_rules()])
def test_example_is_short(rule) -> None:  # type: ignore[no-untyped-def]
    example = rule.doc.split("## Example", 1)[1].split("\n## ", 1)[0]
    for n, side in enumerate(example.split("Use instead:", 1)):
        if (rule.code, n) in LONG_SIDES:
            continue
        assert example_lines(side) <= MAX_EXAMPLE_LINES, f"{rule.code}: an Example side over {MAX_EXAMPLE_LINES} lines"


def test_counts_lines() -> None:
    assert example_lines("```md a.md\none\ntwo\n```\ntext\n```md b.md\nthree\n```") == 3
