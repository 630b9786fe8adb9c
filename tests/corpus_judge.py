"""The judged corpora: every default finding on ../shared/corpus and ../shared/corpus-2, judged by hand.

The judgments live in tests/corpus_judgments.tsv (tab-separated, header first), one row per finding:

    corpus  repo  file  line  code  fingerprint  verdict  status  reason

- corpus: `corpus` or `corpus-2`; repo: the folder below it; file: the path inside the repository.
- fingerprint: 8 hex digits of the sha1 of the reported line's text (white space stripped), so a row still
  matches when memlint reports the same finding on another line; no corpus text is copied.
- verdict: TP (a careful user would change something), FP (the claim is false), NOISE (true but not worth a
  user's time), `?` (not judged yet: the test fails until someone judges it).
- status: `reported` while the default output holds the finding, `gone` once it does not; a TP whose file
  still has a finding of the same rule (one finding naming the lines and the count of a cause), or of the
  rule its reason names as `folded into MLnnn`, is `folded` (it counts as reported for recall).
- reason: why, in a few words of our own.

Every finding is matched by (corpus, repo, file, code, line), else by (corpus, repo, file, code, fingerprint).
"""

from __future__ import annotations

import csv
import hashlib
import json
import re
import tempfile
from collections import Counter
from dataclasses import dataclass, replace
from pathlib import Path

SHARED = Path(__file__).resolve().parents[2] / "shared"
CORPORA = ("corpus", "corpus-2")
TABLE = Path(__file__).resolve().parent / "corpus_judgments.tsv"
COLUMNS = ("corpus", "repo", "file", "line", "code", "fingerprint", "verdict", "status", "reason")
VERDICTS = ("TP", "FP", "NOISE", "?")
STATUSES = ("reported", "gone", "folded")


@dataclass(frozen=True)
class Place:
    """Where a finding stands: its repository, file, line and code, and its line's fingerprint."""

    corpus: str
    repo: str
    file: str
    line: int
    code: str
    fingerprint: str


@dataclass(frozen=True)
class Finding(Place):
    message: str


@dataclass(frozen=True)
class Judgment(Place):
    verdict: str
    status: str
    reason: str


def repos() -> list[tuple[str, Path]]:
    found: list[tuple[str, Path]] = []
    for corpus in CORPORA:
        folder = SHARED / corpus
        if folder.is_dir():
            found.extend((corpus, p) for p in sorted(folder.iterdir()) if p.is_dir())
    return found


def fingerprint(path: Path, line: int) -> str:
    try:
        lines = path.read_bytes().decode("utf-8", "replace").splitlines()
    except OSError:
        lines = []
    text = lines[line - 1].strip() if 0 < line <= len(lines) else ""
    return hashlib.sha1(text.encode("utf-8")).hexdigest()[:8]


def findings(corpus: str, repo: Path) -> list[Finding]:
    """The default output of `memlint check REPO --home <empty> --format json`, as the CLI gives it."""
    from click.testing import CliRunner

    from memlint.cli import main

    with tempfile.TemporaryDirectory() as home:
        result = CliRunner().invoke(main, ["check", str(repo), "--home", home, "--format", "json"])
    if result.exit_code not in (0, 1) or not result.stdout.strip():
        return []
    found = []
    for v in json.loads(result.stdout)["violations"]:
        path = Path(v["path"])
        try:
            rel = path.resolve().relative_to(repo.resolve()).as_posix()
        except ValueError:
            rel = str(path)
        found.append(Finding(corpus, repo.name, rel, int(v["line"]), v["code"], fingerprint(path, int(v["line"])),
                             v["message"]))
    return found


def all_findings() -> list[Finding]:
    return [f for corpus, repo in repos() for f in findings(corpus, repo)]


def read_table(path: Path = TABLE) -> list[Judgment]:
    if not path.is_file():
        return []
    with path.open(encoding="utf-8", newline="") as handle:
        rows = list(csv.DictReader(handle, delimiter="\t"))
    return [Judgment(r["corpus"], r["repo"], r["file"], int(r["line"]), r["code"], r["fingerprint"], r["verdict"],
                     r["status"], r["reason"]) for r in rows]


