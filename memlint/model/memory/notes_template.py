"""The session-notes template model: a template's ordered (heading, description) pairs, Claude
Code's built-in default, and a notes file split into sections with line numbers.

A template's sections are its ATX heading lines (outside code), each with the italic line under
it as description. Claude Code's own template uses `# ` headings only; a team's template may use
`## ` too: a notes file is split on headings of the levels its template uses. A heading at
another level whose words are a template heading's (`## Current State`) also starts a section,
so that it can be reported as renamed (or as a second copy) instead of silently swallowed by the
section above it.
"""

from __future__ import annotations

import re

from memlint.lazy_regex import compile_lazily
from memlint.records import dataclass

# Claude Code's default session-notes template (spec section 9), in order.
DEFAULT_PAIRS: tuple[tuple[str, str], ...] = (
    ("# Session Title",
     "_A short and distinctive 5-10 word descriptive title for the session. Super info dense, no filler_"),
    ("# Current State",
     "_What is actively being worked on right now? Pending tasks not yet completed. Immediate next steps._"),
    ("# Task specification",
     "_What did the user ask to build? Any design decisions or other explanatory context_"),
    ("# Files and Functions",
     "_What are the important files? In short, what do they contain and why are they relevant?_"),
    ("# Workflow",
     "_What bash commands are usually run and in what order? How to interpret their output if not obvious?_"),
    ("# Errors & Corrections",
     ("_Errors encountered and how they were fixed. What did the user correct? What approaches failed and "
     "should not be tried again?_")),
    ("# Codebase and System Documentation",
     "_What are the important system components? How do they work/fit together?_"),
    ("# Learnings",
     "_What has worked well? What has not? What to avoid? Do not duplicate items from other sections_"),
    ("# Key results",
     ("_If the user asked a specific output such as an answer to a question, a table, or other document, "
     "repeat the exact result here_")),
    ("# Worklog", "_Step by step, what was attempted, done? Very terse summary for each step_"),
)

HEADING = compile_lazily(r"^ {0,3}(#{1,6})(?:[ \t]+(.*?))?[ \t]*$")
FENCE = compile_lazily(r"^ {0,3}(`{3,}|~{3,})")
NEAR_RATIO = 0.8
DESCRIPTION_RATIO = 0.6


@dataclass(frozen=True)
class TemplateSection:
    heading: str  # the whole heading line, e.g. "# Current State"
    description: str | None  # the italic line under it, verbatim (stripped of trailing blanks)
    body: tuple[str, ...] = ()  # the template's own other lines in the section (stripped, non-blank)

    @property
    def level(self) -> int:
        return heading_level(self.heading) or 1

    @property
    def title(self) -> str:
        return heading_title(self.heading)


@dataclass(frozen=True)
class Template:
    sections: tuple[TemplateSection, ...]
    source: str  # "Claude Code's template" or the template file's path

    @property
    def levels(self) -> frozenset[int]:
        return frozenset(s.level for s in self.sections)

    def index(self, heading: str) -> int | None:
        for i, section in enumerate(self.sections):
            if section.heading == heading:
                return i
        return None


DEFAULT_TEMPLATE = Template(tuple(TemplateSection(h, d) for h, d in DEFAULT_PAIRS), "Claude Code's template")


def heading_level(line: str) -> int | None:
    match = HEADING.match(line)
    return len(match.group(1)) if match else None


def heading_title(line: str) -> str:
    match = HEADING.match(line)
    if not match:
        return line.strip()
    return re.sub(r"[ \t]+#+$", "", match.group(2) or "").strip()


def normalize(title: str) -> str:
    """A heading's words: case, `&`/`and`, punctuation and spacing ignored."""
    text = title.lower().replace("&", " and ")
    return " ".join(re.findall(r"[^\W_]+", text))


def similarity(a: str, b: str) -> float:
    na, nb = normalize(a), normalize(b)
    if na == nb:
        return 1.0
    import difflib  # imported here: only a renamed heading is compared

    return difflib.SequenceMatcher(None, na, nb).ratio()


def is_italic(line: str) -> bool:
    s = line.strip()
    return len(s) > 2 and s[0] == s[-1] and s[0] in "_*" and s[1] not in " \t" and s[-2] not in " \t"


