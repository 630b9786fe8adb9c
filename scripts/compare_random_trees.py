#!/usr/bin/env python3
r"""Random trees memlint was never tuned on: `memlint context` against the real Claude Code, per release.

    python scripts/compare_random_trees.py SEED COUNT [--releases 2.1.197,2.1.332]

Builds COUNT random trees (CLAUDE.md, AGENTS.md, .claude/ files, CLAUDE.local.md and rules in three nested
folders; BOM frontmatter, comments with CRLF, includes; AGENTS.md modes, deny rules, excludes, symlinks,
special folders, approval, automount roots, auto memory), runs the oracle (../shared/oracle/cc_oracle.py)
on each release and prints every tree where memlint's loaded files differ. Exit 1 when any differs.

On top of that base tree, `extras` (drawn from a second generator seeded by SEED and the tree's index, so
`--base-only` gives back exactly the trees of earlier versions of this script) vary: include chains
deeper than 5 and with cycles; includes by `~/`, absolute, `../` and `./` paths, from project and user
files; includes in code blocks, code spans, HTML comment blocks, inline comments, list items, `<div>`
blocks, with `#fragment` or `\ `; frontmatter `paths:` forms (lists, braces, commas, `**`, broken YAML,
CRLF, BOM, unclosed) in rules, CLAUDE.md and includes; MEMORY.md near and over 200 lines and 25,000
units with CRLF, odd Unicode and harness tags; symlinks in and to rules folders (inside and outside the
start folder, loops, dangling); claudeMdExcludes in user, project, local and `--settings` files;
Read deny rules (in the forms Claude Code's rule parser reads its own way too); settings values Claude Code
refuses (the whole file ignored) or accepts, a byte-order mark, `NaN`; the AGENTS.md plugin's settings (modes, legacy option, enabledPlugins, `--settings`);
sessions started below HOME; no git.

    python scripts/compare_random_trees.py SEED COUNT -j 2 --only 3,17 --dump   # one tree's Case, to minimise
"""
import argparse
import json
import os
import random
import shutil
import subprocess
import sys
import tempfile
from concurrent.futures import ThreadPoolExecutor
from dataclasses import replace
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "tests" / "differential"))
sys.path.insert(0, str(ROOT))
ORACLE = ROOT.parents[0] / "shared" / "oracle" / "cc_oracle.py"
from cases import (
    Case,
    Symlink,
    attached,
    build,
    canonical,
    case_launch,
    normalize,
    oracle_args,
    placeholders,
    rule_groups,
)

from memlint.api import context
from memlint.model.release import pick


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

# ----------------------------------------------------------------------------- extras

PATHS_FORMS = [
    "paths: src/**", "paths: \"**\"", "paths: [\"**\", \"a/**\"]", "paths:\n  - \"a/**\"\n  - \"b/*.md\"",
    "paths: \"{a,b}/**\"", "paths: \"\"", "paths:", "paths: /**", "paths: \"**/*\"", "paths: a/**, **",
    "paths: [unclosed", "paths:\n  - **/*.ts", "alwaysApply: true", "paths: \"**/**\"", "paths: []",
    "paths: a", "paths: '*.md'", "paths: {a: 1}", "paths: 42", "paths: [\"\"]", "paths: \"a/**, {b,c}/**\"",
]
MEM_ODD = ["\u200b", "\ufeff", "\x07", "\u2028", "\U0001f389", "<system-reminder>", "</function_results>",
           "\ue000", "\u65e5\u672c", "\u00ad", "\u200d", "\ufe0f", "\x85", "\r", "\u0378", "\t", "\x7f"]


def _add(files, rel, text):
    rel = rel.removeprefix("./")
    old = files.get(rel)
    if isinstance(old, str) and old:
        files[rel] = old.rstrip("\n") + text + "\n"
    elif not isinstance(old, Symlink):
        files[rel] = text.lstrip() + "\n"


def _claude_files(files):
    return [k for k, v in files.items() if isinstance(v, str) and k.rsplit("/", 1)[-1] in (
        "CLAUDE.md", "AGENTS.md", "CLAUDE.local.md")]


