"""The topic files a MEMORY.md split writes: their names, frontmatter and one-line descriptions,
following the conventions of the folder they go into.

- Names are unique lowercase slugs of the title in any script (`배포-절차`, `déploiement` ->
  `deploiement`), never a bare fallback such as `note`; a name equal up to case or Unicode
  normalisation to a file already there, or planned, is never taken.
- The frontmatter takes the form the folder's topic files already use: the type under `metadata:`
  (Claude Code's current format) or as a top-level `type:`, and file names joined with `-` or `_`,
  prefixed with their type (`feedback_testing.md`) when the folder's names are.
- A new file stays under the recall cap of a topic file (`RECALL_BYTES`, `RECALL_LINES`): a longer
  block is cut into parts at item boundaries, headings and dated lines first, and an item longer
  than a part (a code block, a fence left open) where the part is full (`chunks`).
"""

from __future__ import annotations

import re
import unicodedata
from collections import Counter
from collections.abc import Callable, Iterable, Sequence
from dataclasses import field
from pathlib import Path

from memlint.lazy_regex import compile_lazily
from memlint.model.cli_js.jstext import JS_WS_CLASS
from memlint.model.memory.topicscan import RECALL_BYTES, RECALL_LINES  # what a recall reads (ML319)
from memlint.model.text.frontmatter import parse_frontmatter
from memlint.records import dataclass
from memlint.rules.automem._index import MAX_LINE_CHARS, plain_text, shorten

TYPES = ("user", "feedback", "project", "reference")
MAX_DESCRIPTION = 150
MAX_SLUG = 48
_HEADROOM = 320  # bytes kept for the frontmatter of a part
# File names a new topic file never takes: Claude Code's own files, and names Windows reserves.
_RESERVED = {"memory", "claude", "claude-local", "agents", "readme", "con", "prn", "aux", "nul",
             *(f"com{n}" for n in range(10)), *(f"lpt{n}" for n in range(10))}
_TYPE_WORDS = (
    ("user", compile_lazily(r"\b(user|preferences?|about me|persona)\b", re.IGNORECASE)),
    ("feedback", compile_lazily(r"\b(feedback|lessons?|corrections?|mistakes?|gotchas?|pitfalls?|avoid)\b", re.IGNORECASE)),
    ("reference", compile_lazily(r"\b(references?|links?|resources?|docs|documentation|urls?|contacts?)\b", re.IGNORECASE)),
)
_SENTENCE_END = compile_lazily(r"(?<=[.!?])\s|[\u3002\uff01\uff1f]")
_SPACES = compile_lazily(f"[{JS_WS_CLASS}]+")
_PLAIN_SAFE = compile_lazily(r"[^:#'\"{}\[\]&*!|>%@`,\\\n\r\t\u0085\u2028\u2029\ufeff]*")
_TABLE_RULE = compile_lazily(r"\|?[ \t]*:?-{2,}:?[ \t]*(\|[ \t]*:?-{2,}:?[ \t]*)*\|?[ \t]*")
_DATED = compile_lazily(r"[ \t]*(?:[-*+>][ \t]+|\d{1,9}[.)][ \t]+)?(?:\*\*|__|\[)?[ \t]*(\d{4}[-/.]\d{1,2}[-/.]\d{1,2})")
_PART_START = compile_lazily(r"[ \t]{0,3}(?:#{1,6}[ \t]|\**\d{4}[-/.]\d{1,2})")  # a heading or a dated line


def slug_char(ch: str) -> str:
    """One character of a slug: ASCII letters and digits as they are (lower case), a Latin letter
    with marks as its base letter, any other letter or digit as it is, anything else a hyphen."""
    if ch.isascii():
        return ch.lower() if ch.isalnum() else "-"
    base = "".join(c for c in unicodedata.normalize("NFKD", ch) if not unicodedata.combining(c))
    if base and base.isascii():
        return base.lower() if base.isalnum() else "-"
    return ch.lower() if ch.isalnum() else "-"


