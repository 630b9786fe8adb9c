"""Run the README's examples: every `$ command` line of a ```console block runs (bash, in a copy of
examples/ with NO_COLOR=1) and its output must be what the README shows after it. A `...` line in the
shown output stands for any lines. The folder the examples run in is shown as /path/to/memlint.

    python tests/readme_examples.py           # show mismatches
    python tests/readme_examples.py --update  # rewrite the README's outputs from real runs
"""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import sys
import tempfile
from dataclasses import dataclass
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
README = REPO / "README.md"
SHOWN_ROOT = "/path/to/memlint"
FENCE = re.compile(r"^```(\w*)\n(.*?)^```\n", re.MULTILINE | re.DOTALL)


@dataclass(frozen=True)
class Example:
    command: str
    expected: tuple[str, ...]
    span: tuple[int, int]  # where the expected lines sit in the README text


def blocks(text: str, language: str) -> list[tuple[int, str]]:
    """(offset of the block's body, body) of every fenced block in `language`."""
    return [(m.start(2), m.group(2)) for m in FENCE.finditer(text) if m.group(1) == language]


def examples(text: str) -> list[Example]:
    found: list[Example] = []
    for offset, body in blocks(text, "console"):
        lines = body.splitlines(keepends=True)
        pos = offset
        i = 0
        while i < len(lines):
            line = lines[i]
            pos += len(line)
            if not line.startswith("$ "):
                i += 1
                continue
            start = pos
            expected: list[str] = []
            i += 1
            while i < len(lines) and not lines[i].startswith("$ "):
                expected.append(lines[i].rstrip("\n"))
                pos += len(lines[i])
                i += 1
            found.append(Example(line[2:].strip(), tuple(expected), (start, pos)))
    return found


def run(example: Example, cwd: Path) -> tuple[int, list[str]]:
    env = {**os.environ, "NO_COLOR": "1", "COLUMNS": "120"}
    env.pop("GITHUB_ACTIONS", None)
    env.pop("FORCE_COLOR", None)
    env["PATH"] = str(Path(sys.executable).parent) + os.pathsep + env.get("PATH", "")
    done = subprocess.run(["bash", "-o", "pipefail", "-c", example.command], cwd=cwd, env=env,
                          capture_output=True, text=True, check=False, timeout=300)
    output = (done.stdout + done.stderr).replace(str(cwd), SHOWN_ROOT)
    return done.returncode, output.splitlines()


def matches(expected: tuple[str, ...], actual: list[str]) -> bool:
    pattern = "".join("(?:[^\n]*\n)*?" if line == "..." else re.escape(line) + "\n" for line in expected)
    return re.fullmatch(pattern, "".join(line + "\n" for line in actual)) is not None


def workdir() -> Path:
    where = Path(tempfile.mkdtemp(prefix="memlint-readme-")).resolve()
    shutil.copytree(REPO / "examples", where / "examples")
    shutil.copytree(REPO / "docs", where / "docs")
    return where


def main(update: bool) -> int:
    text = README.read_text(encoding="utf-8")
    cwd = workdir()
    bad = 0
    replacements: list[tuple[tuple[int, int], str]] = []
    try:
        for example in examples(text):
            code, actual = run(example, cwd)
            if code not in (0, 1) or not matches(example.expected, actual):
                bad += 1
                print(f"$ {example.command}  (exit {code})\n" + "\n".join(actual) + "\n")
                if update and "..." not in example.expected:
                    replacements.append((example.span, "".join(line + "\n" for line in actual)))
    finally:
        shutil.rmtree(cwd, ignore_errors=True)
    if update and replacements:
        for (start, end), new in sorted(replacements, reverse=True):
            text = text[:start] + new + text[end:]
        README.write_text(text, encoding="utf-8")
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main("--update" in sys.argv))
