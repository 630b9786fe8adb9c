"""Reports for CI systems: GitLab code quality JSON and JUnit XML."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any
from xml.sax.saxutils import escape, quoteattr

from memlint.baseline import LineTexts, fingerprint, relative_posix
from memlint.engine import Report
from memlint.escape import for_json
from memlint.lazy_regex import compile_lazily
from memlint.reporters.jsonout import Encoded, dumps

# Characters XML 1.0 cannot carry at all, even escaped.
_NOT_XML = compile_lazily("[\x00-\x08\x0b\x0c\x0e-\x1f\ud800-\udfff\ufffe\uffff]")


def _xml(text: str) -> str:
    return _NOT_XML.sub("\ufffd", for_json(text))


# GitLab's code quality severities: info, minor, major, critical, blocker.
_GITLAB_SEVERITY = {"error": "major", "warning": "minor", "info": "info"}


def as_gitlab(report: Report, root: Path | None = None) -> list[dict[str, Any]]:
    """GitLab code quality issues; fingerprints are the baseline fingerprints, made unique per report."""
    return list(_gitlab_issues(report, root))


def render_gitlab(report: Report, root: Path | None = None) -> str:
    """`dumps(as_gitlab(report, root))`, each issue written as it is made: a report of 15,000
    findings never holds 15,000 dicts at once."""
    return dumps([Encoded(dumps(issue, depth=1)) for issue in _gitlab_issues(report, root)])


def _gitlab_issues(report: Report, root: Path | None) -> Iterator[dict[str, Any]]:
    root = (root or Path.cwd()).absolute()
    texts = LineTexts()
    seen: dict[str, int] = {}
    for v in report.violations:
        fp = fingerprint(v, root, texts)
        seen[fp] = seen.get(fp, 0) + 1
        yield {
            "type": "issue",
            "check_name": f"{v.code} {v.slug}",
            "description": for_json(f"{v.code} {v.slug}: {v.message}"),
            "categories": ["Bug Risk" if v.severity == "error" else "Style"],
            "severity": _GITLAB_SEVERITY[v.severity],
            "fingerprint": fp if seen[fp] == 1 else f"{fp}-{seen[fp]}",
            "location": {"path": for_json(relative_posix(v.path, root)), "lines": {"begin": v.line, "end": max(v.end_line, v.line)}},
        }


def render_junit(report: Report, root: Path | None = None) -> str:
    """One test case per finding (a failure), or one passing case when nothing was found."""
    root = (root or Path.cwd()).absolute()
    cases: list[str] = []
    for v in report.violations:
        where = f"{relative_posix(v.path, root)}:{v.line}:{v.column}"
        cases.append(
            f"    <testcase classname={quoteattr(_xml(relative_posix(v.path, root)))} name={quoteattr(_xml(f'{v.code} {v.slug} at {where}'))}>\n"
            f"      <failure type={quoteattr(v.code)} message={quoteattr(_xml(v.message))}>{escape(_xml(f'{where}: {v.code} {v.message}'))}</failure>\n"
            "    </testcase>")
    if not cases:
        cases.append(f'    <testcase classname="memlint" name={quoteattr(f"{report.files_checked} memory files checked")}/>')
    n = max(len(report.violations), 1)
    return (
        '<?xml version="1.0" encoding="UTF-8"?>\n'
        f'<testsuites name="memlint" tests="{n}" failures="{len(report.violations)}">\n'
        f'  <testsuite name="memlint" tests="{n}" failures="{len(report.violations)}" errors="0" skipped="0">\n'
        + "\n".join(cases) + "\n  </testsuite>\n</testsuites>"
    )
