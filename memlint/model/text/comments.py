"""The HTML comments Claude Code cuts from a memory file before the model sees it.

Claude Code strips a top-level HTML block that starts with `<!--` and holds `-->`: every
`<!--...-->` in it is removed (memlint.model.text.markdown, `_strip_comments`). Comments elsewhere stay
in the text Claude reads: inside a paragraph line, a list item or a block quote, and an unclosed
`<!--` (kept to the end of the file). This module lists the stripped ones, where they stand.
"""

from __future__ import annotations

from memlint.model.text.document import Document
from memlint.model.text.markdown import comment_residue, comment_spans, has_comment_open
from memlint.records import dataclass


@dataclass(frozen=True, slots=True)
class HiddenComment:
    """One `<!--...-->` Claude Code removes from the loaded text."""

    line: int  # 1-based line of its `<!--` in the file
    text: str  # what stands between `<!--` and `-->`


def hidden_comments(doc: Document) -> tuple[HiddenComment, ...]:
    """The comments Claude Code strips from `doc`'s body, in file order (none without a `<!--`)."""
    if not doc.readable or not has_comment_open(doc.body):
        return ()
    offset = doc.body_line_offset
    found: list[HiddenComment] = []
    for token in doc.tokens():
        if token.type != "html_block" or token.level != 0 or token.map is None:
            continue
        content = token.content
        if comment_residue(content) is None:
            continue
        for start, end in comment_spans(content):
            line = token.map[0] + content.count("\n", 0, start) + 1 + offset
            found.append(HiddenComment(line, content[start + 4 : end - 3]))
    return tuple(found)
