"""Differential cases for layouts people use (issue 28, point 5): git worktrees in the layouts git
makes (nested in the main repository, moved with `git worktree move`, moved by hand and repaired, the
bare-repository layout `.bare` + `.git: gitdir: ./.bare`), folder names with a character outside the
Basic Multilingual Plane, and the `env` block of settings files.

The worktrees are made by real git commands (`steps`) in the folder the case is built in, so git's
absolute paths in the worktree metadata are right wherever the case is replayed. Where the auto-memory
folder is in question, a MEMORY.md is put in every folder it could be (each saying which), so the
recording shows which one Claude Code read.
"""
from __future__ import annotations

import json
from typing import Any

from cases import Case, Git, Move, Remove, Write

PROJECTS = ".claude/projects/"


def memories(*suffixes: str) -> dict[str, str | bytes]:
    """A MEMORY.md in `projects/<SANITIZED_TREE><suffix>/memory/` for each suffix, naming its folder."""
    return {f"{PROJECTS}<SANITIZED_TREE>{s}/memory/MEMORY.md": f"memory of <SANITIZED_TREE>{s}\n" for s in suffixes}


COMMIT = (Git(("add", "-A")), Git(("commit", "-q", "-m", "init")))
# the main repository's checked-in memory files (and an untracked CLAUDE.local.md), at the tree root
MAIN_FILES = {
    "CLAUDE.md": "main root claude\n",
    ".claude/CLAUDE.md": "main dot claude\n",
    ".claude/rules/style.md": "main rule\n",
    "docs/guide.md": "main guide\n",
    ".gitignore": "CLAUDE.local.md\n.claude/worktrees/\nwts/\n",
}


def worktree_edits(at: str) -> tuple[Write, ...]:
    """The worktree's own copies of the checked-in files, changed so each says where it is."""
    return (Write(f"{at}/CLAUDE.md", "worktree root claude @docs/guide.md\n"),
            Write(f"{at}/.claude/CLAUDE.md", "worktree dot claude\n"),
            Write(f"{at}/.claude/rules/style.md", "worktree rule\n"),
            Write(f"{at}/docs/guide.md", "worktree guide\n"),
            Write(f"{at}/CLAUDE.local.md", "worktree local\n"))


def nested(name: str, at: str, cwd: str, note: str, extra: tuple[Write, ...] = ()) -> Case:
    return Case(name, cwd=cwd, note=note,
                files={**MAIN_FILES, "CLAUDE.local.md": "main local\n"},
                steps=(Git(("init", "-q")), *COMMIT, Git(("worktree", "add", "-q", "-b", "feat", at)),
                       *worktree_edits(at), *extra),
                home_files=memories("", "-" + at.replace("/", "-").replace(".", "-")))


SIBLING_SEED = (Git(("init", "-q", "main")), Write("main/CLAUDE.md", "main claude\n"),
                Git(("add", "-A"), "main"), Git(("commit", "-q", "-m", "init"), "main"))
SIBLING_FILES = {"CLAUDE.md": "container claude\n"}


def sibling(name: str, cwd: str, steps: tuple[Any, ...], note: str, suffixes: tuple[str, ...]) -> Case:
    return Case(name, cwd=cwd, note=note, files=SIBLING_FILES,
                steps=(*SIBLING_SEED, Git(("worktree", "add", "-q", "-b", "feat", "../feat"), "main"), *steps,
                       Write(f"{cwd}/CLAUDE.md", "worktree claude\n")),
                home_files=memories(*suffixes))


# The bare-repository layout: the repository in `.bare`, a `.git` file `gitdir: ./.bare` beside it,
# worktrees made from the container (git finds `.bare` through that file).
BARE = (Git(("init", "-q", "seed")), Write("seed/README.md", "seed\n"), Git(("add", "-A"), "seed"),
        Git(("commit", "-q", "-m", "init"), "seed"), Git(("clone", "-q", "--bare", "seed", ".bare")),
        Remove("seed"), Write(".git", "gitdir: ./.bare\n"),
        Git(("worktree", "add", "-q", "-b", "feat", "feat")), Git(("worktree", "add", "-q", "-b", "fix", "fix")),
        Write("feat/CLAUDE.md", "feat worktree claude\n"), Write("fix/CLAUDE.md", "fix worktree claude\n"))


