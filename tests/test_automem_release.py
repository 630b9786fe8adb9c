"""MEMORY.md as each Claude Code release gives it to the model: the WARNING line (C07) and the
sanitising (C08). Expected texts are the oracle runs of ../shared/spec/claude-code-2.1.332-changes.md."""

from __future__ import annotations

import pytest

from memlint.model.memory.automem import shorten, truncate_index
from memlint.model.memory.sanitise import changes, sanitise
from memlint.model.release import pick

OLD, NEW = pick("2.1.197"), pick("2.1.332")
BASE = "\n".join(f"- entry {n}" for n in range(1, 201))
TAIL = " Keep index entries to one line under ~200 chars; move detail into topic files."


def _warning(text: str, release=NEW) -> str:  # type: ignore[no-untyped-def]
    warning = truncate_index(text, release).warning
    assert warning is not None
    return warning


def test_old_release_keeps_the_short_notice() -> None:
    assert _warning(BASE + "\n- entry 201", OLD) == (
        "> WARNING: MEMORY.md is 201 lines (limit: 200). Only part of it was loaded." + TAIL)


def test_first_detailed_release_is_2_1_268() -> None:
    assert "Only part of it was loaded." in _warning(BASE + "\nx", pick("2.1.267"))
    assert "1 of 201 lines were cut off" in _warning(BASE + "\nx", pick("2.1.268"))


@pytest.mark.parametrize(("cut", "detail"), [
    ("\n".join(f"- entry {n}" for n in range(201, 261)), '60 of 260 lines were cut off, starting at line 201 ("- entry 201")'),
    ("   \nlast", "2 of 202 lines were cut off, starting at line 201"),  # n05: blank cut line, no quote
    ("x" * 80, f'1 of 201 lines were cut off, starting at line 201 ("{"x" * 80}")'),  # n07
    ("x" * 81, f'1 of 201 lines were cut off, starting at line 201 ("{"x" * 79}\u2026")'),  # n08
    (("- [A fairly long index title with words](some-topic-file.md) \u2014 a hook that keeps going past eighty "
     "characters for sure"),
     ('1 of 201 lines were cut off, starting at line 201 ("- [A fairly long index title with words]'
     '(some-topic-file.md) \u2014 a hook that\u2026")')),  # n06: word boundary
    ('  "quoted" \\ line\twith tab  ', '1 of 201 lines were cut off, starting at line 201 (""quoted" \\ line\twith tab")'),
])
def test_detail_names_the_cut(cut: str, detail: str) -> None:
    assert f"Only part of it was loaded: {detail}." in _warning(BASE + "\n" + cut)


def test_one_huge_line_says_characters_of_line_1() -> None:
    text = "a" + "\U0001f389" * 13_000
    t = truncate_index(text, NEW)
    assert "everything after the first 25000 characters of line 1 was cut off." in (t.warning or "")
    assert "\ufffd" not in t.content  # 2.1.284+: the lone half is removed
    assert "\ufffd" in truncate_index(text, pick("2.1.283")).content  # before: U+FFFD


@pytest.mark.parametrize(("line", "quote"), [
    ("0084 " + "y" * 295, "0084 " + "y" * 74 + "\u2026"),  # word cut would keep <= 40 units
    ("190" + "\u6f22" * 100, "190" + "\u6f22" * 76 + "\u2026"),
    ("\U0001f389" * 60, "\U0001f389" * 39 + "\u2026"),  # no emoji split: 78 units
    ("short", "short"),
])
def test_shorten(line: str, quote: str) -> None:
    assert shorten(line) == quote


CTRL = ("Ctl:\x01\x07\x1b[31m| ZWSP:\u200b| SHY:\xad| LRM:\u200e| BOMmid:\ufeff| PUA:\ue000| ZWJ:\u200d| "
        "VS16:\ufe0f| NBSP:\xa0| LS:\u2028| PS:\u2029| CR:\r| DEL:\x7f| C1:\x85\x9b|")


def test_sanitise_matches_n01() -> None:
    assert sanitise(CTRL) == ("Ctl:[31m| ZWSP:| SHY:| LRM:| BOMmid:| PUA:| ZWJ:\u200d| VS16:\ufe0f| NBSP:\xa0| "
                              "LS:\n| PS:\n| CR:\n| DEL:| C1:|")


