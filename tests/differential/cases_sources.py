"""Differential cases for Claude Code started with `--setting-sources` (Launch.setting_sources): which of the
user, project and local sources it reads. A source left out loses both its memory files (user: HOME's CLAUDE.md
and rules; project: every CLAUDE.md, `.claude/CLAUDE.md` and rule of the walk and below the start folder; local:
CLAUDE.local.md) and its settings file; auto memory, managed and `--settings` files stay. Without the project
source the AGENTS.md plugin reads nothing. The same on every release."""
from __future__ import annotations

import json

from cases import Case

# a file of every source: an ancestor's and the start folder's project files, a rule, a local file, the
# user's CLAUDE.md and rule, and auto memory
EVERY_SOURCE = {"CLAUDE.md": "ancestor claude\n", "app/CLAUDE.md": "app claude\n",
                "app/.claude/CLAUDE.md": "app dot claude\n", "app/.claude/rules/style.md": "app rule\n",
                "app/CLAUDE.local.md": "app local\n"}
USER_FILES = {".claude/CLAUDE.md": "user claude\n", ".claude/rules/mine.md": "user rule\n"}
MEMORY = {"MEMORY.md": "- [Deploy](deploy.md) how we deploy\n"}
AGENTS = {"AGENTS.md": "root agents\n", "a/AGENTS.md": "a agents\n"}  # started in a/, no CLAUDE.md anywhere
# a Read of deep/x/f.txt: a nested CLAUDE.md and CLAUDE.local.md, a nested and a top conditional rule matching it
NESTED = {"CLAUDE.md": "root\n", "deep/CLAUDE.md": "deep claude\n", "deep/CLAUDE.local.md": "deep local\n",
          "deep/.claude/rules/c.md": "---\npaths: x/**\n---\ndeep rule\n",
          ".claude/rules/top.md": "---\npaths: deep/x/**\n---\ntop rule\n", "deep/x/f.txt": "x\n"}


def _sources(name: str, value: str, note: str) -> Case:
    return Case(name, git=True, cwd="app", setting_sources=value, note=note, files=EVERY_SOURCE,
                home_files=USER_FILES, automem=MEMORY)


def _excludes(pattern: str) -> str:
    return json.dumps({"claudeMdExcludes": [pattern]}) + "\n"


