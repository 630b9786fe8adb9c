#!/usr/bin/env python3
"""Keep tests/corpus_judgments.tsv in step with memlint's default output on ../shared/corpus and corpus-2.

    python scripts/judge_corpus.py            # print the findings no row judges, in the table's format
    python scripts/judge_corpus.py --update   # set each row's status from the output; add `?` rows to judge
    python scripts/judge_corpus.py --summary  # precision, noise share and recall per corpus and rule code

After --update, replace every `?` with TP, FP or NOISE and write a reason (see tests/corpus_judge.py);
tests/test_corpus_judged.py fails while a `?` row is left or a row's status is not what memlint reports.
"""
from __future__ import annotations

import argparse
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from tests.corpus_judge import COLUMNS, all_findings, match, read_table, summary, updated, write_table


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--update", action="store_true", help="rewrite the table's status column, add `?` rows")
    parser.add_argument("--summary", action="store_true", help="print the judged figures")
    args = parser.parse_args()
    found = all_findings()
    table = read_table()
    if args.update:
        rows = updated(found, table)
        write_table(rows)
        print(f"{sum(r.verdict == '?' for r in rows)} rows to judge", file=sys.stderr)
    elif args.summary:
        print(summary(found, table))
    else:
        _, unjudged = match(found, table)
        print("\t".join(COLUMNS))
        for f in unjudged:
            print("\t".join([f.corpus, f.repo, f.file, str(f.line), f.code, f.fingerprint, "?", "reported",
                             f.message[:160].replace("\t", " ")]))
    return 0


if __name__ == "__main__":
    sys.exit(main())
