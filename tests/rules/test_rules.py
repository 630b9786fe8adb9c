"""One harness for every rule fixture: tests/rules/<CODE>-<slug>/<case>/{input/, home/, expected.txt, fixed/}.

For each case: the report with only that rule selected equals expected.txt; with fixed/, fixing
gives exactly fixed/, fixing again changes nothing and nothing fixable is left; without fixed/,
fixing leaves the tree byte-identical.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from memlint.violations import HEADLINE
from tests.rules.harness import copy_tree, report_lines, run_check, run_fix, snapshot

HERE = Path(__file__).parent
CASES = sorted(p for p in HERE.glob("ML[0-9][0-9][0-9]-*/*") if (p / "input").is_dir())


def _setup(case: Path, tmp_path: Path) -> tuple[Path, Path | None, str]:
    tree = tmp_path / "input"
    copy_tree(case / "input", tree)
    home = None
    if (case / "home").is_dir():
        home = tmp_path / "home"
        copy_tree(case / "home", home)
    return tree.resolve(), home.resolve() if home else None, case.parent.name.split("-")[0]


@pytest.mark.parametrize("case", CASES, ids=[f"{c.parent.name}/{c.name}" for c in CASES])
def test_report(case: Path, tmp_path: Path) -> None:
    tree, home, code = _setup(case, tmp_path)
    expected = (case / "expected.txt").read_text(encoding="utf-8").splitlines()
    report = run_check(tree, code, home)
    assert report_lines(report, tree, home) == expected
    long = [v.message for v in report.violations if len(v.message) > HEADLINE or "\n" in v.message]
    assert not long, f"a finding's first line is over {HEADLINE} characters: {long[0]!r}"


@pytest.mark.parametrize("case", CASES, ids=[f"{c.parent.name}/{c.name}" for c in CASES])
def test_fix(case: Path, tmp_path: Path) -> None:
    tree, home, code = _setup(case, tmp_path)
    before = snapshot(tree)
    run_fix(tree, code, home)
    after = snapshot(tree)
    if not (case / "fixed").is_dir():
        assert after == before, "a case without fixed/ must stay byte-identical"
        return
    assert after == snapshot(case / "fixed")
    assert run_fix(tree, code, home) == 0, "fixing a second time changed files"
    assert snapshot(tree) == after
    left = [v for v in run_check(tree, code, home).violations if v.fix is not None]
    assert not left, f"fixable problems left after fixing: {left}"
