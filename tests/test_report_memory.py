"""Machine reports of many findings stay small while they are written: the command line runs with
the cyclic garbage collector off (memlint/__main__.py), so writing a report must leave no garbage
cycles behind, and a fingerprint reads each flagged file once without keeping every file's lines."""

from __future__ import annotations

import gc
import json
from pathlib import Path

import pytest

from memlint.baseline import LineTexts
from memlint.engine import Report
from memlint.reporters.check import render
from memlint.reporters.ci import as_gitlab
from memlint.reporters.jsonout import dumps
from memlint.reporters.sarif import as_sarif
from memlint.violations import Applicability, Edit, Fix, Violation


def _report(root: Path, files: int = 40, per_file: int = 25) -> Report:
    violations = []
    for f in range(files):
        path = root / f"pkg{f:03d}" / "CLAUDE.md"
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text("".join(f"line {n} of file {f}\n" for n in range(per_file)), encoding="utf-8")
        for n in range(1, per_file + 1):
            fix = Fix("Add a line", Applicability.UNSAFE, (Edit(path, 0, 0, "x\n"),)) if n % 3 == 0 else None
            violations.append(Violation(path, n, 1, "ML101", "include-target-missing", "error",
                                        f"finding {n} \u2014 of file {f}", n, 2, fix))
    return Report(tuple(violations), files, (root,))


@pytest.mark.parametrize("fmt", ["json", "sarif", "gitlab", "junit", "github"])
def test_writing_a_report_leaves_no_garbage_cycles(tmp_path: Path, fmt: str, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tmp_path)
    report = _report(tmp_path)
    gc.collect()
    gc.disable()
    try:
        render(report, fmt, colour=False)
        left = gc.collect()
    finally:
        gc.enable()
    assert left < 100, f"{left} objects in garbage cycles after writing {len(report.violations)} findings as {fmt}"


def test_streamed_machine_reports_are_the_documents_they_stand_for(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tmp_path)
    report = _report(tmp_path, files=5, per_file=7)
    assert render(report, "sarif", colour=False) == dumps(as_sarif(report))
    assert render(report, "gitlab", colour=False) == dumps(as_gitlab(report))
    assert json.loads(render(report, "sarif", colour=False)) == json.loads(json.dumps(as_sarif(report)))
    assert render(report, "sarif", colour=False) == json.dumps(as_sarif(report), ensure_ascii=False, indent=1)
    assert render(report, "gitlab", colour=False) == json.dumps(as_gitlab(report), ensure_ascii=False, indent=1)


def test_line_texts_read_each_file_once_for_sorted_findings(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    paths = []
    for name in ("a.md", "b.md"):
        path = tmp_path / name
        path.write_text("one\ntwo\nthree\n", encoding="utf-8")
        paths.append(path)
    reads: list[Path] = []
    from memlint import baseline

    real = baseline.read_file
    monkeypatch.setattr(baseline, "read_file", lambda path, limit: reads.append(path) or real(path, limit))
    texts = LineTexts()
    got = [texts.line(p, n) for p in paths for n in (1, 2, 3, 4)]
    assert got == ["one", "two", "three", "", "one", "two", "three", ""]
    assert reads == paths  # each once, in order; only the last one's lines are kept
    assert texts.line(paths[0], 2) == "two" and reads == [*paths, paths[0]]
