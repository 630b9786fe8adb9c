"""Differential test cases: small folder layouts whose loaded memory is recorded from the real Claude Code.

Each `Case` is plain data. `build(case, root)` lays it out under `root` (tree at root/"tree", HOME at
root/"home") and returns both realpaths. `normalize(files, case, tree, home)` turns absolute paths back into
the placeholders `<TREE>`, `<HOME>` and `<SANITIZED_TREE>` (the auto-memory folder name of the tree root,
which also depends on where the tree was built), so a recording made in one temp folder compares with a
run in another.

Placeholders in file contents and symlink targets: the literal strings `<TREE>` and `<HOME>` are replaced
by the absolute paths at build time (for includes such as `@<HOME>/notes.md`). In `home_files` keys,
`<SANITIZED_TREE>` is replaced by the auto-memory folder name of the tree root.

Layouts only git makes (worktrees, their moves, a bare repository) are `steps` run after the files are
written (`Git`, `Move`, `Write`, `Remove`), in the folder the case is built in, so git's absolute paths
are right wherever a case is built (tests/differential/cases_layouts.py).

Spec references (`§1` ...) point into ../shared/spec/claude-code-loading.md.
"""
from __future__ import annotations

import json
import os
import re
import shutil
import subprocess
from collections.abc import Iterable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any


@dataclass(frozen=True)
class Symlink:
    """A symlink; `target` is written as is (relative to the link's folder) after placeholder substitution."""
    target: str


@dataclass(frozen=True)
class Big:
    """A text file of exactly `nbytes` bytes: lines of 79 'x' and a newline."""
    nbytes: int


@dataclass(frozen=True)
class Fifo:
    """A named pipe."""


@dataclass(frozen=True)
class Dir:
    """An empty folder."""


Entry = bytes | str | Symlink | Big | Fifo | Dir


@dataclass(frozen=True)
class Git:
    """`git ARGS` run in `cwd` (relative to the tree), with a fixed identity and no user or system config."""
    args: tuple[str, ...]
    cwd: str = "."


@dataclass(frozen=True)
class Move:
    """A folder or file moved by hand (`os.rename`), relative to the tree."""
    src: str
    dst: str


@dataclass(frozen=True)
class Write:
    """A file written at this point of the steps (e.g. into a worktree once git made it)."""
    rel: str
    text: str


@dataclass(frozen=True)
class Remove:
    """A folder or file removed (a seed repository once it was cloned)."""
    rel: str


Step = Git | Move | Write | Remove
GIT_ENV = {"GIT_AUTHOR_NAME": "memlint", "GIT_AUTHOR_EMAIL": "memlint@example.invalid",
           "GIT_COMMITTER_NAME": "memlint", "GIT_COMMITTER_EMAIL": "memlint@example.invalid",
           "GIT_CONFIG_NOSYSTEM": "1", "GIT_CONFIG_GLOBAL": os.devnull,
           "GIT_AUTHOR_DATE": "2026-01-01T00:00:00Z", "GIT_COMMITTER_DATE": "2026-01-01T00:00:00Z"}


@dataclass(frozen=True)
class Case:
    name: str
    files: dict[str, Entry]
    cwd: str = "."
    home_files: dict[str, Entry] = field(default_factory=dict)
    automem: dict[str, bytes | str] = field(default_factory=dict)
    git: bool = False
    # written as JSON to <tree>/<cwd>/.claude/settings.json (placeholders substituted in strings)
    settings: dict[str, Any] | None = None
    note: str = ""
    # written as JSON to <root>/flag-settings.json and given to Claude Code as `--settings FILE`
    flag_settings: dict[str, Any] | None = None
    # added to Claude Code's environment (placeholders substituted)
    env: dict[str, str] = field(default_factory=dict)
    # releases the case is recorded on (None: every release in recordings/)
    releases: tuple[str, ...] | None = None
    # a file (relative to the tree) Claude is made to Read: what it attaches then is recorded too
    read: str | None = None
    # the tree is built inside HOME (HOME/tree), so HOME is one of the start folder's ancestors
    under_home: bool = False
    # run in order after `files` are written (git worktrees and their moves: layouts only git makes)
    steps: tuple[Step, ...] = ()
    # given to Claude Code as `--setting-sources VALUE` (None: not given, every source)
    setting_sources: str | None = None
    # folders of the tree given to Claude Code as `--add-dir <TREE>/DIR`, in order
    add_dirs: tuple[str, ...] = ()


# --------------------------------------------------------------------------- helpers for big text

def lines(n: int, fmt: str = "- entry {i}") -> str:
    return "\n".join(fmt.format(i=i) for i in range(1, n + 1))


def wide_lines(n: int, width: int) -> str:
    """n lines, each exactly `width` characters: a 4-digit number, a space, then filler."""
    return "\n".join(f"{i:04d} " + "y" * (width - 5) for i in range(1, n + 1))


def exactly_chars(total: int, nlines: int) -> str:
    """nlines lines joined by \\n, total length exactly `total` characters, no trailing newline."""
    body = total - (nlines - 1)
    base, extra = divmod(body, nlines)
    out = []
    for i in range(1, nlines + 1):
        w = base + (1 if i > nlines - extra else 0)
        s = f"{i:04d} "
        out.append(s + "z" * (w - len(s)))
    text = "\n".join(out)
    assert len(text) == total, (len(text), total)
    return text


PNG = b"\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR\x00\x00\x00\x01\x00\x00\x00\x01\x08\x06\x00\x00\x00\x1f\x15\xc4\x89"

# --------------------------------------------------------------------------- the cases