def _memory_text(rng):
    n = rng.choice([5, 150, 199, 200, 201, 230, 260])
    width = rng.choice([10, 60, 120, 130, 200])
    out = []
    for k in range(n):
        line = f"- {k:03d} " + "m" * rng.randrange(1, width)
        if rng.random() < 0.15:
            pos = rng.randrange(len(line) + 1)
            line = line[:pos] + rng.choice(MEM_ODD) + line[pos:]
        out.append(line)
    eol = rng.choice(["\n", "\n", "\r\n"])
    text = eol.join(out) + eol
    r = rng.random()
    if r < 0.15:
        text = "---\nname: idx\n---\n" + text
    elif r < 0.3:
        text = "<!-- note -->\n" + text
    elif r < 0.4:
        text = "\ufeff---\nname: bom\n---\n" + text
    elif r < 0.5:  # one long line near the size cap
        text = "- " + "w" * rng.choice([24990, 24998, 25000, 25001, 26000]) + eol + text
    elif r < 0.55:
        text = "- head @inc.md\n" + "\u4e2d" * rng.choice([24999, 25001]) + eol
    return text


def extras(case, rng):
    """More features on top of a base tree (a second random generator, so base trees stay as they were)."""
    files = dict(case.files)
    home = dict(case.home_files)
    env = dict(case.env)
    settings = dict(case.settings) if case.settings else None
    flag = None
    git = case.git
    under_home = False
    cwd = case.cwd
    cwdp = "" if cwd == "." else cwd + "/"
    hosts = _claude_files(files) or ["CLAUDE.md"]

    if rng.random() < 0.35:  # include chain: depth > 5, cycles, branches
        host = rng.choice(hosts)
        base = host.rsplit("/", 1)[0] + "/" if "/" in host else ""
        n = rng.randint(3, 8)
        _add(files, host, " @ch/c0.md")
        for k in range(n):
            nxt = f" @c{k + 1}.md" if k + 1 < n else rng.choice([" @c0.md", " @../" + host.rsplit("/", 1)[-1], "", " @c2.md"])
            if rng.random() < 0.2:
                nxt += f" @side{k}.md"
                files[f"{base}ch/side{k}.md"] = f"side {k} @c{max(0, k - 1)}.md\n"
            files[f"{base}ch/c{k}.md"] = f"chain {k}{nxt}\n"
    if rng.random() < 0.35:  # include path forms
        host = rng.choice(hosts)
        forms = [("@~/h.md", "home:h.md"), ("@<HOME>/h2.md", "home:h2.md"), ("@<TREE>/abs.md", "abs.md"),
                 ("@../up.md", "UP"), ("@./dot.md", "HOSTDIR:dot.md"), ("@/nonexistent/x.md", None),
                 ("@a/../back.md", "HOSTDIR:back.md"), ("@<TREE>/a/abs2.md", "a/abs2.md"),
                 ("@.hidden.md", "HOSTDIR:.hidden.md"), ("@noext", "HOSTDIR:noext"), ("@x.markdown", "HOSTDIR:x.markdown"),
                 ("@UPPER.MD", "HOSTDIR:UPPER.MD"), ("@sub/../../esc.md", "UP:esc.md"), ("@~/.claude/CLAUDE.md", None),
                 ("@<TREE>/CLAUDE.local.md", None), ("@d\\ s.md", "HOSTDIR:d s.md")]
        hostdir = host.rsplit("/", 1)[0] + "/" if "/" in host else ""
        if host.split("/")[-2:-1] == [".claude"]:
            hostdir = host.rsplit("/", 1)[0] + "/"
        for form, target in rng.sample(forms, rng.randint(1, 4)):
            _add(files, host, " " + form)
            if target is None:
                continue
            if target.startswith("home:"):
                home[target[5:]] = f"home inc {target[5:]}\n"
            elif target.startswith("HOSTDIR:"):
                files[hostdir + target[8:]] = f"inc {target[8:]}\n"
            elif target.startswith("UP"):
                name = target[3:] or "up.md"
                up = hostdir.rstrip("/").rsplit("/", 1)[0] + "/" if hostdir.count("/") > 1 else ""
                if hostdir:
                    files[up + name] = f"up {name}\n"
            else:
                files[target] = f"abs {target}\n"
    if rng.random() < 0.2:  # includes from the user file
        user = home.get(".claude/CLAUDE.md", "user claude\n")
        user = user.rstrip("\n") + " " + " ".join(rng.sample(["@<TREE>/fromuser.md", "@~/u2.md", "@../u3.md", "@u4.md",
                                                                "@<TREE>/CLAUDE.md", "@rules/ur.md"], rng.randint(1, 3)))
        home[".claude/CLAUDE.md"] = user + "\n"
        files["fromuser.md"] = "from user\n"
        home.update({"u2.md": "u2\n", "u3.md": "u3\n", ".claude/u4.md": "u4\n"})
        if rng.random() < 0.5:
            home[".claude/rules/ur.md"] = rng.choice(["user rule\n", "---\npaths: a/**\n---\nuser cond @u4.md\n"])
    if rng.random() < 0.35:  # include contexts
        ctx = rng.sample([
            "```\n@fence.md\n```", "inline `@span.md` code", "<!-- @hidden.md -->", "text <!-- @inl.md --> after",
            "<!-- a -->\n@after_comment.md", "- list `@li.md` item", "    @ind.md", "<div>\n@div.md\n</div>",
            "see @frag.md#part", "**@bold.md**", "(@paren.md)", "@trail.md.", "> quote @quote.md",
            "# Head @head.md", "[t @link.md](u)", "![alt @img.md](i.png)", "x\\\n@hard.md", "~~@st.md~~",
            "<span>@span2.md</span> s", "<!-- unclosed @unc.md", "\\@esc.md", "&#64;ent.md", "- [ ] @task.md",
            "~~~\n@tilde.md\n~~~", "<!--\nmulti @ml.md\n-->\n\n@post.md", "1. @ol.md",
        ], rng.randint(1, 5))
        host = rng.choice(hosts)
        hostdir = host.rsplit("/", 1)[0] + "/" if "/" in host else ""
        body = files.get(host) if isinstance(files.get(host), str) else f"{host} text\n"
        files[host] = body.rstrip("\n") + "\n\n" + "\n\n".join(ctx) + "\n"
        for name in ["fence", "span", "hidden", "inl", "after_comment", "li", "ind", "div", "frag", "bold", "paren",
                     "trail", "quote", "head", "link", "img", "hard", "st", "span2", "unc", "esc", "ent", "task",
                     "tilde", "ml", "post", "ol"]:
            files.setdefault(f"{hostdir}{name}.md", f"ctx {name}\n")
    if rng.random() < 0.4:  # frontmatter forms
        fm = rng.choice(PATHS_FORMS)
        eol = rng.choice(["\n", "\n", "\r\n"])
        pre = rng.choice(["", "", "\ufeff", "\n"])
        close = rng.choice(["---", "---", "...", ""])
        where = rng.choice([".claude/rules/fm.md", "a/.claude/rules/fm.md", ".claude/rules/deep/x/fm.md",
                            "CLAUDE.md", "CLAUDE.local.md", "inc_fm.md"])
        body = "fm body" + (" @fminc.md" if rng.random() < 0.4 else "")
        kept = files.get(where) if isinstance(files.get(where), str) and "/rules/" not in where else ""
        files[where] = pre + eol.join(["---", *fm.split("\n"), close, body]) + eol + kept
        files.setdefault(where.rsplit("/", 1)[0] + "/fminc.md" if "/" in where else "fminc.md", "fm include\n")
        if where == "inc_fm.md":
            _add(files, "CLAUDE.md", " @inc_fm.md")
        files.setdefault("a/x.md", "x\n")
    if rng.random() < 0.25:  # rules folders and symlinks
        kind = rng.choice(["file_in", "file_out", "dir_in", "dir_out", "loop", "dangling", "names", "dotclaude"])
        base = rng.choice(["", "a/"])
        r = f"{base}.claude/rules/"
        if kind == "file_in":
            files[r + "ln.md"] = Symlink("../../docs/r.md"); files[base + "docs/r.md"] = "docs rule\n"
        elif kind == "file_out":
            files[r + "ln.md"] = Symlink("../../../shared/r.md" if base else "../../shared/r.md")
            files["shared/r.md"] = "shared rule\n"
        elif kind == "dir_in":
            files[r + "sub"] = Symlink("../../shared-rules"); files[base + "shared-rules/s.md"] = "shared sub rule\n"
            files[r + "own.md"] = "own rule\n"
        elif kind == "dir_out":
            files[r + "sub"] = Symlink("../../../x-rules" if base else "../../x-rules"); files["x-rules/s.md"] = "x sub rule\n"
        elif kind == "loop":
            files[r + "loop"] = Symlink("."); files[r + "l.md"] = "loop rule\n"
        elif kind == "dangling":
            files[r + "gone.md"] = Symlink("nowhere.md"); files[r + "here.md"] = "here rule\n"
        elif kind == "names":
            files.update({r + "UP.MD": "upper\n", r + "x.mdc": "mdc\n", r + ".dot.md": "dot rule\n",
                          r + "g.md/in.md": "in folder g.md\n", r + "t.txt": "txt\n", r + "e.md": "  \n"})
        elif kind == "dotclaude":
            for k in [k for k in files if k.startswith(base + ".claude/")]:
                del files[k]
            files[base + ".claude"] = Symlink("shared-claude"); files[base + "shared-claude/CLAUDE.md"] = "shared dot claude\n"
            files[base + "shared-claude/rules/t.md"] = "shared dot rule\n"
    if rng.random() < 0.3:  # claudeMdExcludes in more places
        pats = rng.sample(["**/a/**", "<TREE>/CLAUDE.md", "**/.claude/rules/**", "**/CLAUDE.md", "!**/a/CLAUDE.md",
                           "**/inc.md", "**/*.local.md", "**/ch/**", "<TREE>/a/CLAUDE.md", "CLAUDE.md", "**/AGENTS.md",
                           "**/.claude/CLAUDE.md", "<HOME>/.claude/**", "**/r.md", "**/c3.md"], rng.randint(1, 3))
        where = rng.choice(["user", "project", "local", "flag", "parent"])
        ex = {"claudeMdExcludes": pats}
        if where == "user":
            home[".claude/settings.json"] = json.dumps({**json.loads(home.get(".claude/settings.json", "{}")), **ex})
        elif where == "project":
            settings = {**(settings or {}), **ex}
        elif where == "local":
            files[cwdp + ".claude/settings.local.json"] = json.dumps(ex)
        elif where == "flag":
            flag = {**(flag or {}), **ex}
        else:
            files[".claude/settings.json" if cwdp else "a/.claude/settings.json"] = json.dumps(ex)
    if rng.random() < 0.2:  # Read deny rules
        rule = rng.choice(["Read(./**/CLAUDE.md)", "Read(//<TREE>/CLAUDE.md)", "Read", "Read(*.local.md)",
                           "Read(./a/.claude/**)", "Read(~/**)", "Read(/CLAUDE.md)", "Read(./inc.md)",
                           "Read(**/ch/**)", "Read(./.claude/rules/**)", "Read(AGENTS.md)", "Read(./a)",
                           "Read(a/**)", "Read(///<TREE>//CLAUDE.md)", "Read(/.claude/CLAUDE.md)", "Read(./**/inc.md/**)",
                           # forms Claude Code's rule parser reads its own way (cases m47*)
                           "Read()", "Read(**)", "Read(*)", "*", "Rea*", " Read", "Read(./CLAUDE.md) ",
                           "*(./CLAUDE.md)", "Read(./a\\(1\\))"])
        settings, flag = _merge_settings(rng.choice(["project", "user", "flag", "local"]), {"permissions": {"deny": [rule]}},
                                         files, home, settings, flag, cwdp)
    if rng.random() < 0.25:  # the AGENTS.md plugin
        pid = rng.choice(["cc-plugin-agents-md@builtin", "agents-md@builtin"])
        conf = rng.choice([
            {"pluginConfigs": {pid: {"options": {"instructionFiles": rng.choice(
                ["claude-md-or-agents-md", "claude-md-and-agents-md", "claude-md", "managed-only", "x"])}}}},
            {"pluginConfigs": {pid: {"options": {"projectInstructions": rng.choice(
                ["none", "claude", "agents-fallback", "both", "other"])}}}},
            {"enabledPlugins": {pid: rng.choice([False, True])}},
            {"pluginConfigs": {pid: {"options": {"instructionFiles": "claude-md-and-agents-md",
                                                 "projectInstructions": "none"}}}},
        ])
        for where in rng.sample(["user", "flag", "project", "local"], rng.choice([1, 1, 2])):
            if where == "user":
                home[".claude/settings.json"] = json.dumps({**json.loads(home.get(".claude/settings.json", "{}")), **conf})
            elif where == "flag":
                flag = {**(flag or {}), **conf}
            elif where == "project":
                settings = {**(settings or {}), **conf}
            else:
                files[cwdp + ".claude/settings.local.json"] = json.dumps(conf)
            conf = {"enabledPlugins": {rng.choice(["cc-plugin-agents-md@builtin", "agents-md@builtin"]): rng.random() < 0.5}} \
                if rng.random() < 0.5 else {"pluginConfigs": {rng.choice(["cc-plugin-agents-md@builtin", "agents-md@builtin"]): {
                    "options": {rng.choice(["instructionFiles", "projectInstructions"]): rng.choice(
                        ["claude-md-and-agents-md", "claude-md", "both", "none", "claude-md-or-agents-md"])}}}}
        for d in rng.sample(["", "a/", "a/b/", "a/b/c/"], 2):
            files.setdefault(d + "AGENTS.md", f"{d}AGENTS.md extra\n")
    if rng.random() < 0.25:  # rules and AGENTS files that include memory files of the walk and of deeper folders
        base = rng.choice(["", "a/"])
        files[base + ".claude/rules/inc-rule.md"] = "rule incl " + " ".join(rng.sample(
            ["@../../CLAUDE.local.md", "@../../CLAUDE.md", "@../../a/CLAUDE.md", "@../../sub/s.md", "@../CLAUDE.md",
             "@../../AGENTS.md", "@../../a/b/x.md"], rng.randint(1, 3))) + "\n"
        files[base + "AGENTS.md"] = "agents incl " + " ".join(rng.sample(
            ["@CLAUDE.local.md", "@a/x.md", "@sub/s.md", "@.claude/rules/r.md", "@a/AGENTS.md", "@a/b/x.md"],
            rng.randint(1, 2))) + "\n"
        files.setdefault(base + "sub/s.md", "sub s\n")
        files.setdefault(base + "a/x.md", "a x\n")
        files.setdefault(base + "a/b/x.md", "a b x\n")
    if rng.random() < 0.2:  # auto memory near and over its caps
        home[".claude/projects/<SANITIZED_TREE>/memory/MEMORY.md"] = _memory_text(rng)
    if rng.random() < 0.1:
        under_home = True
        home.update(rng.choice([{"CLAUDE.md": "home claude\n"}, {"AGENTS.md": "home agents\n"},
                                {"AGENTS.md": "home agents\n", ".claude/AGENTS.md": "home dot agents\n"},
                                {".claude/rules/hr.md": "home rule\n", "CLAUDE.local.md": "home local\n"}]))
    if rng.random() < 0.1:
        git = False
    if rng.random() < 0.15:  # empty and comment-only files
        for rel in rng.sample(["CLAUDE.md", "a/CLAUDE.md", "CLAUDE.local.md", ".claude/CLAUDE.md"], 2):
            files[rel] = rng.choice(["", "  \n\n", "<!-- only -->\n", "\ufeff\u00a0\n", "---\npaths: x\n---\n"])
        files.setdefault("AGENTS.md", "agents fallback\n")
    if rng.random() < 0.15:  # a settings file with a value Claude Code refuses (or accepts after all), or odd JSON
        odd = rng.choice([{"cleanupPeriodDays": 0}, {"model": 5}, {"autoMemoryEnabled": "false"}, {"env": {"A": 1}},
                          {"enabledPlugins": {"x@y": ["a"]}}, {"permissions": {"deny": "Read"}}, {"model": None},
                          {"claudeMdExcludes": "**/CLAUDE.md"}, {"hooks": "x"}, {"cleanupPeriodDays": 1.0}])
        settings, flag = _merge_settings(rng.choice(["project", "user", "flag", "local"]), odd, files, home, settings,
                                         flag, cwdp)
        if rng.random() < 0.3:  # the user file written with a byte-order mark, or with NaN (not JSON to Claude Code)
            text = home.get(".claude/settings.json", "{}")
            home[".claude/settings.json"] = rng.choice(["\ufeff" + text, text[:-1] + (', "x": NaN}' if text != "{}" else '"x": NaN}')])
    sources = None
    if rng.random() < 0.15:  # Claude Code started with --setting-sources
        sources = rng.choice(["user", "project", "local", "", "project,local", "user,project", "user,local", " local , user"])
    added: tuple[str, ...] = ()
    if rng.random() < 0.15:  # Claude Code started with --add-dir (inside or outside the start folder)
        added = tuple(rng.sample(["ad", "a", "gone", "a/b"], rng.randint(1, 2)))
        files.setdefault("ad/CLAUDE.md", "added claude @inc.md\n")
        files.setdefault("ad/inc.md", "added include\n")
        files.setdefault("ad/.claude/rules/ar.md", "added rule\n")
        files.setdefault("ad/CLAUDE.local.md", "added local\n")
        files.setdefault("ad/AGENTS.md", "added agents\n")
        if rng.random() < 0.8:
            env = {**env, "CLAUDE_CODE_ADDITIONAL_DIRECTORIES_CLAUDE_MD": rng.choice(["1", "true", "0", "2"])}
    return replace(case, files=files, home_files=home, env=env, settings=settings, flag_settings=flag, git=git,
                   under_home=under_home, setting_sources=sources, add_dirs=added)