def env_case(name: str, note: str, **kw: Any) -> Case:
    """A git repository with a MEMORY.md in its auto-memory folder: does it load?"""
    return Case(name, git=True, note=note, files={"CLAUDE.md": "root\n", **kw.pop("files", {})},
                automem={"MEMORY.md": "the project's auto memory\n"}, **kw)


def js(data: Any) -> str:
    return json.dumps(data)


def env(value: str) -> dict[str, Any]:
    return {"env": {"CLAUDE_CODE_DISABLE_AUTO_MEMORY": value}}


USER_SETTINGS = ".claude/settings.json"
OFF = {"autoMemoryEnabled": False}

CASES_LAYOUTS: list[Case] = [
    # ---------------------------------------------------------------- worktrees nested in the main repository
    nested("wt_nested_claude_worktrees", ".claude/worktrees/feat", ".claude/worktrees/feat",
           "worktree made by `git worktree add .claude/worktrees/feat` inside the main repository (as `claude -w` "
           "does), started at its root: which of the main repository's files load, which auto-memory folder."),
    nested("wt_nested_subfolder", ".claude/worktrees/feat", ".claude/worktrees/feat/pkg",
           "the nested worktree, started in a subfolder of it.",
           (Write(".claude/worktrees/feat/pkg/CLAUDE.md", "worktree pkg claude\n"),)),
    nested("wt_nested_plain_folder", "wts/feat", "wts/feat",
           "a worktree nested in an ordinary (ignored) folder of the main repository, `wts/feat`.",
           (Write("wts/CLAUDE.md", "between main and worktree\n"),)),
    # ---------------------------------------------------------------- worktrees beside the main repository
    sibling("wt_sibling", "feat", (), "`git worktree add ../feat` beside the main repository `main/`.",
            ("-main", "-feat")),
    sibling("wt_moved", "moved", (Git(("worktree", "move", "../feat", "../moved"), "main"),),
            "worktree moved with `git worktree move` (git rewrites both links).", ("-main", "-feat", "-moved")),
    sibling("wt_moved_by_hand_repaired", "moved",
            (Move("feat", "moved"), Git(("worktree", "repair", "../moved"), "main")),
            "worktree moved by hand (`mv`), then `git worktree repair`.", ("-main", "-feat", "-moved")),
    sibling("wt_moved_by_hand_unrepaired", "moved", (Move("feat", "moved"),),
            "worktree moved by hand and not repaired: its `.git` file points at the main repository, whose "
            "link back points at the old place.", ("-main", "-feat", "-moved")),
    # ---------------------------------------------------------------- bare repository + worktrees beside it
    Case("wt_bare_layout", cwd="feat", files={"CLAUDE.md": "container claude\n"}, steps=BARE,
         note="`.bare` + `.git: gitdir: ./.bare`, worktrees `feat/` and `fix/` beside it; started in `feat/`.",
         home_files=memories("", "--bare", "-feat")),
    Case("wt_bare_layout_container", cwd=".", files={"CLAUDE.md": "container claude\n"}, steps=BARE,
         note="the bare layout, started in the container (the folder of the `.git` file).",
         home_files=memories("", "--bare", "-feat")),
    # ---------------------------------------------------------------- folder names outside the BMP
    Case("name_emoji_folder", cwd="caf\u00e9\U0001f389x", files={"caf\u00e9\U0001f389x/CLAUDE.md": "emoji folder\n"},
         note="no git, started in `caf\u00e9\U0001f389x`: the emoji is two UTF-16 units; which folder name?",
         home_files=memories("-caf---x", "-caf--x", "-caf----x")),
    Case("name_emoji_git_root", cwd="r\U0001f600\U0001f600/sub",
         files={"r\U0001f600\U0001f600/sub/CLAUDE.md": "sub\n"},
         steps=(Git(("init", "-q"), "r\U0001f600\U0001f600"),),
         note="git root named with two emoji, started in a subfolder.",
         home_files=memories("-r----", "-r--", "-r----sub", "-r--sub")),
    # ---------------------------------------------------------------- settings `env` and auto memory
    env_case("env_user_disable", "user settings env CLAUDE_CODE_DISABLE_AUTO_MEMORY=1.",
             home_files={USER_SETTINGS: js(env("1"))}),
    env_case("env_project_disable", "project settings env CLAUDE_CODE_DISABLE_AUTO_MEMORY=1.", settings=env("1")),
    env_case("env_local_disable", "local settings env CLAUDE_CODE_DISABLE_AUTO_MEMORY=1.",
             files={".claude/settings.local.json": '{"env": {"CLAUDE_CODE_DISABLE_AUTO_MEMORY": "1"}}'}),
    env_case("env_flag_disable", "--settings env CLAUDE_CODE_DISABLE_AUTO_MEMORY=1.", flag_settings=env("1")),
    env_case("env_zero_beats_setting", "settings env `0` with autoMemoryEnabled false in user settings.",
             home_files={USER_SETTINGS: js({**OFF, **env("0")})}),
    env_case("env_real_zero_beats_setting", "real env `0` with autoMemoryEnabled false in project settings.",
             settings=OFF, env={"CLAUDE_CODE_DISABLE_AUTO_MEMORY": "0"}),
    env_case("env_settings_over_real", "real env `1`, project settings env `0`: which wins?",
             settings=env("0"), env={"CLAUDE_CODE_DISABLE_AUTO_MEMORY": "1"}),
    env_case("env_settings_one_over_real_zero", "real env `0`, user settings env `1`.",
             home_files={USER_SETTINGS: js(env("1"))}, env={"CLAUDE_CODE_DISABLE_AUTO_MEMORY": "0"}),
    env_case("env_project_over_user", "user settings env `1`, project settings env `0`.",
             home_files={USER_SETTINGS: js(env("1"))}, settings=env("0")),
    env_case("env_local_over_project", "project settings env `0`, local settings env `1`.", settings=env("0"),
             files={".claude/settings.local.json": '{"env": {"CLAUDE_CODE_DISABLE_AUTO_MEMORY": "1"}}'}),
    env_case("env_flag_over_local", "local settings env `1`, --settings env `0`.", flag_settings=env("0"),
             files={".claude/settings.local.json": '{"env": {"CLAUDE_CODE_DISABLE_AUTO_MEMORY": "1"}}'}),
    env_case("env_words", "settings env `TRUE ` (case, white space) in project settings.", settings=env("TRUE ")),
    env_case("env_other_value", "settings env `2` (neither true nor false) with autoMemoryEnabled false.",
             home_files={USER_SETTINGS: js({**OFF, **env("2")})}),
    env_case("env_not_a_string", "settings env value the number 1 (not a string).",
             settings={"env": {"CLAUDE_CODE_DISABLE_AUTO_MEMORY": 1}}),
]

