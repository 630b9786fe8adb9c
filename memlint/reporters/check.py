"""`memlint check` reports: text, json (docs/json-schema.json), github (workflow commands), SARIF
2.1.0 (reporters/sarif.py), GitLab code quality and JUnit (reporters/ci.py), and `--statistics`."""

from __future__ import annotations

import os
from collections import Counter
from collections.abc import Iterator, Sequence
from json.encoder import encode_basestring
from pathlib import Path
from typing import Any

import click

from memlint import __version__
from memlint.engine import Report
from memlint.escape import for_json, for_terminal, github_message, github_property
from memlint.reporters.jsonout import Encoded, dumps
from memlint.rules import find_rule
from memlint.violations import Applicability, Fix, Violation

JSON_SCHEMA_VERSION = 1  # docs/json-schema.json; bumped when a key changes meaning or goes away
_COLOURS = {"error": "red", "warning": "yellow", "info": "blue"}


def display_path(path: Path, here: str | None = None) -> str:
    """Relative to the current folder (`here`, else asked) when below it, else absolute; `~/` for
    HOME paths."""
    text = str(path)
    below = _below(text, os.getcwd() if here is None else here)
    if below is not None:
        return below
    home = os.environ.get("HOME")
    if home and text.startswith(home.rstrip("/") + "/"):
        return "~/" + text[len(home.rstrip("/")) + 1 :]
    return text


def _below(path: str, folder: str) -> str | None:
    """`Path(path).relative_to(folder).as_posix()` for a normalised `path` and an absolute
    `folder`, or None where that raises; string operations (a report prints thousands of paths)."""
    if path == folder:
        return "."
    if folder == "/":  # below the root: any absolute path but `//x`, which POSIX keeps apart
        return path[1:] if path.startswith("/") and not path.startswith("//") else None
    if folder == "//":  # POSIX's other root: only `//x` is below it
        return path[2:] if path.startswith("//") else None
    return path[len(folder) + 1 :] if path.startswith(folder + "/") else None


def scope(report: Report) -> str:
    """What the run modelled besides the paths: `the project, your user memory in ~ and your auto
    memory at ~/.claude/projects/-src-app/memory`, or `the repository alone (--no-home)`."""
    if report.home is None:
        return "the repository alone (--no-home)"
    home = for_terminal(_home_text(report.home))
    folders = [for_terminal(display_path(p)) + ("" if p.is_dir() else " (none there)") for p in report.auto_memory]
    memory = f" and your auto memory at {', '.join(folders)}" if folders else ""
    return f"the project, your user memory in {home}{memory}"


def _home_text(home: Path) -> str:
    here = os.environ.get("HOME")
    if here and os.path.abspath(home) == os.path.abspath(here):
        return "~"
    return display_path(home.absolute())


def text_line(v: Violation, colour: bool = False, here: str | None = None) -> str:
    where = f"{for_terminal(display_path(v.path, here))}:{v.line}:{v.column}:"
    code = click.style(v.code, fg=_COLOURS[v.severity], bold=True) if colour else v.code
    marker = " [*]" if v.fix is not None else ""
    return f"{where} {code} {v.slug} {for_terminal(v.message)}{marker}"


def render_text(report: Report, colour: bool, quiet: bool = False, verbose: bool = False) -> str:
    return "\n".join(text_lines(report, colour, quiet, verbose))


def text_lines(report: Report, colour: bool, quiet: bool = False, verbose: bool = False) -> Iterator[str]:
    """The text report's lines: one per finding (with `verbose`, a shortened message's whole text
    indented below it), then the summary (not with `quiet`)."""
    here = os.getcwd() if report.violations else None  # once per report, not per finding
    for v in report.violations:
        yield text_line(v, colour, here)
        if verbose and v.detail:
            yield from ("    " + for_terminal(line) for line in v.detail.splitlines())
    if quiet:
        return
    n = len(report.violations)
    files = f"{report.files_checked} memory file{'s' if report.files_checked != 1 else ''}"
    modelled = f"Claude Code {report.release.name} modelled"
    if n == 0:
        yield f"All checks passed ({files} checked: {scope(report)}; {modelled})."
        return
    counts = {s: sum(1 for v in report.violations if v.severity == s) for s in ("error", "warning", "info")}
    detail = ", ".join(f"{c} {s}{'s' if c != 1 else ''}" for s, c in counts.items() if c)
    yield (
        f"Found {n} problem{'s' if n != 1 else ''} ({detail}) in {files}"
        + (" of the repository alone (--no-home); " if report.home is None else f" ({scope(report)}); ")
        + f"{fix_hint(report.violations)}. {modelled}."
    )


def fix_hint(violations: Sequence[Violation]) -> str:
    """How many findings a fix resolves, with the exact command that applies it: `memlint fix` applies
    safe fixes and the unsafe ones that verified themselves (`Fix.verified`, the MEMORY.md split);
    the other unsafe fixes need `--unsafe-fixes`."""
    by_fix = sum(1 for v in violations if v.fix is not None and v.fix.applicability is not Applicability.DISPLAY_ONLY)
    unsafe = sum(1 for v in violations if v.fix is not None and v.fix.applicability is Applicability.UNSAFE
                 and not v.fix.verified)
    plain = by_fix - unsafe
    if not by_fix:
        return "none fixable automatically"
    if not unsafe:
        return f"{plain} fixable with `memlint fix`"
    if not plain:
        return f"{unsafe} fixable with `memlint fix --unsafe-fixes`"
    return f"{plain} fixable with `memlint fix`; {unsafe} more with `memlint fix --unsafe-fixes`"


