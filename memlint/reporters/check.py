"""`memlint check` reports: text, json, github (workflow commands) and SARIF 2.1.0."""

from __future__ import annotations

import json
import os
from pathlib import Path
from typing import Any

import click

from memlint import __version__
from memlint.engine import Report
from memlint.reporters.escape import for_json, for_terminal, github_message, github_property, uri_reference
from memlint.rules import all_rules
from memlint.violations import Fix, Violation

_COLOURS = {"error": "red", "warning": "yellow", "info": "blue"}


def display_path(path: Path) -> str:
    """Relative to the current folder when below it, else absolute; `~/` for HOME paths."""
    cwd = Path.cwd()
    try:
        return path.relative_to(cwd).as_posix()
    except ValueError:
        pass
    home = os.environ.get("HOME")
    if home and str(path).startswith(home.rstrip("/") + "/"):
        return "~/" + str(path)[len(home.rstrip("/")) + 1 :]
    return str(path)


def text_line(v: Violation, colour: bool = False) -> str:
    where = f"{for_terminal(display_path(v.path))}:{v.line}:{v.column}:"
    code = click.style(v.code, fg=_COLOURS[v.severity], bold=True) if colour else v.code
    marker = " [*]" if v.fix is not None else ""
    return f"{where} {code} {v.slug} {for_terminal(v.message)}{marker}"


def render_text(report: Report, colour: bool) -> str:
    lines = [text_line(v, colour) for v in report.violations]
    n = len(report.violations)
    files = f"{report.files_checked} memory file{'s' if report.files_checked != 1 else ''}"
    modelled = f"Claude Code {report.release.name} modelled"
    if n == 0:
        lines.append(f"All checks passed ({files} checked; {modelled}).")
    else:
        counts = {s: sum(1 for v in report.violations if v.severity == s) for s in ("error", "warning", "info")}
        detail = ", ".join(f"{c} {s}{'s' if c != 1 else ''}" for s, c in counts.items() if c)
        lines.append(
            f"Found {n} problem{'s' if n != 1 else ''} ({detail}) in {files}; "
            f"{report.fixable} fixable with `memlint check --fix`"
            + (" (some need --unsafe-fixes)." if any(
                v.fix is not None and v.fix.applicability.value == "unsafe" for v in report.violations) else ".")
            + f" {modelled}."
        )
    return "\n".join(lines)


def _fix_dict(v: Violation) -> dict[str, Any] | None:
    if v.fix is None:
        return None
    return {
        "applicability": v.fix.applicability.value,
        "title": v.fix.title,
        "edits": [
            {"path": for_json(str(e.path)), "start": e.start, "end": e.end, "content": e.replacement, "create": e.create}
            for e in v.fix.edits
        ],
    }


def as_json(report: Report) -> dict[str, Any]:
    first: dict[Fix, int] = {}  # a fix shared by many findings (a split) is written out once
    out = _as_json(report)
    for index, (v, item) in enumerate(zip(report.violations, out["violations"])):
        if v.fix is None:
            continue
        seen = first.setdefault(v.fix, index)
        if seen == index:
            item["fix"] = _fix_dict(v)
        else:
            item["fix"] = {"applicability": v.fix.applicability.value, "title": v.fix.title, "same_as": seen}
    return out


def _as_json(report: Report) -> dict[str, Any]:
    return {
        "violations": [
            {
                "code": v.code, "slug": v.slug, "severity": v.severity, "path": for_json(str(v.path)), "line": v.line,
                "column": v.column, "end_line": v.end_line, "end_column": v.end_column, "message": for_json(v.message),
                "fix": None if v.fix is None else {},
            }
            for v in report.violations
        ],
        "files_checked": report.files_checked,
        "claude_code": report.release.name,
    }


def render_github(report: Report) -> str:
    level = {"error": "error", "warning": "warning", "info": "notice"}
    return "\n".join(
        f"::{level[v.severity]} title={github_property(v.code + ' ' + v.slug)},file={github_property(display_path(v.path))},"
        f"line={v.line},col={v.column},endLine={v.end_line},endColumn={v.end_column}::{github_message(v.message)}"
        for v in report.violations
    )


def as_sarif(report: Report) -> dict[str, Any]:
    rules = all_rules()
    index = {r.code: i for i, r in enumerate(rules)}
    level = {"error": "error", "warning": "warning", "info": "note"}
    return {
        "$schema": "https://json.schemastore.org/sarif-2.1.0.json",
        "version": "2.1.0",
        "runs": [{
            "tool": {"driver": {
                "name": "memlint", "version": __version__, "informationUri": "https://pypi.org/project/memlint/",
                "rules": [{
                    "id": r.code, "name": r.slug,
                    "shortDescription": {"text": r.meta.summary},
                    "fullDescription": {"text": r.doc.splitlines()[0] if r.doc else r.meta.summary},
                    "help": {"text": r.doc, "markdown": r.doc},
                    "defaultConfiguration": {"level": level[r.meta.severity]},
                } for r in rules],
            }},
            "results": [{
                "ruleId": v.code, "ruleIndex": index.get(v.code, -1), "level": level[v.severity],
                "message": {"text": for_json(v.message)},
                "locations": [{"physicalLocation": {
                    "artifactLocation": {"uri": uri_reference(display_path(v.path))},
                    "region": {"startLine": v.line, "startColumn": v.column,
                               "endLine": v.end_line, "endColumn": v.end_column},
                }}],
            } for v in report.violations],
        }],
    }


def render(report: Report, fmt: str, colour: bool) -> str:
    if fmt == "json":
        return json.dumps(as_json(report), ensure_ascii=False, indent=1)
    if fmt == "sarif":
        return json.dumps(as_sarif(report), ensure_ascii=False, indent=1)
    if fmt == "github":
        return render_github(report)
    return render_text(report, colour)
