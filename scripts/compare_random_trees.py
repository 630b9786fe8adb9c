#!/usr/bin/env python3
"""Random trees memlint was never tuned on: `memlint context` against the real Claude Code, per release.

    python scripts/compare_random_trees.py SEED COUNT [--releases 2.1.197,2.1.332]

Builds COUNT random trees (CLAUDE.md, AGENTS.md, .claude/ files, CLAUDE.local.md and rules in three nested
folders; BOM frontmatter, comments with CRLF, includes; AGENTS.md modes, deny rules, excludes, symlinks,
special folders, approval, automount roots, auto memory), runs the oracle (../shared/oracle/cc_oracle.py)
on each release and prints every tree where memlint's loaded files differ. Exit 1 when any differs.
"""
import argparse
import json
import os
import random
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "tests" / "differential"))
sys.path.insert(0, str(ROOT))
ORACLE = ROOT.parents[0] / "shared" / "oracle" / "cc_oracle.py"
from cases import (
    Case,
    Symlink,
    build,
    canonical,
    case_env,
    flag_settings_file,
    normalize,
    oracle_args,
    rule_groups,
)

from memlint.api import context
from memlint.model.release import pick
from memlint.model.loading.settings import Launch


def rand_case(i, rng):
    files = {}
    folders = ["", "a/", "a/b/"]
    for d in folders:
        for name in ["CLAUDE.md", "AGENTS.md", ".claude/CLAUDE.md", ".claude/AGENTS.md", "CLAUDE.local.md", ".claude/rules/r.md"]:
            if rng.random() < 0.25:
                body = f"{d}{name} text"
                r = rng.random()
                if r < 0.15: body = "\ufeff---\npaths: src/**\n---\n" + body
                elif r < 0.3: body += " @inc.md"; files[d + ("" if not name.startswith(".claude") else ".claude/") + "inc.md"] = f"inc of {d}{name}\n"
                elif r < 0.4: body = "Line <!-- c -->\r\n\r\n[d]: https://x\r\n" + body
                elif r < 0.5: body = "<!-- block -->\n" + body + "\r\n"
                files[d + name] = body + "\n"
    settings = None; home_files = {}
    r = rng.random()
    modes = ["claude-md-or-agents-md", "claude-md-and-agents-md", "claude-md", "bogus"]
    if r < 0.3:
        home_files[".claude/settings.json"] = json.dumps({"pluginConfigs": {rng.choice(["agents-md@builtin", "cc-plugin-agents-md@builtin"]): {"options": {"instructionFiles": rng.choice(modes)}}}})
    elif r < 0.45:
        settings = {"permissions": {"deny": [rng.choice(["Read(./CLAUDE.md)", "Read(./a/**)", "Read(./*.md)"])]}}
    elif r < 0.55:
        settings = {"claudeMdExcludes": [rng.choice(["**/AGENTS.md", "**/a/CLAUDE.md", "**/CLAUDE.md"])]}
    if rng.random() < 0.2:
        home_files[".claude/CLAUDE.md"] = "user claude\n"
    if rng.random() < 0.15:
        files["a/link.md"] = Symlink("../outside.md"); files["outside.md"] = "outside\n"
        files["a/CLAUDE.md"] = files.get("a/CLAUDE.md", "a claude\n").rstrip("\n") + " @link.md\n"
    if rng.random() < 0.15:
        for k in [k for k in files if k.startswith("a/.claude/rules/")]: del files[k]
        files["a/.claude/rules"] = Symlink("../../team-rules"); files["team-rules/t.md"] = "team rule\n"
    if rng.random() < 0.15:
        files["CLAUDE.md"] = files.get("CLAUDE.md", "root\n").rstrip("\n") + " @connector-downloads/x.md @a/ok.md\n"
        files["connector-downloads/x.md"] = "cd\n"; files["a/ok.md"] = "ok\n"
    if rng.random() < 0.2:
        files[".claude/rules/cond.md"] = rng.choice(["---\npaths: a/**\n---\ncond\n", "\ufeff---\npaths: a/**\n---\ncond bom\n", "---\nglobs: a/**\n---\nglobs rule\n"])
    if rng.random() < 0.1:
        home_files[".claude.json"] = json.dumps({"projects": {"<TREE>": {"hasClaudeMdExternalIncludesApproved": True}}})
    env = {}
    if rng.random() < 0.1:
        env["CLAUDE_CODE_AUTOMOUNT_ROOTS"] = "<TREE>/a"
    if rng.random() < 0.25:
        home_files[".claude/projects/<SANITIZED_TREE>/memory/MEMORY.md"] = "- mem\n"
    cwd = rng.choice([".", "a", "a/b"])
    return Case(f"fz{i}", files, cwd=cwd, git=True, settings=settings, home_files=home_files, env=env)

def oracle(case, version):
    root = Path(tempfile.mkdtemp(prefix="fz-"))
    try:
        tree, home = build(case, root)
        env = dict(os.environ, PYTHONIOENCODING="utf-8:surrogatepass", CC_ORACLE_VERSION=version)
        r = subprocess.run([sys.executable, str(ORACLE), str(tree), *oracle_args(case, tree, home)], check=False, capture_output=True, env=env, timeout=300, stdin=subprocess.DEVNULL)
        live = json.loads(r.stdout.decode("utf-8", "surrogatepass"))
        exp = [(f["path"], f["kind"], f["content"]) for f in normalize(live["files"], tree, home)]
        ctx = context(start=tree / case.cwd, home=home, managed_dir=root / "nm", release=pick(version), launch=Launch.from_environ(case_env(case, tree, home), flag_settings_file(case, tree)))
        got = [(f["path"], f["kind"], f["content"]) for f in normalize(ctx.to_dict("chars4")["files"], tree, home)]
        g = rule_groups(tree, home)
        return canonical(got, g) == canonical(exp, g), got, exp
    finally:
        shutil.rmtree(root, ignore_errors=True)

def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[1])
    ap.add_argument("seed", type=int)
    ap.add_argument("count", type=int)
    ap.add_argument("--releases", default="2.1.197,2.1.332")
    a = ap.parse_args()
    rng = random.Random(a.seed)
    bad = runs = 0
    for i in range(a.count):
        case = rand_case(i, rng)
        for v in a.releases.split(","):
            ok, got, exp = oracle(case, v)
            runs += 1
            if not ok:
                bad += 1
                print(f"DIFF {case.name} {v} cwd={case.cwd} files={sorted(case.files)} settings={case.settings} "
                      f"home={case.home_files} env={case.env}")
                print("  memlint:", [(p, c[:60]) for p, _k, c in got])
                print("  claude: ", [(p, c[:60]) for p, _k, c in exp])
        print(f"{case.name} done", flush=True)
    print(f"{bad} differing runs of {runs}")
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