CASES: list[Case] = [
    # ---------------------------------------------------------------- §1 load order
    Case(
        "load_order_root",
        note="§1: user CLAUDE.md, user rules, then CLAUDE.md, .claude/CLAUDE.md, rules, CLAUDE.local.md, "
             "auto memory last. Case-sensitive names: claude.md, Claude.md, AGENTS.md, "
             ".claude/CLAUDE.local.md and ~/.claude/CLAUDE.local.md are not loaded.",
        home_files={
            ".claude/CLAUDE.md": "user memory\n",
            ".claude/rules/user-rule.md": "user rule\n",
            ".claude/CLAUDE.local.md": "home local (not a memory file)\n",
        },
        files={
            "CLAUDE.md": "root CLAUDE.md\n",
            ".claude/CLAUDE.md": "dot-claude CLAUDE.md\n",
            ".claude/rules/style.md": "project rule\n",
            "CLAUDE.local.md": "local memory\n",
            ".claude/CLAUDE.local.md": "dot-claude local (not loaded)\n",
            "claude.md": "lowercase (not loaded)\n",
            "Claude.md": "mixed case (not loaded)\n",
            "AGENTS.md": "agents (not loaded)\n",
        },
        automem={"MEMORY.md": "- [Pref](pref.md) — a preference\n"},
    ),
    Case(
        "load_order_nested_walk",
        cwd="a/b",
        note="§1: walk from the root down to CWD=a/b, outermost first; files below CWD and in sibling "
             "folders are not loaded (deferred). git=False: auto memory keyed by CWD.",
        files={
            "CLAUDE.md": "tree CLAUDE.md\n",
            ".claude/rules/tree-rule.md": "tree rule\n",
            "CLAUDE.local.md": "tree local\n",
            "a/CLAUDE.md": "a CLAUDE.md\n",
            "a/.claude/CLAUDE.md": "a dot-claude\n",
            "a/CLAUDE.local.md": "a local\n",
            "a/b/CLAUDE.md": "b CLAUDE.md\n",
            "a/b/.claude/rules/b-rule.md": "b rule\n",
            "a/b/CLAUDE.local.md": "b local\n",
            "a/b/c/CLAUDE.md": "c CLAUDE.md (below CWD)\n",
            "a/b/c/.claude/rules/c-rule.md": "c rule (below CWD)\n",
            "a/sibling/CLAUDE.md": "sibling (never)\n",
        },
        automem={"MEMORY.md": "memory keyed by a/b\n"},
    ),
    Case(
        "load_order_nested_walk_git",
        cwd="a/b",
        git=True,
        note="§1: same walk in a git repository; auto memory is keyed by the git root, not by CWD.",
        files={
            "CLAUDE.md": "tree CLAUDE.md\n",
            "a/CLAUDE.md": "a CLAUDE.md\n",
            "a/b/CLAUDE.md": "b CLAUDE.md\n",
            "a/b/c/CLAUDE.md": "c CLAUDE.md (below CWD)\n",
        },
        automem={"MEMORY.md": "memory keyed by git root\n"},
    ),
    Case(
        "automem_subfolder_nogit_root_key",
        cwd="sub",
        note="§1: no git, started in sub/: which MEMORY.md is used, the one keyed by the tree root or "
             "the one keyed by CWD (sub)?",
        files={"sub/CLAUDE.md": "sub\n"},
        home_files={".claude/projects/<SANITIZED_TREE>/memory/MEMORY.md": "memory keyed by the tree root\n"},
        automem={"MEMORY.md": "memory keyed by CWD (sub)\n"},
    ),
    # ---------------------------------------------------------------- §3 include forms
    Case(
        "include_forms_basic",
        note="§3: @a.md, @./b.md, @c.md#frag, @my\\ file.md, @<TREE>/abs.md, several on one line, "
             "relative resolution from a nested includer.",
        files={
            "CLAUDE.md": "Root\n@a.md\n@./b.md\n@c.md#setup\n@my\\ file.md\n@<TREE>/abs.md\n"
                         "Two on a line: @d.md and @e.md\n@docs/nested.md\n",
            "a.md": "A\n", "b.md": "B\n", "c.md": "C\n", "my file.md": "MY FILE\n", "abs.md": "ABS\n",
            "d.md": "D\n", "e.md": "E\n",
            "docs/nested.md": "Nested @sib.md @../up.md\n",
            "docs/sib.md": "docs sibling\n", "sib.md": "root sib (not this one)\n", "up.md": "UP\n",
        },
    ),
    Case(
        "include_trailing_punctuation",
        note="§3: trailing punctuation is part of the path; (@x) is no include; link text is scanned; "
             "emphasis markers.",
        files={
            "CLAUDE.md": "See @p1.md.\nAlso @p2.md, and more.\nWrapped (@p3.md) here.\n"
                         "Link [@p4.md](http://example.com) text.\nStrong **@p5.md** and *@p6.md* and _@p7.md_.\n"
                         "Colon @p8.md: yes\nQuote \"@p9.md\" here\nSemicolon @p10.md;\n",
            "p1.md": "p1\n", "p1.md.": "p1 dot\n",
            "p2.md": "p2\n", "p2.md,": "p2 comma\n",
            "p3.md": "p3\n", "p3.md)": "p3 paren\n",
            "p4.md": "p4\n",
            "p5.md": "p5\n", "p5.md**": "p5 stars\n",
            "p6.md": "p6\n", "p6.md*": "p6 star\n",
            "p7.md": "p7\n", "p7.md_": "p7 underscore\n",
            "p8.md": "p8\n", "p8.md:": "p8 colon\n",
            "p9.md": "p9\n",
            "p10.md": "p10\n",
        },
    ),
    Case(
        "include_backslash_path",
        note="§3: @docs\\a.md asks for `docs` (the regex stops at a backslash); @tool\\x.md asks for the "
             "extension-less file `tool`.",
        files={
            "CLAUDE.md": "Windows style @docs\\a.md here\nand @tool\\x.md\n",
            "docs/a.md": "docs a\n",
            "docs\\a.md": "literal backslash name\n",
            "tool": "TOOL (no extension)\n",
        },
    ),
    Case(
        "include_rejected_prefixes",
        note="§3: @#x, @@a.md, email@x.md, @%/@^/@&/@*/@(/@) prefixes, @/ alone, @~x.md are rejected; "
             "@_u.md, @-d.md, @.h.md, @1n.md are accepted.",
        files={
            "CLAUDE.md": "@#x\n@@a.md\nemail@x.md\n@%p.md\n@^p.md\n@&p.md\n@*p.md\n@(p.md\n@)p.md\n@/\n"
                         "@~x.md\n@_u.md\n@-d.md\n@.h.md\n@1n.md\n",
            "#x": "hash file\n", "@a.md": "at file\n", "a.md": "a\n", "x.md": "x\n",
            "%p.md": "percent\n", "^p.md": "caret\n", "&p.md": "amp\n", "*p.md": "star\n",
            "(p.md": "lparen\n", ")p.md": "rparen\n", "~x.md": "tilde\n",
            "_u.md": "underscore\n", "-d.md": "dash\n", ".h.md": "dot\n", "1n.md": "digit\n",
        },
    ),
    Case(
        "include_block_contexts",
        note="§3: includes in ATX/setext headings, list items (bullet, ordered, nested), block quotes "
             "(nested), table-like text (no GFM), link text vs link destination, image alt, hard break.",
        files={
            "CLAUDE.md": "# Heading @h1.md\n\nSetext @h2.md\n===\n\n- item @l1.md\n* @l2.md\n\n"
                         "1. @l3.md\n   - nested @l4.md\n\n> quoted @q1.md\n> > deeper @q2.md\n\n"
                         "| col | @t1.md |\n|-----|-----|\n| @t2.md | x |\n\n"
                         "[text @k1.md](@k2.md) and ![alt @k3.md](img.png)\n\nbreak\\\n@br.md\n",
            **{f"{n}.md": f"{n}\n" for n in
               ["h1", "h2", "l1", "l2", "l3", "l4", "q1", "q2", "t1", "t2", "k1", "k2", "k3", "br"]},
        },
    ),
    Case(
        "include_code_contexts",
        note="§3: fenced (``` and ~~~), indented code, code spans and an escaped \\@ are not scanned; an "
             "include after a code span on the same line is; a 4-space line continuing a paragraph is text.",
        files={
            "CLAUDE.md": "```\n@f1.md\n```\n\n~~~md\n@f2.md\n~~~\n\n    @i1.md\n\n"
                         "Use `@s1.md` and `` @s2.md `` and \\@e1.md but `x` @after.md\n\n"
                         "para line\n    @lazy.md\n",
            **{f"{n}.md": f"{n}\n" for n in ["f1", "f2", "i1", "s1", "s2", "e1", "after", "lazy"]},
        },
    ),
    Case(
        "include_code_span_in_list_item",
        note="§3: a code span inside a list item IS scanned (the item's text is read raw): `run @li.md now` "
             "loads li.md, and `x @q.json`. asks for `q.json`` (skipped); in a paragraph the span is not scanned.",
        files={
            "CLAUDE.md": "# T\n\n- in a list `run @li.md now` ok\n- ids use `@default(x) @q.json`.\n\n"
                         "In a paragraph `run @pa.md now` ok\n",
            "li.md": "li\n", "pa.md": "pa\n", "q.json": "{}\n",
        },
    ),
    Case(
        "link_text_and_rules_readme",
        note="A CLAUDE.md holding only `docs/AGENTS.md` (a symlink checked out as text) loads as that one line, "
             "not the file it names; a README.md under .claude/rules/ without paths: loads as a rule at start.",
        files={
            "CLAUDE.md": "docs/AGENTS.md",
            "docs/AGENTS.md": "# Agents\nUse pnpm.\n",
            ".claude/rules/README.md": "# Rules\n\nThis folder holds the team rules; each file covers one area.\n",
        },
    ),
    Case(
        "include_of_ancestor_rule_from_subfolder",
        note="Started in pkg/: the root CLAUDE.md's `@.claude/rules/style.md` is outside the start folder and not "
             "followed, yet style.md loads anyway as an unconditional rule of the ancestor's .claude/rules/.",
        files={
            "CLAUDE.md": "# App\n\nHouse style: @.claude/rules/style.md\n",
            ".claude/rules/style.md": "Tabs, not spaces.\n",
            "pkg/CLAUDE.md": "# Pkg\nBuild with make.\n",
        },
        cwd="pkg",
    ),
    Case(
        "include_code_unclosed_fence",
        note="§3: an unclosed fence runs to the end of the file: nothing after it is scanned.",
        files={
            "CLAUDE.md": "before @u1.md\n\n```\ncode\n\n@u2.md\n",
            "u1.md": "u1\n", "u2.md": "u2\n",
        },
    ),
    # ---------------------------------------------------------------- HTML
    Case(
        "html_block_and_inline",
        note="§3: block-level HTML is not scanned (<div>@d1.md</div>, a multi-line div); inline HTML "
             "inside a paragraph leaves its text scanned?",
        files={
            "CLAUDE.md": "<div>@d1.md</div>\n\n<div>\n@d2.md\n</div>\n\nPara <span>@d3.md</span> end\n\n"
                         "<span>@d4.md</span> starts a paragraph\n\nPara <span> @d5.md </span>\n",
            **{f"d{i}.md": f"d{i}\n" for i in range(1, 6)},
        },
    ),
    Case(
        "html_comment_block_include",
        note="§2/§3: an include inside a comment block is removed and not followed; text after the "
             "comment on the same line is kept and scanned; the line after a comment block is a paragraph.",
        files={
            "CLAUDE.md": "Top\n\n<!-- hidden @c1.md -->\n\n<!-- note --> @c2.md same line\n\n<!-- x -->\n@c3.md next line\n",
            "c1.md": "c1\n", "c2.md": "c2\n", "c3.md": "c3\n",
        },
    ),
    Case(
        "html_comment_inline_paragraph",
        note="§2: a comment inside a paragraph line is kept as is; is an include inside it followed?",
        files={
            "CLAUDE.md": "Text <!-- @i1.md --> more @i2.md\n\nLead <!-- multi\nline @i3.md --> tail\n",
            "i1.md": "i1\n", "i2.md": "i2\n", "i3.md": "i3\n",
        },
    ),
    Case(
        "html_comment_unclosed",
        note="§2: an unclosed <!-- runs to the end of the file: all kept, nothing after it scanned.",
        files={
            "CLAUDE.md": "intro @w1.md\n\n<!-- never closed\n@w2.md\n\nmore @w3.md\n",
            "w1.md": "w1\n", "w2.md": "w2\n", "w3.md": "w3\n",
        },
    ),
    Case(
        "html_comment_blank_lines",
        note="§2: which blank lines survive when comment blocks between paragraphs are removed.",
        files={
            "CLAUDE.md": "Line A\n\n<!-- one -->\n\nLine B\n<!-- two -->\nLine C\n\n<!-- three -->\n<!-- four -->\n\n"
                         "Line D\n\n\n<!-- five -->\n\n\nLine E\n<!--\nmulti\nline\n-->\nLine F\n",
        },
    ),
    Case(
        "html_comment_positions",
        note="§2: comment at the very start, at the very end, two comments on one line with text between, "
             "a comment line inside a list.",
        files={
            "CLAUDE.md": "<!-- first -->\nStart\n\n<!-- a --> mid <!-- b -->\n\n- item one\n<!-- in list -->\n- item two\n\nEnd\n<!-- last -->\n",
            "CLAUDE.local.md": "<!-- a -->x<!-- b -->\n",
        },
    ),
    Case(
        "crlf_plain",
        note="§2: a CRLF file with no comment: are the \\r kept in the loaded text? includes still work.",
        files={
            "CLAUDE.md": b"Line one\r\n@a.md\r\n\r\nLine three\r\n",
            "a.md": b"A crlf\r\nsecond\r\n",
        },
    ),
    Case(
        "crlf_with_comment",
        note="§2: a CRLF file with a comment block removed: is the text re-joined with \\n?",
        files={
            "CLAUDE.md": b"Line one\r\n\r\n<!-- comment -->\r\n\r\nLine two\r\n@b.md\r\n",
            "b.md": b"B\r\n",
        },
    ),
    # ---------------------------------------------------------------- extensions
    Case(
        "include_extensions",
        note="§2: allowlist: .txt .json .py .yaml and no extension load, .MD lowercases to .md, .markdown, "
             ".png, .xyz are skipped; `.env` (no extension per extname); includes inside a .txt are followed.",
        files={
            "CLAUDE.md": "@a.txt\n@b.json\n@c.markdown\n@d.MD\n@e.py\n@noext\n@img.png\n@f.yaml\n@g.xyz\n"
                         "@.env\n@Makefile\n",
            "a.txt": "TXT <!-- c --> @from_txt.md\n", "from_txt.md": "from txt\n",
            "b.json": "{\"k\": 1}\n", "c.markdown": "markdown\n", "d.MD": "upper MD\n",
            "e.py": "print('py')\n", "noext": "no extension\n", "img.png": PNG,
            "f.yaml": "k: v\n", "g.xyz": "xyz\n", ".env": "ENV=1\n", "Makefile": "all:\n\techo hi\n",
        },
    ),
    # ---------------------------------------------------------------- depth, cycles, duplicates
    Case(
        "include_depth_chain",
        note="§2: a chain CLAUDE.md -> l1 -> ... -> l6: levels 0-4 load (CLAUDE.md, l1..l4).",
        files={
            "CLAUDE.md": "level 0 @l1.md\n",
            **{f"l{i}.md": f"level {i} @l{i + 1}.md\n" for i in range(1, 7)},
        },
    ),
    Case(
        "include_depth_chain_user",
        note="§2: the same depth limit for a chain starting at the user CLAUDE.md (HOME files).",
        home_files={
            ".claude/CLAUDE.md": "user level 0 @~/u1.md\n",
            **{f"u{i}.md": f"user level {i} @u{i + 1}.md\n" for i in range(1, 7)},
        },
        files={"CLAUDE.md": "project\n"},
    ),
    Case(
        "include_cycles",
        note="§1: a -> b -> a stops; a self include stops; each file appears once.",
        files={
            "CLAUDE.md": "root @a.md\n",
            "a.md": "A @b.md\n", "b.md": "B @a.md @b.md\n",
            "CLAUDE.local.md": "local @self.md\n", "self.md": "SELF @self.md @./self.md\n",
        },
    ),
    Case(
        "include_duplicates",
        note="§1: the same file included twice (and as ./d.md), from two files, and CLAUDE.md included "
             "from a rule: each path appears once, at its first place.",
        files={
            "CLAUDE.md": "root @d.md\n@d.md\n@./d.md\n",
            ".claude/CLAUDE.md": "dot @../d.md @../e.md\n",
            ".claude/rules/r.md": "rule @../../CLAUDE.md @../../f.md @../../e.md\n",
            "CLAUDE.local.md": "local @e.md @f.md @CLAUDE.md\n",
            "d.md": "D\n", "e.md": "E\n", "f.md": "F\n",
        },
    ),
    Case(
        "include_local_from_rule",
        note="§1: a rule includes ../../CLAUDE.local.md before its own turn: loaded there with kind project, "
             "and then not again as local?",
        files={
            "CLAUDE.md": "root\n",
            ".claude/rules/r.md": "rule @../../CLAUDE.local.md\n",
            "CLAUDE.local.md": "local text\n",
        },
    ),
    # ---------------------------------------------------------------- start in a subfolder
    Case(
        "subfolder_external_include_nogit",
        cwd="packages/api",
        note="§3: started in packages/api (no git): the root CLAUDE.md's @docs/guide.md is outside CWD and "
             "not followed; its include inside CWD is; packages/api/CLAUDE.md's ../shared.md is not; "
             "packages/api/sub/CLAUDE.md is below CWD (not loaded).",
        files={
            "CLAUDE.md": "Root @docs/guide.md @packages/api/inside.md\n",
            "docs/guide.md": "guide\n",
            "packages/api/inside.md": "inside CWD\n",
            "packages/api/CLAUDE.md": "api @../shared.md @local.md\n",
            "packages/shared.md": "shared (outside CWD)\n",
            "packages/api/local.md": "api local include\n",
            "packages/api/sub/CLAUDE.md": "below CWD\n",
        },
    ),
    Case(
        "subfolder_external_include_git",
        cwd="packages/api",
        git=True,
        note="§3: the same in a git repository: 'outside CWD' is still CWD, not the git root.",
        files={
            "CLAUDE.md": "Root @docs/guide.md @packages/api/inside.md\n",
            "docs/guide.md": "guide\n",
            "packages/api/inside.md": "inside CWD\n",
            "packages/api/CLAUDE.md": "api @../shared.md @local.md\n",
            "packages/shared.md": "shared (outside CWD)\n",
            "packages/api/local.md": "api local include\n",
            "packages/api/sub/CLAUDE.md": "below CWD\n",
        },
    ),
    Case(
        "include_outside_tree_from_root",
        note="§3: from the root, @../outside.md (outside CWD) is not followed, @<TREE>/in.md is.",
        files={
            "CLAUDE.md": "root @../outside.md @<TREE>/in.md\n",
            "../outside.md": "outside the tree\n",
            "in.md": "inside\n",
        },
    ),
    # ---------------------------------------------------------------- HOME includes
    Case(
        "home_include_from_project",
        note="§3: @~/x.md and @<HOME>/y.md from a project file are external: not followed.",
        home_files={"x.md": "home x\n", "y.md": "home y\n"},
        files={"CLAUDE.md": "project @~/x.md @<HOME>/y.md\n", "CLAUDE.local.md": "local @~/x.md\n"},
    ),
    Case(
        "home_include_from_user",
        note="§3: includes from HOME/.claude/CLAUDE.md and user rules are followed even outside CWD: "
             "@~/x.md, @../y.md, @<HOME>/z.md, @<TREE>/t.md (then t.md not again from the project); "
             "a user rule's @~/ include; a conditional user rule's include loads (quirk). Rule includes "
             "are .txt files inside the rules folder so the rules run can be compared in any order.",
        home_files={
            ".claude/CLAUDE.md": "user @~/x.md @../y.md @<HOME>/z.md @<TREE>/t.md\n",
            ".claude/rules/ur.md": "user rule @~/.claude/rules/w.txt\n",
            ".claude/rules/cond.md": "---\npaths: \"src/**\"\n---\nconditional user rule @cw.txt\n",
            ".claude/rules/w.txt": "home w\n", ".claude/rules/cw.txt": "home cw\n",
            "x.md": "home x\n", "y.md": "home y\n", "z.md": "home z\n",
        },
        files={"CLAUDE.md": "project @t.md\n", "t.md": "tree t\n"},
    ),
    # ---------------------------------------------------------------- symlinks
    Case(
        "symlink_claude_md_to_agents",
        note="§3: CLAUDE.md -> docs/AGENTS.md: @style.md resolves from docs/ (the target's folder); which "
             "path is shown? A later include of docs/AGENTS.md is a duplicate.",
        files={
            "CLAUDE.md": Symlink("docs/AGENTS.md"),
            "docs/AGENTS.md": "Agents @style.md\n",
            "docs/style.md": "docs style\n",
            "style.md": "root style (wrong)\n",
            "CLAUDE.local.md": "local @docs/AGENTS.md\n",
        },
    ),
    Case(
        "symlink_rules_folder",
        note="§4: a symlinked folder inside .claude/rules is followed; a loop symlink to . is followed once.",
        files={
            ".claude/rules/shared": Symlink("../../shared-rules"),
            "shared-rules/s.md": "shared rule\n",
            ".claude/rules/loop": Symlink("."),
            ".claude/rules/own.md": "own rule\n",
        },
    ),
    Case(
        "symlink_rules_dir_itself",
        note="§4: .claude/rules itself is a symlink to a folder elsewhere in the tree.",
        files={
            ".claude/rules": Symlink("../team-rules"),
            "team-rules/t.md": "team rule\n",
        },
    ),
    Case(
        "symlink_rule_file",
        note="§4: a symlinked rule file: its include resolves from the target's folder.",
        files={
            ".claude/rules/link.md": Symlink("../../docs/rule.md"),
            "docs/rule.md": "linked rule @inc.md\n",
            "docs/inc.md": "docs inc\n",
            "inc.md": "root inc (wrong)\n",
        },
    ),
    Case(
        "symlink_two_paths_same_file",
        note="§1: a file reached by two paths (alias.md -> a.md, sub/../a.md) loads once; a dangling "
             "symlink CLAUDE.local.md is skipped.",
        files={
            "CLAUDE.md": "@alias.md @a.md @sub/../a.md\n",
            "alias.md": Symlink("a.md"),
            "a.md": "A\n",
            "sub/keep.txt": "x\n",
            "CLAUDE.local.md": Symlink("missing.md"),
        },
    ),
    # ---------------------------------------------------------------- §4 rules frontmatter
    Case(
        "rules_paths_forms",
        note="§4: paths as string, list, comma string with braces, unquoted glob -> conditional (not "
             "loaded); '**', ['**'], [] -> unconditional; globs:/alwaysApply: ignored -> loaded.",
        files={
            ".claude/rules/p_string.md": "---\npaths: \"src/**\"\n---\nstring\n",
            ".claude/rules/p_list.md": "---\npaths:\n  - \"src/**/*.ts\"\n  - \"lib/**\"\n---\nlist\n",
            ".claude/rules/p_braces.md": "---\npaths: \"src/{a,b}/**, lib/**\"\n---\nbraces\n",
            ".claude/rules/p_unquoted.md": "---\npaths: src/**/*.ts\n---\nunquoted\n",
            ".claude/rules/p_starstar.md": "---\npaths: \"**\"\n---\nstarstar string\n",
            ".claude/rules/p_starstar_list.md": "---\npaths: [\"**\"]\n---\nstarstar list\n",
            ".claude/rules/p_empty.md": "---\npaths: []\n---\nempty list\n",
            ".claude/rules/globs.md": "---\nglobs: \"src/**\"\n---\nglobs only\n",
            ".claude/rules/always.md": "---\nalwaysApply: false\ndescription: cursor style\n---\nalways apply\n",
        },
    ),
    Case(
        "rules_broken_frontmatter",
        note="§4: [unclosed -> pattern, not loaded; unquoted list item '- **/*.ts' -> YAML fails, loaded "
             "(is the frontmatter still stripped?); BOM before --- and a blank line before --- defeat "
             "frontmatter (loaded with the block in the text); unclosed frontmatter.",
        files={
            ".claude/rules/unclosed_list.md": "---\npaths: [unclosed\n---\nunclosed list\n",
            ".claude/rules/unquoted_item.md": "---\npaths:\n  - **/*.ts\n---\nunquoted item\n",
            ".claude/rules/bom.md": b"\xef\xbb\xbf---\npaths: \"src/**\"\n---\nbom rule\n",
            ".claude/rules/blank_first.md": "\n---\npaths: \"src/**\"\n---\nblank first\n",
            ".claude/rules/no_close.md": "---\npaths: \"src/**\"\nno closing fence\n",
        },
    ),
    Case(
        "rules_file_names",
        note="§4: only names ending in lower-case .md: .MD, .mdc, .markdown, .txt ignored; nested "
             "subfolders walked; a dot-file rule; a folder named g.md.",
        files={
            ".claude/rules/a.md": "a rule\n",
            ".claude/rules/b.MD": "upper MD\n",
            ".claude/rules/c.mdc": "mdc\n",
            ".claude/rules/d.markdown": "markdown\n",
            ".claude/rules/e.txt": "txt\n",
            ".claude/rules/nested/deep/f.md": "deep rule\n",
            ".claude/rules/.hidden.md": "hidden rule\n",
            ".claude/rules/g.md/h.md": "inside folder named g.md\n",
        },
    ),
    Case(
        "rules_conditional_include_loads",
        note="§4: a conditional rule is not loaded, but its include IS (quirk).",
        files={
            "CLAUDE.md": "root\n",
            ".claude/rules/cond.md": "---\npaths: \"src/**\"\n---\nconditional @../../docs/inc.md\n",
            "docs/inc.md": "included by a conditional rule\n",
            "src/app.ts": "x\n",
        },
    ),
    Case(
        "rules_order_many",
        note="§4: order of many rules within one folder (directory order) and in nested folders; rules "
             "come before CLAUDE.local.md.",
        files={
            "CLAUDE.local.md": "local after rules\n",
            ".claude/rules/zeta.md": "zeta\n",
            ".claude/rules/alpha.md": "alpha\n",
            ".claude/rules/Mid.md": "Mid\n",
            ".claude/rules/beta/one.md": "beta one\n",
            ".claude/rules/beta/two.md": "beta two\n",
            ".claude/rules/10-num.md": "ten\n",
            ".claude/rules/2-num.md": "two\n",
            ".claude/rules/_under.md": "under\n",
            "CLAUDE.md": "root\n",
        },
    ),
    Case(
        "frontmatter_in_claude_md",
        note="§2: frontmatter is stripped from CLAUDE.md; an @ inside it is not followed; an unclosed "
             "frontmatter; does paths: make CLAUDE.local.md / an included file conditional?",
        files={
            "CLAUDE.md": "---\ntitle: Project\nnote: \"@fm.md\"\n---\nBody @body.md @withpaths.md\n",
            ".claude/CLAUDE.md": "---\ntitle: never closed\nbody line\n",
            "CLAUDE.local.md": "---\npaths: \"nomatch/**\"\n---\nlocal with paths\n",
            "fm.md": "from frontmatter\n", "body.md": "body include\n",
            "withpaths.md": "---\npaths: \"nomatch/**\"\n---\nincluded file with paths\n",
        },
    ),
    # ---------------------------------------------------------------- excludes
    Case(
        "excludes_project_settings",
        note="§2: claudeMdExcludes from CWD/.claude/settings.json and settings.local.json (merged); bare "
             "'CLAUDE.md' matches nothing; an excluded file's includes are not followed; an absolute "
             "pattern excludes one rule.",
        settings={"claudeMdExcludes": ["CLAUDE.md", "**/CLAUDE.local.md", "**/docs/excluded.md",
                                       "<TREE>/.claude/rules/ex.md"]},
        files={
            ".claude/settings.local.json": json.dumps({"claudeMdExcludes": ["**/.claude/CLAUDE.md"]}),
            "CLAUDE.md": "root @docs/excluded.md @docs/kept.md\n",
            ".claude/CLAUDE.md": "dot (excluded by local settings)\n",
            ".claude/rules/ex.md": "excluded rule\n",
            "CLAUDE.local.md": "local (excluded) @fromlocal.md\n",
            "fromlocal.md": "from local\n",
            "docs/excluded.md": "excluded\n", "docs/kept.md": "kept\n",
        },
    ),
    Case(
        "excludes_home_settings",
        note="§2: claudeMdExcludes in HOME/.claude/settings.json: '**/.claude/CLAUDE.md' also matches the "
             "user file; '**/MEMORY.md' does not apply to auto memory; user rules excluded by pattern.",
        home_files={
            ".claude/settings.json": json.dumps({"claudeMdExcludes": ["**/.claude/CLAUDE.md", "**/MEMORY.md",
                                                                      "**/rules/skip-*.md"]}),
            ".claude/CLAUDE.md": "user (excluded)\n",
            ".claude/rules/skip-me.md": "user rule skipped\n",
            ".claude/rules/keep.md": "user rule kept\n",
        },
        files={"CLAUDE.md": "root\n", ".claude/CLAUDE.md": "dot (excluded)\n"},
        automem={"MEMORY.md": "memory (not excludable)\n"},
    ),
    Case(
        "excludes_parent_settings_ignored",
        cwd="sub",
        note="§2: settings in a parent folder of CWD (the tree root) are not read.",
        files={
            ".claude/settings.json": json.dumps({"claudeMdExcludes": ["**/CLAUDE.md"]}),
            "CLAUDE.md": "root (not excluded)\n",
            "sub/CLAUDE.md": "sub (not excluded)\n",
        },
    ),
    Case(
        "excludes_parent_settings_git",
        cwd="sub",
        git=True,
        note="§2: as above in a git repository: are the git root's settings read?",
        files={
            ".claude/settings.json": json.dumps({"claudeMdExcludes": ["**/CLAUDE.md"]}),
            "CLAUDE.md": "root\n",
            "sub/CLAUDE.md": "sub\n",
        },
    ),
    # ---------------------------------------------------------------- empty, big, odd files
    Case(
        "empty_and_whitespace_files",
        note="§2: empty, whitespace-only, comment-only (include inside) and frontmatter-only files are "
             "not loaded; a whitespace-only rule.",
        files={
            "CLAUDE.md": "",
            ".claude/CLAUDE.md": "   \n\n\t\n",
            ".claude/rules/fm-only.md": "---\npaths: []\n---\n",
            "CLAUDE.local.md": "<!-- only a comment @c.md -->\n",
            "c.md": "c\n",
        },
    ),
    Case(
        "empty_includer_with_include_after_comment",
        note="§2: comment block then an include on the same line: the file is not empty, include followed.",
        files={"CLAUDE.md": "<!-- comment --> @c.md\n", "c.md": "c\n"},
    ),
    Case(
        "file_over_4mb",
        note="§2: a file over 4,194,304 bytes is skipped (included and as CLAUDE.local.md); a file just "
             "under is loaded? (not recorded: too big) — only the skip is checked here.",
        files={
            "CLAUDE.md": "root @big.md @ok.md\n",
            "big.md": Big(4_194_305),
            "ok.md": "ok\n",
            "CLAUDE.local.md": Big(4_194_305),
        },
    ),
    Case(
        "include_folder_and_fifo",
        note="§2: an include naming a folder (x.md/) or a fifo is skipped; CLAUDE.local.md as a folder.",
        files={
            "CLAUDE.md": "root @x.md @pipe.md @after.md\n",
            "x.md/inner.md": "inner\n",
            "pipe.md": Fifo(),
            "after.md": "after\n",
            "CLAUDE.local.md/keep.txt": "folder named CLAUDE.local.md\n",
        },
    ),
    Case(
        "text_encodings",
        note="§2: a BOM before text and before an include; invalid UTF-8; NUL bytes in a .txt; a UTF-16 file.",
        files={
            "CLAUDE.md": b"\xef\xbb\xbf@bom_inc.md first line\nBody\n",
            "bom_inc.md": "bom include\n",
            ".claude/CLAUDE.md": b"ok \xff\xfe bad \xc3( end\n@../nul.txt\n",
            "nul.txt": b"a\x00b\n",
            "CLAUDE.local.md": "local utf16 @u16.md\n".encode("utf-16"),
            "u16.md": "u16\n",
        },
    ),
    Case(
        "bom_frontmatter_claude_md",
        note="§2: a BOM before --- in CLAUDE.md defeats frontmatter: is the block kept, is the BOM kept?",
        files={"CLAUDE.md": b"\xef\xbb\xbf---\ntitle: x\n---\nBody\n"},
    ),
    Case(
        "trim_unicode_whitespace",
        note="§2: trimming: JS trim() removes NBSP, U+2003, U+3000, U+FEFF but not U+001C-001F; a file "
             "of only U+FEFF and NBSP is whitespace.",
        files={
            "CLAUDE.md": "\u00a0\u2003 text \u3000\ufeff",
            ".claude/CLAUDE.md": "\ufeff\u00a0\n",
            "CLAUDE.local.md": "\x1c local \x1f",
        },
    ),
    Case(
        "unicode_content_and_names",
        note="§2/§3: CJK and emoji text; includes with CJK and emoji file names.",
        files={
            "CLAUDE.md": "日本語のメモ @日本.md と 🎉 @emoji🎉.md\n",
            "日本.md": "にほん\n", "emoji🎉.md": "party 🎉\n",
        },
    ),
    Case(
        "whitespace_trim_and_tabs",
        note="§2: leading/trailing blank lines and indentation are trimmed only at the ends; an include "
             "after a tab.",
        files={"CLAUDE.md": "\n\n   indented first\n\ttab\t@t.md\n\n\n", "t.md": "\tt\t\n"},
    ),
    # ---------------------------------------------------------------- §5 MEMORY.md
    Case("automem_260_lines", note="§5: 260 short lines: first 200 kept, 'N lines (limit: 200)' warning.",
         files={"CLAUDE.md": "root\n"}, automem={"MEMORY.md": lines(260) + "\n"}),
    Case("automem_201_lines", note="§5: 201 lines: one over.", files={},
         automem={"MEMORY.md": lines(201) + "\n"}),
    Case("automem_exactly_200_lines", note="§5: exactly 200 lines (plus trailing blank lines): whole, no warning.",
         files={}, automem={"MEMORY.md": lines(200) + "\n\n\n"}),
    Case("automem_one_huge_line", note="§5: one 30,000-char line: cut at 25,000 (no newline), size warning.",
         files={}, automem={"MEMORY.md": "x" * 30_000 + "\n"}),
    Case("automem_long_lines", note="§5: 150 lines of 300 chars (45,149): cut at the last newline <= 25,000.",
         files={}, automem={"MEMORY.md": wide_lines(150, 300) + "\n"}),
    Case("automem_lines_and_size", note="§5: 260 lines of 300 chars: both over: 'N lines and S' warning.",
         files={}, automem={"MEMORY.md": wide_lines(260, 300) + "\n"}),
    Case("automem_lines_then_size", note="§5: 230 lines of 130 chars: 200 lines kept are still 26,199 chars.",
         files={}, automem={"MEMORY.md": wide_lines(230, 130) + "\n"}),
    Case("automem_exactly_25000_chars", note="§5: 200 lines totalling exactly 25,000 chars: whole.",
         files={}, automem={"MEMORY.md": exactly_chars(25_000, 200) + "\n"}),
    Case("automem_25001_chars", note="§5: 200 lines totalling 25,001 chars: size over by one.",
         files={}, automem={"MEMORY.md": exactly_chars(25_001, 200) + "\n"}),
    Case("automem_cjk_under", note="§5: 150 lines of 100 CJK chars (45 KB of UTF-8, 15,149 units): whole.",
         files={}, automem={"MEMORY.md": "\n".join("漢" * 100 for _ in range(150)) + "\n"}),
    Case("automem_cjk_over", note="§5: 200 lines of 130 CJK chars (26,199 units): size cut.",
         files={}, automem={"MEMORY.md": "\n".join(f"{i:03d}" + "漢" * 127 for i in range(200)) + "\n"}),
    Case("automem_emoji", note="§5: 100 lines of 130 emoji (260 UTF-16 units each): counted in UTF-16.",
         files={}, automem={"MEMORY.md": "\n".join("🎉" * 130 for _ in range(100)) + "\n"}),
    Case("automem_emoji_split", note="§5: 'a' + 13,000 emoji on one line: the cut at 25,000 units falls "
                                     "inside a surrogate pair.",
         files={}, automem={"MEMORY.md": "a" + "🎉" * 13_000 + "\n"}),
    Case("automem_crlf", note="§5: 210 CRLF lines: split on \\n, the \\r stays in each kept line.",
         files={}, automem={"MEMORY.md": ("\r\n".join(f"- crlf {i}" for i in range(1, 211)) + "\r\n").encode()}),
    Case("automem_frontmatter_comments",
         note="§5: frontmatter (4 lines) and a 5-line comment block are removed before counting: 198 "
              "content lines stay whole.",
         files={}, automem={"MEMORY.md": "---\nname: index\ndescription: x\n---\n<!--\nmulti\nline\ncomment\n-->\n"
                                         + lines(198) + "\n"}),
    Case("automem_include_not_followed", note="§1: @ paths in MEMORY.md are never followed.",
         files={"CLAUDE.md": "root\n"},
         automem={"MEMORY.md": "@notes.md\n@~/home.md\n- [Notes](notes.md)\n", "notes.md": "topic file\n"},
         home_files={"home.md": "home\n"}),
    Case("automem_whitespace_only", note="§2: a whitespace-only MEMORY.md is not loaded.",
         files={"CLAUDE.md": "root\n"}, automem={"MEMORY.md": "  \n\n\t\n"}),
    Case("automem_comment_only", note="§2: a comment-only MEMORY.md is not loaded.",
         files={"CLAUDE.md": "root\n"}, automem={"MEMORY.md": "<!-- nothing here -->\n"}),
    Case("automem_leading_blank_lines",
         note="§5: 10 leading blank lines + 195 lines: trimmed first, so 195 lines, whole.",
         files={}, automem={"MEMORY.md": "\n" * 10 + lines(195) + "\n"}),
    Case("automem_subfolder_git", cwd="sub", git=True,
         note="§1: git repository, started in sub/: auto memory keyed by the git root.",
         files={"sub/CLAUDE.md": "sub\n"}, automem={"MEMORY.md": "git-root memory\n"}),

    Case(
        "crlf_inline_comment",
        note="§2: a CRLF file whose only comment is inline in a paragraph: are the \\r kept?",
        files={"CLAUDE.md": b"Line one <!-- inline --> x\r\n\r\nLine two\r\n"},
    ),
    Case(
        "crlf_unclosed_comment",
        note="§2: a CRLF file with an unclosed <!--: kept verbatim, \\r included?",
        files={"CLAUDE.md": b"Line one\r\n\r\n<!-- open\r\nrest\r\n"},
    ),
    Case(
        "html_comment_whitespace_lines",
        note="§2: blank lines holding spaces after a comment; a comment indented 3 spaces (HTML block) "
             "and 4 spaces (indented code: kept); trailing spaces after -->.",
        files={
            "CLAUDE.md": "A\n\n<!-- c1 -->\n   \n\nB\n\n   <!-- c2 -->\n\nC\n\n    <!-- c3 -->\n\nD\n\n<!-- c4 -->   \n\nE\n",
        },
    ),
    Case(
        "html_comment_nested_containers",
        note="§2: comment lines inside a list item, a block quote and a fenced code block.",
        files={
            "CLAUDE.md": "- item\n\n  <!-- in item -->\n\n  more\n\n> quote\n> <!-- in quote -->\n> after\n\n"
                         "```\n<!-- in code -->\n```\n",
        },
    ),
    Case(
        "include_non_ascii_start",
        note="§3: the first character must be an ASCII letter/digit/./_/-: @日本.md and @é.md are rejected, "
             "@docs/日本.md and @./日本.md are accepted.",
        files={
            "CLAUDE.md": "@日本.md\n@é.md\n@docs/日本.md\n@./日本.md\n@Ünï.md\n",
            "日本.md": "nihon\n", "é.md": "e acute\n", "docs/日本.md": "docs nihon\n", "Ünï.md": "umlaut\n",
        },
    ),
    Case(
        "rules_paths_more",
        note="§4: paths: \"\" / null / \"**/*\" / [\"**\", \"src/**\"] / \"**/**\" / \"src/**, **\" / \"/**\".",
        files={
            ".claude/rules/p_empty_string.md": "---\npaths: \"\"\n---\nempty string\n",
            ".claude/rules/p_null.md": "---\npaths:\n---\nnull\n",
            ".claude/rules/p_star_slash_star.md": "---\npaths: \"**/*\"\n---\nstarstar slash star\n",
            ".claude/rules/p_mixed_list.md": "---\npaths: [\"**\", \"src/**\"]\n---\nmixed list\n",
            ".claude/rules/p_starstar_twice.md": "---\npaths: \"**/**\"\n---\nstarstar twice\n",
            ".claude/rules/p_comma_starstar.md": "---\npaths: \"src/**, **\"\n---\ncomma starstar\n",
            ".claude/rules/p_root.md": "---\npaths: \"/**\"\n---\nroot slash\n",
        },
    ),
    Case(
        "automem_crlf_with_comment",
        note="§5: a CRLF MEMORY.md with a comment block: are the \\r dropped (re-joined with \\n) before "
             "counting/cutting?",
        files={},
        automem={"MEMORY.md": ("<!-- index -->\r\n" + "\r\n".join(f"- crlf {i}" for i in range(1, 206))
                               + "\r\n").encode()},
    ),
    Case(
        "automem_frontmatter_only_lines",
        note="§5: frontmatter makes 203 raw lines but 200 after removal: whole, no warning.",
        files={},
        automem={"MEMORY.md": "---\nname: x\n---\n" + lines(200) + "\n"},
    ),

    Case(
        "crlf_comment_in_code",
        note="§2: a CRLF file whose only <!-- is inside a code span and a fenced block: normalized to \\n?",
        files={"CLAUDE.md": b"Use `<!-- x -->` here\r\n\r\n```\r\n<!-- in code -->\r\n```\r\n"},
    ),
    Case(
        "crlf_frontmatter",
        note="§2: a CRLF file with frontmatter and no comment; a CRLF rule with paths frontmatter.",
        files={
            "CLAUDE.md": b"---\r\ntitle: x\r\n---\r\nBody one\r\nBody two\r\n",
            ".claude/rules/r.md": b"---\r\npaths: \"src/**\"\r\n---\r\nconditional crlf rule\r\n",
        },
    ),
    Case(
        "comment_rerender_fidelity",
        note="§2: a file with a comment block: are tabs, trailing spaces, a lone \\r, many blank lines "
             "and an NBSP kept when the comment is removed? (CLAUDE.local.md: same text, no comment).",
        files={
            "CLAUDE.md": "<!-- c -->\n\tTab line\nTrailing spaces   \nlone\rcr\n\n\n\nmany blanks\n\u00a0nbsp\n",
            "CLAUDE.local.md": "\tTab line\nTrailing spaces   \nlone\rcr\n\n\n\nmany blanks\n\u00a0nbsp\n",
        },
    ),

    Case(
        "include_gfm_and_entities",
        note="§3: GFM-only syntax (strikethrough ~~@x~~, task list, www autolink), link reference "
             "definitions, autolinks, HTML entities (&#64; is @, &amp; before an include), a comment "
             "inside a <div> block.",
        files={
            "CLAUDE.md": "Strike ~~@st.md~~ here\n\n- [ ] @task.md\n\nSee www.example.com/@www.md\n\n"
                         "[1]: @def.md\n\n[^n]: @fn.md\n\nAuto <https://example.com/@auto.md>\n\n"
                         "Entity &#64;ent1.md and AT&amp; @ent2.md and &amp;@ent3.md\n\n"
                         "<div>\n<!-- in div @dc.md -->\n</div>\n\nTail\n",
            **{f"{n}.md": f"{n}\n" for n in ["st", "task", "www", "def", "fn", "auto", "ent1", "ent2",
                                            "ent3", "dc"]},
            "st.md~~": "st tilde\n",
        },
    ),
    Case(
        "include_heading_and_emphasis_edges",
        note="§3: closing #s of a heading, nested emphasis, an include right after an emphasis closer, "
             "an @ inside a word, an include at the end of a line followed by a soft break.",
        files={
            "CLAUDE.md": "## Title @h.md ##\n\n***@bi.md*** and **bold**@glued.md and x*@mid.md*\n\n"
                         "end of line @eol.md\nnext line\n",
            **{f"{n}.md": f"{n}\n" for n in ["h", "bi", "glued", "mid", "eol"]},
        },
    ),

    Case(
        "link_definitions_with_and_without_comment",
        note="§2: link reference definitions vanish from a file that has a comment (text re-joined from "
             "lexer tokens, which hold no `def`), and stay in one without; an include in a definition is "
             "not followed either way.",
        files={
            "CLAUDE.md": "Intro\n\n[1]: https://example.com\n[a]: @def.md\n\nText [x][1]\n\n<!-- c -->\nEnd\n",
            "CLAUDE.local.md": "Intro\n\n[1]: https://example.com\n[a]: @def.md\n\nText [x][1]\nEnd\n",
            "def.md": "def\n",
        },
    ),

    Case(
        "comment_rerender_tabs_and_defs_in_containers",
        note="§2: re-join of a file with a comment: inner tabs (paragraph and code), a link definition inside "
             "a block quote and a list item, a form feed.",
        files={
            "CLAUDE.md": "<!-- c -->\nA\tB\n\n```\n\tcode\ttab\n```\n\n> [q]: https://q.example\n> quoted\n\n"
                         "- item\n\n  [l]: https://l.example\n\nform\x0cfeed\n",
        },
    ),
]

