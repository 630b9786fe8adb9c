"""The fix machinery: edits, overlaps, the loop, and all-or-nothing writes with deletes."""

from __future__ import annotations

import os
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from memlint.fixes import FixError, FixResult, apply_edits, choose, fix_loop, write_all, write_changes
from memlint.model.loading.workspace import Workspace
from memlint.violations import Applicability, Edit, Fix, Violation


def _violation(path: Path, fix: Fix) -> Violation:
    return Violation(path, 1, 1, "ML999", "test", "error", "m", 1, 1, fix)


def test_apply_edits_in_order_and_refuses_overlaps(tmp_path: Path) -> None:
    p = tmp_path / "a.md"
    assert apply_edits("abcdef", [Edit(p, 4, 5, "E"), Edit(p, 0, 1, "A")]) == "AbcdEf"
    with pytest.raises(FixError):
        apply_edits("abcdef", [Edit(p, 0, 3, "x"), Edit(p, 2, 4, "y")])


def test_overlapping_fixes_wait_for_the_next_pass(tmp_path: Path) -> None:
    p = tmp_path / "a.md"
    first = Fix("one", Applicability.SAFE, (Edit(p, 0, 2, "x"),))
    second = Fix("two", Applicability.SAFE, (Edit(p, 1, 3, "y"),))
    third = Fix("three", Applicability.SAFE, (Edit(p, 5, 6, "z"),))
    chosen = choose([_violation(p, f) for f in (first, second, third)], lambda v: True)
    assert chosen == [first, third]


def _choose_by_comparing_everything(violations: list[Violation]) -> list[Fix]:
    """`choose` as it was: every edit against every edit taken, membership in a list."""
    from memlint.fixes import _overlaps

    chosen: list[Fix] = []
    taken: list[Edit] = []
    for v in violations:
        if v.fix is None or v.fix in chosen:
            continue
        if any(_overlaps(a, b) for a in v.fix.edits for b in taken):
            continue
        chosen.append(v.fix)
        taken.extend(v.fix.edits)
    return chosen


_EDITS = st.builds(
    lambda name, start, length, create, delete: Edit(Path("/t") / name, start, start + length, "x", create, delete),
    st.sampled_from(["a.md", "b.md", "c.md"]), st.integers(0, 12), st.integers(0, 4),
    st.sampled_from([False, False, False, True]), st.sampled_from([False, False, False, True]))


@settings(max_examples=300, deadline=None)
@given(st.lists(st.lists(_EDITS, min_size=1, max_size=3).map(tuple), min_size=0, max_size=12))
def test_choose_by_file_is_choose_against_everything(edit_sets: list[tuple[Edit, ...]]) -> None:
    """Edits of different files never overlap, so comparing an edit only with the edits taken in
    its own file (and finding a chosen fix in a set) chooses exactly what comparing all did."""
    violations = [_violation(Path("/t/a.md"), Fix(f"fix {i % 5}", Applicability.SAFE, edits))
                  for i, edits in enumerate(edit_sets)]
    violations += violations[:3]  # the same fix found by several findings
    assert choose(violations, lambda v: True) == _choose_by_comparing_everything(violations)


def test_a_loop_that_never_settles_is_reported_not_written(tmp_path: Path) -> None:
    p = tmp_path / "a.md"
    p.write_text("a", encoding="utf-8")
    workspace = Workspace()

    def run() -> list[Violation]:  # a fix that flips the text forever
        text = workspace.document(p).text
        flipped = "b" if text == "a" else "a"
        return [_violation(p, Fix("flip", Applicability.SAFE, (Edit(p, 0, 1, flipped),)))]

    result, _ = fix_loop(workspace, run, lambda v: True)
    assert not result.converged
    assert p.read_text(encoding="utf-8") == "a"


def _rename_result(tmp_path: Path) -> tuple[FixResult, Path, Path]:
    old, new = tmp_path / "claude.md", tmp_path / "CLAUDE.md"
    old.write_bytes(b"\xef\xbb\xbf# Project\r\nText\r\n")
    text = old.read_bytes().decode("utf-8")
    result = FixResult(before={new: None, old: text}, after={new: text, old: None})
    return result, old, new


def test_a_rename_onto_a_link_to_nothing_writes_nothing(tmp_path: Path) -> None:
    # a dangling `CLAUDE.md` link: creating `CLAUDE.md` would write its target (`gone.md`) instead
    result, old, new = _rename_result(tmp_path)
    new.symlink_to("gone.md")
    with pytest.raises(FixError, match="symbolic link to nothing"):
        write_all(result)
    assert sorted(os.listdir(tmp_path)) == ["CLAUDE.md", "claude.md"] and new.is_symlink() and old.is_file()


def test_rename_keeps_every_byte(tmp_path: Path) -> None:
    result, old, new = _rename_result(tmp_path)
    before = old.read_bytes()
    write_all(result)
    assert not old.exists() and new.read_bytes() == before
    assert sorted(os.listdir(tmp_path)) == ["CLAUDE.md"]


