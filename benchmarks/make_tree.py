#!/usr/bin/env python3
"""A synthetic memory tree for benchmarks: at scale 1, ~2,000 markdown files of varied sizes with
@includes (chains, cycles, missing targets), nested package CLAUDE.md and AGENTS.md files, rules
(some with broken frontmatter), agent memory folders and a project memory folder.

    python benchmarks/make_tree.py DIR [SCALE]

SCALE (0.25 to 16, default 1) multiplies every count: 4 gives ~8,000 files, 16 ~32,000. The tree is
the same for the same scale (seeded), so runs can be compared. DIR is replaced when it exists.
Needs nothing outside this repository (git is used to mark DIR as a repository when present).
"""

from __future__ import annotations

import argparse
import random
import shutil
import subprocess
from pathlib import Path

WORDS = (
    "deploy", "migration", "retry", "webhook", "cache", "index", "schema", "worker", "queue", "token", "latency",
    "fixture", "rollback", "pipeline", "service", "endpoint", "handler", "config", "review", "release",
)
BASE_COUNTS = {"docs": 700, "packages": 300, "agents_md": 100, "rules": 100, "agents": 10, "topics": 389}


class Tree:
    def __init__(self, root: Path, seed: int = 42) -> None:
        self.root = root
        self.rnd = random.Random(seed)

    def prose(self, nbytes: int) -> str:
        out, n = [], 0
        while n < nbytes:
            words = " ".join(self.rnd.choice(WORDS) for _ in range(self.rnd.randint(6, 18)))
            line = words.capitalize() + "."
            out.append(line)
            n += len(line) + 1
        return "\n".join(out)

    def size(self) -> int:
        return int(self.rnd.choice([300, 800, 1500, 3000, 6000, 12000, 30000]) * self.rnd.uniform(0.6, 1.2))

    def write(self, rel: str, text: str) -> None:
        path = self.root / rel
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text)


def build(root: Path, scale: float) -> int:
    """Write the tree; return how many markdown files it holds."""
    counts = {name: max(1, round(n * scale)) for name, n in BASE_COUNTS.items()}
    n_docs = counts["docs"]
    if root.exists():
        shutil.rmtree(root)
    t = Tree(root)
    for i in range(n_docs):  # docs importing others: chains, some self-cycles, some missing targets
        imports = []
        if i % 3 == 0 and i + 1 < n_docs:
            imports.append(f"@doc{i + 1:04d}.md")
        if i % 97 == 0:
            imports.append(f"@doc{i:04d}.md")
        if i % 53 == 0:
            imports.append("@missing_doc.md")
        see = "\n".join(f"- see {x}" for x in imports)
        t.write(f"docs/doc{i:04d}.md", f"# Doc {i}\n\n{see}\n\n{t.prose(t.size())}\n")
    root_imports = "\n".join(f"- @docs/doc{i:04d}.md" for i in range(0, 60, 3))
    t.write("CLAUDE.md", f"# Root\n\n{root_imports}\n\n```\n@docs/not-an-import.md\n```\n{t.prose(4000)}\n")
    t.write(".claude/CLAUDE.md", f"# Team\n\n{t.prose(1500)}\n")
    for i in range(counts["packages"]):  # nested packages, each with a CLAUDE.md, some with AGENTS.md
        shared = f"docs/doc{(i * 7) % n_docs:04d}.md"
        t.write(f"packages/pkg{i:03d}/CLAUDE.md", f"# Package {i}\n\n- Shared: @../../{shared}\n\n{t.prose(t.size())}\n")
        if i < counts["agents_md"]:
            t.write(f"packages/pkg{i:03d}/AGENTS.md", f"# Package {i} agents\n\nSee `{shared}`.\n\n{t.prose(t.size())}\n")
    for i in range(counts["rules"]):  # rules: one in ten with broken frontmatter
        fm = f'---\npaths:\n  - "packages/pkg{i:03d}/**/*.ts"\n---\n' if i % 10 else "---\npaths: [broken\n---\n"
        t.write(f".claude/rules/rule{i:03d}.md", f"{fm}\n# Rule {i}\n\n{t.prose(t.size() // 3)}\n")
    for a in range(counts["agents"]):  # agent memory: MEMORY.md + 40 topics each, half the indexes too long
        base = f".claude/agent-memory/agent{a}"
        index = ["# Memory index", ""]
        for n in range(40):
            kind = t.rnd.choice(["user", "feedback", "project", "reference"])
            fm = f"---\nname: topic{n}\ndescription: topic {n} of agent {a}\ntype: {kind}\n---\n\n" if n % 5 else ""
            t.write(f"{base}/topic{n:02d}.md", fm + t.prose(t.size() // 2) + "\n")
            index.append(f"- [Topic {n}](topic{n:02d}.md) — hook {n}")
        index += [t.prose(100) for _ in range(260 if a % 2 else 10)]
        t.write(f"{base}/MEMORY.md", "\n".join(index) + "\n")
    index = ["# Memory index", ""]
    for n in range(counts["topics"]):  # the project memory folder
        fm = f"---\nname: t{n}\ndescription: d{n}\ntype: project\n---\n\n" if n % 4 else ""
        t.write(f"memory/topic{n:03d}.md", fm + t.prose(t.size() // 2) + "\n")
        index.append(f"- [T{n}](topic{n:03d}.md) — hook")
    t.write("memory/MEMORY.md", "\n".join(index) + "\n")
    if shutil.which("git"):
        subprocess.run(["git", "init", "-q", str(root)], check=True)
    else:
        (root / ".git").mkdir()
    return sum(1 for _ in root.rglob("*.md"))


def main() -> None:
    parser = argparse.ArgumentParser(description="Write a synthetic memory tree for benchmarks.")
    parser.add_argument("dir", type=Path)
    parser.add_argument("scale", type=float, nargs="?", default=1.0, help="0.25 to 16 (default 1)")
    args = parser.parse_args()
    if not 0.25 <= args.scale <= 16:
        parser.error("scale must be between 0.25 and 16")
    count = build(args.dir, args.scale)
    size = sum(p.stat().st_size for p in args.dir.rglob("*.md")) // 1024
    print(f"{args.dir}: {count} md files, {size} KiB")


if __name__ == "__main__":
    main()
