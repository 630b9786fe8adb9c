"""`@path` text that looks like an include the author meant, but that Claude Code does not follow.

Claude Code scans only paragraph-like text, and only an `@` at the start of a text or after white
space, running to the next white space or backslash. This module finds the `@path`s it passes
over: in code blocks, code spans, HTML blocks, after an unclosed `<!--`, glued to a bracket or
quote (`(@a.md)`), written in quotes (`@"Design Docs/a.md"`), written with backslashes
(`@docs\\a.md`), or rejected for their first
character (`@日本.md`). It reuses the model's markdown-it-py parser; only suspects whose intended
target exists as a file are returned, so code that merely mentions `@types/node` is left alone.
"""

from __future__ import annotations

import os
import posixpath
from collections.abc import Callable
from pathlib import Path
from typing import Literal

from memlint.lazy_regex import compile_lazily
from memlint.model.cli_js.jstext import js_trim_start
from memlint.model.run.include_problems import TRAILING_PUNCTUATION
from memlint.model.text.document import Document
from memlint.model.text.markdown import accepted_include, blank_comments, comment_residue, normalize_newlines
from memlint.records import dataclass

Where = Literal["code-block", "code-span", "html-block", "unclosed-comment", "glued", "backslash", "rejected",
                "quoted"]
# `@"Design Docs/api.md"`: Claude Code takes no quotes (the oracle loads nothing for it on 2.1.197 and
# 2.1.332); `@Design\ Docs/api.md` is how a space is written.
_QUOTED = compile_lazily(r"(?:(?<=^)|(?<=\s))@([\"'])([^\"'\n]+)\1")
_CANDIDATE = compile_lazily(r"(?:(?<=^)|(?<=[\s(\[{<>\"'`“‘]))@([^\s`'\"()\[\]{}<>“”‘’]+)")
# A `_CANDIDATE` glued to the character before it (not white space, not the start of the line).
_GLUED = compile_lazily(r"[(\[{<>\"'`“‘]@[^\s`'\"()\[\]{}<>“”‘’]")
# `_CANDIDATE` without its look-behind: what follows every `@` it finds is among what this finds
# (the character before such an `@` is one this group cannot take, so no match runs across it).
_ANY_AT = compile_lazily(r"@([^\s`'\"()\[\]{}<>“”‘’]+)")


@dataclass(frozen=True)
class Suspect:
    """An `@` word that names an existing file but is not an include Claude Code follows."""

    where: Where
    line: int  # 1-based, in the whole file
    column: int  # 1-based, of the `@`
    written: str  # the text after `@`
    target: Path  # the existing file it names
    before: str  # the character before the `@` ("" at the start of a line)


