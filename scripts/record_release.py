#!/usr/bin/env python3
"""Follow a Claude Code release in one command: re-record every differential case on it.

    python scripts/record_release.py 2.1.340 [-j 2] [NAMES...]

Runs the real Claude Code VERSION through ../shared/oracle/cc_oracle.py for every case of
tests/differential/cases.py, writes tests/differential/recordings/VERSION/<case>.json, then prints
which recordings changed and how: against the recordings VERSION had before, or, for a release
recorded for the first time, against the newest older release that has recordings. Exit 0 when
every case was recorded, 1 when some failed, 2 on usage errors; exit 0 with a note when npm cannot
provide the release (the oracle exits 3).
"""
from __future__ import annotations

import argparse
import json
import re
import sys
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "tests" / "differential"))

import record  # tests/differential/record.py


def _version(text: str) -> tuple[int, ...]:
    return tuple(int(n) for n in text.split("."))


def snapshot(folder: Path) -> dict[str, list[tuple[str, str, str]]]:
    out: dict[str, list[tuple[str, str, str]]] = {}
    for path in sorted(folder.glob("*.json")) if folder.is_dir() else []:
        data: dict[str, Any] = json.loads(path.read_text(encoding="utf-8"))
        out[path.stem] = [(f["path"], f["kind"], f["content"]) for f in data["files"]]
    return out


def baseline(version: str) -> tuple[str, dict[str, list[tuple[str, str, str]]]]:
    """What to compare the new recordings with: VERSION's own, else the newest older release's."""
    own = record.RECORDINGS / version
    if own.is_dir() and any(own.glob("*.json")):
        return version, snapshot(own)
    older = sorted((p.name for p in record.RECORDINGS.iterdir()
                    if p.is_dir() and re.fullmatch(r"\d+\.\d+\.\d+", p.name)
                    and _version(p.name) < _version(version)), key=_version)
    if not older:
        return "", {}
    return older[-1], snapshot(record.RECORDINGS / older[-1])


def _short(text: str, limit: int = 100) -> str:
    text = text.replace("\n", "\\n")
    return text if len(text) <= limit else text[: limit - 1] + "…"


def describe(before: list[tuple[str, str, str]], after: list[tuple[str, str, str]]) -> list[str]:
    """How one recording changed: files gone, files new, files whose kind or text changed, order."""
    lines: list[str] = []
    old = {p: (k, c) for p, k, c in before}
    new = {p: (k, c) for p, k, c in after}
    for path in old.keys() - new.keys():
        lines.append(f"  - no longer loaded: {path}")
    for path in new.keys() - old.keys():
        lines.append(f"  + now loaded: {path} ({new[path][0]}): {_short(new[path][1])}")
    for path in old.keys() & new.keys():
        if old[path][0] != new[path][0]:
            lines.append(f"  ~ {path}: kind {old[path][0]} -> {new[path][0]}")
        if old[path][1] != new[path][1]:
            a, b = old[path][1], new[path][1]
            at = next((i for i, (x, y) in enumerate(zip(a, b)) if x != y), min(len(a), len(b)))
            lines.append(f"  ~ {path}: text differs from character {at}: "
                         f"{_short(a[max(0, at - 20):at + 60])!r} -> {_short(b[max(0, at - 20):at + 60])!r}")
    kept = [p for p, _, _ in after if p in old]
    if not lines and kept != [p for p, _, _ in before if p in new]:
        lines.append("  ~ order changed: " + ", ".join(kept))
    return lines


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("version", help="the Claude Code release, e.g. 2.1.332")
    ap.add_argument("names", nargs="*", help="only these cases (default: all)")
    ap.add_argument("-j", "--jobs", type=int, default=2)
    a = ap.parse_args()
    if not re.fullmatch(r"\d+\.\d+\.\d+", a.version):
        print(f"not a version like 2.1.332: {a.version!r}", file=sys.stderr)
        return 2
    if not record.ORACLE.exists():
        print(f"oracle not found: {record.ORACLE}", file=sys.stderr)
        return 2
    unknown = [n for n in a.names if n not in record.BY_NAME]
    if unknown:
        print(f"unknown cases: {', '.join(unknown)}", file=sys.stderr)
        return 2
    against, before = baseline(a.version)
    status = record.record_all(a.version, a.names, a.jobs)
    after = snapshot(record.RECORDINGS / a.version)
    if not after:
        print(f"nothing recorded for {a.version} (npm unreachable or every case failed)")
        return status
    changed = 0
    print(f"\nChanges against {'the recordings of ' + against if against else 'nothing (first release recorded)'}:")
    for name in sorted(after):
        if a.names and name not in a.names:
            continue
        if name not in before:
            print(f"{name}: new recording ({len(after[name])} files)")
            changed += 1
            continue
        lines = describe(before[name], after[name])
        if lines:
            changed += 1
            print(f"{name}: changed")
            print("\n".join(lines))
    print(f"{changed} of {len(after)} recordings differ from {against or 'nothing'}")
    return status


if __name__ == "__main__":
    sys.exit(main())