@pytest.mark.parametrize("failing", ["link", "replace"])
def test_a_failure_mid_write_leaves_the_folder_as_it_was(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                                         failing: str) -> None:
    result, old, _new = _rename_result(tmp_path)
    extra = tmp_path / "MEMORY.md"
    extra.write_text("- [A](a.md) — a\n", encoding="utf-8")
    result.before[extra] = extra.read_text(encoding="utf-8")
    result.after[extra] = "- [A](a.md) — a\n- [B](b.md) — b\n"
    snapshot = {p.name: p.read_bytes() for p in tmp_path.iterdir()}
    real = getattr(os, failing)

    def broken(*args: object, **kwargs: object) -> None:
        if failing == "replace" and str(args[1]).endswith(".memlint-old"):
            raise OSError(5, "injected failure", str(args[0]))
        if failing == "link":
            raise OSError(5, "injected failure", str(args[1]))
        real(*args, **kwargs)

    monkeypatch.setattr(os, failing, broken)
    with pytest.raises(FixError):
        write_all(result, "~")
    monkeypatch.setattr(os, failing, real)
    assert {p.name: p.read_bytes() for p in tmp_path.iterdir()} == snapshot
    assert old.exists()


def test_an_insertion_at_the_start_goes_after_the_bom(tmp_path: Path) -> None:
    p = tmp_path / "a.md"
    assert apply_edits("\ufeffbody", [Edit(p, 0, 0, "top\n")]) == "\ufefftop\nbody"
    assert apply_edits("\ufeffbody", [Edit(p, 0, 1, "")]) == "body"  # removing the BOM stays possible


def test_a_fix_never_creates_a_name_that_clashes_by_case_with_a_file_it_keeps(tmp_path: Path) -> None:
    """ML510 would create `CLAUDE.md` beside `claude.md` (the writer refuses that name, so nothing
    was written); ML509's rename of `claude.md` is taken instead. Found by the long fuzz profile."""
    from memlint import api
    from memlint.config import build

    (tmp_path / "claude.md").write_bytes(b"")
    (tmp_path / "CLAUDE.local.md").write_bytes(b"")
    (tmp_path / "AGENTS.md").write_bytes(b"---\n---")
    config = build({}, None, tmp_path)
    outcome = api.fix([tmp_path], config, None, unsafe=True)
    assert outcome.result.converged
    write_all(outcome.result)
    assert sorted(p.name for p in tmp_path.iterdir()) == ["AGENTS.md", "CLAUDE.local.md", "CLAUDE.md"]
    assert not api.fix([tmp_path], config, None, unsafe=True).result.changed


def test_a_rule_a_fix_renames_is_loaded_by_the_next_pass(tmp_path: Path) -> None:
    """ML501 renames `y.MD` to `y.md` in memory; the next pass of the loop loads it as a rule (the
    rules folder's listing holds the names a fix created and not those it removed), so ML101's fix
    of its include is applied in the same run, not by a second `memlint fix`. Found by fuzzing."""
    from memlint import api
    from memlint.config import build

    (tmp_path / "CLAUDE.md").write_text("# Project\n", encoding="utf-8")
    (tmp_path / "notes.md").write_text("# Notes\n", encoding="utf-8")
    rules = tmp_path / ".claude" / "rules"
    rules.mkdir(parents=True)
    (rules / "style.MD").write_text("# Style\n@notes.md\n", encoding="utf-8")
    config = build({}, None, tmp_path)
    outcome = api.fix([tmp_path], config, None, unsafe=True)
    assert outcome.result.converged
    write_all(outcome.result)
    assert os.listdir(rules) == ["style.md"]
    assert (rules / "style.md").read_text(encoding="utf-8") == "# Style\n@../../notes.md\n"
    assert not api.fix([tmp_path], config, None, unsafe=True).result.changed


@pytest.mark.parametrize(("read", "meanwhile"), [
    ("keep \ufffd here\n".encode(), b"keep \xff here\n"),  # a literal U+FFFD, then an invalid byte
    (b"keep \xff here\n", "keep \ufffd here\n".encode()),  # and the other way round
    (b"same text\n", b"same text\n"),  # unchanged: written
])
def test_a_file_changed_since_it_was_read_is_never_overwritten(tmp_path: Path, read: bytes, meanwhile: bytes) -> None:
    """Compare-before-replace is byte for byte: two files whose texts decode alike (an invalid byte
    reads as U+FFFD) are still different files."""
    path = tmp_path / "CLAUDE.md"
    path.write_bytes(read)
    workspace = Workspace()

    def run() -> list[Violation]:
        text = workspace.document(path).text
        if text.startswith("# "):
            return []
        return [_violation(path, Fix("heading", Applicability.SAFE, (Edit(path, 0, 0, "# "),)))]

    result, _ = fix_loop(workspace, run, lambda v: True)
    path.write_bytes(meanwhile)
    report = write_changes(result)
    if read == meanwhile:
        assert report.written == [path] and path.read_bytes() == b"# " + read
    else:
        assert report.written == [] and path.read_bytes() == meanwhile
        assert [n.path for n in report.not_written] == [path]