def suspects(doc: Document, home: Path | None, realpath: Callable[[str], str] = os.path.realpath) -> list[Suspect]:
    """Suspect `@path`s of a memory file whose targets exist and that Claude Code does not load
    (`realpath`: the run's cached `os.path.realpath`, when there is one)."""
    if doc.problem is not None or "@" not in doc.body:
        return []
    source = normalize_newlines(doc.body)
    lines = source.split("\n")
    offset = doc.body_line_offset
    base = posixpath.dirname(realpath(str(doc.path)))
    accepted = {_resolve(ref.path, base, home) for ref in doc.scan().includes}
    out: dict[tuple[int, int], Suspect] = {}
    meant: dict[str, str | None] = {}
    for token in doc.tokens():
        if token.map is None:
            continue
        first, last = token.map
        if token.type in ("fence", "code_block"):
            regions: list[tuple[Where, int, int]] = [("code-block", first, last)]
        elif token.type == "html_block":
            residue = comment_residue(token.content)
            if residue is not None:
                continue  # a closed comment: commenting an include out is deliberate
            unclosed = js_trim_start(token.content).startswith("<!--")
            regions = [("unclosed-comment" if unclosed else "html-block", first, last)]
        elif token.type == "inline":
            spans = [c.content for c in token.children or [] if c.type == "code_inline"]
            regions = [("glued", first, last)]
        else:
            continue
        loose: dict[str, Where | None] = {}  # the kind of an `@` after white space, by what follows it
        for where, start, end in regions:
            region = lines[start : min(end, len(lines))]
            if where in ("html-block", "glued"):  # a closed comment turns an include off on purpose
                text = blank_comments("\n".join(region))
                if where == "glued" and '@"' not in text and "@'" not in text and _plain(text, loose, spans):
                    continue  # no line has a suspect (100,000 lines of `@path`): the lines need no look
                region = text.split("\n")
            for index, line in enumerate(region, start):
                if where == "glued":
                    for match in _QUOTED.finditer(line) if '@"' in line or "@'" in line else ():
                        target = _meant(match.group(2).replace(" ", "\\ "), base, home)
                        if target is not None and target not in accepted and "@" + match.group(0)[1:] not in spans:
                            key = (index + 1 + offset, match.start() + 1)
                            out.setdefault(key, Suspect("quoted", key[0], key[1], match.group(0)[1:], Path(target), ""))
                    if _plain(line, loose, spans):
                        continue  # every `@` follows white space and is an include Claude Code takes (480,000 `@a`)
                for match in _CANDIDATE.finditer(line):
                    written = match.group(1)
                    before = line[match.start() - 1] if match.start() > 0 else ""
                    kind: Where | None = where
                    if where == "glued":
                        kind = _inline_kind(written, before, spans)
                    if kind is None:
                        continue
                    if written not in meant:  # a line of 1.3 million `@a`: one stat, not a million
                        meant[written] = _meant(written, base, home, accepted)
                    target = meant[written]
                    if target is None or target in accepted:
                        continue
                    if kind == "glued" and "\\" in written and (not before or before.isspace()):
                        kind = "backslash"
                    key = (index + 1 + offset, match.start() + 1)
                    out.setdefault(key, Suspect(kind, key[0], key[1], written, Path(target), before))
    return [out[k] for k in sorted(out)]


def _plain(text: str, loose: dict[str, Where | None], spans: list[str]) -> bool:
    """No `@` in `text` (lines of one inline token) is a suspect: none is glued to the character
    before it, and what follows each is an include Claude Code takes (`loose` remembers the kind
    by what follows the `@`). A match never runs across a line break, so lines join freely."""
    return _GLUED.search(text) is None and not any(
        (loose[w] if w in loose else loose.setdefault(w, _inline_kind(w, "", spans)))
        for w in set(_ANY_AT.findall(text))
    )


def _inline_kind(written: str, before: str, spans: list[str]) -> Where | None:
    if any("@" + written in span for span in spans):
        return "code-span"
    if before and not before.isspace():
        return "glued"
    if "\\" in written:
        return "backslash"
    path = written.split("#", 1)[0]
    if path and not accepted_include(path):
        return "rejected"
    return None


def _meant(written: str, base: str, home: Path | None, loaded: frozenset[str] | set[str] = frozenset()) -> str | None:
    """The existing file `written` names (a file already in `loaded` is returned without a stat)."""
    path = written.split("#", 1)[0].rstrip(TRAILING_PUNCTUATION).replace("\\ ", " ").replace("\\", "/")
    if not path or path in ("/", "~", "~/") or path.startswith("@"):
        return None
    target = _resolve(path, base, home)
    return target if target in loaded or os.path.isfile(target) else None


def _resolve(path: str, base: str, home: Path | None) -> str:
    if path.startswith("~/"):
        return posixpath.normpath(posixpath.join(str(home), path[2:])) if home else "/nonexistent" + path[1:]
    if path.startswith("/"):
        return posixpath.normpath(path)
    return posixpath.normpath(posixpath.join(base, path))


def code_text(written: str) -> bool:
    """Whether an include token holds a backtick: the code span of a list item, which Claude Code
    scans as raw text, exposed a token such as `@db.Uuid`` or `@/tmp/body.json``. Nobody writes an
    include that way: it is code, nothing was meant to load, and nothing is lost."""
    return "`" in written