def _merge_settings(where, data, files, home, settings, flag, cwdp):
    """`data` merged into the project, user, --settings or local settings of a tree (its keys over
    what is there); the project and --settings objects returned, the files written in place."""
    if where == "project":
        return {**(settings or {}), **data}, flag
    if where == "flag":
        return settings, {**(flag or {}), **data}
    rel, into = (".claude/settings.json", home) if where == "user" else (cwdp + ".claude/settings.local.json", files)
    into[rel] = json.dumps({**json.loads(into.get(rel, "{}")), **data})
    return settings, flag


def oracle(case, version):
    root = Path(tempfile.mkdtemp(prefix="fz-"))
    try:
        tree, home = build(case, root)
        env = dict(os.environ, PYTHONIOENCODING="utf-8:surrogatepass", CC_ORACLE_VERSION=version)
        r = subprocess.run([sys.executable, str(ORACLE), str(tree), *oracle_args(case, tree, home)], check=False, capture_output=True, env=env, timeout=300, stdin=subprocess.DEVNULL)
        live = json.loads(r.stdout.decode("utf-8", "surrogatepass"))
        exp = [(f["path"], f["kind"], f["content"]) for f in normalize(live["files"], tree, home)]
        ctx = context(start=tree / case.cwd, home=home, managed_dir=root / "nm", release=pick(version), launch=case_launch(case, tree, home))
        got = [(f["path"], f["kind"], f["content"]) for f in normalize(ctx.to_dict("chars4")["files"], tree, home)]
        g = rule_groups(tree, home)
        if case.read is not None:  # --reads: what the Read attaches, as sets of (path, via)
            from memlint.model.loading.reads import on_read

            subs = placeholders(tree, home)
            shown = []
            for item in on_read(ctx.loaded, tree / case.read):
                path = str(item.file.path)
                for old, new in subs:
                    path = path.replace(old, new)
                shown.append((path, item.via))
            wanted = [(a["path"], a["via"]) for a in attached(live.get("after_read", []), tree, home)]
            if sorted(shown) != sorted(wanted):
                return False, [(path, "read", f"attached, {via}") for path, via in sorted(shown)], \
                    [(path, "read", f"attached, {via}") for path, via in sorted(wanted)]
        return canonical(got, g) == canonical(exp, g), got, exp
    finally:
        shutil.rmtree(root, ignore_errors=True)

