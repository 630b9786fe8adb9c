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
from memlint.violations import Violation

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
    message = v.message.replace(str(tree) + "/", "").replace(str(tree), ".")
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
    for kind, name, body in BLOCK.findall(text):
        target = home / name[2:] if name.startswith("~/") else tree / name
        target.parent.mkdir(parents=True, exist_ok=True)
        if kind == "bytes":
            target.write_bytes(body.encode("latin-1").decode("unicode_escape").encode("latin-1"))
        else:
            target.write_bytes(body.encode("utf-8"))


def copy_tree(src: Path, dst: Path) -> None:
    shutil.copytree(src, dst, symlinks=True)


__all__ = ["build", "copy_tree", "report_lines", "run_check", "run_fix", "snapshot", "write_blocks"]