from cases_2_1_332 import CASES_2_1_332
from cases_layouts import CASES_LAYOUTS
from cases_misses import CASES_MISSES
from cases_reads import CASES_READS
from cases_settings import CASES_SETTINGS
from cases_sources import CASES_SOURCES

CASES += CASES_2_1_332
CASES += CASES_READS
CASES += CASES_LAYOUTS
CASES += CASES_MISSES
CASES += CASES_SETTINGS
CASES += CASES_SOURCES
BY_NAME: dict[str, Case] = {c.name: c for c in CASES}
assert len(BY_NAME) == len(CASES), "duplicate case names"


# --------------------------------------------------------------------------- building

def sanitize(path: str) -> str:
    """Claude Code's project folder name (§1): every char not [A-Za-z0-9] becomes '-'."""
    name = re.sub(r"[^A-Za-z0-9]", "-", path)
    if len(name) > 200:
        raise ValueError(f"project path too long for this harness: {path}")
    return name


def project_root(case: Case, tree: Path) -> Path:
    """The folder whose sanitized path names the auto-memory folder: the git root, else CWD."""
    return tree if case.git else (tree / case.cwd).resolve()


def _subst(text: str, tree: Path, home: Path) -> str:
    return text.replace("<TREE>", str(tree)).replace("<HOME>", str(home))