AGENTS_MAIN = {"AGENTS.md": "main agents\n", ".gitignore": ".claude/worktrees/\n"}
CASES_LAYOUTS += [
    Case("wt_nested_agents", cwd=".claude/worktrees/feat", files=AGENTS_MAIN,
         steps=(Git(("init", "-q")), *COMMIT, Git(("worktree", "add", "-q", "-b", "feat", ".claude/worktrees/feat")),
                Write(".claude/worktrees/feat/AGENTS.md", "worktree agents\n")),
         note="nested worktree, AGENTS.md only (main and worktree): is the main repository's AGENTS.md read?"),
    Case("wt_nested_main_claude_worktree_agents", cwd=".claude/worktrees/feat",
         files={**AGENTS_MAIN, "CLAUDE.md": "main claude\n"},
         steps=(Git(("init", "-q")), *COMMIT, Git(("worktree", "add", "-q", "-b", "feat", ".claude/worktrees/feat")),
                Remove(".claude/worktrees/feat/CLAUDE.md"),
                Write(".claude/worktrees/feat/AGENTS.md", "worktree agents\n")),
         note="nested worktree: the main repository's CLAUDE.md (not loaded there) and the worktree's AGENTS.md: "
              "does the skipped CLAUDE.md stop AGENTS.md?"),
]