@pytest.mark.parametrize(("text", "out"), [
    ("<system-reminder>x</system-reminder>", "<\\system-reminder>x<\\/system-reminder>"),
    ("<function_results>", "<\\function_results>"),
    ('<channel source="z">y</channel>', '<\\channel source="z">y</channel>'),
    ("<System-Reminder>", "<\\System-Reminder>"),
    ("\uff1csystem-reminder>", "<\\system-reminder>"),
    ("<invoke> <foo> <system-reminderish>", "<invoke> <foo> <system-reminderish>"),
])
def test_sanitise_defuses_harness_tags(text: str, out: str) -> None:
    assert sanitise(text) == out


def test_sanitising_only_on_2_1_284_and_later() -> None:
    assert truncate_index("a\u200bb", pick("2.1.283")).content == "a\u200bb"
    assert truncate_index("a\u200bb", pick("2.1.284")).content == "ab"


def test_changes_name_line_and_character() -> None:
    found = changes("fine\nzero\u200bwidth <system-reminder>\na\u2028b")
    assert [(c.line, c.what) for c in found] == [
        (2, "U+200B ZERO WIDTH SPACE removed"),
        (2, "`<system-reminder` defused as `<\\system-reminder`"),
        (3, ("U+2028 LINE SEPARATOR turned into a line break (counted as one line for the 200-line limit, "
            "read by the model as several)")),
    ]


def findings_for(tree, code: str, release):  # type: ignore[no-untyped-def]
    """Run one rule on `tree` as `release` (the loads are re-made with that release)."""
    from memlint.config import load_config
    from memlint.engine import NO_HOME, NO_MANAGED, build_context, run_rules
    from memlint.model.loading.loader import load
    from memlint.rules import all_rules

    config_file = tree / ".memlint.toml"  # the folder is an auto-memory folder (not a hand-kept MEMORY.md)
    if not config_file.exists():
        config_file.write_text('memory-dirs = ["."]\n', encoding="utf-8")
    config = load_config(tree, None, {"select": [code]})
    ctx = build_context([tree], config, None)
    ctx.release = release
    ctx.loads = {start: load(start, NO_HOME, ctx.workspace, NO_MANAGED, False, release) for start in ctx.loads}
    return [v.detail or v.message for v in run_rules(ctx, [r for r in all_rules() if r.code == code])]


def test_ml301_quotes_the_notice_of_the_release(tmp_path) -> None:  # type: ignore[no-untyped-def]
    (tmp_path / "MEMORY.md").write_text(BASE + "\n- entry 201\n", encoding="utf-8")
    old = findings_for(tmp_path, "ML301", OLD)
    new = findings_for(tmp_path, "ML301", NEW)
    assert "Only part of it was loaded. Keep index" in old[0]
    assert 'Only part of it was loaded: 1 of 201 lines were cut off, starting at line 201 ("- entry 201").' in new[0]


def test_ml322_only_where_claude_code_sanitises(tmp_path) -> None:  # type: ignore[no-untyped-def]
    (tmp_path / "MEMORY.md").write_text("# Memory\n- [A](a.md) \u2014 zero\u200bwidth\n", encoding="utf-8")
    assert findings_for(tmp_path, "ML322", pick("2.1.283")) == []
    assert len(findings_for(tmp_path, "ML322", pick("2.1.284"))) == 1


ADVICE = "keep one line per entry, move detail into topic files, and merge or drop stale entries."


