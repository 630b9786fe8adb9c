"""Differential cases for `memlint context --reading FILE`: what Claude Code attaches when Claude reads
one file (spec §1 and §4, C05 nested AGENTS.md, C17 how deferred files arrive). Each case names the
file read (`read=`); the recording's `after_read` lists what the real CLI attached, per release.

Trees: a chain of nested CLAUDE.md files with includes and nested rules, nested AGENTS.md with and
without a CLAUDE.md, conditional rules with many kinds of glob, a file outside the start folder,
`.claude/rules` in the start folder's ancestors, and a read of a file in the start folder itself."""
from __future__ import annotations

import json

from cases import Case, Symlink


def _mode(value: str) -> str:
    """A user settings file that sets the AGENTS.md plugin's `instructionFiles`."""
    return json.dumps({"pluginConfigs": {"cc-plugin-agents-md@builtin": {"options": {"instructionFiles": value}}}})


_MODE_BOTH = _mode("claude-md-and-agents-md")
# Claude Code asks before reading outside its start folder; allowed here so the Read happens
_ALLOW_READ = {"permissions": {"allow": ["Read"]}}

CASES_READS: list[Case] = [
    Case("rr01_nested_chain", git=True, read="a/b/c/f.py",
         note="§1: every folder from below the start down to the file's: CLAUDE.md, .claude/CLAUDE.md, "
              "CLAUDE.local.md, unconditional nested rules, includes; a sibling folder's CLAUDE.md is not attached.",
         files={"CLAUDE.md": "root\n", "a/CLAUDE.md": "a claude\n", "a/b/.claude/CLAUDE.md": "b dot claude\n",
                "a/b/CLAUDE.local.md": "b local @b-inc.md\n", "a/b/b-inc.md": "b include\n",
                "a/b/.claude/rules/plain.md": "b plain rule\n",
                "a/b/c/CLAUDE.md": "c claude @docs/c-inc.md\n", "a/b/c/docs/c-inc.md": "c include\n",
                "a/b/c/f.py": "x = 1\n", "s/CLAUDE.md": "sibling (not attached)\n"}),
    Case("rr02_agents_fallback_chain", git=True, read="a/b/x.txt",
         note="C05: fallback mode, no CLAUDE.md at start: a/AGENTS.md arrives; a/b has its own CLAUDE.md, "
              "so its CLAUDE.md, not its AGENTS.md.",
         files={"AGENTS.md": "agents root\n", "a/AGENTS.md": "a agents\n", "a/b/AGENTS.md": "b agents\n",
                "a/b/CLAUDE.md": "b claude\n", "a/b/x.txt": "x\n"}),
    Case("rr03_agents_both_mode_nested", git=True, read="a/x.txt",
         note="C05/C06: claude-md-and-agents-md: a/CLAUDE.md, then a/AGENTS.md with its include and "
              "a/.claude/AGENTS.md; an AGENTS.md whose text equals the folder's CLAUDE.md is dropped (a/b).",
         files={"CLAUDE.md": "root\n", "a/CLAUDE.md": "a claude\n", "a/AGENTS.md": "a agents @a-inc.md\n",
                "a/a-inc.md": "a include\n", "a/.claude/AGENTS.md": "a dot agents\n", "a/x.txt": "x\n",
                "a/b/CLAUDE.md": "same text\n", "a/b/AGENTS.md": "same text\n"},
         home_files={".claude/settings.json": _MODE_BOTH}),
    Case("rr04_agents_fallback_project_claude", git=True, read="a/b/x.txt",
         note="C05: fallback mode with a CLAUDE.md at start: nested CLAUDE.md files arrive, no AGENTS.md.",
         files={"CLAUDE.md": "root\n", "a/AGENTS.md": "a agents\n", "a/b/CLAUDE.md": "b claude\n",
                "a/b/AGENTS.md": "b agents\n", "a/b/x.txt": "x\n"}),
    Case("rr05_conditional_globs", git=True, read="src/app/Main.test.tsx",
         note="§4: conditional rules matched against src/app/Main.test.tsx: braces, one level, any depth, "
              "case, leading ./ and /, a list, a quoted string, `globs:` instead of `paths:`, an include.",
         files={".claude/rules/brace.md": "---\npaths: \"**/*.{ts,tsx}\"\n---\nBRACE\n",
                ".claude/rules/one-level.md": "---\npaths: src/*\n---\nONE LEVEL\n",
                ".claude/rules/deep.md": "---\npaths: src/**\n---\nDEEP\n",
                ".claude/rules/upper.md": "---\npaths: SRC/**\n---\nUPPER\n",
                ".claude/rules/dot-slash.md": "---\npaths: ./src/app/*.tsx\n---\nDOT SLASH\n",
                ".claude/rules/slash.md": "---\npaths: /src/app/**\n---\nSLASH\n",
                ".claude/rules/list.md": "---\npaths:\n  - \"lib/**\"\n  - \"**/*.test.tsx\"\n---\nLIST @rule-inc.md\n",
                ".claude/rules/rule-inc.md.txt": "not a rule\n",
                "rule-inc.md": "RULE INCLUDE\n",
                ".claude/rules/basename.md": "---\npaths: Main.test.tsx\n---\nBASENAME\n",
                ".claude/rules/py.md": "---\npaths: \"**/*.py\"\n---\nPY\n",
                ".claude/rules/globs-key.md": "---\nglobs: src/**\n---\nGLOBS KEY\n",
                ".claude/rules/comma.md": "---\npaths: \"lib/**, src/app/**\"\n---\nCOMMA\n",
                "src/app/Main.test.tsx": "export {};\n", "CLAUDE.md": "root\n"}),
    Case("rr06_outside_start_folder", git=True, cwd="proj", read="other/f.ts", flag_settings=_ALLOW_READ,
         note="§1: a file outside the start folder: its folder's CLAUDE.md is not attached; conditional "
              "rules of the start folder and of its ancestors are tried against it.",
         files={"proj/CLAUDE.md": "proj\n", "proj/.claude/rules/ts.md": "---\npaths: \"**/*.ts\"\n---\nPROJ TS\n",
                ".claude/rules/root-other.md": "---\npaths: other/**\n---\nROOT OTHER\n",
                "other/CLAUDE.md": "other claude\n", "other/f.ts": "export {};\n"}),
    Case("rr07_ancestor_rules", git=True, cwd="a/b", read="a/b/src/x.py",
         note="§4: conditional rules in the start folder's ancestors match paths relative to the folder "
              "that holds their .claude/.",
         files={".claude/rules/anc.md": "---\npaths: a/b/src/**\n---\nANC\n",
                ".claude/rules/anc-miss.md": "---\npaths: src/**\n---\nANC MISS\n",
                "a/.claude/rules/mid.md": "---\npaths: b/src/*.py\n---\nMID\n",
                "a/b/.claude/rules/own.md": "---\npaths: src/**\n---\nOWN\n",
                "a/b/CLAUDE.md": "b\n", "a/b/src/x.py": "x = 1\n"}),
    Case("rr08_read_in_start_folder", git=True, read="setup.py",
         note="§1/§4: a file in the start folder attaches no nested file; a matching conditional rule and "
              "its include do.",
         files={"CLAUDE.md": "root\n", "sub/CLAUDE.md": "sub (not attached)\n",
                ".claude/rules/py.md": "---\npaths: \"*.py\"\n---\nPY @py-detail.md\n",
                "py-detail.md": "py detail\n", "setup.py": "x = 1\n"}),
    Case("rr09_read_nested_memory_file", git=True, read="sub/CLAUDE.md",
         note="§1: reading a nested CLAUDE.md itself attaches its folder's memory.",
         files={"CLAUDE.md": "root\n", "sub/CLAUDE.md": "sub claude\n", "sub/CLAUDE.local.md": "sub local\n"}),
    Case("rr10_read_nested_memory_with_include", git=True, read="sub/CLAUDE.md",
         note="§1: reading a nested CLAUDE.md that includes a file: what of its includes is attached.",
         files={"CLAUDE.md": "root\n", "sub/CLAUDE.md": "sub claude @inc.md\n", "sub/inc.md": "sub include\n",
                "sub/.claude/CLAUDE.md": "sub dot claude\n"}),
    Case("rr11_read_conditional_rule_file", git=True, read=".claude/rules/md.md",
         note="§4: reading a conditional rule file that matches itself.",
         files={"CLAUDE.md": "root\n", ".claude/rules/md.md": "---\npaths: \"**/*.md\"\n---\nMD RULE\n",
                ".claude/rules/all.md": "---\npaths: \".claude/**\"\n---\nDOT CLAUDE RULE\n"}),
    Case("rr12_nested_conditional_rule", git=True, read="deep/x/f.txt",
         note="§1/§4: a nested folder's conditional rule (paths relative to that folder) arrives with the folder's "
              "CLAUDE.md and the start folder's matching rule; one that does not match stays out.",
         files={"CLAUDE.md": "root\n", "deep/CLAUDE.md": "deep claude\n",
                "deep/.claude/rules/c.md": "---\npaths: x/**\n---\nDEEP RULE\n",
                "deep/.claude/rules/other.md": "---\npaths: y/**\n---\nOTHER RULE\n",
                ".claude/rules/top.md": "---\npaths: deep/x/**\n---\nTOP RULE\n", "deep/x/f.txt": "x\n"}),
]
CASES_READS += [
    Case("rr13_read_denied", git=True, read="a/b/f.py",
         settings={"permissions": {"deny": ["Read(./a/**)"]}},
         note="a Read that a Read deny rule covers is refused: nothing is attached, not the folder's CLAUDE.md nor "
              "a matching conditional rule (every release).",
         files={"CLAUDE.md": "root\n", "a/CLAUDE.md": "a claude\n", "a/b/f.py": "x = 1\n",
                ".claude/rules/py.md": "---\npaths: \"**/*.py\"\n---\nPY RULE\n"}),
]
CASES_READS += [
    Case("rr14_read_below_automount_root", git=True, read="a/b/f.py", env={"CLAUDE_CODE_AUTOMOUNT_ROOTS": "<TREE>/a"},
         note="a Read below a CLAUDE_CODE_AUTOMOUNT_ROOTS folder: from 2.1.323 the root's own memory (CLAUDE.md, "
              "CLAUDE.local.md, rules) is skipped as the walk at start skips it; a folder below it still counts, "
              "and a conditional rule of the start folder still matches.",
         files={"CLAUDE.md": "root\n", "a/CLAUDE.md": "a claude\n", "a/CLAUDE.local.md": "a local\n",
                "a/.claude/rules/ar.md": "a rule\n", "a/b/CLAUDE.md": "a b claude\n", "a/b/f.py": "x = 1\n",
                ".claude/rules/py.md": "---\npaths: \"a/**\"\n---\nA RULE\n"}),
    Case("rr15_read_in_automount_root", git=True, read="a/f.py", env={"CLAUDE_CODE_AUTOMOUNT_ROOTS": "<TREE>/a"},
         note="a Read of a file directly in a CLAUDE_CODE_AUTOMOUNT_ROOTS folder: from 2.1.323 its memory is "
              "not attached.",
         files={"CLAUDE.md": "root\n", "a/CLAUDE.md": "a claude\n", "a/CLAUDE.local.md": "a local\n",
                "a/f.py": "x = 1\n"}),
]
CASES_READS += [
    Case("rr16_read_nested_rules_without_project_source", git=True, read="a/b/f.py", setting_sources="",
         note="started with `--setting-sources \"\"`: a Read below a folder with its own CLAUDE.md and rules.",
         files={"CLAUDE.md": "root\n", "a/CLAUDE.md": "a claude\n", "a/CLAUDE.local.md": "a local\n",
                "a/.claude/rules/t.md": "a rule\n", "a/b/f.py": "x = 1\n"}),
    Case("rr17_read_linked_rules_folder_without_project_source", git=True, read="a/b/f.py", setting_sources="",
         note="the same with the nested rules folder a link to a folder inside the project.",
         files={"CLAUDE.md": "root\n", "a/CLAUDE.md": "a claude\n", "a/.claude/rules": Symlink("../../team-rules"),
                "team-rules/t.md": "team rule\n", "a/b/f.py": "x = 1\n"}),
    Case("rr18_read_linked_rules_folder", git=True, read="a/b/f.py",
         note="a Read below a folder whose rules folder is a link to a folder inside the project.",
         files={"CLAUDE.md": "root\n", "a/CLAUDE.md": "a claude\n", "a/.claude/rules": Symlink("../../team-rules"),
                "team-rules/t.md": "team rule\n", "team-rules/c.md": "---\npaths: \"**/*.ts\"\n---\nts rule\n",
                "a/b/f.py": "x = 1\n"}),
]
CASES_READS += [
    Case("rr19_read_nested_claude_md_with_paths", git=True, read="a/b/f.py",
         note="a nested CLAUDE.md and CLAUDE.local.md with `paths:` frontmatter that does not match the file read "
              "are attached all the same (paths: makes only a rule conditional).",
         files={"CLAUDE.md": "root\n", "a/CLAUDE.md": "\ufeff---\npaths: src/**\n---\na claude\n",
                "a/CLAUDE.local.md": "---\npaths: docs/**\n---\na local\n", "a/b/f.py": "x = 1\n"}),
    Case("rr20_read_linked_rules_folder_conditional_rule", git=True, read="a/b/f.py",
         note="a nested rules folder that is a link: its conditional rule whose paths: match the file read "
              "(relative to a/) arrives with its include, the one that does not match stays out.",
         files={"CLAUDE.md": "root\n", "a/.claude/rules": Symlink("../../team-rules"),
                "team-rules/py.md": "---\npaths: \"b/**\"\n---\npy rule @inc.md\n", "team-rules/inc.md": "rule include\n",
                "team-rules/ts.md": "---\npaths: \"**/*.ts\"\n---\nts rule\n", "a/b/f.py": "x = 1\n"}),
]
CASES_READS += [
    Case("rr21_read_nested_rule_file_linked_outside", git=True, cwd="repo", read="repo/a/b/f.py",
         note="a nested folder's rule files that are links to files outside the start folder: neither the "
              "unconditional one nor the conditional one that matches the file read is attached (external).",
         files={"repo/CLAUDE.md": "root\n", "repo/a/.claude/rules/py.md": Symlink("../../../../shared/py.md"),
                "repo/a/.claude/rules/all.md": Symlink("../../../../shared/all.md"),
                "shared/py.md": "---\npaths: \"b/**\"\n---\nshared py rule\n", "shared/all.md": "shared rule\n",
                "repo/a/b/f.py": "x = 1\n"}),
]
CASES_READS += [
    Case("rr22_read_agents_md_included_by_a_rule", git=True, read="a/f.txt",
         note="C05, claude-md-and-agents-md: a nested rule includes the folder's AGENTS.md. On the Read the rule "
              "and its include arrive (user blocks), and the AGENTS.md plugin attaches the AGENTS.md again with its "
              "own include (system): it knows only what loaded at start, not what this Read attached.",
         files={"CLAUDE.md": "root\n", "a/CLAUDE.md": "a claude\n", "a/.claude/rules/r.md": "rule @../../AGENTS.md\n",
                "a/AGENTS.md": "a agents @inc.md\n", "a/inc.md": "a include\n", "a/f.txt": "x\n"},
         home_files={".claude/settings.json": _MODE_BOTH}),
    Case("rr23_read_agents_md_equal_to_an_include", git=True, read="a/f.txt",
         note="C06, claude-md-and-agents-md: a nested AGENTS.md whose text equals a file the folder's CLAUDE.md "
              "includes, and a .claude/AGENTS.md equal to the folder's rule.",
         files={"CLAUDE.md": "root\n", "a/CLAUDE.md": "a claude @notes.md\n", "a/notes.md": "same text\n",
                "a/AGENTS.md": "same text\n", "a/.claude/rules/r.md": "rule text\n",
                "a/.claude/AGENTS.md": "rule text\n", "a/f.txt": "x\n"},
         home_files={".claude/settings.json": _MODE_BOTH}),
]
CASES_READS += [
    Case("rr24_read_agents_md_shares_an_include", git=True, read="a/f.txt",
         note="C05, claude-md-and-agents-md: the nested CLAUDE.md and AGENTS.md include the same file, and the "
              "AGENTS.md includes one the start's CLAUDE.md loaded: the plugin attaches the AGENTS.md alone (it knows "
              "what loaded at start and what the folder's CLAUDE.md sent on this Read).",
         files={"CLAUDE.md": "root @common.md\n", "common.md": "common\n", "a/CLAUDE.md": "a claude @shared.md\n",
                "a/shared.md": "shared\n", "a/AGENTS.md": "a agents @shared.md @../common.md\n", "a/f.txt": "x\n"},
         home_files={".claude/settings.json": _MODE_BOTH}),
]
CASES_READS += [
    Case("rr25_read_in_managed_only_mode", git=True, cwd="a", read="a/b/f.py",
         home_files={".claude/settings.json": _mode("managed-only"), ".claude/rules/u.md": "---\npaths: \"**/*.py\"\n---\nuser py\n"},
         note="C04, managed-only mode: nothing of the user, project or local files loads at start; on a Read below "
              "the start folder.",
         files={"CLAUDE.md": "root\n", ".claude/rules/cond.md": "---\npaths: a/**\n---\nroot cond\n",
                "a/CLAUDE.md": "a claude\n", "a/.claude/rules/c2.md": "---\npaths: b/**\n---\na cond\n",
                "a/.claude/rules/plain.md": "a plain\n", "a/b/CLAUDE.md": "b claude\n", "a/b/CLAUDE.local.md": "b local\n",
                "a/b/.claude/rules/r.md": "b rule\n", "a/b/AGENTS.md": "b agents\n", "a/b/f.py": "x = 1\n"}),
]
CASES_READS += [
    Case("rr26_read_agents_fallback_folder_has_local", git=True, read="a/b/c/f.txt",
         note="C05, fallback mode with no CLAUDE.md at start: a folder on the way with a CLAUDE.local.md gets that, "
              "not its AGENTS.md (as one with a CLAUDE.md); an empty CLAUDE.local.md (a/b) does not count; "
              "a/b/c has none.",
         files={"AGENTS.md": "agents root\n", "a/CLAUDE.local.md": "a local\n", "a/AGENTS.md": "a agents\n",
                "a/b/CLAUDE.local.md": "  \n", "a/b/AGENTS.md": "b agents\n", "a/b/c/AGENTS.md": "c agents\n",
                "a/b/c/f.txt": "x\n"}),
]
CASES_READS += [
    Case("rr27_read_agents_fallback_empty_claude_md", git=True, read="a/b/c/f.txt",
         note="C05, fallback mode with no CLAUDE.md at start: an empty CLAUDE.md (a) or a comment-only "
              ".claude/CLAUDE.md (a/b) does not keep the folder's AGENTS.md out; a CLAUDE.md excluded by "
              "claudeMdExcludes (a/b/c) does not either.",
         settings={"claudeMdExcludes": ["**/c/CLAUDE.md"]},
         files={"AGENTS.md": "agents root\n", "a/CLAUDE.md": "", "a/AGENTS.md": "a agents\n",
                "a/b/.claude/CLAUDE.md": "<!-- only a comment -->\n", "a/b/AGENTS.md": "b agents\n",
                "a/b/c/CLAUDE.md": "c claude\n", "a/b/c/AGENTS.md": "c agents\n", "a/b/c/f.txt": "x\n"}),
]
CASES_READS += [
    Case("rr28_read_conditional_rule_loaded_as_include", git=True, read="a/f.py",
         note="a conditional rule that loaded at start as an include (the project's CLAUDE.md includes one, the "
              "user's CLAUDE.md another) matches the file read.",
         files={"CLAUDE.md": "root @.claude/rules/cond.md\n", ".claude/rules/cond.md": "---\npaths: a/**\n---\nproject cond\n",
                "a/f.py": "x = 1\n"},
         home_files={".claude/CLAUDE.md": "user @rules/ucond.md\n",
                     ".claude/rules/ucond.md": "---\npaths: \"**/*.py\"\n---\nuser cond\n"}),
]
CASES_READS += [
    Case("rr29_read_rule_include_loaded_at_start", git=True, read="src/f.py",
         note="a rule includes CLAUDE.md, which has `paths:` frontmatter (ignored in a CLAUDE.md) and loaded at start; "
              "a Read that its paths: match.",
         files={"CLAUDE.md": "---\npaths: \"src/**\"\n---\nroot claude @inc.md\n", "inc.md": "root include\n",
                ".claude/rules/r.md": "rule @../../CLAUDE.md\n", "src/f.py": "x = 1\n"}),
]
CASES_READS += [
    Case("rr30_read_nested_claude_md_loaded_as_include", git=True, read="a/f.py",
         note="the start folder's CLAUDE.md includes a nested folder's CLAUDE.md, which so loads at start; a Read "
              "in that folder.",
         files={"CLAUDE.md": "root @a/CLAUDE.md\n", "a/CLAUDE.md": "a claude\n", "a/CLAUDE.local.md": "a local\n",
                "a/f.py": "x = 1\n"}),
]
CASES_READS += [
    Case("rr31_read_nested_include_loaded_at_start", git=True, read="a/f.py",
         note="a nested CLAUDE.md includes a file the start folder's CLAUDE.md included at start; a Read in the "
              "nested folder.",
         files={"CLAUDE.md": "root @common.md\n", "common.md": "common\n", "a/CLAUDE.md": "a claude @../common.md\n",
                "a/f.py": "x = 1\n"}),
]
CASES_READS += [
    Case("rr32_read_user_rule_under_home", git=True, under_home=True, cwd="a", read="a/src/f.py",
         note="a session started below HOME, whose `.claude/rules` is both the user's rules folder and a folder of "
              "the walk: the user's conditional rule is matched from the start folder (its `a/**` does not match "
              "src/f.py there), once, on every release.",
         files={"a/CLAUDE.md": "a claude\n", "a/src/f.py": "x = 1\n"},
         home_files={".claude/rules/ur.md": "---\npaths: a/**\n---\nuser cond\n", ".claude/rules/hr.md": "home rule\n"}),
]
CASES_READS += [
    Case("rr33_read_in_a_dot_claude_folder", git=True, read="a/.claude/notes/x.md",
         note="a Read of a file inside a nested folder's `.claude/`: the folders on the way are a/, a/.claude/ and "
              "a/.claude/notes/; in fallback mode (nothing of the CLAUDE.md family at start) a/ has a CLAUDE.md, so "
              "its AGENTS files stay out, and the plugin reckons a/.claude/AGENTS.md a/'s when it meets it as "
              "a/.claude/'s: it stays out too, while a/.claude/notes/AGENTS.md arrives.",
         files={"AGENTS.md": "root agents\n", "a/CLAUDE.md": "a claude\n", "a/AGENTS.md": "a agents\n",
                "a/.claude/AGENTS.md": "a dot agents\n", "a/.claude/notes/AGENTS.md": "notes agents\n",
                "a/.claude/notes/x.md": "x\n"}),
]
CASES_READS += [
    Case("rr34_read_agents_md_in_an_automount_root", git=True, read="a/.claude/notes.md",
         env={"CLAUDE_CODE_AUTOMOUNT_ROOTS": "<TREE>/a"},
         note="fallback mode, a/ a CLAUDE_CODE_AUTOMOUNT_ROOTS folder: a Read in a/.claude/ attaches nothing of a/ "
              "(the walk skips the folder from 2.1.323, its AGENTS.md too), but a/.claude/ is a folder of the walk, "
              "and its AGENTS.md arrives: the plugin reckons it a/'s, which has no CLAUDE.md that would load.",
         files={"AGENTS.md": "root agents\n", "a/CLAUDE.local.md": "  \n", "a/AGENTS.md": "a agents @inc.md\n",
                "a/inc.md": "a include\n", "a/.claude/AGENTS.md": "a dot agents\n", "a/.claude/notes.md": "x\n"}),
    Case("rr35_read_start_folders_agents_md_when_the_start_is_skipped", git=True, cwd="a",
         read="a/.claude/AGENTS.md", env={"CLAUDE_CODE_AUTOMOUNT_ROOTS": "<TREE>/a"},
         note="started in a CLAUDE_CODE_AUTOMOUNT_ROOTS folder (nothing of it loads at start from 2.1.323, its "
              "CLAUDE.local.md neither): Claude reads the start folder's .claude/AGENTS.md; a/.claude/ is a folder of "
              "the Read's walk and no CLAUDE.md family file of a/ is in the session, so what that file includes "
              "arrives (the file read itself is not attached).",
         files={"a/CLAUDE.local.md": "a local\n", "a/.claude/AGENTS.md": "a dot agents @inc.md\n",
                "a/.claude/inc.md": "dot include\n"}),
]
CASES_READS += [
    Case("rr36_read_linked_dot_claude", git=True, cwd="a", read="a/shared/rules/t.md",
         note="a/.claude is a link to a/shared/: a/.claude/CLAUDE.md loads at start by that path; a Read in a/shared/ "
              "sends a/shared/CLAUDE.md (the same file, by another path) as that folder's CLAUDE.md.",
         files={"a/CLAUDE.md": "a claude\n", "a/.claude": Symlink("shared"), "a/shared/CLAUDE.md": "shared claude\n",
                "a/shared/rules/t.md": "shared rule\n"}),
]
