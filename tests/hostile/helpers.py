"""Running memlint on hostile trees as a user would: a subprocess with a time limit (a hang is a
failure, not a stuck suite), and checks that no traceback and nothing raw reached the output."""

from __future__ import annotations

import os
import subprocess
import sys
from dataclasses import dataclass
from pathlib import Path

MEMLINT = [sys.executable, "-m", "memlint"]
TIMEOUT = 300.0  # far above the seconds these trees take, even on a loaded machine: only a hang reaches it


@dataclass(frozen=True)
class Run:
    code: int
    out: str
    err: str


def memlint(*args: str | Path, cwd: Path | None = None, env: dict[str, str] | None = None,
            timeout: float = TIMEOUT) -> Run:
    full_env = {**os.environ, "GITHUB_ACTIONS": "", **(env or {})}
    proc = subprocess.run([*MEMLINT, *map(str, args)], cwd=cwd, env=full_env, capture_output=True,
                          timeout=timeout, check=False)
    run = Run(proc.returncode, proc.stdout.decode("utf-8"), proc.stderr.decode("utf-8"))
    assert "Traceback" not in run.err, run.err[-3000:]
    assert run.code in (0, 1, 2), (run.code, run.err[-2000:])
    return run


def snapshot(root: Path) -> dict[str, bytes]:
    """Every regular file below `root`, byte for byte (symlinks as their target path)."""
    out: dict[str, bytes] = {}
    for folder, _subfolders, names in os.walk(root):
        for name in names:
            path = Path(folder, name)
            key = path.relative_to(root).as_posix()
            out[key] = os.fsencode(os.readlink(path)) if path.is_symlink() else path.read_bytes()
    return out


def remove_deep(top: Path, name: str = "d") -> None:
    """Remove a chain `top/d/d/d/...` thousands of levels deep without recursion (shutil.rmtree
    recurses once per level on Python 3.11): pull each grandchild up one level, drop the child."""
    child, spare = top / name, top / (name + ".up")
    while child.is_dir():
        grandchild = child / name
        for entry in os.listdir(child):
            if entry != name:
                os.unlink(child / entry)
        if grandchild.is_dir():
            os.rename(grandchild, spare)
            os.rmdir(child)
            os.rename(spare, child)
        else:
            os.rmdir(child)