def describes(line: str, expected: str | None) -> bool:
    """Whether `line` is (an edited copy of) the template description `expected`; without a
    template description, any italic line."""
    if expected is None:
        return is_italic(line)
    if line.strip() == expected or similarity(line, expected) >= DESCRIPTION_RATIO:
        return True
    words, wanted = normalize(line).split(), set(normalize(expected).split())
    return is_italic(line) and bool(words) and sum(w in wanted for w in words) / len(words) >= DESCRIPTION_RATIO


@dataclass(frozen=True)
class Line:
    number: int  # 1-based
    start: int  # character offset of the line's first character
    end: int  # offset just past the line's text (before its line break)
    text: str


def split_lines(text: str) -> list[Line]:
    """The file's lines with offsets; "\\r\\n", "\\r" and "\\n" all end a line."""
    out: list[Line] = []
    pos = 0
    for number, match in enumerate(re.finditer(r"([^\r\n]*)(\r\n|\r|\n|$)", text), start=1):
        if match.start() == len(text) and not match.group(0) and out:
            break
        out.append(Line(number, match.start(1), match.end(1), match.group(1)))
        pos = match.end()
        if pos >= len(text):
            break
    return out


def heading_lines(lines: list[Line]) -> list[tuple[Line, int]]:
    """ATX headings outside fenced code blocks, with their level."""
    found: list[tuple[Line, int]] = []
    fence: str | None = None
    for line in lines:
        match = FENCE.match(line.text)
        if fence is not None:
            if match and match.group(1)[0] == fence[0] and len(match.group(1)) >= len(fence) \
                    and not line.text.strip()[len(match.group(1)):].strip():
                fence = None
            continue
        if match:
            fence = match.group(1)
            continue
        level = heading_level(line.text)
        if level is not None:
            found.append((line, level))
    return found


def parse_template(text: str, source: str) -> Template:
    """A template file's ordered (heading, description) pairs."""
    lines = split_lines(text)
    sections: list[TemplateSection] = []
    heads = heading_lines(lines)
    for i, (line, _level) in enumerate(heads):
        stop = heads[i + 1][0].number - 1 if i + 1 < len(heads) else len(lines)
        description = None
        below = [ln.text.strip() for ln in lines[line.number : stop] if ln.text.strip()]
        if below and is_italic(below[0]):
            description = below.pop(0)
        sections.append(TemplateSection(line.text.strip(), description, tuple(below)))
    return Template(tuple(sections), source)


@dataclass(frozen=True)
class Section:
    """One section of a notes file: from its heading line to the next section's heading."""

    heading: Line | None  # None for the text before the first heading (the preamble)
    lines: tuple[Line, ...]  # the lines after the heading, up to the next section
    start: int  # offset of the heading line (or 0)
    end: int  # offset where the next section starts (or the end of the text)
    template_index: int | None = None  # the template section it stands for (exact or near)
    exact: bool = False  # heading line is exactly the template's
    duplicate: bool = False  # a later section standing for the same template section

    @property
    def title(self) -> str:
        return heading_title(self.heading.text) if self.heading else ""

    def description_line(self) -> Line | None:
        """The first non-blank line under the heading."""
        for line in self.lines:
            if line.text.strip():
                return line
        return None

    def body_lines(self, template: Template) -> list[Line]:
        """The section's lines without its template description line."""
        desc = self.description_line()
        expected = template.sections[self.template_index].description if self.template_index is not None else None
        if desc is not None and describes(desc.text, expected):
            return [ln for ln in self.lines if ln is not desc]
        return list(self.lines)

    def user_lines(self, template: Template) -> list[Line]:
        """The non-blank lines the user wrote: not the description, not the template's own text."""
        own = set(template.sections[self.template_index].body) if self.template_index is not None else set()
        return [ln for ln in self.body_lines(template) if ln.text.strip() and ln.text.strip() not in own]


