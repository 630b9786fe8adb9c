#!/usr/bin/env python3
"""Record what the real Claude Code loads for each differential case, per release.

    python tests/differential/record.py VERSION [NAMES...] [-j 2]
    python scripts/record_release.py VERSION          # the same, plus a report of what changed

Builds each case in a temp folder, runs ../shared/oracle/cc_oracle.py (CC_ORACLE_VERSION=VERSION) with
--cwd, --home and the case's --env / --settings, and writes
tests/differential/recordings/<VERSION>/<name>.json = {"claude_code": version, "files": [{path, kind, content}]}
with the tree path as <TREE>, HOME as <HOME> (and the tree's auto-memory folder name as <SANITIZED_TREE>).
A failed run is retried once.
"""
from __future__ import annotations

import argparse
import json
import os
import shutil
import subprocess
import sys
import tempfile
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))

from cases import BY_NAME, CASES, Case, attached, build, normalize, oracle_args

ORACLE = Path(__file__).resolve().parents[3] / "shared/oracle/cc_oracle.py"
RECORDINGS = HERE / "recordings"
# recorded by hand (the managed folder needs /etc/claude-code): never re-recorded by this script
HAND_MADE = ("_managed_and_home_project",)


class OracleError(Exception):
    def __init__(self, code: int, message: str) -> None:
        super().__init__(message)
        self.code = code


def run_oracle(case: Case, version: str, oracle: Path = ORACLE, timeout: float = 300) -> dict[str, Any]:
    """Build `case` in a fresh temp folder, run the oracle on `version`, return the normalized recording."""
    root = Path(tempfile.mkdtemp(prefix="memlint-diff-"))
    try:
        tree, home = build(case, root)
        env = dict(os.environ, PYTHONIOENCODING="utf-8:surrogatepass", CC_ORACLE_VERSION=version)
        r = subprocess.run([sys.executable, str(oracle), str(tree), *oracle_args(case, tree, home)],
                           check=False, capture_output=True, env=env, timeout=timeout, stdin=subprocess.DEVNULL)
        if r.returncode != 0:
            raise OracleError(r.returncode, r.stderr.decode("utf-8", "replace")[-1500:])
        out = json.loads(r.stdout.decode("utf-8", "surrogatepass"))
        data = {"claude_code": out["claude_code"], "files": normalize(out["files"], tree, home)}
        if "block_format" in out:  # C10: how the instruction files were delivered
            data["block_format"] = out["block_format"]
        if case.read is not None:
            data["after_read"] = attached(out.get("after_read", []), tree, home)
        return data
    finally:
        shutil.rmtree(root, ignore_errors=True)


def dump(data: dict[str, Any]) -> str:
    try:
        text = json.dumps(data, ensure_ascii=False, indent=1)
        text.encode("utf-8")
    except UnicodeEncodeError:  # a lone surrogate (MEMORY.md cut inside a pair): keep it escaped
        text = json.dumps(data, ensure_ascii=True, indent=1)
    return text + "\n"


def recorded_on(case: Case, version: str) -> bool:
    return case.releases is None or version in case.releases


def record(case: Case, version: str) -> tuple[str, str]:
    error = ""
    for attempt in (1, 2):
        try:
            data = run_oracle(case, version)
        except OracleError as e:
            if e.code == 3:
                return case.name, f"SKIPPED: the oracle cannot fetch Claude Code {version}"
            error = f"{type(e).__name__}: {e}"
            continue
        except (subprocess.TimeoutExpired, ValueError) as e:
            error = f"{type(e).__name__}: {e}"
            continue
        folder = RECORDINGS / version
        folder.mkdir(parents=True, exist_ok=True)
        (folder / f"{case.name}.json").write_text(dump(data), encoding="utf-8")
        return case.name, f"ok ({len(data['files'])} files)" + (" (retried)" if attempt == 2 else "")
    return case.name, f"FAILED: {error}"


def record_all(version: str, names: list[str], jobs: int) -> int:
    todo = [BY_NAME[n] for n in names] if names else [c for c in CASES if recorded_on(c, version)]
    failed = 0
    with ThreadPoolExecutor(max_workers=jobs) as pool:
        for name, status in pool.map(lambda c: record(c, version), todo):
            print(f"{name}: {status}", flush=True)
            failed += status.startswith("FAILED")
    return 1 if failed else 0


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("version", help="Claude Code release, e.g. 2.1.332")
    ap.add_argument("names", nargs="*", help="case names (default: all)")
    ap.add_argument("-j", "--jobs", type=int, default=2)
    a = ap.parse_args()
    if not ORACLE.exists():
        print(f"oracle not found: {ORACLE}", file=sys.stderr)
        return 2
    unknown = [n for n in a.names if n not in BY_NAME]
    if unknown:
        print(f"unknown cases: {', '.join(unknown)}", file=sys.stderr)
        return 2
    return record_all(a.version, a.names, a.jobs)


if __name__ == "__main__":
    sys.exit(main())
