"""Properties of the MEMORY.md split over generated indexes shaped like real ones (sections of
bullets, entries that link existing topic files, bracketed titles, entries listed again, over-long
entries to missing files, standing instructions in several languages, prose, tables, code,
headings, blank lines, CRLF, a BOM): lossless, idempotent, never changes an existing topic file,
keeps instructions in the index, loads whole whenever a plan is offered, and changes nothing
(naming the floor) when none is."""

from __future__ import annotations

import re
from collections import Counter
from pathlib import Path

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from memlint.model.cli_js.jstext import js_trim
from memlint.model.memory.automem import MAX_LINES, MAX_UNITS
from memlint.model.text.instructions import is_instruction as is_directive
from memlint.rules.automem.split import SplitPlan, measure, plan_split

FOLDER = Path("/memory")
WORDS = st.sampled_from(
    ["deploy", "tests", "Datenbank", "部署", "测试数据库", "🚀", "emoji😀text", "a:b", "#tag", "x" * 60, "`code`",
     "very", "long", "pipeline", "*bold*", "'quote'", '"dq"', "@docs/a.md", "\u2014 dash", "v2.1", "port 5433"]
)
TEXT = st.lists(WORDS, min_size=2, max_size=14).map(" ".join)
TITLE = st.lists(WORDS, min_size=1, max_size=4).map(" ".join)
DIRECTIVES = st.sampled_from(
    ["- NEVER put credits in commit messages", "- **Always** run the linter before pushing",
     "CRITICAL: the staging database is shared", "- Do not edit generated files", "IMPORTANT: ask before deleting",
     "- Type definitions: put each field on its own line", "- 항상 한국어로 답변할 것", "- Usa sempre il formato ISO",
     "- 本番DBに直接書き込まないこと", "- Niemals direkt auf main pushen", "- 必须使用 pnpm"]
)


def topic(name: str) -> str:
    return f"---\nname: {name}\ndescription: about {name}\nmetadata:\n  type: project\n---\n\nBody of {name}.\n"


@st.composite
def section(draw: st.DrawFn) -> list[str]:
    n = draw(st.integers(0, 10**6))
    kind = draw(st.sampled_from(["bullets", "bullets", "para", "table", "code", "entries", "mixed", "nested",
                                 "bracketed", "dangling", "again"]))
    heading = f"{'#' * draw(st.integers(2, 3))} {draw(TITLE)}" + draw(st.sampled_from(["", " \u2014 NOTES", " (2026)"]))
    out = [heading]
    if draw(st.booleans()):
        out.append("")
    size = draw(st.integers(1, 14))
    if kind == "bullets":
        out += [f"- {draw(TEXT)}" for _ in range(size)]
    elif kind == "para":
        out += [draw(TEXT) for _ in range(size)]
    elif kind == "table":
        out += ["| Date | Summary |", "|------|---------|"] + [f"| 2026-0{k % 9 + 1}-1{k % 9} | {draw(TEXT)} |"
                                                              for k in range(size)]
    elif kind == "code":
        out += ["```bash"] + [draw(TEXT) for _ in range(size)] + ["```"]
    elif kind == "entries":
        out += [f"- [{draw(TITLE)}](topic_{n}_{k}.md) \u2014 {draw(TEXT)}" for k in range(size)]
    elif kind == "bracketed":
        out += [f"- [[v{k}] {draw(TITLE)}](topic_{n}_{k}.md) \u2014 {draw(TEXT)}" for k in range(size)]
    elif kind == "dangling":
        out += [f"- [{draw(TITLE)}](gone_{n}_{k}.md) \u2014 {draw(TEXT)}; {draw(TEXT)}; {draw(TEXT)}. {draw(TEXT)}"
                for k in range(size)]
    elif kind == "again":
        out += [f"- [{draw(TITLE)}](topic_{n % 7}_0.md) \u2014 revision {k}: {draw(TEXT)}" for k in range(size)]
    elif kind == "nested":
        out += [f"- {draw(TEXT)}", f"  - {draw(TEXT)}", f"  - {draw(TEXT)}", f"- {draw(TEXT)}"]
    else:
        out += [f"- [{draw(TITLE)}](topic_{n}_0.md) \u2014 {draw(TEXT)}", f"- {draw(TEXT)}", draw(DIRECTIVES),
                f"- {draw(TEXT)} see [it](topic_{n}_0.md)", f"- {draw(TEXT)}", f"- {draw(TEXT)}"]
    return out + [""]


