"""SARIF 2.1.0 for code scanning: artifact URIs percent-encoded and relative to `%SRCROOT%` (the
current folder, given in `originalUriBaseIds`), each rule's page as its `help`, and each result's
baseline fingerprint as `partialFingerprints` so a finding is tracked across commits."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

from memlint import __version__
from memlint.baseline import LineTexts, fingerprint
from memlint.engine import Report
from memlint.escape import for_json, uri_reference
from memlint.reporters.jsonout import Encoded, dumps
from memlint.rules import all_rules
from memlint.violations import Violation

SCHEMA_URI = "https://docs.oasis-open.org/sarif/sarif/v2.1.0/errata01/os/schemas/sarif-schema-2.1.0.json"
SRCROOT = "%SRCROOT%"
_LEVEL = {"error": "error", "warning": "warning", "info": "note"}


def file_uri(path: Path) -> str:
    """An absolute `file:` URI, percent-encoded (UTF-8), with a final slash for a folder."""
    text = path.absolute().as_posix()
    return "file://" + uri_reference(text if text.startswith("/") else "/" + text)


def artifact_location(path: Path, root: Path) -> dict[str, str]:
    """Relative to `%SRCROOT%` when below it, else an absolute `file:` URI."""
    try:
        rel = path.absolute().relative_to(root.absolute()).as_posix()
    except ValueError:
        return {"uri": file_uri(path)}
    return {"uri": uri_reference(rel), "uriBaseId": SRCROOT}


def _result(v: Violation, index: dict[str, int], root: Path, texts: LineTexts) -> dict[str, Any]:
    result: dict[str, Any] = {
        "ruleId": v.code,
        "level": _LEVEL[v.severity],
        "message": {"text": for_json(v.detail or v.message)},
        "locations": [{"physicalLocation": {
            "artifactLocation": artifact_location(v.path, root),
            "region": {"startLine": max(v.line, 1), "startColumn": max(v.column, 1),
                       "endLine": max(v.end_line, v.line, 1), "endColumn": max(v.end_column, 1)},
        }}],
        "partialFingerprints": {"memlint/v1": fingerprint(v, root, texts)},
    }
    if v.code in index:
        result["ruleIndex"] = index[v.code]
    return result


def as_sarif(report: Report, root: Path | None = None) -> dict[str, Any]:
    root = (root or Path.cwd()).absolute()
    return _sarif(report, root, list(_results(report, root)))


def render_sarif(report: Report, root: Path | None = None) -> str:
    """`dumps(as_sarif(report, root))`, each result written as it is made (at its depth in the
    log): a report of 15,000 findings never holds 15,000 results' dicts at once."""
    root = (root or Path.cwd()).absolute()
    return dumps(_sarif(report, root, [Encoded(dumps(r, depth=4)) for r in _results(report, root)]))


def _results(report: Report, root: Path) -> Iterator[dict[str, Any]]:
    index = {r.code: i for i, r in enumerate(all_rules())}
    texts = LineTexts()
    return (_result(v, index, root, texts) for v in report.violations)


def _sarif(report: Report, root: Path, results: list[Any]) -> dict[str, Any]:
    rules = all_rules()
    return {
        "$schema": SCHEMA_URI,
        "version": "2.1.0",
        "runs": [{
            "tool": {"driver": {
                "name": "memlint", "version": __version__, "semanticVersion": __version__,
                "rules": [{
                    "id": r.code, "name": r.slug,
                    "shortDescription": {"text": r.meta.summary},
                    "fullDescription": {"text": r.doc.splitlines()[0] if r.doc else r.meta.summary},
                    "help": {"text": f"# {r.code} {r.slug}\n\n{r.doc}", "markdown": f"# {r.code} {r.slug}\n\n{r.doc}"},
                    "defaultConfiguration": {"level": _LEVEL[r.meta.severity]},
                    "properties": {"tags": [r.slug]},
                } for r in rules],
            }},
            "originalUriBaseIds": {SRCROOT: {"uri": file_uri(root).rstrip("/") + "/"}},
            "columnKind": "unicodeCodePoints",
            "results": results,
        }],
    }
