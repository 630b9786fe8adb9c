"""Properties of the session-notes fixes over generated notes files: sections dropped, renamed,
shuffled and duplicated, descriptions lost, extra sections, CJK text and code blocks holding
`# ` lines, LF or CRLF. Fixing (safe and unsafe) is lossless (the multiset of the user's lines,
each with its section, is unchanged), idempotent, and leaves nothing fixable."""

from __future__ import annotations

import tempfile
from collections import Counter
from pathlib import Path

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from memlint import api
from memlint.config import load_config
from memlint.fixes import write_all
from memlint.model.memory.notes_template import DEFAULT_PAIRS, DEFAULT_TEMPLATE, Notes, split_notes

CODES = ["ML401", "ML402", "ML403", "ML404", "ML405", "ML406", "ML407", "ML408", "ML409"]
TEMPLATE_LINES = {h for h, _ in DEFAULT_PAIRS} | {d for _, d in DEFAULT_PAIRS}

words = st.sampled_from(
    ["retry", "ledger", "pytest -q", "修复重试逻辑", "支付网关", "テスト", "N/A", "TBD", "`src/app.py`", "**bold**",
     "_note_", "x", "naïve", "→ next", "emoji 🚀"]
)
plain_line = st.lists(words, min_size=1, max_size=5).map(" ".join).map(
    lambda s: s if not s.lstrip().startswith(("#", "`", "~")) else "- " + s
)
code_block = st.lists(st.sampled_from(["# a shell comment", "pytest -q", "# Current State", "echo 完成"]),
                      min_size=1, max_size=3).map(lambda ls: ["```bash", *ls, "```"])
body = st.lists(st.one_of(plain_line.map(lambda s: [s]), code_block, st.just([""])), max_size=4).map(
    lambda blocks: [line for block in blocks for line in block]
)


def renamed(heading: str, how: int) -> str:
    title = heading[2:]
    return [heading, "# " + title.lower(), "## " + title, "# " + title.replace("&", "and"), "# " + title + "s"][how]


section = st.one_of(
    st.tuples(st.integers(0, 9), st.integers(0, 4), st.booleans(), body),  # template section
    st.tuples(st.sampled_from(["# Scratch", "# 备注", "# Open questions"]), st.just(0), st.just(False), body),
)


@st.composite
def notes_files(draw: st.DrawFn) -> str:
    sections = draw(st.lists(section, max_size=14))
    preamble = draw(st.lists(plain_line, max_size=2))
    parts: list[str] = list(preamble)
    for key, how, drop_description, lines in sections:
        if isinstance(key, int):
            heading, description = DEFAULT_PAIRS[key]
            parts.append(renamed(heading, how))
            if not drop_description:
                parts.append(description)
        else:
            parts.append(key)
        parts.extend(lines)
        parts.append("")
    nl = draw(st.sampled_from(["\n", "\r\n"]))
    text = nl.join(parts)
    return text + nl if draw(st.booleans()) else text


def user_lines(notes: Notes) -> Counter[tuple[object, str]]:
    """Every non-blank line that is not template structure, with the section it is in."""
    out: Counter[tuple[object, str]] = Counter()
    for line in notes.preamble.lines:
        if line.text.strip():
            out[("preamble", line.text)] += 1
    for sec in notes.sections:
        assert sec.heading is not None
        key: object = sec.template_index if sec.template_index is not None else sec.heading.text
        if sec.template_index is None:
            out[(key, sec.heading.text)] += 1
        for line in sec.lines:
            if line.text.strip() and line.text.strip() not in TEMPLATE_LINES:
                out[(key, line.text)] += 1
    return out


def fix_text(text: str) -> tuple[str, list[str]]:
    with tempfile.TemporaryDirectory() as tmp:
        root = Path(tmp).resolve()
        path = root / "session-memory" / "summary.md"
        path.parent.mkdir()
        path.write_bytes(text.encode("utf-8"))
        config = load_config(root, None, {"select": CODES})
        outcome = api.fix([root], config, None, unsafe=True)
        assert outcome.result.converged
        if outcome.result.changed:
            write_all(outcome.result)
        fixed = path.read_bytes().decode("utf-8")
        left = [f"{v.code} {v.message}" for v in api.check([root], config).violations if v.fix is not None]
    return fixed, left


@settings(max_examples=120, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(notes_files())
def test_fixes_are_lossless_idempotent_and_complete(text: str) -> None:
    fixed, left = fix_text(text)
    assert not left, f"fixable problems left: {left}"
    before, after = split_notes(text, DEFAULT_TEMPLATE), split_notes(fixed, DEFAULT_TEMPLATE)
    assert user_lines(after) == user_lines(before)
    again, _ = fix_text(fixed)
    assert again == fixed
    assert ("\r\n" in fixed) == ("\r\n" in text) or not text.strip()


@settings(max_examples=200, deadline=None)
@given(notes_files())
def test_split_keeps_every_line(text: str) -> None:
    notes = split_notes(text, DEFAULT_TEMPLATE)
    lines = [ln.text for ln in notes.preamble.lines]
    for sec in notes.sections:
        assert sec.heading is not None
        lines += [sec.heading.text, *(ln.text for ln in sec.lines)]
    assert lines == [ln.text for ln in notes.lines]