CASES_SOURCES: list[Case] = [
    _sources("ss01_user_source_only", "user",
             "--setting-sources user: the user's CLAUDE.md and rule, and auto memory; no project or local file."),
    _sources("ss02_project_source_only", "project",
             "--setting-sources project: every project file of the walk (the ancestor's too), no user or local file."),
    _sources("ss03_local_source_only", "local", "--setting-sources local: CLAUDE.local.md and auto memory alone."),
    _sources("ss04_no_source", "", "--setting-sources \"\": no source at all; auto memory still loads."),
    _sources("ss05_sources_trimmed_and_repeated", " local , user,user",
             "each name trimmed, a name given twice counts once: user and local files."),
    Case("ss06_settings_files_of_sources_left_out", git=True, setting_sources="project,local",
         note="the user's settings file is not read without the user source: its exclude of CLAUDE.local.md does "
              "not apply; the project's and the local file's excludes do.",
         files={"CLAUDE.md": "root\n", ".claude/CLAUDE.md": "dot claude\n", ".claude/rules/r.md": "rule\n",
                "CLAUDE.local.md": "local\n", ".claude/settings.json": _excludes("**/.claude/rules/**"),
                ".claude/settings.local.json": _excludes("**/.claude/CLAUDE.md")},
         home_files={".claude/settings.json": _excludes("**/CLAUDE.local.md")}),
    Case("ss07_local_settings_apply_to_user_files", git=True, setting_sources="user,local",
         note="user and local settings are read, the project's is not: the local exclude of `**/.claude/CLAUDE.md` "
              "drops the user's CLAUDE.md, the user's exclude drops CLAUDE.local.md.",
         files={"CLAUDE.md": "root\n", "CLAUDE.local.md": "local\n", "keep.md": "kept\n",
                ".claude/settings.json": _excludes("**/keep.md"),
                ".claude/settings.local.json": _excludes("**/.claude/CLAUDE.md")},
         home_files={".claude/CLAUDE.md": "user claude\n", ".claude/rules/u.md": "user rule\n",
                     ".claude/settings.json": _excludes("**/CLAUDE.local.md")}),
    Case("ss08_agents_need_the_project_source", git=True, setting_sources="user,local",
         note="C01: without the project source the AGENTS.md plugin reads nothing, though no CLAUDE.md loads.",
         files=AGENTS, cwd="a"),
    Case("ss09_agents_local_file_counts_unread", git=True, setting_sources="project",
         note="C01: with the project source alone a CLAUDE.local.md beside AGENTS.md is not loaded, yet it counts "
              "as a CLAUDE file: no AGENTS file loads either.",
         files={**AGENTS, "a/CLAUDE.local.md": "a local\n"}, cwd="a"),
    Case("ss10_agents_with_project_source", git=True, setting_sources="project",
         note="C01: the project source alone, no CLAUDE file anywhere: the AGENTS files load.",
         files={"AGENTS.md": "root agents\n", "b/AGENTS.md": "b agents\n"}, cwd="b"),
    Case("ss11_local_file_includes_project_file", git=True, setting_sources="local",
         note="without the project source CLAUDE.md is never read as the folder's own file, so CLAUDE.local.md's "
              "include of it loads it, as a local file.",
         files={"CLAUDE.md": "project text\n", "CLAUDE.local.md": "@CLAUDE.md\nlocal text\n"}),
    Case("ss12_read_nested_local_only", git=True, setting_sources="local", read="deep/x/f.txt",
         note="§1: a Read below the start attaches the nested CLAUDE.local.md only; no nested CLAUDE.md or rule.",
         files=NESTED),
    Case("ss13_read_nested_project_only", git=True, setting_sources="project", read="deep/x/f.txt",
         note="§1/§4: a Read below the start attaches the nested CLAUDE.md and both conditional rules, not the "
              "nested CLAUDE.local.md.",
         files=NESTED),
    Case("ss14_memory_directory_of_unread_settings", git=True, setting_sources="user",
         note="the project's autoMemoryDirectory is not read without the project source: auto memory is the "
              "default folder's.",
         files={"CLAUDE.md": "root\n", ".claude/settings.json": json.dumps({"autoMemoryDirectory": "~/elsewhere"})},
         automem=MEMORY, home_files={"elsewhere/MEMORY.md": "- [Other](other.md) the other index\n"}),
]
CASES_SOURCES += [
    Case("ss15_read_user_rule_without_user_source", git=True, setting_sources="local", read="deep/x/f.txt",
         note="a Read below the start, without the user and project sources: the user's conditional rule does "
              "not arrive (nor the project's) from 2.1.211; before, both did.",
         files={"deep/CLAUDE.local.md": "deep local\n", ".claude/rules/top.md": "---\npaths: deep/x/**\n---\ntop rule\n",
                "deep/x/f.txt": "x\n"},
         home_files={".claude/rules/mine.md": "---\npaths: deep/x/**\n---\nuser rule\n"}),
]
CASES_SOURCES += [
    Case("ss16_memory_directory_of_unread_local_settings", git=True, setting_sources="project",
         note="the local settings' autoMemoryDirectory without the local source: the default folder from 2.1.295; "
              "before, the local file's folder.",
         files={"CLAUDE.md": "root\n", ".claude/settings.local.json": json.dumps({"autoMemoryDirectory": "~/elsewhere"})},
         automem=MEMORY, home_files={"elsewhere/MEMORY.md": "- [Other](other.md) the other index\n"}),
]