def _fix_dict(v: Violation) -> dict[str, Any] | None:
    if v.fix is None:
        return None
    return {
        "applicability": v.fix.applicability.value,
        "verified": v.fix.verified,
        "title": for_json(v.fix.title),  # (a file name that is not UTF-8 is in the title of its rename)
        "explanation": [for_json(line) for line in v.fix.explanation],
        "edits": [
            {"path": for_json(str(e.path)), "start": e.start, "end": e.end, "content": for_json(e.replacement),
             "create": e.create,
             "delete": e.delete}
            for e in v.fix.edits
        ],
    }


def as_json(report: Report) -> dict[str, Any]:
    first: dict[Fix, int] = {}  # a fix shared by many findings (a split) is written out once
    out = _as_json(report)
    for index, (v, item) in enumerate(zip(report.violations, out["violations"])):
        if v.fix is not None:
            item["fix"] = _fix_item(v, index, first)
    return out


def _fix_item(v: Violation, index: int, first: dict[Fix, int]) -> dict[str, Any] | None:
    """The fix of violation `index`, written out at its first violation, else pointing there."""
    assert v.fix is not None
    seen = first.setdefault(v.fix, index)
    if seen == index:
        return _fix_dict(v)
    return {"applicability": v.fix.applicability.value, "verified": v.fix.verified, "title": for_json(v.fix.title),
            "same_as": seen}


def _as_json(report: Report) -> dict[str, Any]:
    return {
        "schema_version": JSON_SCHEMA_VERSION,
        "memlint_version": __version__,
        "violations": [_violation_dict(v) for v in report.violations],
        "files_checked": report.files_checked,
        "claude_code": report.release.name,
    }


def _violation_dict(v: Violation) -> dict[str, Any]:
    return {
        "code": v.code, "slug": v.slug, "severity": v.severity, "path": for_json(str(v.path)), "line": v.line,
        "column": v.column, "end_line": v.end_line, "end_column": v.end_column, "message": for_json(v.message),
        "fix": None if v.fix is None else {},
        **({"detail": for_json(v.detail)} if v.detail else {}),
    }


def render_github(report: Report) -> str:
    level = {"error": "error", "warning": "warning", "info": "notice"}
    here = os.getcwd() if report.violations else None
    return "\n".join(
        f"::{level[v.severity]} title={github_property(v.code + ' ' + v.slug)},file={github_property(display_path(v.path, here))},"
        f"line={v.line},col={v.column},endLine={v.end_line},endColumn={v.end_column}::{github_message(v.message)}"
        for v in report.violations
    )


def render_statistics(report: Report) -> str:
    """One line per rule: how many findings, code, slug, and `[*]` when some can be fixed."""
    counts = Counter(v.code for v in report.violations)
    fixable = {v.code for v in report.violations if v.fix is not None}
    lines = []
    for code, n in sorted(counts.items(), key=lambda item: (-item[1], item[0])):
        rule = find_rule(code)
        slug = rule.slug if rule else next(v.slug for v in report.violations if v.code == code)
        lines.append(f"{n:>5}  {code}  {slug:<40} {'[*]' if code in fixable else ''}".rstrip())
    return "\n".join(lines)


def render_json(report: Report) -> str:
    """`json.dumps(as_json(report), ensure_ascii=False, indent=1)`: a violation without a fix (a
    report can hold 100,000) is written straight from its fields, without a dict each."""
    out = _as_json(Report((), report.files_checked, report.roots, report.release))
    first: dict[Fix, int] = {}
    heads: dict[tuple[str, str, str, Path], str] = {}  # the lines before "line", by what they hold
    items: list[str] = []
    for index, v in enumerate(report.violations):
        if v.fix is None and not v.detail and type(v.line) is int and type(v.column) is int and type(v.end_line) is int \
                and type(v.end_column) is int:  # an int subclass (a bool) json writes its own way
            key = (v.code, v.slug, v.severity, v.path)
            head = heads.get(key)
            if head is None:
                head = heads[key] = (
                    f'{{\n   "code": {encode_basestring(v.code)},\n   "slug": {encode_basestring(v.slug)},\n'
                    f'   "severity": {encode_basestring(v.severity)},\n'
                    f'   "path": {encode_basestring(for_json(str(v.path)))},\n   "line": '
                )
            message = v.message if v.message.isascii() else for_json(v.message)
            items.append(
                f'{head}{v.line},\n   "column": {v.column},\n   "end_line": {v.end_line},\n'
                f'   "end_column": {v.end_column},\n   "message": {encode_basestring(message)},\n   "fix": null\n  }}'
            )
            continue
        item = _violation_dict(v)
        if v.fix is not None:
            item["fix"] = _fix_item(v, index, first)
        items.append(dumps(item, depth=2))
    if not items:
        return dumps(out)
    out["violations"] = Encoded("\0")  # where the list goes (JSON text never holds a raw NUL)
    before, after = dumps(out).split("\0")
    pieces = [before, "[\n  "]
    for n, written in enumerate(items):  # one copy of 45 MB of findings, not three
        if n:
            pieces.append(",\n  ")
        pieces.append(written)
    pieces += ["\n ]", after]
    return "".join(pieces)


def render(report: Report, fmt: str, colour: bool, quiet: bool = False) -> str:
    if fmt == "json":
        return render_json(report)
    # the CI formats are imported when asked for (xml.sax alone pulls in urllib, http and email)
    if fmt == "sarif":
        from memlint.reporters.sarif import render_sarif

        return render_sarif(report)
    if fmt == "gitlab":
        from memlint.reporters.ci import render_gitlab

        return render_gitlab(report)
    if fmt == "junit":
        from memlint.reporters.ci import render_junit

        return render_junit(report)
    if fmt == "github":
        return render_github(report)
    return render_text(report, colour, quiet)
