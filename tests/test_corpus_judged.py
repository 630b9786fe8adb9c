"""Every default finding on the judged corpora has a judgment, and none judged FP or NOISE comes back.

The table is tests/corpus_judgments.tsv (format: tests/corpus_judge.py); `python scripts/judge_corpus.py --update`
brings its status column in step and adds `?` rows for new findings, which someone then judges by hand.
Run with `-s` to see precision (TP/(TP+FP)), noise share (NOISE/all) and recall per corpus and per rule code.
"""

from __future__ import annotations

import pytest

from tests.corpus_judge import (
    SHARED,
    STATUSES,
    VERDICTS,
    Finding,
    all_findings,
    folded_key,
    match,
    read_table,
    summary,
)

pytestmark = pytest.mark.skipif(not (SHARED / "corpus").is_dir(), reason=f"no corpus at {SHARED / 'corpus'}")


@pytest.fixture(scope="module")
def found() -> list[Finding]:
    return all_findings()


def _where(f: Finding) -> str:
    return f"{f.corpus}/{f.repo}/{f.file}:{f.line} {f.code}"


def test_table_is_well_formed() -> None:
    table = read_table()
    assert table, "tests/corpus_judgments.tsv is empty"
    assert {j.verdict for j in table} <= set(VERDICTS)
    assert {j.status for j in table} <= set(STATUSES)
    assert all(j.status != "folded" or j.verdict == "TP" for j in table), "only a TP can be folded into another finding"
    assert not [j for j in table if not j.reason.strip()], "every judgment gives a reason"


def test_every_default_finding_is_judged(found: list[Finding]) -> None:
    table = read_table()
    judged, unjudged = match(found, table)
    undecided = [f for f in found if f in judged and judged[f].verdict == "?"]
    assert not unjudged, "findings without a judgment (run scripts/judge_corpus.py --update, then judge the `?` rows):\n" \
        + "\n".join(_where(f) + " " + f.message[:120] for f in unjudged)
    assert not undecided, "rows still to judge:\n" + "\n".join(map(_where, undecided))


def test_no_false_positive_or_noise_comes_back(found: list[Finding]) -> None:
    judged, _ = match(found, read_table())
    back = [f for f, j in judged.items() if j.verdict in ("FP", "NOISE") and j.status != "reported"]
    assert not back, "findings judged FP or NOISE are reported again:\n" + "\n".join(
        f"{_where(f)} ({judged[f].verdict}: {judged[f].reason})" for f in back)


def test_status_matches_the_output(found: list[Finding]) -> None:
    """A row says `reported` exactly while memlint reports it: a TP that disappears is a lost true finding."""
    table = read_table()
    judged, _ = match(found, table)
    present = {id(j) for j in judged.values()}
    lost = [j for j in table if j.status == "reported" and id(j) not in present]
    assert not lost, "rows marked reported that memlint no longer reports (a lost TP must be marked gone or " \
        "folded on purpose; run scripts/judge_corpus.py --update):\n" + "\n".join(
            f"{j.corpus}/{j.repo}/{j.file}:{j.line} {j.code} {j.verdict}" for j in lost)
    grouped = {(f.corpus, f.repo, f.file, f.code) for f in found}
    unfolded = [j for j in table if j.status == "folded" and folded_key(j) not in grouped]
    assert not unfolded, "rows marked folded whose file no longer has a finding of that rule:\n" + "\n".join(
        f"{j.corpus}/{j.repo}/{j.file}:{j.line} {j.code}" for j in unfolded)


def test_print_figures(found: list[Finding]) -> None:
    text = summary(found, read_table())
    print("\nJudged corpora (precision = TP/(TP+FP), noise = NOISE/findings, recall = TPs still reported):\n" + text)
    assert text.count("\n") >= 3
