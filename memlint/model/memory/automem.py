"""Auto memory: where Claude Code keeps a project's MEMORY.md, and how it truncates it."""

from __future__ import annotations

import os
import re
from dataclasses import field
from functools import cached_property, lru_cache
from pathlib import Path

from memlint.lazy_regex import compile_lazily
from memlint.model.cli_js.jstext import JS_WHITESPACE, js_trim, tenths_half_up, utf16_last_newline, utf16_len
from memlint.model.memory.sanitise import sanitise
from memlint.model.release import DEFAULT, Release
from memlint.records import dataclass

MAX_LINES = 200
MAX_UNITS = 25_000
# Claude Code's MEMORY.md write guard (C19; 2.1.199+, and 2.1.197+ after a Write a PostToolUse hook
# matches): it warns from 80 % of either cap and asks the agent to compact to 70 % (floor), so a
# healthy index stays under the target.
GUARD_WARN_LINES = MAX_LINES * 8 // 10  # 160
GUARD_WARN_UNITS = MAX_UNITS * 8 // 10  # 20,000
GUARD_TARGET_LINES = MAX_LINES * 7 // 10  # 140
GUARD_TARGET_UNITS = MAX_UNITS * 7 // 10  # 17,500
_NOT_ALNUM = compile_lazily(r"[^a-zA-Z0-9]")
_MAX_NAME = 200


def _js_hash36(text: str) -> str:
    """Claude Code's short hash for over-long folder names: |Java-style 32-bit string hash| in base 36."""
    value = 0
    data = text.encode("utf-16-le", "surrogatepass")
    for i in range(0, len(data), 2):
        value = (value * 31 + int.from_bytes(data[i : i + 2], "little")) & 0xFFFFFFFF
    if value >= 0x80000000:
        value -= 0x100000000
    value = abs(value)
    digits = "0123456789abcdefghijklmnopqrstuvwxyz"
    out = ""
    while True:
        value, rest = divmod(value, 36)
        out = digits[rest] + out
        if value == 0:
            return out


def sanitize_project_path(path: str) -> str:
    """`/home/dev/my_app` -> `-home-dev-my-app`, as Claude Code names a project's folder. Its
    JavaScript regex replaces UTF-16 units, so a character outside the BMP (an emoji, two units)
    becomes `--` (seen with the real CLI: `name_emoji_folder`)."""
    name = _NOT_ALNUM.sub(lambda m: "--" if ord(m.group()) > 0xFFFF else "-", path)
    if len(name) <= _MAX_NAME:
        return name
    return f"{name[:_MAX_NAME]}-{_js_hash36(path)}"


def automem_folder(home: Path, project_root: Path, config_dir: Path | None = None, name: str | None = None) -> Path:
    """`HOME/.claude/projects/<sanitized root>/memory` (`CLAUDE_CONFIG_DIR` replaces `HOME/.claude`;
    C16: `CLAUDE_CODE_PROJECT_DIR_NAME` may replace the folder name: `name`)."""
    base = config_dir if config_dir is not None else home / ".claude"
    return base / "projects" / (name or sanitize_project_path(str(project_root))) / "memory"


def format_size(units: int) -> str:
    """Claude Code's size text: `45.9KB` (JavaScript toFixed rounds half up; `.0` is dropped)."""
    if units < 1024:
        return f"{units} bytes"
    scale = 1024
    for unit in ("KB", "MB", "GB"):
        if units < scale * 1024 or unit == "GB":
            whole, tenth = divmod(tenths_half_up(units, scale), 10)
            return f"{whole:d}.{tenth:d}{unit}" if tenth else f"{whole:d}{unit}"
        scale *= 1024
    raise AssertionError("unreachable")


@dataclass(frozen=True)
class Truncation:
    """MEMORY.md as Claude Code loads it. Its texts are not stored: `kept` is sliced from the text
    it was cut from when asked, and `content` made at the first ask (most MEMORY.md files of a run,
    those no start folder loads, are never asked: they held up to three copies of their text)."""

    source: str = field(repr=False)  # the text cut (the caller's, not a copy)
    line_count: int
    size: int  # UTF-16 units of the trimmed text
    kept_lines: int  # how many lines of the trimmed text were loaded
    over_lines: bool
    over_size: bool
    warning: str | None  # as the model sees it (sanitised on releases that sanitise)
    sanitised: bool = False  # whether this release sanitises the text (C08)
    kept_start: int = 0  # the kept text is source[kept_start:kept_end] ...
    kept_end: int = 0
    cut_kept: str | None = field(default=None, repr=False)  # ... unless a cut through a pair made it
    raw_warning: str | None = field(default=None, repr=False)  # the warning before sanitising

    @property
    def truncated(self) -> bool:
        return self.over_lines or self.over_size

    @property
    def kept(self) -> str:
        """The kept text as cut, before the warning and sanitising (lone surrogates kept)."""
        return self.cut_kept if self.cut_kept is not None else self.source[self.kept_start : self.kept_end]

    @cached_property
    def content(self) -> str:
        """What the model sees, warning included (sanitised on releases that sanitise)."""
        kept = self.kept
        if self.raw_warning is None:
            return sanitise(kept) if self.sanitised else kept
        content = kept + "\n\n" + self.raw_warning
        return sanitise(content) if self.sanitised else _no_lone_surrogates(content)


