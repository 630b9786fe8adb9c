"""Generate docs/rules/ from the rules' pages: `python -m memlint.docgen [--check]`.

Each page exists once, in its rule module's docstring; docs/rules/ is the copy published for
readers, and a test runs `--check`, so CI fails when a page changed and docs/ was not regenerated.
`memlint rules` and `memlint explain` read the pages from the rule modules' sources
(memlint/rules/catalog.py), not from any generated copy.
"""

from __future__ import annotations

import sys
from pathlib import Path

from memlint.rules import all_rules

DOCS = Path(__file__).resolve().parent.parent / "docs" / "rules"


def pages() -> dict[str, str]:
    out: dict[str, str] = {}
    index = ["# memlint rules", "", "| code | slug | severity | fix | summary |", "|---|---|---|---|---|"]
    for rule in all_rules():
        name = f"{rule.code}-{rule.slug}.md"
        fix = rule.meta.fix or ""
        out[name] = f"# {rule.code} {rule.slug}\n\nSeverity: {rule.meta.severity}. Fix: {fix or 'none'}.\n\n{rule.doc}\n"
        index.append(f"| [{rule.code}]({name}) | {rule.slug} | {rule.meta.severity} | {fix} | {rule.meta.summary} |")
    out["README.md"] = "\n".join(index) + "\n"
    return out


def main(argv: list[str]) -> int:
    wanted = pages()
    if "--check" in argv:
        present = {p.name: p.read_text(encoding="utf-8") for p in DOCS.glob("*.md")} if DOCS.is_dir() else {}
        stale = sorted(set(wanted) ^ set(present) | {n for n in wanted if present.get(n) != wanted[n]})
        if stale:
            print(f"docs/rules is stale ({', '.join(stale[:5])}...): run `python -m memlint.docgen`")
            return 1
        return 0
    DOCS.mkdir(parents=True, exist_ok=True)
    for old in DOCS.glob("*.md"):
        if old.name not in wanted:
            old.unlink()
    for name, text in wanted.items():
        (DOCS / name).write_text(text, encoding="utf-8")
    print(f"wrote {len(wanted)} pages to {DOCS}")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
