"""Shared helpers for rule tests: run memlint on a tree, render reports with stable paths,
snapshot trees byte for byte, and build trees from a rule page's Example blocks."""

from __future__ import annotations

import re
import shutil
from pathlib import Path

from memlint import api
from memlint.config import build, load_config
from memlint.engine import Report
from memlint.fixes import write_all
from memlint.model.memory.automem import sanitize_project_path
from memlint.violations import Violation

RANGE = re.compile(r"\{(\d+)\.\.(\d+)\}")
BLOCK = re.compile(r"^```(md|bytes) (\S+)\n(.*?)^```$", re.MULTILINE | re.DOTALL)


def config_for(tree: Path, code: str):  # type: ignore[no-untyped-def]
    return load_config(tree, None, {"select": [code]})


def line_for(v: Violation, tree: Path, home: Path | None) -> str:
    path = str(v.path)
    if home is not None and path.startswith(str(home) + "/"):
        shown = "~/" + path[len(str(home)) + 1 :]
    elif path.startswith(str(tree) + "/"):
        shown = path[len(str(tree)) + 1 :]
    else:
        shown = path
    # the rule's whole message: `detail` when the report's one-line headline was shortened
    message = (v.detail or v.message).replace(str(tree) + "/", "").replace(str(tree), ".")
    if home is not None:
        message = message.replace(str(home), "~")
    return f"{shown}:{v.line}:{v.column}: {v.code} {v.slug} {message}"


def report_lines(report: Report, tree: Path, home: Path | None) -> list[str]:
    return [line_for(v, tree, home) for v in report.violations]


def snapshot(tree: Path) -> dict[str, bytes]:
    out = {}
    for path in sorted(tree.rglob("*")):
        if path.is_file() and not path.is_symlink():
            out[path.relative_to(tree).as_posix()] = path.read_bytes()
    return out


def run_check(tree: Path, code: str, home: Path | None) -> Report:
    return api.check([tree], config_for(tree, code), home)


def run_fix(tree: Path, code: str, home: Path | None) -> int:
    """`memlint check --fix --unsafe-fixes --select CODE --no-backup`; returns files written."""
    outcome = api.fix([tree], config_for(tree, code), home, unsafe=True)
    assert outcome.result.converged, "fixes did not converge"
    return len(write_all(outcome.result)) if outcome.result.changed else 0


def write_blocks(text: str, tree: Path, home: Path) -> None:
    """Write a page's code blocks: `~/...` into `home`; `<project>` is the project's folder name
    under `~/.claude/projects/` (so `~/.claude/projects/<project>/memory/MEMORY.md` is the tree's
    auto-memory index)."""
    project = sanitize_project_path(str(tree.resolve()))
    for kind, name, body in _expanded(BLOCK.findall(text)):
        name = name.replace("<project>", project)
        target = home / name[2:] if name.startswith("~/") else tree / name
        target.parent.mkdir(parents=True, exist_ok=True)
        if kind == "bytes":
            target.write_bytes(body.encode("latin-1").decode("unicode_escape").encode("latin-1"))
        else:
            target.write_bytes(body.encode("utf-8"))


def _expanded(blocks: list[tuple[str, str, str]]) -> list[tuple[str, str, str]]:
    """A block named `note-{1..201}.md` stands for 201 files; `{n}` in its text is the number. A
    line holding `{1..30}` stands for 30 lines, each with its number."""
    out = []
    for kind, name, body in blocks:
        body = "".join(_lines_of(line) for line in body.splitlines(keepends=True))
        match = RANGE.search(name)
        if match is None:
            out.append((kind, name, body))
            continue
        for n in range(int(match.group(1)), int(match.group(2)) + 1):
            out.append((kind, name[: match.start()] + str(n) + name[match.end() :], body.replace("{n}", str(n))))
    return out


def _lines_of(line: str) -> str:
    match = RANGE.search(line)
    if match is None:
        return line
    first, last = int(match.group(1)), int(match.group(2))
    return "".join(line[: match.start()] + str(n) + line[match.end() :] for n in range(first, last + 1))


def copy_tree(src: Path, dst: Path) -> None:
    shutil.copytree(src, dst, symlinks=True)


__all__ = ["build", "copy_tree", "report_lines", "run_check", "run_fix", "snapshot", "write_blocks"]