def _write(base: Path, rel: str, value: Entry, tree: Path, home: Path) -> None:
    path = base / rel
    path.parent.mkdir(parents=True, exist_ok=True)
    if isinstance(value, str):
        path.write_bytes(_subst(value, tree, home).encode("utf-8"))
    elif isinstance(value, bytes):
        path.write_bytes(value.replace(b"<TREE>", str(tree).encode()).replace(b"<HOME>", str(home).encode()))
    elif isinstance(value, Symlink):
        os.symlink(_subst(value.target, tree, home), path)
    elif isinstance(value, Big):
        line = b"x" * 79 + b"\n"
        data = line * (value.nbytes // len(line) + 1)
        path.write_bytes(data[: value.nbytes])
    elif isinstance(value, Fifo):
        os.mkfifo(path)
    elif isinstance(value, Dir):
        path.mkdir(parents=True, exist_ok=True)
    else:  # pragma: no cover
        raise TypeError(f"{rel}: unsupported entry {value!r}")


def build(case: Case, root: Path) -> tuple[Path, Path]:
    """Lay `case` out under `root` (tree at root/tree, HOME at root/home); return their realpaths."""
    root = Path(os.path.realpath(root))
    home = root / "home"
    tree = home / "tree" if case.under_home else root / "tree"
    home.mkdir(parents=True)
    tree.mkdir(parents=True)
    if case.git:
        subprocess.run(["git", "init", "-q"], cwd=tree, check=True)
    if not case.steps:  # with steps, the start folder may be one git makes (a worktree)
        (tree / case.cwd).mkdir(parents=True, exist_ok=True)
    for rel, value in case.files.items():
        _write(tree, rel, value, tree, home)
    _run_steps(case.steps, tree, home)
    (tree / case.cwd).mkdir(parents=True, exist_ok=True)
    for rel, value in case.home_files.items():
        _write(home, rel.replace("<SANITIZED_TREE>", sanitize(str(tree))), value, tree, home)
    if case.automem:
        mem = home / ".claude" / "projects" / sanitize(str(project_root(case, tree))) / "memory"
        for rel, value in case.automem.items():
            _write(mem, rel, value, tree, home)
    if case.settings is not None:
        settings = json.loads(_subst(json.dumps(case.settings), tree, home))
        path = tree / case.cwd / ".claude" / "settings.json"
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(json.dumps(settings, indent=1))
    if case.flag_settings is not None:
        flag = json.loads(_subst(json.dumps(case.flag_settings), tree, home))
        (root / "flag-settings.json").write_text(json.dumps(flag, indent=1))
    return Path(os.path.realpath(tree)), Path(os.path.realpath(home))


def _run_steps(steps: Iterable[Step], tree: Path, home: Path) -> None:
    env = {k: v for k, v in os.environ.items() if not k.startswith("GIT_")}
    env.update(GIT_ENV)
    for step in steps:
        if isinstance(step, Git):
            subprocess.run(["git", "-c", "init.defaultBranch=main", *step.args], cwd=tree / step.cwd, check=True,
                           env=env, stdin=subprocess.DEVNULL, capture_output=True)
        elif isinstance(step, Move):
            os.rename(tree / step.src, tree / step.dst)
        elif isinstance(step, Write):
            _write(tree, step.rel, step.text, tree, home)
        elif isinstance(step, Remove):
            target = tree / step.rel
            shutil.rmtree(target) if target.is_dir() else target.unlink()
        else:  # pragma: no cover
            raise TypeError(f"unsupported step {step!r}")


def flag_settings_file(case: Case, tree: Path) -> Path | None:
    """Where `build` put the case's `--settings` file (None when it has none)."""
    root = tree.parent.parent if case.under_home else tree.parent  # the folder `build` was given
    return root / "flag-settings.json" if case.flag_settings is not None else None


def case_launch(case: Case, tree: Path, home: Path) -> Any:
    """The case's launch as memlint models it: its environment, `--settings` file and `--setting-sources`."""
    from memlint.model.loading.settings import Launch, parse_setting_sources

    sources = None if case.setting_sources is None else parse_setting_sources(case.setting_sources)
    return Launch.from_environ(case_env(case, tree, home), flag_settings_file(case, tree), sources,
                               tuple(tree / d for d in case.add_dirs))


def case_env(case: Case, tree: Path, home: Path) -> dict[str, str]:
    """The case's extra environment for Claude Code, placeholders substituted."""
    return {k: _subst(v, tree, home) for k, v in case.env.items()}


def oracle_args(case: Case, tree: Path, home: Path) -> list[str]:
    """cc_oracle.py arguments beyond TREE: --cwd, --home, --env, --arg for the `--settings` file."""
    args = ["--cwd", case.cwd, "--home", str(home)]
    args += [f"--env={k}={v}" for k, v in case_env(case, tree, home).items()]
    flag = flag_settings_file(case, tree)
    if flag is not None:
        args += ["--arg=--settings", f"--arg={flag}"]
    if case.setting_sources is not None:
        args += ["--arg=--setting-sources", f"--arg={case.setting_sources}"]
    for folder in case.add_dirs:
        args += ["--arg=--add-dir", f"--arg={tree / folder}"]
    if case.read is not None:
        args += [f"--read={tree / case.read}"]
    return args


_CONTENTS = re.compile(r"Contents of (.+?):\n\n")


def attached(after_read: list[list[dict[str, Any]]], tree: Path, home: Path) -> list[dict[str, str]]:
    """[{path, via}] of the memory files attached after the Read (the oracle's `after_read`): `via` is
    `system` for a system message, `user` for a block of the user turn."""
    subs = placeholders(tree, home)
    out = []
    for part in (after_read[0] if after_read else []):
        if "text" not in part:
            continue
        via = "system" if part.get("role") == "system" else "user"
        out += [{"path": _apply(m.group(1), subs), "via": via} for m in _CONTENTS.finditer(part["text"])]
    return out


# --------------------------------------------------------------------------- comparing

def placeholders(tree: Path, home: Path) -> list[tuple[str, str]]:
    return [(str(tree), "<TREE>"), (str(home), "<HOME>"), (sanitize(str(tree)), "<SANITIZED_TREE>")]


def _apply(text: str, subs: list[tuple[str, str]]) -> str:
    for old, new in subs:
        text = text.replace(old, new)
    return text


def normalize(files: Iterable[dict[str, Any]], tree: Path, home: Path) -> list[dict[str, str]]:
    """[{path, kind, content}] with absolute paths replaced by placeholders (in paths and contents)."""
    subs = placeholders(tree, home)
    return [{"path": _apply(f["path"], subs), "kind": f["kind"], "content": _apply(f["content"], subs)}
            for f in files]


_RULES = "/.claude/rules/"


def rule_groups(tree: Path, home: Path) -> dict[str, str]:
    """Map every file reachable under a `.claude/rules` folder of the built case (by its path and by its
    realpath, both normalized) to that rules folder, so runs of rules compare in any order even when Claude
    Code shows a symlinked rule by its target path."""
    subs = placeholders(tree, home)
    groups: dict[str, str] = {}
    for base in (tree, home):
        for dirpath, dirnames, _files in os.walk(base):
            if os.path.basename(dirpath) == ".claude" and "rules" in dirnames + _files:
                rules = os.path.join(dirpath, "rules")
                key = _apply(rules, subs) + "/"
                seen: set[str] = set()
                for d, subdirs, files in os.walk(rules, followlinks=True):
                    real = os.path.realpath(d)
                    if real in seen:
                        subdirs[:] = []
                        continue
                    seen.add(real)
                    for f in files:
                        p = os.path.join(d, f)
                        groups.setdefault(_apply(p, subs), key)
                        groups.setdefault(_apply(os.path.realpath(p), subs), key)
            dirnames[:] = [n for n in dirnames if n not in (".git", "projects")]
    return groups


def _rules_folder(path: str, groups: dict[str, str] | None) -> str | None:
    if groups and path in groups:
        return groups[path]
    i = path.find(_RULES)
    return path[: i + len(_RULES)] if i >= 0 else None


def canonical(entries: Iterable[tuple[str, str, str]],
              groups: dict[str, str] | None = None) -> list[tuple[str, str, str]]:
    """Sort each maximal run of consecutive entries whose paths lie in the same `.claude/rules/` folder
    (directory order is not specified), keep everything else in place. `groups` (from `rule_groups`) also
    places symlinked rules shown by their target path into their rules folder."""
    out: list[tuple[str, str, str]] = []
    run: list[tuple[str, str, str]] = []
    key: str | None = None
    for e in entries:
        k = _rules_folder(e[0], groups)
        if k is not None and k == key:
            run.append(e)
            continue
        out.extend(sorted(run))
        run, key = [e], k
    out.extend(sorted(run))
    return out