@st.composite
def memory_folder(draw: st.DrawFn) -> tuple[str, dict[str, str]]:
    lines = ["# Project Memory", ""] if draw(st.booleans()) else []
    if draw(st.booleans()):
        lines += ["> Index of what Claude remembers about this project.", ""]
    for part in draw(st.lists(section(), min_size=12, max_size=40)):
        lines += part
    if draw(st.booleans()):
        lines += ["## Rules (CRITICAL)", "- keep migrations reversible", "- tag releases from main", ""]
    text = "\n".join(lines) + draw(st.sampled_from(["\n", "", "\n\n"]))
    disk = {m: topic(m[:-3]) for m in set(re.findall(r"\((topic_\d+_\d+\.md)\)", text))}
    if draw(st.booleans()):
        text = text.replace("\n", "\r\n")
    if draw(st.booleans()):
        text = "\ufeff" + text
    return text, disk


def _lines(text: str) -> list[str]:
    return [line.removesuffix("\r") for line in text.split("\n") if js_trim(line)]


def _split(text: str, disk: dict[str, str]) -> SplitPlan | None:
    return plan_split(text, FOLDER, lambda p: disk.get(p.name) if p.parent == FOLDER else None, taken=list(disk))


SETTINGS = settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow,
                                                                           HealthCheck.data_too_large])


@SETTINGS
@given(memory_folder())
def test_split_is_lossless_and_moves_each_line_once(folder: tuple[str, dict[str, str]]) -> None:
    text, disk = folder
    plan = _split(text, disk)
    if plan is None:
        return
    if plan.floor is not None:
        assert plan.new_text == text and not plan.topics, "a refused plan changes nothing"
        assert plan.floor.lines > MAX_LINES or plan.floor.units > MAX_UNITS
        return
    assert not plan.truncation.truncated, "an offered plan makes the index load whole"
    assert plan.new_text.startswith("\ufeff") == text.startswith("\ufeff"), "the BOM stays first"
    new = Counter(_lines(plan.new_text.removeprefix("\ufeff")))
    new.subtract(Counter(_lines("\n".join(plan.added))))
    for t in plan.topics:
        assert t.moved in t.text, "a topic file holds its lines verbatim"
        new.update(_lines(t.moved))
    assert +new == Counter(_lines(text.removeprefix("\ufeff"))) and all(v >= 0 for v in new.values())


@SETTINGS
@given(memory_folder())
def test_entries_and_instructions_stay_byte_identical(folder: tuple[str, dict[str, str]]) -> None:
    text, disk = folder
    plan = _split(text, disk)
    if plan is None or plan.floor is not None:
        return
    kept = Counter(plan.new_text.replace("\r\n", "\n").split("\n"))
    moved_entries = any("entries" in step for step in plan.steps)
    rows = [line.removeprefix("\ufeff") for line in text.replace("\r\n", "\n").split("\n")]
    for n, line in enumerate(rows):
        after = rows[n + 1] if n + 1 < len(rows) else ""
        alone = line.startswith("- ") and (not after.strip() or after.startswith(("- ", "#")))
        if alone and "](" not in line and is_directive(line):
            assert kept[line] > 0, f"an instruction left the index: {line!r}"
        links_existing = any(m in disk for m in re.findall(r"\]\(([^)]+)\)", line))
        if links_existing and not moved_entries and line.startswith("- ["):
            assert kept[line] > 0, f"an entry left the index: {line!r}"


@SETTINGS
@given(memory_folder())
def test_split_never_links_a_missing_file_nor_touches_an_existing_one(folder: tuple[str, dict[str, str]]) -> None:
    text, disk = folder
    plan = _split(text, disk)
    if plan is None:
        return
    new_names = {t.path.name for t in plan.topics}
    assert not new_names & set(disk), "an existing topic file would be written"
    old_targets = set(re.findall(r"\]\(([^)\s]+\.md)\)", text))
    for target in re.findall(r"\]\(([^)\s]+\.md)\)", plan.new_text):
        assert target in old_targets or target in new_names
    for t in plan.topics:
        assert t.name == t.name.lower() and re.fullmatch(r"[\w-]+", t.name) and len(t.name) <= 80
        assert t.path.parent == FOLDER
    assert len({n.casefold() for n in new_names}) == len(new_names)


@SETTINGS
@given(memory_folder())
def test_descriptions_say_what_is_inside(folder: tuple[str, dict[str, str]]) -> None:
    text, disk = folder
    plan = _split(text, disk)
    if plan is None:
        return
    for t in plan.topics:
        d = t.description
        assert d and "\n" not in d and len(d) <= 150
        assert d.casefold() != t.title.casefold()
        assert not d.startswith("|") and not re.fullmatch(r"[\s|:-]+", d)
    for entry in plan.entries:
        assert len(entry) <= 200 and entry.startswith("- [")