def _js_slice(text: str, units: int) -> str:
    """`text.slice(0, units)` in UTF-16 units; a cut through a pair keeps the lone high surrogate."""
    if text.isascii():
        return text[:units]
    data = text.encode("utf-16-le", "surrogatepass")[: 2 * units]
    return data.decode("utf-16-le", "surrogatepass")


def _prefix_units(text: str, units: int) -> str:
    """The first `units` UTF-16 units, a trailing high surrogate dropped (no emoji is split)."""
    prefix = _js_slice(text, units)
    return prefix[:-1] if prefix and "\ud800" <= prefix[-1] <= "\udbff" else prefix


_WORD_END = compile_lazily(f"[{re.escape(JS_WHITESPACE)}][^{re.escape(JS_WHITESPACE)}]*\\Z")
QUOTE_UNITS = 80
_WORD_CUT_MIN = 40


def shorten(line: str, limit: int = QUOTE_UNITS) -> str:
    """Claude Code's quote of the first cut line: whole up to `limit` units, else cut at a word
    boundary (when that keeps more than 40 units) or at `limit - 1` units, then `…`."""
    if utf16_len(line) <= limit:
        return line
    prefix = _prefix_units(line, limit - 1)
    match = _WORD_END.search(prefix)
    if match is not None:
        words = prefix[: match.start()].rstrip(JS_WHITESPACE)
        if utf16_len(words) > _WORD_CUT_MIN:
            return words + "\u2026"
    return prefix.rstrip(JS_WHITESPACE) + "\u2026"


def _detail(trimmed: str, kept: str, lines: list[str]) -> str:
    """What was cut (C07, 2.1.268+): `60 of 260 lines were cut off, starting at line 201 ("...")`."""
    after = trimmed[len(kept) : len(kept) + 1]
    if after != "\n":
        return f"everything after the first {utf16_len(kept)} characters of line 1 was cut off"
    kept_count = kept.count("\n") + 1
    text = f"{len(lines) - kept_count} of {len(lines)} lines were cut off, starting at line {kept_count + 1}"
    cut_line = js_trim(lines[kept_count])
    return text + (f' ("{shorten(cut_line)}")' if cut_line else "")


def _no_lone_surrogates(text: str) -> str:
    """A lone surrogate reaches the model as U+FFFD (the request is encoded as UTF-8)."""
    return re.sub("[\ud800-\udfff]", "\ufffd", text)


def cut_index(text: str, release: Release = DEFAULT) -> Truncation:
    """Claude Code's MEMORY.md cut: first 200 lines, then at the last newline before 25,000 units,
    with the WARNING line of `release` appended and, from 2.1.284, the whole text sanitised."""
    trimmed = js_trim(text)
    start = text.index(trimmed) if trimmed else 0  # the first character js_trim keeps
    lines = trimmed.split("\n")
    count = len(lines)
    size = utf16_len(trimmed)
    over_lines = count > MAX_LINES
    over_size = size > MAX_UNITS
    if not over_lines and not over_size:
        return Truncation(text, count, size, count, False, False, None, release.memory_sanitised, start,
                          start + len(trimmed))
    kept = "\n".join(lines[:MAX_LINES]) if over_lines else trimmed
    if utf16_len(kept) > MAX_UNITS:
        cut = utf16_last_newline(kept, MAX_UNITS)
        kept = _js_slice(kept, cut if cut > 0 else MAX_UNITS)
    if over_size and not over_lines:
        what = f"{format_size(size)} (limit: {format_size(MAX_UNITS)}) \u2014 index entries are too long"
    elif over_lines and not over_size:
        what = f"{count} lines (limit: {MAX_LINES})"
    else:
        what = f"{count} lines and {format_size(size)}"
    loaded = f"Only part of it was loaded: {_detail(trimmed, kept, lines)}." if release.memory_notice_detail \
        else "Only part of it was loaded."
    raw_warning = (
        f"> WARNING: MEMORY.md is {what}. {loaded} Keep index entries to one line "
        "under ~200 chars; move detail into topic files."
    )
    warning = sanitise(raw_warning) if release.memory_sanitised else _no_lone_surrogates(raw_warning)
    kept_lines = kept.count("\n") + 1 if kept else 0
    sliced = trimmed.startswith(kept)  # else a cut through a surrogate pair left a lone high one
    return Truncation(text, count, size, kept_lines, over_lines, over_size, warning, release.memory_sanitised,
                      start, start + len(kept), None if sliced else kept, raw_warning)


