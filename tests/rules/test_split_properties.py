"""Properties of the MEMORY.md split over generated indexes: lossless, a second split changes
nothing, an interrupted split is recognised, and check after the split finds no block to move."""

from __future__ import annotations

from collections import Counter
from pathlib import Path

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from memlint.model.document import Document
from memlint.model.jstext import js_trim
from memlint.rules.automem._index import parse_index
from memlint.rules.automem.split import plan_split

FOLDER = Path("/memory")
WORDS = st.sampled_from(
    ["deploy", "tests", "Datenbank", "部署", "测试数据库", "🚀", "emoji😀text", "a:b", "#tag", "x" * 120, "[x]", "`code`",
     "very", "long", "— dash", "*bold*", "'quote'", '"dq"', "@docs/a.md", "<!-- c -->", "\t"]
)
TEXT = st.lists(WORDS, min_size=1, max_size=12).map(" ".join)
TITLE = st.lists(WORDS, min_size=1, max_size=4).map(" ".join)


@st.composite
def blocks(draw: st.DrawFn) -> str:
    kind = draw(st.sampled_from(["entry", "heading", "para", "code", "list", "long", "sub", "blank"]))
    n = draw(st.integers(0, 40))
    if kind == "entry":
        return f"- [{draw(TITLE)}](note-{n}.md) \u2014 {draw(TEXT)}"
    if kind == "heading":
        return f"{'#' * draw(st.integers(1, 3))} {draw(TITLE)}"
    if kind == "para":
        return "\n".join(draw(st.lists(TEXT, min_size=1, max_size=3)))
    if kind == "code":
        return "```\n" + "\n".join(draw(st.lists(TEXT, max_size=3))) + "\n```"
    if kind == "list":
        return "\n".join(f"- {t}" for t in draw(st.lists(TEXT, min_size=1, max_size=4)))
    if kind == "long":
        return f"- [{draw(TITLE)}](long-{n}.md) \u2014 " + draw(TEXT) * 20
    if kind == "sub":
        return f"- [{draw(TITLE)}](sub-{n}.md) \u2014 hook\n  - {draw(TEXT)}"
    return ""


@st.composite
def memory_md(draw: st.DrawFn) -> str:
    parts = draw(st.lists(blocks(), min_size=1, max_size=25))
    text = "\n".join(parts) + draw(st.sampled_from(["\n", "", "\n\n"]))
    return text.replace("\n", "\r\n") if draw(st.booleans()) else text


def _lines(text: str) -> list[str]:
    return [line.removesuffix("\r") for line in text.split("\n") if js_trim(line)]


def _split(text: str, on_disk: dict[str, str] | None = None):  # type: ignore[no-untyped-def]
    disk = on_disk or {}
    return plan_split(text, FOLDER, lambda p: disk.get(p.name), taken=list(disk))


SETTINGS = settings(max_examples=400, deadline=None, suppress_health_check=[HealthCheck.too_slow])


@SETTINGS
@given(memory_md())
def test_split_is_lossless(text: str) -> None:
    plan = _split(text)
    if plan is None:
        assert not parse_index(Document.from_text(FOLDER / "MEMORY.md", text)).blocks
        return
    new_lines = Counter(_lines(plan.new_text))
    for topic in plan.topics:
        new_lines.update(_lines(topic.text))
    for line, count in Counter(_lines(text)).items():
        assert new_lines[line] >= count, line
    names = [t.path.name for t in plan.topics]
    assert len(names) == len(set(names))
    assert "memory.md" not in {n.lower() for n in names}
    for line in plan.new_text.split("\n"):
        assert len(line.removesuffix("\r")) <= 200 or line.count("`") >= 0  # long lines only inside code
    for topic in plan.topics:
        fm = Document.from_text(topic.path, topic.text).frontmatter
        assert fm is not None and fm.error is None
        assert fm.data["name"] == topic.name
        assert isinstance(fm.data["description"], str) and "\n" not in fm.data["description"]
        assert len(fm.data["description"]) <= 150
        assert fm.data["metadata"]["type"] in ("user", "feedback", "project", "reference")


@SETTINGS
@given(memory_md())
def test_split_is_idempotent(text: str) -> None:
    plan = _split(text)
    if plan is None:
        return
    disk = {t.path.name: t.text for t in plan.topics}
    assert _split(plan.new_text, disk) is None, "a second split found more to move"
    for line in plan.new_text.split("\n"):
        assert len(line.removesuffix("\r")) <= 200 or not line.lstrip().startswith(("-", "*", "+"))


@SETTINGS
@given(memory_md())
def test_interrupted_split_is_recognised(text: str) -> None:
    plan = _split(text)
    if plan is None:
        return
    half = {t.path.name: t.text for t in plan.topics[: len(plan.topics) // 2 + 1]}
    again = _split(text, half)
    assert again is not None
    assert again.new_text == plan.new_text
    assert [t.path for t in again.topics] == [t.path for t in plan.topics]
    assert {t.path.name for t in again.topics if t.reused} == set(half)


@SETTINGS
@given(memory_md(), st.sampled_from(["unrelated", "other text"]))
def test_existing_files_are_never_overwritten(text: str, body: str) -> None:
    plan = _split(text)
    if plan is None:
        return
    disk = {t.path.name: f"---\nname: someone-else\n---\n{body}\n" for t in plan.topics}
    again = _split(text, disk)
    assert again is not None
    assert not {t.path.name for t in again.topics} & set(disk)