def write_table(rows: list[Judgment], path: Path = TABLE) -> None:
    rows = sorted(rows, key=lambda j: (j.corpus, j.repo, j.file, j.code, j.line))
    with path.open("w", encoding="utf-8", newline="") as handle:
        out = csv.writer(handle, delimiter="\t", lineterminator="\n")
        out.writerow(COLUMNS)
        for j in rows:
            out.writerow([j.corpus, j.repo, j.file, j.line, j.code, j.fingerprint, j.verdict, j.status, j.reason])


def match(found: list[Finding], table: list[Judgment]) -> tuple[dict[Finding, Judgment], list[Finding]]:
    """Each finding's judgment (by line, else by fingerprint), and the findings that have none."""
    by_line = {(j.corpus, j.repo, j.file, j.code, j.line): j for j in table}
    by_print: dict[tuple[str, str, str, str, str], Judgment] = {}
    for j in table:
        by_print.setdefault((j.corpus, j.repo, j.file, j.code, j.fingerprint), j)
    judged: dict[Finding, Judgment] = {}
    unjudged: list[Finding] = []
    for f in found:
        j = by_line.get((f.corpus, f.repo, f.file, f.code, f.line))
        if j is None:
            j = by_print.get((f.corpus, f.repo, f.file, f.code, f.fingerprint))
        if j is None:
            unjudged.append(f)
        else:
            judged[f] = j
    return judged, unjudged


def updated(found: list[Finding], table: list[Judgment]) -> list[Judgment]:
    """The table with each row's status set from `found` and a `?` row for each unjudged finding. A TP
    that is no longer reported while a finding of the same rule on the same file is (one finding that
    names the lines and the count of a cause) is `folded`: it still counts as reported for recall."""
    judged, unjudged = match(found, table)
    present = {id(j) for j in judged.values()}
    grouped = {(f.corpus, f.repo, f.file, f.code) for f in found}
    rows = []
    for j in table:
        if id(j) in present:
            rows.append(replace(j, status="reported"))
        elif j.verdict == "TP" and folded_key(j) in grouped:
            rows.append(replace(j, status="folded"))
        else:
            rows.append(replace(j, status="gone"))
    rows.extend(Judgment(f.corpus, f.repo, f.file, f.line, f.code, f.fingerprint, "?", "reported", f.message[:160])
                for f in unjudged)
    return rows


_FOLDED_INTO = re.compile(r"folded into (ML\d{3})")


def folded_key(j: Judgment) -> tuple[str, str, str, str]:
    """The finding a TP counts under once it is no longer reported itself: one of the same rule on the
    same file, or of the rule its reason names (`folded into ML525`: another rule states the cause)."""
    named = _FOLDED_INTO.search(j.reason)
    return j.corpus, j.repo, j.file, named.group(1) if named else j.code


def _share(part: int, whole: int) -> str:
    return f"{100 * part / whole:5.1f}%" if whole else "    -"


def summary(found: list[Finding], table: list[Judgment]) -> str:
    """Precision TP/(TP+FP), noise share NOISE/all and recall of the TPs, per corpus and per rule code."""
    judged, _ = match(found, table)
    lines = [f"{'':14} {'findings':>8} {'TP':>4} {'FP':>4} {'NOISE':>5} {'precision':>9} {'noise':>6} {'recall':>6}"]

    def row(label: str, keep: object) -> None:
        counts = Counter(judged[f].verdict for f in found if f in judged and keep(f))  # type: ignore[operator]
        n = sum(1 for f in found if keep(f))  # type: ignore[operator]
        tp_rows = [j for j in table if j.verdict == "TP" and keep(j)]  # type: ignore[operator]
        kept = sum(1 for j in tp_rows if j.status in ("reported", "folded"))
        lines.append(f"{label:14} {n:8} {counts['TP']:4} {counts['FP']:4} {counts['NOISE']:5} "
                     f"{_share(counts['TP'], counts['TP'] + counts['FP']):>9} {_share(counts['NOISE'], n):>6} "
                     f"{_share(kept, len(tp_rows)):>6}")

    for corpus in CORPORA:
        row(corpus, lambda x, c=corpus: x.corpus == c)
    row("both", lambda x: True)
    for code in sorted({f.code for f in found} | {j.code for j in table}):
        row(code, lambda x, c=code: x.code == c)
    return "\n".join(lines)