@SETTINGS
@given(memory_folder())
def test_split_is_idempotent_and_gets_under_the_guard(folder: tuple[str, dict[str, str]]) -> None:
    text, disk = folder
    before = measure(text)
    plan = _split(text, disk)
    if plan is None:
        return
    if plan.floor is not None:
        assert before.truncated
        return
    after = plan.truncation
    assert after.line_count < before.line_count or after.size < before.size
    on_disk = {**disk, **{t.path.name: t.text for t in plan.topics}}
    again = _split(plan.new_text, on_disk)
    assert again is None, f"a second split found more to do: {again and again.steps}"


@SETTINGS
@given(memory_folder(), st.data())
def test_interrupted_split_is_recognised(folder: tuple[str, dict[str, str]], data: st.DataObject) -> None:
    text, disk = folder
    plan = _split(text, disk)
    if plan is None or plan.floor is not None:
        return
    written = data.draw(st.sets(st.sampled_from([t.path.name for t in plan.topics]), min_size=1))
    half = {**disk, **{t.path.name: t.text for t in plan.topics if t.path.name in written}}
    again = _split(text, half)
    assert again is not None
    assert again.new_text == plan.new_text
    assert [t.path for t in again.topics] == [t.path for t in plan.topics]
    assert {t.path.name for t in again.topics if t.reused} == written


@SETTINGS
@given(memory_folder())
def test_files_of_someone_else_are_never_overwritten(folder: tuple[str, dict[str, str]]) -> None:
    text, disk = folder
    plan = _split(text, disk)
    if plan is None or plan.floor is not None:
        return
    taken = {**disk, **{t.path.name.upper(): "---\nname: someone-else\n---\nother\n" for t in plan.topics}}
    again = _split(text, {k.lower(): v for k, v in taken.items()} | taken)
    assert again is not None
    assert not {t.path.name.casefold() for t in again.topics} & {k.casefold() for k in taken}


def test_a_numeric_slug_is_recognised_after_an_interruption() -> None:
    """`2026` would read back from YAML as a number: the name is quoted, and an interrupted split
    that wrote it is linked again, not written a second time under another name."""
    entries = [f"- [Note {n}](note_{n}.md) \u2014 fact {n}" for n in range(120)]
    text = "\n".join(["# Memory", *entries, "", "## 2026", *[f"- plan item {k}" for k in range(40)]]) + "\n"
    disk = {f"note_{n}.md": topic(f"note_{n}") for n in range(120)}
    plan = _split(text, disk)
    assert plan is not None and [t.name for t in plan.topics] == ["2026"]
    assert 'name: "2026"' in plan.topics[0].text
    again = _split(text, {**disk, "2026.md": plan.topics[0].text})
    assert again is not None and again.topics[0].reused and again.new_text == plan.new_text


def _superseded_entry_over_detail() -> tuple[str, dict[str, str]]:
    """A cut index whose entry stages supersede an entry that a detail line sits under: while the
    entry is there, the line is its detail, which its own topic file (existing) cannot take and a
    "(details)" entry would not shorten; it stands alone only once the entry moved as superseded."""
    lines = ["# Project Memory", ""]
    disk: dict[str, str] = {}
    for s in range(12):  # sections of entries to existing topic files: they stay, and keep it long
        lines.append(f"## Area {s}")
        for n in range(12):
            name = f"topic_{s}_{n}.md"
            disk[name] = topic(name[:-3])
            lines.append(f"- [Note {s}.{n}]({name}) \u2014 what note {s}.{n} holds, in a few words")
    digest = "3f9a" * 15  # two long words: what the line says cannot be cut short
    lines += ["### \u53d1\u5e03 #release",
              "- [Release steps, nightly](topic_0_0.md) \u2014 the nightly and weekly channels and what each ships",
              f"- tags {digest} come from main {digest[::-1]} once merged",
              "- NEVER push tags from a fork",
              "- the release checklist lives on, see [it](topic_0_0.md)"]
    for s in range(6):  # detail the first stage moves
        lines.append(f"## Log {s}")
        lines += [f"- step {s}.{n}: ran the migration on staging and checked the row counts by hand" for n in range(8)]
    return "\n".join(lines) + "\n", disk


def test_detail_an_entry_stage_leaves_alone_moves_in_the_same_split() -> None:
    text, disk = _superseded_entry_over_detail()
    assert measure(text).truncated
    plan = _split(text, disk)
    assert plan is not None and plan.floor is None
    assert any("superseded" in step for step in plan.steps)
    assert "- tags 3f9a" not in plan.new_text  # moved, in this split
    on_disk = {**disk, **{t.path.name: t.text for t in plan.topics}}
    again = _split(plan.new_text, on_disk)
    assert again is None, f"a second split found more to do: {again and again.steps}"
