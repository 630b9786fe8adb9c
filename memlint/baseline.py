"""Baselines: adopt memlint on a tree that already has findings. `--write-baseline FILE` records
today's findings by fingerprint; `--baseline FILE` reports only findings whose fingerprint is not in
it. A fingerprint is the rule code, the file's path (relative to a root folder) and the normalised
text of the flagged line, so it survives unrelated edits and moved lines; the same fingerprint
recorded twice must appear three times to report one."""

from __future__ import annotations

import hashlib
import json
import os
from collections import Counter
from collections.abc import Iterable
from pathlib import Path
from typing import Any

from memlint.errors import MemlintError
from memlint.escape import for_json
from memlint.lazy_regex import compile_lazily
from memlint.model.source.files import FileProblem, read_file
from memlint.records import dataclass
from memlint.violations import Violation

BASELINE_VERSION = 1
_SPACE = compile_lazily(r"\s+")


def relative_posix(path: Path, root: Path) -> str:
    """`path` relative to `root` with forward slashes, or absolute when it is not below `root`."""
    absolute = os.path.abspath(path)
    try:
        return Path(absolute).relative_to(os.path.abspath(root)).as_posix()
    except ValueError:
        return Path(absolute).as_posix()


MAX_LINE_TEXT_BYTES = 64 * 1024 * 1024  # a file larger than this is fingerprinted with no line text
MAX_BASELINE_BYTES = 256 * 1024 * 1024  # a larger file is no baseline memlint wrote (over a million findings)


class LineTexts:
    """The text of flagged lines (a missing or unreadable file has no lines). Only the lines of the
    file asked last are kept: findings come sorted by file, so each file is read once, and a report
    of 15,000 findings over 10,000 files does not hold every line of every file (80 MiB) at once."""

    def __init__(self) -> None:
        self._path: Path | None = None
        self._lines: list[str] = []

    def line(self, path: Path, number: int) -> str:
        if path != self._path:
            # only a regular file, read safely: a finding can sit on a link to /dev/zero or a FIFO
            data = read_file(path, MAX_LINE_TEXT_BYTES)
            text = "" if isinstance(data, FileProblem) else data.decode("utf-8", errors="replace")
            self._lines = text.splitlines()
            self._path = path
        lines = self._lines
        return lines[number - 1] if 0 < number <= len(lines) else ""


def fingerprint(v: Violation, root: Path, texts: LineTexts) -> str:
    """sha256 of code, path relative to `root`, and the flagged line with white space collapsed."""
    text = _SPACE.sub(" ", texts.line(v.path, v.line)).strip()
    key = "\0".join((v.code, relative_posix(v.path, root), text))
    return hashlib.sha256(key.encode("utf-8", "surrogatepass")).hexdigest()[:32]  # non-UTF-8 file names too


@dataclass(frozen=True)
class Baseline:
    """Fingerprints with how often each was recorded."""

    counts: Counter[str]

    @classmethod
    def read(cls, path: Path) -> Baseline:
        raw = read_file(path, MAX_BASELINE_BYTES)  # a regular file only: a FIFO or /dev/zero is refused
        if isinstance(raw, FileProblem):
            raise MemlintError(f"--baseline {path}: cannot read: {raw.detail}")
        try:
            data = json.loads(raw.decode("utf-8"))
        except (UnicodeDecodeError, json.JSONDecodeError, RecursionError) as exc:
            raise MemlintError(f"--baseline {path}: cannot read: {exc}") from None
        if not isinstance(data, dict) or data.get("version") != BASELINE_VERSION or not isinstance(
                data.get("findings"), list):
            raise MemlintError(f"--baseline {path}: not a memlint baseline (version {BASELINE_VERSION})")
        counts: Counter[str] = Counter()
        for entry in data["findings"]:
            if not isinstance(entry, dict) or not isinstance(entry.get("fingerprint"), str):
                raise MemlintError(f"--baseline {path}: a finding without a fingerprint")
            counts[entry["fingerprint"]] += 1
        return cls(counts)

    def new_findings(self, violations: Iterable[Violation], root: Path) -> list[Violation]:
        """The violations the baseline does not account for."""
        left = Counter(self.counts)
        texts = LineTexts()
        new: list[Violation] = []
        for v in violations:
            fp = fingerprint(v, root, texts)
            if left[fp] > 0:
                left[fp] -= 1
            else:
                new.append(v)
        return new


def baseline_json(violations: Iterable[Violation], root: Path) -> str:
    """The baseline file for `violations`: one entry per finding, sorted, readable in a review."""
    texts = LineTexts()
    entries: list[dict[str, Any]] = [
        {"fingerprint": fingerprint(v, root, texts), "code": v.code, "path": for_json(relative_posix(v.path, root)),
         "message": for_json(v.message)}
        for v in violations
    ]
    entries.sort(key=lambda e: (e["path"], e["code"], e["fingerprint"]))
    return json.dumps({"version": BASELINE_VERSION, "tool": "memlint", "findings": entries},
                      ensure_ascii=False, indent=1) + "\n"