# `--add-dir`: the folder's memory files load after the walk's, only with CLAUDE_CODE_ADDITIONAL_DIRECTORIES_CLAUDE_MD
ON = {"CLAUDE_CODE_ADDITIONAL_DIRECTORIES_CLAUDE_MD": "1"}
ADDED = {"repo/CLAUDE.md": "repo claude\n", "repo/CLAUDE.local.md": "repo local\n",
         "other/CLAUDE.md": "other claude @inc.md @../outside.md\n", "other/inc.md": "other include\n",
         "outside.md": "outside\n", "other/.claude/CLAUDE.md": "other dot claude\n",
         "other/.claude/rules/r.md": "other rule\n", "other/.claude/rules/cond.md": "---\npaths: sub/**\n---\nother cond\n",
         "other/CLAUDE.local.md": "other local\n", "other/AGENTS.md": "other agents\n", "other/sub/CLAUDE.md": "other sub\n",
         "other/.claude/settings.json": _excludes("**/other/CLAUDE.local.md")}

CASES_SOURCES += [
    Case("ad01_add_dir_memory", git=True, cwd="repo", add_dirs=("other",), env=ON, files=ADDED,
         note="--add-dir other with the variable set: its CLAUDE.md, .claude/CLAUDE.md, unconditional rule and "
              "CLAUDE.local.md load after the project's; its includes are external (not followed), its AGENTS.md, "
              "nested CLAUDE.md and settings file are not read."),
    Case("ad02_add_dir_without_the_variable", git=True, cwd="repo", add_dirs=("other",), files=ADDED,
         note="--add-dir without CLAUDE_CODE_ADDITIONAL_DIRECTORIES_CLAUDE_MD: none of its memory files loads."),
    Case("ad03_add_dir_variable_values", git=True, cwd="repo", add_dirs=("other", "gone", "two"),
         env={"CLAUDE_CODE_ADDITIONAL_DIRECTORIES_CLAUDE_MD": " Yes "},
         files={**ADDED, "two/CLAUDE.md": "two claude\n"},
         note="a true value, trimmed, any case; the folders in the order given; a folder that is not there is "
              "passed over."),
    Case("ad04_add_dir_variable_two_is_false", git=True, cwd="repo", add_dirs=("other",),
         env={"CLAUDE_CODE_ADDITIONAL_DIRECTORIES_CLAUDE_MD": "2"}, files=ADDED,
         note="`2` is no true value: nothing of the folder loads."),
    Case("ad05_add_dir_variable_in_settings_env", git=True, cwd="repo", add_dirs=("other",),
         files={**ADDED, "repo/.claude/settings.json": json.dumps({"env": {"CLAUDE_CODE_ADDITIONAL_DIRECTORIES_CLAUDE_MD": "true"},
                                                                    "claudeMdExcludes": ["**/other/.claude/**"]})},
         note="the variable from the project's settings `env` block counts; the project's excludes apply to the "
              "folder's files."),
    Case("ad06_add_dir_agents_fallback", git=True, cwd="repo", add_dirs=("ag",), env=ON,
         files={"repo/AGENTS.md": "repo agents\n", "ag/CLAUDE.md": "ag claude\n", "ag/AGENTS.md": "ag agents\n"},
         note="C01: the added folder's CLAUDE.md does not keep the start folder's AGENTS.md out (only the walk's "
              "folders count), which is placed after it; the added folder's AGENTS.md is not read."),
    Case("ad07_add_dir_includes_approved", git=True, cwd="repo", add_dirs=("other",), env=ON, files=ADDED,
         home_files={".claude.json": json.dumps({"projects": {"<TREE>": {"hasClaudeMdExternalIncludesApproved": True}}})},
         note="with external includes approved, the folder's includes are followed."),
    Case("ad08_add_dir_setting_sources", git=True, cwd="repo", add_dirs=("other",), env=ON, files=ADDED,
         setting_sources="project",
         note="--setting-sources project: the folder's CLAUDE.local.md is not read either."),
]
CASES_SOURCES += [
    Case("ad09_add_dir_without_project_source", git=True, cwd="repo", add_dirs=("other",), env=ON, files=ADDED,
         setting_sources="user",
         note="--setting-sources user: the added folder's CLAUDE.md, .claude/CLAUDE.md and rules load all the same "
              "(the project source does not gate them), its CLAUDE.local.md does not (the local source does)."),
]
CASES_SOURCES += [
    Case("ad10_add_dir_conditional_rules_never_arrive", git=True, cwd="repo", add_dirs=("other",), env=ON,
         read="repo/x.py",
         files={"repo/CLAUDE.md": "repo claude\n", "repo/x.py": "x = 1\n",
                "repo/.claude/rules/py.md": "---\npaths: \"**/*.py\"\n---\nrepo py rule\n",
                "other/CLAUDE.md": "other claude\n",
                "other/.claude/rules/py.md": "---\npaths: \"**/*.py\"\n---\nother py rule\n"},
         note="§4: a Read of repo/x.py attaches the project's matching conditional rule, never the added "
              "folder's (nor does a Read of a file in the added folder)."),
]
CASES_SOURCES += [
    Case("ad11_add_dir_deny_rule_from_each_folder", git=True, cwd="repo", add_dirs=("other",), env=ON,
         files={**ADDED, "repo/.claude/settings.json": json.dumps(
             {"permissions": {"deny": ["Read(CLAUDE.md)", "Read(/CLAUDE.local.md)", "Read(rules/*.md)"]}})},
         note="a deny rule's relative pattern is matched from the start folder and from each added folder: "
              "`CLAUDE.md` withholds the start folder's CLAUDE.md and the added folder's CLAUDE.md and "
              ".claude/CLAUDE.md; `rules/*.md` is anchored, and from the added folder its rule is "
              "`.claude/rules/r.md`, so it loads; `/CLAUDE.local.md` is anchored at the start folder alone."),
    Case("ad12_add_dir_inside_start_folder_is_no_rule_root", git=True, cwd="repo", add_dirs=("repo/lib",),
         read="repo/lib/src/m.py",
         files={"repo/CLAUDE.md": "repo claude\n", "repo/lib/CLAUDE.md": "lib claude\n",
                "repo/lib/src/CLAUDE.md": "lib src claude\n", "repo/lib/src/m.py": "m = 1\n",
                "repo/.claude/settings.json": json.dumps({"permissions": {"deny": ["Read(src/*.py)"]}})},
         note="an --add-dir folder inside the start folder is no working folder of its own: `src/*.py` "
              "(anchored) is tried from the start folder only, so the Read of repo/lib/src/m.py is allowed and "
              "attaches lib's and src's CLAUDE.md."),
    Case("ad13_add_dir_above_start_folder_is_a_rule_root", git=True, cwd="work/repo", add_dirs=("work",),
         read="work/repo/src/m.py",
         files={"CLAUDE.md": "top claude\n", "work/CLAUDE.md": "work claude\n",
                "work/repo/CLAUDE.md": "repo claude\n", "work/repo/CLAUDE.local.md": "repo local\n",
                "work/repo/src/CLAUDE.md": "src claude\n", "work/repo/src/m.py": "m = 1\n",
                "work/repo/.claude/settings.json": json.dumps(
                    {"permissions": {"deny": ["Read(repo/CLAUDE.md)", "Read(repo/src/*.py)"]}})},
         note="an --add-dir folder above the start folder is a working folder (without the variable too): "
              "`repo/CLAUDE.md` from work/ withholds the start folder's CLAUDE.md, and `repo/src/*.py` makes "
              "Claude Code refuse the Read of work/repo/src/m.py, so src's CLAUDE.md is not attached."),
]
CASES_SOURCES += [
    Case("ad14_add_dir_inside_start_folder_read", git=True, add_dirs=("ad",), env=ON, read="ad/f.py",
         files={"CLAUDE.md": "root\n", "ad/CLAUDE.md": "added claude @inc.md\n", "ad/inc.md": "added include\n",
                "ad/.claude/rules/ar.md": "added rule\n", "ad/CLAUDE.local.md": "added local\n", "ad/f.py": "x = 1\n"},
         note="an --add-dir folder inside the start folder loads its memory at start (its include is inside the "
              "start folder, so it is followed); a Read in it attaches that memory again on older releases."),
]