def safe_oracle(case, version):
    try:
        return oracle(case, version)
    except (OSError, ValueError, KeyError, subprocess.SubprocessError) as e:  # a tree the harness or the CLI cannot run: reported, the run goes on
        return None, f"{type(e).__name__}: {e}"[:500], None


def make_case(seed, i, rng, base_only, reads=False, wide=False):
    case = rand_case(i, rng)
    case = case if base_only else extras(case, random.Random(f"{seed}:{i}"))
    if reads:  # Claude reads a file somewhere below the start folder (or in it): what arrives is compared too
        chooser = random.Random(f"{seed}:{i}:read")
        base = "" if case.cwd in ("", ".") else case.cwd.rstrip("/") + "/"
        rel = base + chooser.choice(["", "a/", "a/b/", "sub/", "src/app/", "ad/", "deep/x/"]) + chooser.choice(["f.py", "App.tsx", "notes.md"])
        if wide:  # --wide-reads: a file the tree holds (a memory file, a rule, an include...), or a new one beside it
            widen = random.Random(f"{seed}:{i}:wide")
            held = sorted(p for p, v in case.files.items() if p.startswith(base) and not isinstance(v, Symlink))
            if held:
                pick = widen.choice(held)
                rel = pick if widen.random() < 0.6 else pick.rsplit("/", 1)[0] + "/new.ts" if "/" in pick else "new.ts"
        case = replace(case, files={**case.files, rel: case.files.get(rel, "x\n")}, read=rel)
    return case


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[1])
    ap.add_argument("seed", type=int)
    ap.add_argument("count", type=int)
    ap.add_argument("--releases", default="2.1.197,2.1.332")
    ap.add_argument("--base-only", action="store_true", help="the trees of earlier versions of this script (no extras)")
    ap.add_argument("--only", default="", help="comma-separated tree indexes to run (default: all)")
    ap.add_argument("--dump", action="store_true", help="print each tree's Case instead of running it")
    ap.add_argument("-j", "--jobs", type=int, default=1)
    ap.add_argument("--reads", action="store_true", help="also have Claude read a file, and compare what it attaches")
    ap.add_argument("--wide-reads", action="store_true",
                    help="with --reads: read a file the tree holds (a memory file, a rule, an include) or one beside it")
    a = ap.parse_args()
    rng = random.Random(a.seed)
    cases = [make_case(a.seed, i, rng, a.base_only, a.reads, a.wide_reads) for i in range(a.count)]  # all drawn: --only keeps seeds
    if a.only:
        keep = {int(x) for x in a.only.split(",")}
        cases = [c for i, c in enumerate(cases) if i in keep]
    if a.dump:
        for case in cases:
            print(repr(case))
        return 0
    releases = a.releases.split(",")
    bad = runs = 0
    with ThreadPoolExecutor(max_workers=a.jobs) as pool:
        results = pool.map(lambda cv: (cv, safe_oracle(*cv)), [(c, v) for c in cases for v in releases])
        for (case, v), (ok, got, exp) in results:
            runs += 1
            if ok is None:
                bad += 1
                print(f"ERROR {case.name} {v}: {got}")
                continue
            if not ok:
                bad += 1
                print(f"DIFF {case.name} {v} cwd={case.cwd} files={sorted(case.files)} settings={case.settings} "
                      f"home={case.home_files} env={case.env} flag={case.flag_settings} git={case.git} "
                      f"under_home={case.under_home}")
                print("  memlint:", [(p, c[:60]) for p, _k, c in got])
                print("  claude: ", [(p, c[:60]) for p, _k, c in exp])
            if v == releases[-1]:
                print(f"{case.name} done", flush=True)
    print(f"{bad} differing runs of {runs}")
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