CASES_LAYOUTS += [
    Case("wt_bare_in_dot_git", cwd="feat", files={"CLAUDE.md": "container claude\n", "CLAUDE.local.md": "container local\n"},
         steps=(Git(("init", "-q", "seed")), Write("seed/README.md", "seed\n"), Git(("add", "-A"), "seed"),
                Git(("commit", "-q", "-m", "init"), "seed"), Git(("clone", "-q", "--bare", "seed", ".git")),
                Remove("seed"), Git(("worktree", "add", "-q", "-b", "feat", "feat")),
                Write("feat/CLAUDE.md", "feat worktree claude\n")),
         note="a bare repository cloned into `.git` of the container, a worktree `feat/` inside it: the worktree is "
              "nested in its canonical root (the container).",
         home_files=memories("", "--git", "-feat")),
    Case("wt_submodule", cwd="sub", files={"CLAUDE.md": "super claude\n"},
         steps=(Git(("init", "-q", "lib")), Write("lib/CLAUDE.md", "lib claude\n"), Git(("add", "-A"), "lib"),
                Git(("commit", "-q", "-m", "init"), "lib"), Git(("init", "-q")),
                Git(("-c", "protocol.file.allow=always", "submodule", "add", "-q", "./lib", "sub")),
                Remove("lib"), Write("sub/CLAUDE.md", "submodule claude\n")),
         note="a submodule (`.git` file `gitdir: ../.git/modules/sub`, no commondir): its own project root, and the "
              "superproject's CLAUDE.md loads.",
         home_files=memories("", "-sub")),
]

CASES_LAYOUTS += [
    sibling("wt_relative_links", "feat",
            (Write("feat/.git", "gitdir: ../main/.git/worktrees/feat\n"),
             Write("main/.git/worktrees/feat/gitdir", "../../../../feat/.git\n")),
            "worktree links written as relative paths (as git 2.48+ does with worktree.useRelativePaths).",
            ("-main", "-feat")),
]

WT = ".claude/worktrees/feat"
NESTED = (Git(("init", "-q")), *COMMIT, Git(("worktree", "add", "-q", "-b", "feat", WT)))
CASES_LAYOUTS += [
    Case("wt_nested_conditional_rule", cwd=WT, read=f"{WT}/src/app.ts",
         files={".gitignore": ".claude/worktrees/\n", "CLAUDE.md": "main claude\n",
                ".claude/rules/ts.md": "---\npaths: \"**/*.ts\"\n---\nmain ts rule\n"},
         steps=(*NESTED, Write(f"{WT}/.claude/rules/ts.md", "---\npaths: \"**/*.ts\"\n---\nworktree ts rule\n"),
                Write(f"{WT}/src/app.ts", "export {}\n")),
         note="nested worktree, a conditional rule in the main repository and the worktree's copy; Claude reads a "
              ".ts file of the worktree: which rule is attached?"),
    Case("wt_nested_external_include_approved", cwd=WT,
         files={".gitignore": ".claude/worktrees/\n", "docs/shared.md": "main shared doc\n"},
         steps=(*NESTED, Write(f"{WT}/CLAUDE.md", "worktree claude @../../../docs/shared.md\n")),
         home_files={".claude.json": js({"projects": {"<TREE>": {"hasClaudeMdExternalIncludesApproved": True}}})},
         note="nested worktree including the main repository's docs (outside the start folder), external includes "
              "approved for the main repository's path: is the approval the main repository's?"),
    Case("wt_nested_external_include_approved_worktree_key", cwd=WT,
         files={".gitignore": ".claude/worktrees/\n", "docs/shared.md": "main shared doc\n"},
         steps=(*NESTED, Write(f"{WT}/CLAUDE.md", "worktree claude @../../../docs/shared.md\n")),
         home_files={".claude.json": js({"projects": {f"<TREE>/{WT}": {"hasClaudeMdExternalIncludesApproved": True}}})},
         note="the same, approved under the worktree's own path."),
]