def slugify(title: str, fallback: str = "note") -> str:
    """A lowercase file-name slug of `title` in its own script (`fallback` when it has no letters)."""
    text = unicodedata.normalize("NFC", title)
    slug = re.sub(r"-{2,}", "-", "".join(map(slug_char, text))).strip("-")
    if len(slug) > MAX_SLUG:
        cut = slug[:MAX_SLUG]
        slug = cut.rsplit("-", 1)[0] if "-" in cut[MAX_SLUG // 2 :] else cut
    return slug.strip("-") or fallback


def name_key(name: str) -> str:
    """What two file names that one disk may treat as the same file have in common."""
    return unicodedata.normalize("NFKC", unicodedata.normalize("NFC", name)).casefold()


def infer_type(title: str, heading: str | None, default: str) -> str:
    for value, pattern in _TYPE_WORDS:
        if pattern.search(title) or (heading and pattern.search(heading)):
            return value
    return default


def plain_spaces(words: str) -> str:
    return _SPACES.sub(" ", words).strip(" ")


def first_sentence(words: str) -> str:
    """The first sentence of `words`, white space made plain, at most 150 characters."""
    match = _SENTENCE_END.search(words)
    if match and match.start() > 0:
        words = words[: match.start() + (1 if words[match.start()] in "\u3002\uff01\uff1f" else 0)]
    return shorten(plain_spaces(words), MAX_DESCRIPTION)


def yaml_scalar(value: str) -> str:
    """`value` as a YAML scalar that reads back as exactly `value`."""
    if value[:1].isalpha() and " " in value and _PLAIN_SAFE.fullmatch(value) and value == value.strip():
        return value  # words, no indicator, quote, comment or mapping character: YAML reads it as written
    plain = parse_frontmatter(f"---\nv: {value}\n---\n")
    if plain is not None and plain.error is None and not plain.retried and plain.data.get("v") == value:
        return value
    escaped = value.replace("\\", "\\\\").replace('"', '\\"')
    return f'"{escaped}"'


@dataclass(frozen=True)
class Conventions:
    """How the folder's topic files are written."""

    type_top_level: bool = False  # `type: x` rather than `metadata:\n  type: x`
    joiner: str = "-"  # between the words of a file name
    type_prefix: bool = False  # `feedback_testing.md`

    def file_stem(self, slug: str, kind: str) -> str:
        stem = slug.replace("-", self.joiner) if self.joiner != "-" else slug
        return f"{kind}{self.joiner}{stem}" if self.type_prefix and not stem.startswith(kind + self.joiner) else stem

    def frontmatter(self, name: str, description: str, kind: str, newline: str) -> str:
        lines = ["---", f"name: {yaml_scalar(name)}", f"description: {yaml_scalar(description)}"]
        lines += [f"type: {kind}"] if self.type_top_level else ["metadata:", f"  type: {kind}"]
        return newline.join([*lines, "---", "", ""])


def conventions(folder: Path, names: Iterable[str], existing: Callable[[Path], str | None]) -> Conventions:
    """The conventions of the topic files among `names` (at most 40 read)."""
    stems = [n[:-3] for n in names if n.endswith(".md") and n not in ("MEMORY.md", "CLAUDE.md", "AGENTS.md")]
    if not stems:
        return Conventions()
    top = nested = 0
    for stem in stems[:40]:
        text = existing(folder / f"{stem}.md")
        fm = parse_frontmatter(text) if text and text != "\0" else None
        if fm is None or not isinstance(fm.data, dict):
            continue
        meta = fm.data.get("metadata")
        if isinstance(meta, dict) and "type" in meta:
            nested += 1
        elif "type" in fm.data:
            top += 1
    joins = Counter("_" if "_" in s and "-" not in s else "-" for s in stems if "_" in s or "-" in s)
    joiner = "_" if joins["_"] > joins["-"] else "-"
    prefixed = sum(1 for s in stems if any(s.startswith(t + joiner) for t in TYPES))
    return Conventions(top > nested, joiner, prefixed * 2 > len(stems))


def describe(contents: Sequence[str], kinds: Sequence[str], title: str) -> str:
    """One line that says what moved lines hold: a log's dates, their first items, a table's
    columns and size, or a code block's first line; never a table header alone, a rule, or the
    title again."""
    filled = [c for c, k in zip(contents, kinds) if k in ("detail", "entry") and c.strip()]
    dates = [m.group(1) for c in filled if (m := _DATED.match(c))]
    if len(dates) >= 4 and 2 * len(dates) >= len(filled):
        return f"{len(dates)} dated notes, {min(dates)} to {max(dates)}"
    parts: list[str] = []
    i = 0
    code: str | None = None
    while i < len(contents):
        content, kind = contents[i].strip(), kinds[i]
        i += 1
        if kind == "code":
            if code is None and not content.startswith(("```", "~~~")) and content:
                code = content
            continue
        if kind not in ("detail", "entry") or not content:
            continue
        if content.startswith("|"):
            rows = [content]
            while i < len(contents) and contents[i].strip().startswith("|"):
                rows.append(contents[i].strip())
                i += 1
            body = [r for r in rows if not _TABLE_RULE.fullmatch(r)]
            if len(body) < len(rows) and len(body) >= 1:
                cells = [plain_text(c) for c in rows[0].strip("|").split("|")]
                columns = ", ".join(c for c in cells if c)
                words = f"table of {len(body) - 1} row{'s' if len(body) != 2 else ''}" + (
                    f" ({columns})" if columns else "")
            else:
                words = plain_text(rows[0])
        else:
            words = plain_text(content)
        words = plain_spaces(words)
        if words and words.casefold() != title.casefold():
            parts.append(words)
    if not parts and code is not None:
        parts.append(f"code: {plain_spaces(code)}")
    if not parts:
        return f"{sum(1 for k in kinds if k != 'blank')} lines moved from MEMORY.md"
    more = f" (+{len(parts) - 1} more)" if len(parts) > 1 else ""
    return shorten(first_sentence(parts[0]), 100 - len(more)) + more


def entry_line(title: str, file_name: str, description: str, separator: str) -> str:
    title = title.replace("\\", "\\\\").replace("[", "\\[").replace("]", "\\]")
    prefix = f"- [{title}]({file_name}){separator}"
    return prefix + shorten(description, max(20, MAX_LINE_CHARS - len(prefix)))


def chunks(raw_lines: Sequence[str], kinds: Sequence[str], budget: int = RECALL_BYTES - _HEADROOM,
           max_lines: int = RECALL_LINES - 12) -> list[tuple[int, int]]:
    """`raw_lines` (with their endings) cut into parts of at most `budget` UTF-8 bytes and
    `max_lines` lines, as (first, end) ranges: a part ends before a line that starts an item
    outside code (a heading or a dated line when one is near), not inside a code block or a table;
    an item larger than a part (a code block of hundreds of lines, or a fence left open that makes
    the rest code) is cut where a part is full, at a line's end: every part stays within what a
    recall reads (ML319), and the parts together are its lines as they were."""
    sizes = [len(line.encode("utf-8", "surrogatepass")) for line in raw_lines]
    if sum(sizes) <= budget and len(raw_lines) <= max_lines:
        return [(0, len(raw_lines))]
    can_break = [i > 0 and kinds[i] != "code" and kinds[i] != "blank" and not raw_lines[i].startswith((" ", "\t", "|"))
                 and not (kinds[i - 1] == "code" and kinds[i] == "code") for i in range(len(raw_lines))]
    out: list[tuple[int, int]] = []
    first = 0
    while first < len(raw_lines):
        size = 0
        last_break = -1
        best_break = -1
        i = first
        while i < len(raw_lines) and (size + sizes[i] <= budget and i - first < max_lines or i == first):
            if i > first and can_break[i]:
                last_break = i
                if _PART_START.match(raw_lines[i]):
                    best_break = i
            size += sizes[i]
            i += 1
        if i >= len(raw_lines):
            out.append((first, len(raw_lines)))
            break
        cut = best_break if best_break > first + (i - first) // 2 else last_break
        if cut <= first:  # one item larger than a part: cut where the part is full
            cut = i
        out.append((first, cut))
        first = cut
    return out



@dataclass(frozen=True)
class NewTopic:
    path: Path
    name: str
    title: str
    description: str
    text: str  # the whole file as written
    moved: str = field(repr=False)  # the lines of MEMORY.md it holds, verbatim
    reused: bool  # already on disk from an earlier run: linked, not written


@dataclass
class Writer:
    """Makes the new topic files of one split: names unique across the folder and the plan."""

    folder: Path
    existing: Callable[[Path], str | None]
    used: set[str]  # name keys of the files in the folder
    conv: Conventions
    newline: str
    separator: str
    default_type: str
    planned: set[str] = field(default_factory=set)

    def topics(self, title: str, raw_lines: Sequence[str], kinds: Sequence[str], heading: str | None = None,
               kind: str | None = None, said: Callable[[list[str], Sequence[str]], str] | None = None
               ) -> tuple[list[NewTopic], list[str]]:
        """Topic files that hold `raw_lines` verbatim (in parts under the recall cap), and the index
        entry of each."""
        contents = [line.rstrip("\r\n") for line in raw_lines]
        out: list[NewTopic] = []
        entries: list[str] = []
        parts = chunks(raw_lines, kinds)
        value = kind or infer_type(title, heading, self.default_type)
        slug = slugify(title, "") or slugify(describe(contents, kinds, ""), "") or f"{value}-notes"
        for k, (a, b) in enumerate(parts):
            part_title = title if len(parts) == 1 else f"{title} ({k + 1}/{len(parts)})"
            moved = "".join(raw_lines[a:b])
            description = said(contents[a:b], kinds[a:b]) if said else describe(contents[a:b], kinds[a:b], title)
            part_slug = slug if len(parts) == 1 else part_name(slug, contents[a:b], kinds[a:b], k)
            part_slug = part_slug + "-notes" if _ENDS_NUMBERED.fullmatch(part_slug) else part_slug
            stem, on_disk = self._name(self.conv.file_stem(part_slug, value), part_slug, moved)
            body = moved if moved.endswith("\n") else moved + self.newline
            text = on_disk if on_disk is not None else self.conv.frontmatter(stem, description, value, self.newline) + body
            out.append(NewTopic(self.folder / f"{stem}.md", stem, part_title, description, text, moved,
                                on_disk is not None))
            entries.append(entry_line(part_title, f"{stem}.md", description, self.separator))
        return out, entries

    def named(self, stem: str, raw: str, kind: str) -> NewTopic | None:
        """The missing file an entry links (`stem.md`), holding `raw` (the entry line) verbatim;
        the file itself when an interrupted split already wrote it; None when the name is taken."""
        key = name_key(f"{stem}.md")
        if key in self.planned:
            return None
        on_disk = self.existing(self.folder / f"{stem}.md")
        if on_disk is not None and not is_ours(on_disk, stem, raw):
            return None
        if on_disk is None and key in self.used:
            return None
        self.planned.add(key)
        description = describe([raw.rstrip("\r\n")], [kind], "")
        value = infer_type(stem, None, self.default_type)
        text = on_disk if on_disk is not None else self.conv.frontmatter(stem, description, value, self.newline) + raw
        return NewTopic(self.folder / f"{stem}.md", stem, stem, description, text, raw, on_disk is not None)

    def _name(self, base: str, plain: str, moved: str) -> tuple[str, str | None]:
        """A unique name for a new file, and the file's text when an earlier, interrupted split
        already wrote it (under any name this block may take, or the plain slug an older split
        gave it)."""
        if base in _RESERVED:
            base += "-notes"
        found: tuple[str, str | None] | None = None
        k = -1
        while found is None:
            name = base if k < 0 else f"{base}-{_digest(moved, k // 4, 6 + 2 * (k % 4))}"
            k += 1
            key = name_key(f"{name}.md")
            if key in self.planned:
                continue
            on_disk = self.existing(self.folder / f"{name}.md")
            if on_disk is not None:
                if is_ours(on_disk, name, moved):
                    found = (name, on_disk)
                continue
            if key not in self.used:
                found = (name, None)
        if found[1] is None and plain != base and name_key(f"{plain}.md") not in self.planned:
            on_disk = self.existing(self.folder / f"{plain}.md")
            if on_disk is not None and is_ours(on_disk, plain, moved):
                found = (plain, on_disk)
        self.planned.add(name_key(f"{found[0]}.md"))
        return found


_ENDS_NUMBERED = compile_lazily(r".*[^\d\W_][-_]\d{1,3}")


def part_name(slug: str, contents: Sequence[str], kinds: Sequence[str], k: int) -> str:
    """The slug of part `k` of a long block, by what it holds (its first date or its own heading),
    else by letter (`-part-b`); never `slug-2`: numbered names read as one memory continued over
    files (ML318)."""
    dates = [m.group(1) for c, kind in zip(contents, kinds) if kind != "code" and (m := _DATED.match(c))]
    first = next((n for n, c in enumerate(contents) if c.strip()), 0)
    if dates:
        name = f"{slug}-{re.sub(r'[/.]', '-', dates[0])}"
    elif kinds[first] == "heading" and (own := slugify(plain_text(contents[first]), "")) and own != slug:
        name = f"{slug}-{own}"
    else:
        letters = ""
        k += 1
        while k:
            k, rest = divmod(k - 1, 26)
            letters = chr(ord("a") + rest) + letters
        name = f"{slug}-part-{letters}"
    name = slugify(name, slug)
    return name + "-on" if _ENDS_NUMBERED.fullmatch(name) else name


def is_ours(existing: str, name: str, moved: str) -> bool:
    """An earlier split wrote this file: same `name`, same body up to white space."""
    fm = parse_frontmatter(existing)
    if fm is None or str(fm.data.get("name")) != name:  # (an older split wrote `name: 2026` unquoted)
        return False
    return _normalized(existing[fm.end_offset :]) == _normalized(moved)


def _normalized(text: str) -> list[str]:
    return [line.strip() for line in text.split("\n") if line.strip()]


def _digest(text: str, k: int, length: int) -> str:
    import hashlib  # imported here: only a name taken already needs it (OpenSSL's import is 3 ms)

    return hashlib.sha1(f"{k}\0{text}".encode("utf-8", "surrogatepass")).hexdigest()[:length]