# The loader cuts a project's MEMORY.md once per start folder: the same text, the same answer.
truncate_index = lru_cache(maxsize=1024)(cut_index)


_GUARD_ADVICE = "keep one line per entry, move detail into topic files, and merge or drop stale entries."


def guard_text(line_count: int, size: int, release: Release = DEFAULT, *, hooked: bool = False) -> str | None:
    """What Claude Code's write guard (C19) tells the agent after it writes a MEMORY.md of this size,
    or None: below 80 % of both caps, or on 2.1.197-2.1.198 unless a PostToolUse hook matches the Write
    (`hooked`). Only the dimension nearest its cap is named (size on a tie); up to 2.1.209 a full cap is
    `over`, later releases call only a passed one so. Both counts are of the trimmed text."""
    if not (release.memory_write_guard or (hooked and release.memory_write_guard_when_hooked)):
        return None
    by_size = (size / MAX_UNITS, size, MAX_UNITS, format_size(size), format_size(MAX_UNITS),
               format_size(GUARD_TARGET_UNITS))
    by_lines = (line_count / MAX_LINES, line_count, MAX_LINES, f"{line_count} lines", f"{MAX_LINES}-line",
                f"{GUARD_TARGET_LINES} lines")
    frac, amount, cap_value, now, cap, target = by_lines if by_lines[0] > by_size[0] else by_size
    if frac < 0.8:
        return None
    if not release.memory_write_guard_current_wording:
        state = (f"over the {cap} read limit \u2014 content beyond that is dropped when this index is loaded"
                 if amount >= cap_value else f"approaching the {cap} read limit")
        return f"The memory index at MEMORY.md is {now}, {state}. Compact it to under {target} now: {_GUARD_ADVICE}"
    if amount > cap_value:
        return (f"Error: this write left the memory index at MEMORY.md at {now}, over its {cap} read limit. "
                "The write succeeded, but everything past the limit is silently dropped each time the index is "
                "loaded \u2014 entries at the end are already invisible to readers. "
                f"Rewrite it to under {target} now: {_GUARD_ADVICE}")
    return (f"The memory index at MEMORY.md is {now}, approaching the {cap} read limit. "
            f"Compact it to under {target} now: {_GUARD_ADVICE}")


_ENTRY_TITLE = compile_lazily(r"^\s*[-*+]\s+\[([^\]]+)\]\(|^#{1,6}\s+(.+?)\s*#*\s*$")


def entry_title(line: str) -> str | None:
    """The title of an index entry (`- [Title](file.md) ...`) or a heading, else None."""
    match = _ENTRY_TITLE.match(line)
    if match is None:
        return None
    return (match.group(1) or match.group(2)).strip()


def hidden_titles(truncation: Truncation, loaded_text: str) -> list[str]:
    """Titles of the entries and headings Claude Code never sees past the cut."""
    lines = js_trim(loaded_text).split("\n")
    return [t for t in (entry_title(line) for line in lines[truncation.kept_lines :]) if t]


@dataclass(frozen=True)
class TopicFile:
    """A topic file beside MEMORY.md, as Claude Code's recall sees it."""

    path: Path
    name: str | None
    description: str | None
    size: int  # UTF-16 units of its text


def list_topics(folder: Path) -> list[TopicFile]:
    """Every `*.md` beside MEMORY.md with its frontmatter name and description."""
    from memlint.model.text.document import Document

    out = []
    try:
        names = sorted(n for n in os.listdir(folder) if n.endswith(".md") and n != "MEMORY.md")
    except OSError:
        return []
    for name in names:
        doc = Document.read(folder / name)
        if not doc.readable:
            continue
        fm = doc.frontmatter
        data = fm.data if fm is not None else {}
        title = data.get("name")
        description = data.get("description")
        out.append(TopicFile(folder / name, title if isinstance(title, str) else None,
                             description if isinstance(description, str) else None, utf16_len(doc.text)))
    return out