@dataclass(frozen=True)
class Notes:
    text: str
    template: Template
    lines: tuple[Line, ...]
    preamble: Section
    sections: tuple[Section, ...]

    @property
    def template_at_other_level(self) -> bool:
        """Every template section is here with the template's own words, all at one other heading
        level (`## Current State` ...): the notes were made from a copy of the template with `##`
        headings, not renamed one by one."""
        matched = [s for s in self.sections if s.template_index is not None and not s.duplicate and s.heading]
        if len(matched) < 2 or any(s.exact for s in matched):
            return False
        levels = {heading_level(s.heading.text) for s in matched if s.heading is not None}
        same_words = all(normalize(s.title) == normalize(self.template.sections[s.template_index].title)
                         for s in matched if s.template_index is not None)
        return same_words and len(levels) == 1

    def present(self) -> dict[int, Section]:
        """Template index -> the first section standing for it."""
        out: dict[int, Section] = {}
        for section in self.sections:
            if section.template_index is not None and not section.duplicate:
                out.setdefault(section.template_index, section)
        return out


def split_notes(text: str, template: Template) -> Notes:
    """Split a notes file into sections and match each heading to the template."""
    lines = split_lines(text)
    levels = template.levels
    titles = {normalize(s.title) for s in template.sections}
    starts = [line for line, level in heading_lines(lines)
              if level in levels or normalize(heading_title(line.text)) in titles]
    first = starts[0].number - 1 if starts else len(lines)
    preamble = Section(None, tuple(lines[:first]), 0, starts[0].start if starts else len(text))
    raw: list[Section] = []
    for k, head in enumerate(starts):
        stop = starts[k + 1].number - 1 if k + 1 < len(starts) else len(lines)
        end = starts[k + 1].start if k + 1 < len(starts) else len(text)
        raw.append(Section(head, tuple(lines[head.number : stop]), head.start, end))
    return Notes(text, template, tuple(lines), preamble, tuple(_match(raw, template)))


def _match(raw: list[Section], template: Template) -> list[Section]:
    """Give each section its template section: exact heading lines first, then near matches
    (best first, one to one) among the template sections still unmatched."""
    index: dict[int, int] = {}  # raw position -> template index
    exact: set[int] = set()
    taken: set[int] = set()
    for pos, section in enumerate(raw):
        assert section.heading is not None
        i = template.index(section.heading.text.strip())
        if i is not None:
            index[pos] = i
            exact.add(pos)
            taken.add(i)
    candidates: list[tuple[float, int, int]] = []
    for pos, section in enumerate(raw):
        if pos in index:
            continue
        described = _described(section, template, taken)
        if described is not None:  # a renamed heading that kept its template description line
            candidates.append((-2.0, pos, described))
            continue
        scores = [(similarity(section.title, tsec.title), i) for i, tsec in enumerate(template.sections)]
        best = max(scores, key=lambda si: (si[0], -si[1]), default=(0.0, 0))
        if best[0] >= NEAR_RATIO:  # only its closest template section: a copy of it if that one is taken
            candidates.append((-best[0], pos, best[1]))
    candidates.sort()
    near_taken: set[int] = set()
    for _neg, pos, i in candidates:
        if pos in index or i in taken or i in near_taken:
            continue
        index[pos] = i
        near_taken.add(i)
    primary: dict[int, int] = {}  # template index -> the section standing for it
    for pos in sorted(index):
        primary.setdefault(index[pos], pos)
    # A near miss of a template section that is already there is a second copy of it.
    for _neg, pos, i in candidates:
        index.setdefault(pos, i)
    out: list[Section] = []
    for pos, section in enumerate(raw):
        i = index.get(pos)
        dup = i is not None and primary.get(i) != pos
        out.append(Section(section.heading, section.lines, section.start, section.end, i, pos in exact, dup))
    return out


def _described(section: Section, template: Template, taken: set[int]) -> int | None:
    """The template section whose own description line opens `section` (first non-blank line)."""
    first = next((line.text for line in section.lines if line.text.strip()), None)
    if first is None or not is_italic(first):
        return None
    for i, tsec in enumerate(template.sections):
        if i in taken or tsec.description is None:
            continue
        if first.strip() == tsec.description.strip() or similarity(first, tsec.description) >= DESCRIPTION_RATIO:
            return i
    return None