@pytest.mark.parametrize(("version", "lines", "size", "text"), [
    ("2.1.198", 214, 3000, None),  # without a PostToolUse hook matching the Write
    ("2.1.332", 159, 19_999, None),
    ("2.1.332", 214, 3000, "Error: this write left the memory index at MEMORY.md at 214 lines, over its 200-line read "
     "limit. The write succeeded, but everything past the limit is silently dropped each time the index is loaded "
     "\u2014 entries at the end are already invisible to readers. Rewrite it to under 140 lines now: " + ADVICE),
    ("2.1.332", 164, 3000, "The memory index at MEMORY.md is 164 lines, approaching the 200-line read limit. "
     "Compact it to under 140 lines now: " + ADVICE),
    ("2.1.332", 1, 20_482, "The memory index at MEMORY.md is 20KB, approaching the 24.4KB read limit. "
     "Compact it to under 17.1KB now: " + ADVICE),
    ("2.1.332", 200, 3000, "The memory index at MEMORY.md is 200 lines, approaching the 200-line read limit. "
     "Compact it to under 140 lines now: " + ADVICE),
    ("2.1.209", 214, 3000, "The memory index at MEMORY.md is 214 lines, over the 200-line read limit \u2014 content "
     "beyond that is dropped when this index is loaded. Compact it to under 140 lines now: " + ADVICE),
    ("2.1.199", 200, 3000, "The memory index at MEMORY.md is 200 lines, over the 200-line read limit \u2014 content "
     "beyond that is dropped when this index is loaded. Compact it to under 140 lines now: " + ADVICE),
    ("2.1.210", 160, 19_000, "The memory index at MEMORY.md is 160 lines, approaching the 200-line read limit. "
     "Compact it to under 140 lines now: " + ADVICE),  # 0.8 of the line cap beats 0.76 of the size cap
    ("2.1.210", 160, 20_000, "The memory index at MEMORY.md is 19.5KB, approaching the 24.4KB read limit. "
     "Compact it to under 17.1KB now: " + ADVICE),  # a tie names the size
])
def test_guard_text(version: str, lines: int, size: int, text: str | None) -> None:
    from memlint.model.memory.automem import guard_text

    assert guard_text(lines, size, pick(version)) == text
    if pick(version).memory_write_guard:  # a PostToolUse hook changes nothing where the guard always speaks
        assert guard_text(lines, size, pick(version), hooked=True) == text


@pytest.mark.parametrize(("version", "lines", "size", "text"), [
    ("2.1.197", 159, 19_999, None),
    ("2.1.197", 160, 3000, "The memory index at MEMORY.md is 160 lines, approaching the 200-line read limit. "
     "Compact it to under 140 lines now: " + ADVICE),
    ("2.1.198", 200, 3000, "The memory index at MEMORY.md is 200 lines, over the 200-line read limit \u2014 content "
     "beyond that is dropped when this index is loaded. Compact it to under 140 lines now: " + ADVICE),
    ("2.1.197", 1, 25_000, "The memory index at MEMORY.md is 24.4KB, over the 24.4KB read limit \u2014 content "
     "beyond that is dropped when this index is loaded. Compact it to under 17.1KB now: " + ADVICE),
])
def test_guard_text_after_a_hooked_write_on_2_1_197(version: str, lines: int, size: int, text: str | None) -> None:
    """2.1.197-2.1.198 have the 2.1.199 guard, but it speaks only after a Write a PostToolUse hook matches."""
    from memlint.model.memory.automem import guard_text

    assert guard_text(lines, size, pick(version), hooked=True) == text
    assert guard_text(lines, size, pick(version)) is None


def test_ml302_says_what_the_guard_says_per_release(tmp_path) -> None:  # type: ignore[no-untyped-def]
    (tmp_path / "MEMORY.md").write_text("\n".join(f"- [N{n}](n{n}.md) \u2014 f" for n in range(170)) + "\n",
                                        encoding="utf-8")
    old = findings_for(tmp_path, "ML302", pick("2.1.198"))[0]
    assert "write guard speaks only after a Write that a PostToolUse hook matches" in old
    assert "then it tells the agent `The memory index at MEMORY.md is 170 lines, approaching" in old
    assert "without such a hook nothing warns the agent" in old
    assert "`The memory index at MEMORY.md is 170 lines, approaching" in findings_for(tmp_path, "ML302", NEW)[0]


def test_ml204_only_on_releases_with_the_total_warning(tmp_path) -> None:  # type: ignore[no-untyped-def]
    (tmp_path / ".claude" / "rules").mkdir(parents=True)
    for name in ("CLAUDE.local.md", "NOTES.md", ".claude/rules/a.md"):
        (tmp_path / name).write_text("# Notes\n" + "- keep builds reproducible\n" * 1400, encoding="utf-8")
    (tmp_path / "CLAUDE.md").write_text("# P\n@NOTES.md\n" + "- keep builds reproducible\n" * 1400, encoding="utf-8")
    assert findings_for(tmp_path, "ML204", pick("2.1.331")) == []
    found = findings_for(tmp_path, "ML204", pick("2.1.332"))
    assert len(found) == 1
    assert "loads 4 instruction files" in found[0]  # an include counts as a file of its own


@pytest.mark.parametrize(("number", "text"), [
    (999, "999"), (1000, "1.0k"), (120_000, "120.0k"), (123_456, "123.5k"), (999_999, "1.0m"), (1_234_567, "1.2m"),
])
def test_compact_numbers_as_intl(number: int, text: str) -> None:
    from memlint.rules.size.ml204_instruction_files_over_total import compact

    assert compact(number) == text
