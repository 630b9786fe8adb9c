"""Differential cases for what changed between Claude Code 2.1.197 and 2.1.332
(../shared/spec/claude-code-2.1.332-changes.md): AGENTS.md (C01-C06), symlinks leaving the start
folder (C12), Read deny rules (C13), special folders (C14), automount roots (C15), the project
folder name (C16), process files (C18) and the settings of section 4. Each is shaped like the
spec's probe tree named in its note and recorded on both releases."""
from __future__ import annotations

import json
from typing import Any

from cases import Case, Symlink


def js(data: Any) -> str:
    return json.dumps(data)


def mode(value: str, plugin: str = "cc-plugin-agents-md@builtin", key: str = "instructionFiles") -> dict[str, Any]:
    return {"pluginConfigs": {plugin: {"options": {key: value}}}}


USER_SETTINGS = ".claude/settings.json"

CASES_2_1_332: list[Case] = [
    # ---------------------------------------------------------------- C01 AGENTS.md at start
    Case("ag01_only_agents", git=True, note="C01: only AGENTS.md: 332 loads it, 197 nothing.",
         files={"AGENTS.md": "agents root\n"}),
    Case("ag02_agents_and_claude", git=True, note="C01: AGENTS.md + CLAUDE.md: CLAUDE.md only.",
         files={"AGENTS.md": "agents root\n", "CLAUDE.md": "claude root\n"}),
    Case("ag03_agents_and_dotclaude", git=True, note="C01: AGENTS.md + .claude/CLAUDE.md: .claude/CLAUDE.md only.",
         files={"AGENTS.md": "agents root\n", ".claude/CLAUDE.md": "dot claude\n"}),
    Case("ag04_agents_and_local", git=True, note="C01: AGENTS.md + CLAUDE.local.md: CLAUDE.local.md only.",
         files={"AGENTS.md": "agents root\n", "CLAUDE.local.md": "local\n"}),
    Case("ag06_both_agents", git=True, note="C01: AGENTS.md then .claude/AGENTS.md.",
         files={"AGENTS.md": "agents root\n", ".claude/AGENTS.md": "dot agents\n"}),
    Case("ag07_ancestors", git=True, cwd="a/b", note="C01: ancestors' AGENTS.md load, not deeper or sibling ones.",
         files={"AGENTS.md": "agents root\n", "a/AGENTS.md": "agents a\n", "a/b/AGENTS.md": "agents b\n",
                "a/b/c/AGENTS.md": "agents c\n", "a/x/AGENTS.md": "agents x\n"}),
    Case("ag08_claude_root_agents_sub", git=True, cwd="a", note="C01: CLAUDE.md at the root stops a/AGENTS.md.",
         files={"CLAUDE.md": "claude root\n", "a/AGENTS.md": "agents a\n"}),
    Case("ag09_claude_sub_agents_root", git=True, cwd="a", note="C01: a/CLAUDE.md stops the root AGENTS.md.",
         files={"AGENTS.md": "agents root\n", "a/CLAUDE.md": "claude a\n"}),
    Case("ag43_local_only_in_subfolder", git=True, cwd="a", note="C01: a/CLAUDE.local.md stops the root AGENTS.md.",
         files={"AGENTS.md": "agents root\n", "a/CLAUDE.local.md": "local a\n"}),
    Case("ag10_agents_include", git=True, note="C01: AGENTS.md's includes are followed.",
         files={"AGENTS.md": "agents root @inc.md\n", "inc.md": "inc\n"}),
    Case("ag11_empty_claude_md", git=True,
         note="C01: a whitespace-only CLAUDE.md and a comment-only CLAUDE.local.md do not count; a "
              "whitespace-only .claude/AGENTS.md is not loaded.",
         files={"AGENTS.md": "agents root\n", "CLAUDE.md": "  \n\n", "CLAUDE.local.md": "<!-- only -->\n",
                ".claude/AGENTS.md": " \n"}),
    Case("ag12_user_claude_project_agents", git=True, note="C01: a user CLAUDE.md does not count.",
         files={"AGENTS.md": "agents root\n"}, home_files={".claude/CLAUDE.md": "user claude\n",
                                                           ".claude/AGENTS.md": "user agents (never)\n"}),
    Case("ag14_override_and_case", git=True, note="C01: AGENTS.override.md and agents.md are never loaded.",
         files={"AGENTS.md": "agents root\n", "AGENTS.override.md": "override\n", "a/agents.md": "lower\n",
                "a/Agents.md": "mixed\n"}),
    Case("ag15_rules_order", git=True, cwd="a", note="C02: per folder, its rules then its AGENTS files.",
         files={"AGENTS.md": "agents root\n", ".claude/rules/r.md": "root rule\n", "a/AGENTS.md": "agents a\n",
                "a/.claude/AGENTS.md": "a dot agents\n", "a/.claude/rules/ra.md": "a rule\n"},
         home_files={".claude/rules/u.md": "user rule\n"}, automem={"MEMORY.md": "- memory\n"}),
    Case("ag19a_exclude_claude", git=True, note="C01: an excluded CLAUDE.md counts as absent.",
         files={"AGENTS.md": "agents root\n", "CLAUDE.md": "claude root\n"},
         settings={"claudeMdExcludes": ["**/CLAUDE.md"]}),
    Case("ag19b_exclude_agents", git=True, note="C01: claudeMdExcludes also drops AGENTS files.",
         files={"AGENTS.md": "agents root\n", ".claude/AGENTS.md": "dot agents\n"},
         settings={"claudeMdExcludes": ["**/AGENTS.md"]}),
    Case("ag24_agents_frontmatter", git=True, note="C01: AGENTS.md with paths: loads, frontmatter removed.",
         files={"AGENTS.md": "---\npaths: src/**\n---\nagents body\n", "src/a.ts": "x\n"}),
    Case("ag42_agents_external_include", git=True, cwd="a",
         note="C01: AGENTS.md's include outside the start folder is not followed.",
         files={"AGENTS.md": "agents @x.md @a/y.md\n", "x.md": "x\n", "a/y.md": "y\n"}),
    # ---------------------------------------------------------------- C03/C04 the instructionFiles setting
    Case("ag30_mode_both_fullid", git=True, note="C03: claude-md-and-agents-md (full id) in user settings.",
         files={"AGENTS.md": "agents root\n", "CLAUDE.md": "claude root\n"},
         home_files={USER_SETTINGS: js(mode("claude-md-and-agents-md"))}),
    Case("ag31_mode_both_alias", git=True, note="C03: the alias agents-md@builtin.",
         files={"AGENTS.md": "agents root\n", "CLAUDE.md": "claude root\n"},
         home_files={USER_SETTINGS: js(mode("claude-md-and-agents-md", "agents-md@builtin"))}),
    Case("ag32_mode_both_bare", git=True, note="C03: the bare id cc-plugin-agents-md is no plugin id.",
         files={"AGENTS.md": "agents root\n", "CLAUDE.md": "claude root\n"},
         home_files={USER_SETTINGS: js(mode("claude-md-and-agents-md", "cc-plugin-agents-md"))}),
    Case("ag33_mode_claude_only", git=True, note="C03: claude-md never reads AGENTS.md.",
         files={"AGENTS.md": "agents root\n"}, home_files={USER_SETTINGS: js(mode("claude-md"))}),
    Case("ag34_mode_managed_only", git=True, note="C04: managed-only drops user, project, local; MEMORY.md stays.",
         files={"AGENTS.md": "agents\n", "CLAUDE.md": "claude\n", "CLAUDE.local.md": "local\n",
                ".claude/rules/r.md": "rule\n"},
         home_files={USER_SETTINGS: js(mode("managed-only")), ".claude/CLAUDE.md": "user\n",
                     ".claude/rules/u.md": "user rule\n"},
         automem={"MEMORY.md": "- memory\n"}),
    Case("ag35_legacy_projectInstructions", git=True, note="C03: legacy projectInstructions = both.",
         files={"AGENTS.md": "agents root\n", "CLAUDE.md": "claude root\n"},
         home_files={USER_SETTINGS: js(mode("both", key="projectInstructions"))}),
    Case("ag36_mode_in_project_settings", git=True, note="C03: the mode in project settings is ignored.",
         files={"AGENTS.md": "agents root\n", "CLAUDE.md": "claude root\n"},
         settings=mode("claude-md-and-agents-md")),
    Case("ag37_disabled_plugin", git=True, note="C03: enabledPlugins false turns AGENTS.md off.",
         files={"AGENTS.md": "agents root\n"},
         home_files={USER_SETTINGS: js({"enabledPlugins": {"cc-plugin-agents-md@builtin": False}})}),
    Case("ag38_disabled_plugin_alias", git=True, note="C03: enabledPlugins false, alias id.",
         files={"AGENTS.md": "agents root\n"},
         home_files={USER_SETTINGS: js({"enabledPlugins": {"agents-md@builtin": False}})}),
    Case("ag74_mode_merged_across_sources", git=True,
         note="C03: the plugin's options are merged over user, --settings and managed settings key by key: "
              "the user's instructionFiles (full id) stands beside a --settings projectInstructions (alias id), "
              "which is not read while instructionFiles is set. Found on a random tree "
              "(scripts/compare_random_trees.py).",
         files={"AGENTS.md": "agents root\n", "CLAUDE.md": "claude root\n"},
         home_files={USER_SETTINGS: js(mode("claude-md-and-agents-md"))},
         flag_settings=mode("claude", "agents-md@builtin", "projectInstructions")),
    Case("ag75_legacy_beside_default_mode", git=True,
         note="C03: projectInstructions decides when instructionFiles is the default (or unknown): "
              "claude-md-or-agents-md beside projectInstructions both is both.",
         files={"AGENTS.md": "agents root\n", "CLAUDE.md": "claude root\n"},
         home_files={USER_SETTINGS: js({"pluginConfigs": {"cc-plugin-agents-md@builtin": {"options": {
             "instructionFiles": "claude-md-or-agents-md", "projectInstructions": "both"}}}})}),
    Case("ag76_enabled_last_source_wins", git=True,
         note="C03: enabledPlugins is read from every source, the last that names the plugin deciding: "
              "project false, then local true, turns it on.",
         files={"AGENTS.md": "agents root\n", "CLAUDE.md": "claude root\n",
                ".claude/settings.local.json": js({"enabledPlugins": {"cc-plugin-agents-md@builtin": True}})},
         settings={"enabledPlugins": {"cc-plugin-agents-md@builtin": False}},
         home_files={USER_SETTINGS: js(mode("claude-md-and-agents-md"))}),
    Case("ag78_enabled_plugins_list", git=True,
         note="C03: an enabledPlugins value that is a list of strings (which the settings schema accepts) turns the "
              "AGENTS.md plugin off, as false does: only true (or no entry) leaves it on. Checked by hand on 2.1.281, "
              "2.1.290 and 2.1.332 with `[]` and `[\"a\"]`.",
         files={"AGENTS.md": "agents root\n"},
         home_files={USER_SETTINGS: js({"enabledPlugins": {"cc-plugin-agents-md@builtin": ["a"]}})}),
    Case("ag39_mode_bogus", git=True, note="C03: an unknown mode is the default.",
         files={"AGENTS.md": "agents root\n", "CLAUDE.md": "claude root\n"},
         home_files={USER_SETTINGS: js(mode("everything"))}),
    Case("ag60_mode_via_flag_settings", git=True, note="C03: the mode in a --settings file.",
         files={"AGENTS.md": "agents root\n", "CLAUDE.md": "claude root\n"},
         flag_settings=mode("claude-md-and-agents-md")),
    # ---------------------------------------------------------------- C02/C06 order and de-duplication
    Case("ag44_both_order_full", git=True, cwd="a", note="C02: both mode: AGENTS files after the folder's local file.",
         files={"CLAUDE.md": "claude\n", ".claude/CLAUDE.md": "dot claude\n", ".claude/rules/r.md": "rule\n",
                "CLAUDE.local.md": "local\n", "AGENTS.md": "agents\n", ".claude/AGENTS.md": "dot agents\n",
                "a/CLAUDE.md": "a claude\n", "a/AGENTS.md": "a agents\n"},
         home_files={USER_SETTINGS: js(mode("claude-md-and-agents-md"))}, automem={"MEMORY.md": "- memory\n"}),
    Case("ag41_both_identical_content", git=True, cwd="a", note="C06: equal trimmed text is dropped.",
         files={"CLAUDE.md": "same text\n", "AGENTS.md": "  same text\n\n", "a/AGENTS.md": "same text"},
         home_files={USER_SETTINGS: js(mode("claude-md-and-agents-md"))}),
    Case("ag70_position_by_path", git=True, cwd="a",
         note="C02: the AGENTS files of a folder go before the first project/local file whose folder (the part "
              "before `/.claude/` of the top of its include chain, else its folder) is below it: a rule shown by "
              "its real path in a subfolder (`a/sub/s.md`) comes after the AGENTS files of its folder's parent, "
              "before the rules of its own rules folder (`a/.claude/rules/ra.md`). Found on a random tree "
              "(scripts/compare_random_trees.py).",
         files={"AGENTS.md": "agents @a/x.md\n", ".claude/rules/r.md": "rule\n", "a/AGENTS.md": "a agents\n",
                "a/.claude/rules/ra.md": "ra @../../x.md\n", "a/x.md": "ax\n",
                "a/.claude/rules/ln.md": Symlink("../../sub/s.md"), "a/sub/s.md": "a sub s\n"}),
    Case("ag71_position_by_path_both", git=True, cwd="a",
         note="C02: the same placement in claude-md-and-agents-md mode: a/AGENTS.md comes before the rule shown as "
              "a/sub/s.md, not after a/CLAUDE.local.md.",
         files={"CLAUDE.md": "claude\n", "AGENTS.md": "agents\n",
                "a/AGENTS.md": "a agents\n", "a/CLAUDE.local.md": "a local\n",
                "a/.claude/rules/ln.md": Symlink("../../sub/s.md"), "a/sub/s.md": "a sub s\n",
                ".claude/rules/r.md": "r\n"},
         home_files={USER_SETTINGS: js(mode("claude-md-and-agents-md"))}),
    Case("ag72_claude_md_loaded_by_user_include", git=True,
         note="C01: a CLAUDE.md that loaded first as a user file's include (kind user, not the folder's own file) "
              "still stops AGENTS.md: the plugin looks for CLAUDE.md files on disk afresh. Found on a random "
              "tree (scripts/compare_random_trees.py).",
         files={"CLAUDE.md": "root claude\n", "AGENTS.md": "agents\n"},
         home_files={".claude/CLAUDE.md": "user @<TREE>/CLAUDE.md\n"}),
    Case("ag73_local_loaded_by_rule_include", git=True,
         note="C01: a CLAUDE.local.md that loaded as a rule's include (kind project) still stops AGENTS.md.",
         files={"AGENTS.md": "agents\n", ".claude/rules/r.md": "rule @../../CLAUDE.local.md\n",
                "CLAUDE.local.md": "local\n"}),
    Case("ag77_local_held_back_by_rule_include", git=True,
         note="C01: a CLAUDE.local.md with `paths:` that a rule includes is held back (and so not loaded as the "
              "folder's own file either) but still stops AGENTS.md: the plugin finds it on disk. Found on a random "
              "tree (scripts/compare_random_trees.py).",
         files={"CLAUDE.local.md": "---\npaths: src/**\n---\nlocal\n", "AGENTS.md": "agents\n",
                ".claude/rules/r.md": "rule @../../CLAUDE.local.md\n"}),
    Case("ag45_fallback_same_content", git=True,
         note="C06: fallback: .claude/AGENTS.md equal to a rule is dropped; equal AGENTS files both stay.",
         files={".claude/rules/r.md": "rule text\n", "AGENTS.md": "agents text\n", ".claude/AGENTS.md": "rule text\n",
                "a/AGENTS.md": "x\n"}),
    Case("ag46_fallback_equal_agents", git=True, cwd="a", note="C06: two AGENTS files with equal text both load.",
         files={"AGENTS.md": "agents text\n", "a/AGENTS.md": "agents text\n"}),
    Case("ag40_both_claude_includes_agents", git=True, note="C06: an included AGENTS.md shows once, at the include.",
         files={"CLAUDE.md": "claude @AGENTS.md\n", "AGENTS.md": "agents\n"},
         home_files={USER_SETTINGS: js(mode("claude-md-and-agents-md"))}),
    Case("m09_read_deny_claude_md", git=True, note="C13+C01: a denied CLAUDE.md counts as absent.",
         files={"CLAUDE.md": "claude\n", "AGENTS.md": "agents\n"},
         settings={"permissions": {"deny": ["Read(./CLAUDE.md)"]}}),
    # ---------------------------------------------------------------- C12 symlinks leaving the start folder
    Case("m01_include_symlink_outside", git=True, cwd="proj", note="C12: an include that is a symlink to outside.",
         files={"proj/CLAUDE.md": "proj @link.md @inner.md\n", "proj/link.md": Symlink("../outside.md"),
                "outside.md": "outside target\n", "proj/inner.md": "inner\n"}),
    Case("m02_rule_symlink_outside", git=True, cwd="proj", note="C12: a rule file linked to outside.",
         files={"proj/CLAUDE.md": "proj\n", "proj/.claude/rules/shared.md": Symlink("../../../shared/shared.md"),
                "shared/shared.md": "shared rule\n", "proj/.claude/rules/own.md": "own rule\n"}),
    Case("m03_rules_dir_symlink_outside", git=True, cwd="proj", note="C12: the rules folder linked to outside.",
         files={"proj/CLAUDE.md": "proj\n", "proj/.claude/rules": Symlink("../../team-rules"),
                "team-rules/t.md": "team rule\n"}),
    Case("m04_dotclaude_symlink_outside", git=True, cwd="proj",
         note="C12: .claude linked to outside: its CLAUDE.md loads, its rules do not.",
         files={"proj/.claude": Symlink("../shared-claude"), "shared-claude/CLAUDE.md": "shared dot claude\n",
                "shared-claude/rules/t.md": "shared rule\n"}),
    Case("m11_symlinks_outside_approved", git=True, cwd="proj",
         note="C12 + section 4: approval in HOME/.claude.json keyed by the git root loads them all.",
         files={"proj/CLAUDE.md": "proj @link.md\n", "proj/link.md": Symlink("../outside.md"),
                "outside.md": "outside target\n", "proj/.claude/rules/shared.md": Symlink("../../../shared/shared.md"),
                "shared/shared.md": "shared rule\n"},
         home_files={".claude.json": js({"projects": {"<TREE>": {"hasClaudeMdExternalIncludesApproved": True}}})}),
    Case("m12_external_include_approved_by_cwd_key", git=True, cwd="proj",
         note="section 4: approval keyed by the start folder (not the git root) does not count.",
         files={"proj/CLAUDE.md": "proj @../up.md\n", "up.md": "up\n"},
         home_files={".claude.json": js({"projects": {"<TREE>/proj": {"hasClaudeMdExternalIncludesApproved": True}}})}),
    # ---------------------------------------------------------------- C13 Read deny rules
    Case("m08_read_deny", git=True, note="C13: deny rules withhold project/local files and their includes.",
         files={"CLAUDE.md": "root @docs/a.md @secret.md\n", "docs/a.md": "docs a\n", "secret.md": "secret\n",
                ".claude/rules/r.md": "rule\n", "CLAUDE.local.md": "local\n"},
         settings={"permissions": {"deny": ["Read(./docs/**)", "Read(./secret.md)", "Read(./CLAUDE.local.md)",
                                            "Read(./.claude/rules/**)"]}}),
    Case("m40_user_deny_absolute", git=True, cwd="a",
         note="C13: a user-settings rule with an absolute path withholds the root CLAUDE.md; user files stay.",
         files={"CLAUDE.md": "root\n", "a/CLAUDE.md": "a\n"},
         home_files={USER_SETTINGS: js({"permissions": {"deny": ["Read(/<TREE>/CLAUDE.md)", "Read(~/.claude/CLAUDE.md)",
                                                                 "Read(~/.claude/projects/**)"]}}),
                     ".claude/CLAUDE.md": "user\n"},
         automem={"MEMORY.md": "- memory\n"}),
    Case("m44_read_deny_pattern_forms", git=True,
         note="C13: a deny rule's path is normalised as Claude Code's permission rules are: runs of `/` are one "
              "(`Read(//<TREE>//z.md)`, `//` then an absolute path) and a trailing `/**` is cut, so "
              "`Read(./a/**)` withholds `b/a/inc.md` too (`a` at any depth) and `Read(./**/y.md/**)` withholds "
              "`c/y.md` itself. Found on a random tree (scripts/compare_random_trees.py).",
         files={"CLAUDE.md": "root @b/a/inc.md @a/x.md @c/y.md @z.md @ok/w.md\n", "b/a/inc.md": "b a inc\n",
                "a/x.md": "a x\n", "c/y.md": "c y\n", "z.md": "z\n", "ok/w.md": "ok w\n"},
         settings={"permissions": {"deny": ["Read(./a/**)", "Read(./**/y.md/**)", "Read(//<TREE>//z.md)"]}}),
    Case("m45_read_deny_root_per_source", git=True,
         note="C13: a deny path starting with one `/` is rooted at the settings' own folder: user settings at the "
              "config folder (`Read(/p.md)` withholds `~/.claude/p.md`, `Read(/CLAUDE.md)` not the tree's), a "
              "--settings file at its folder (`Read(/tree/x.md)`), project settings at the start folder. "
              "Found on a random tree (scripts/compare_random_trees.py).",
         files={"CLAUDE.md": "root @x.md @y.md @<HOME>/.claude/p.md @<HOME>/.claude/q.md\n", "x.md": "x\n",
                "y.md": "y\n"},
         home_files={USER_SETTINGS: js({"permissions": {"deny": ["Read(/CLAUDE.md)", "Read(/p.md)"]}}),
                     ".claude/p.md": "p\n", ".claude/q.md": "q\n",
                     ".claude.json": js({"projects": {"<TREE>": {"hasClaudeMdExternalIncludesApproved": True}}})},
         flag_settings={"permissions": {"deny": ["Read(/tree/x.md)", "Read(/y.md)"]}}),
    Case("m46_read_deny_rule_reached_through_link", git=True,
         note="C13: a Read deny rule withholds a rule by the path the walk reached it by as well as by its real "
              "path: `Read(./.claude/rules/**)` withholds `shared-rules/s.md` reached through the symlinked "
              "`.claude/rules/sub`, and so does `Read(./shared-rules/**)` (checked by hand). Found on a random tree "
              "(scripts/compare_random_trees.py).",
         files={"CLAUDE.md": "root\n", ".claude/rules/own.md": "own rule\n", "shared-rules/s.md": "shared sub rule\n",
                ".claude/rules/sub": Symlink("../../shared-rules"), "free/f.md": "free rule\n",
                ".claude/rules/link.md": Symlink("../../free/f.md")},
         settings={"permissions": {"deny": ["Read(./.claude/rules/**)"]}}),
    Case("m47_read_deny_rule_forms_dropped", git=True,
         note="C13: a deny string is read as written and dropped when Claude Code's rule checks refuse it: "
              "`Read()` (empty parentheses), `read(...)` (no capital), a `Read(...)` with text after its `)`, "
              "a tool name with spaces around it, a wildcard tool name with a path: all files load. "
              "Checked by hand on 2.1.290, 2.1.307 and 2.1.332.",
         files={"CLAUDE.md": "root @x.md @y.md @z.md @w.md\n", "x.md": "x\n", "y.md": "y\n", "z.md": "z\n",
                "w.md": "w\n", "CLAUDE.local.md": "local\n"},
         settings={"permissions": {"deny": ["Read()", " Read", "Read ", " Read(./x.md)", "Read(./y.md) ",
                                            "*(./z.md)", "read(./w.md)"]}}),
    Case("m47b_read_deny_wildcard_tool_name", git=True,
         note="C13: a deny rule's tool name may hold `*`: `R*d` denies the whole Read tool, as a bare `Read` does "
              "(every project and local file withheld, the user file kept). Checked by hand with `*` and `Rea*`.",
         files={"CLAUDE.md": "root\n", "CLAUDE.local.md": "local\n"},
         home_files={".claude/CLAUDE.md": "user\n"}, settings={"permissions": {"deny": ["R*d"]}}),
    Case("m47c_read_deny_double_star_is_a_path", git=True, cwd="sub",
         note="C13: `Read(**)` is a path pattern from the start folder, not the whole tool (`Read(*)` is): it "
              "withholds the start folder's files and keeps those above it.",
         files={"CLAUDE.md": "root\n", ".claude/rules/r.md": "root rule\n", "sub/CLAUDE.md": "sub\n",
                "sub/.claude/rules/s.md": "sub rule\n"},
         home_files={USER_SETTINGS: js({"permissions": {"deny": ["Read(**)"]}})}),
    Case("m04b_dotclaude_symlink_in_ancestor", git=True, cwd="a",
         note="C12: the rules of a symlinked `.claude` in a folder above the start folder, leading outside it, are "
              "external (2.1.284 on; 2.1.232-2.1.283 loaded them, shown by their real path; tests/test_release.py "
              "checks the switch); its CLAUDE.md loads. Found on a random tree (scripts/compare_random_trees.py).",
         files={".claude": Symlink("shared-claude"), "shared-claude/rules/t.md": "shared rule\n",
                "shared-claude/CLAUDE.md": "shared dot claude\n", "a/CLAUDE.md": "a\n"}),
    Case("m42_bare_read_deny", git=True, note="C13: a bare Read deny withholds every project/local file.",
         files={"CLAUDE.md": "root\n", "CLAUDE.local.md": "local\n"},
         home_files={".claude/CLAUDE.md": "user\n"}, settings={"permissions": {"deny": ["Read"]}},
         automem={"MEMORY.md": "- memory\n"}),
    # ---------------------------------------------------------------- C14 special folders, C15 automount roots
    Case("m05_special_folders", git=True, note="C14: includes in special folders are skipped.",
         files={"CLAUDE.md": "root @connector-downloads/a.md @.artifact-work/b.md @Connector-Downloads/c.md @ok/d.md\n",
                "connector-downloads/a.md": "a\n", ".artifact-work/b.md": "b\n", "Connector-Downloads/c.md": "c\n",
                "ok/d.md": "d\n"}),
    Case("m06_start_in_connector_downloads", git=True, cwd="connector-downloads",
         note="C14: the CLAUDE.md of a connector-downloads start folder is skipped.",
         files={"CLAUDE.md": "root\n", "connector-downloads/CLAUDE.md": "downloads\n"}),
    Case("m07_automount_roots", git=True, cwd="a/b", env={"CLAUDE_CODE_AUTOMOUNT_ROOTS": "<TREE>/a"},
         note="C15: the folder named in CLAUDE_CODE_AUTOMOUNT_ROOTS is skipped by the walk.",
         files={"CLAUDE.md": "root\n", "a/CLAUDE.md": "a\n", "a/b/CLAUDE.md": "b\n"}),
    Case("m07b_automount_roots_settings_env", git=True, cwd="a/b",
         note="C15: CLAUDE_CODE_AUTOMOUNT_ROOTS set in a settings file's `env` block counts as in the real "
              "environment: the folder is skipped by the walk.",
         files={"CLAUDE.md": "root\n", "a/CLAUDE.md": "a\n", "a/b/CLAUDE.md": "b\n"},
         home_files={USER_SETTINGS: js({"env": {"CLAUDE_CODE_AUTOMOUNT_ROOTS": "<TREE>/a"}})}),
    # ---------------------------------------------------------------- C16 project folder name
    Case("p08_project_dir_name_env", git=True,
         env={"CLAUDE_CONFIG_DIR": "<HOME>/.claude", "CLAUDE_CODE_PROJECT_DIR_NAME": "mydir"},
         note="C16: CLAUDE_CODE_PROJECT_DIR_NAME names the auto-memory folder (with CLAUDE_CONFIG_DIR).",
         files={"CLAUDE.md": "root\n"}, automem={"MEMORY.md": "- sanitised folder\n"},
         home_files={".claude/projects/mydir/memory/MEMORY.md": "- named folder\n"}),
    Case("p11_project_dir_name_invalid", git=True,
         env={"CLAUDE_CONFIG_DIR": "<HOME>/.claude", "CLAUDE_CODE_PROJECT_DIR_NAME": "my.dir"},
         note="C16: a name outside [A-Za-z0-9_-] is ignored.",
         files={"CLAUDE.md": "root\n"}, automem={"MEMORY.md": "- sanitised folder\n"},
         home_files={".claude/projects/my.dir/memory/MEMORY.md": "- named folder\n"}),
    # ---------------------------------------------------------------- C18 process files
    Case("m30_proc_dev_includes", git=True, releases=("2.1.332",),
         note="C18: /proc/self/comm and /dev/null are not read (only 2.1.332: what 2.1.197 reads from "
              "/proc/self/comm is the reading process's name).",
         files={"CLAUDE.md": "root @/proc/self/comm @/dev/null @inc.md\n", "inc.md": "inc\n"},
         home_files={".claude.json": js({"projects": {"<TREE>": {"hasClaudeMdExternalIncludesApproved": True}}})}),
    # ---------------------------------------------------------------- section 4 settings
    Case("p01_automem_dir_project_settings", git=True, note="section 4: autoMemoryDirectory in project settings.",
         files={"CLAUDE.md": "root\n"}, settings={"autoMemoryDirectory": "~/mem"},
         home_files={"mem/MEMORY.md": "- from the setting\n"}, automem={"MEMORY.md": "- default folder\n"}),
    Case("p05_automem_disabled_project_settings", git=True, note="section 4: autoMemoryEnabled false in project settings.",
         files={"CLAUDE.md": "root\n"}, settings={"autoMemoryEnabled": False}, automem={"MEMORY.md": "- memory\n"}),
    Case("r04_excludes_flag_settings", git=True, note="section 4: claudeMdExcludes from a --settings file.",
         files={"CLAUDE.md": "root\n", "CLAUDE.local.md": "local\n"},
         flag_settings={"claudeMdExcludes": ["**/CLAUDE.local.md"]}),
]

# ---------------------------------------------------------------- C05/C17 files attached when Claude reads a file
CASES_2_1_332 += [
    Case("rd01_nested_claude", git=True, read="sub/f.txt",
         note="C17: a nested CLAUDE.md attached on Read: a system message (197), a user block (332).",
         files={"CLAUDE.md": "root\n", "sub/CLAUDE.md": "sub claude\n", "sub/f.txt": "f\n"}),
    Case("rd02_nested_agents_fallback", git=True, read="sub/f.txt",
         note="C05: fallback mode: a nested AGENTS.md, its include and .claude/AGENTS.md attached on Read.",
         files={"AGENTS.md": "agents root\n", "sub/AGENTS.md": "sub agents @inc.md\n", "sub/inc.md": "sub inc\n",
                "sub/.claude/AGENTS.md": "sub dot agents\n", "sub/f.txt": "f\n"}),
    Case("rd03_nested_agents_project_has_claude", git=True, read="sub/f.txt",
         note="C05: fallback mode, the project has a CLAUDE.md: no nested AGENTS.md is attached.",
         files={"CLAUDE.md": "root claude\n", "sub/AGENTS.md": "sub agents\n", "sub/f.txt": "f\n"}),
    Case("rd04_nested_folder_has_claude", git=True, read="sub/f.txt",
         note="C05: fallback mode, the folder has its own CLAUDE.md: that, not its AGENTS.md.",
         files={"AGENTS.md": "agents root\n", "sub/CLAUDE.md": "sub claude\n", "sub/AGENTS.md": "sub agents\n",
                "sub/f.txt": "f\n"}),
    Case("rd05_nested_both_mode", git=True, read="sub/f.txt",
         note="C05: claude-md-and-agents-md: the folder's CLAUDE.md and AGENTS.md both attached.",
         files={"CLAUDE.md": "root claude\n", "sub/CLAUDE.md": "sub claude\n", "sub/AGENTS.md": "sub agents\n",
                "sub/f.txt": "f\n"},
         home_files={USER_SETTINGS: js(mode("claude-md-and-agents-md"))}),
    Case("cr01_conditional_rules_read", git=True, read="src/a.ts",
         note="C17/C09: conditional rules attached on Read (one block each on 332), a BOM'd one on 332 only.",
         files={".claude/rules/ts.md": "---\npaths: src/**/*.ts\n---\nTS RULE\n",
                ".claude/rules/list.md": "---\npaths:\n  - \"src/*.ts\"\n---\nLIST RULE\n",
                ".claude/rules/py.md": "---\npaths: \"**/*.py\"\n---\nPY RULE\n",
                ".claude/rules/bom.md": b"\xef\xbb\xbf---\npaths: \"src/**\"\n---\nBOM RULE\n",
                "src/a.ts": "x\n", "CLAUDE.md": "root\n"},
         home_files={".claude/rules/user-cond.md": "---\npaths: src/**\n---\nUSER COND\n"}),
]

# ---------------------------------------------------------------- C01 a session started below HOME
_HOME_AGENTS = {"AGENTS.md": "home agents\n", ".claude/AGENTS.md": "home dot agents\n"}
CASES_2_1_332 += [
    Case("ag51_under_home_no_user_claude", git=True, under_home=True,
         note="C01: below HOME, HOME/AGENTS.md and HOME/.claude/AGENTS.md load as project files.",
         files={"AGENTS.md": "proj agents\n"}, home_files=dict(_HOME_AGENTS)),
    Case("ag50_under_home_user_claude", git=True, under_home=True,
         note="C01: a user ~/.claude/CLAUDE.md does not stop them; they follow it.",
         files={"AGENTS.md": "proj agents\n"}, home_files={**_HOME_AGENTS, ".claude/CLAUDE.md": "user claude\n"}),
    Case("ag52_under_home_home_claude", git=True, under_home=True,
         note="C01: a HOME/CLAUDE.md (a project file for sessions below HOME) stops every AGENTS.md.",
         files={"AGENTS.md": "proj agents\n"}, home_files={**_HOME_AGENTS, "CLAUDE.md": "home claude\n"}),
]

# ---------------------------------------------------------------- found on random trees
CASES_2_1_332 += [
    Case("m10_read_deny_relative_any_depth", git=True, cwd="a",
         note="C13: `Read(./CLAUDE.md)` follows gitignore rules: it withholds every CLAUDE.md at any depth, "
              ".claude/CLAUDE.md included; `Read(./a/x.md)` only that file.",
         files={"CLAUDE.md": "root\n", ".claude/CLAUDE.md": "root dot\n", "a/CLAUDE.md": "a @x.md @y.md\n",
                "a/x.md": "x\n", "a/y.md": "y\n", "a/CLAUDE.local.md": "a local\n"},
         settings={"permissions": {"deny": ["Read(./CLAUDE.md)", "Read(./x.md)"]}}),
]

# ---------------------------------------------------------------- which settings sources count
CASES_2_1_332 += [
    Case("ag37p_disabled_in_project_settings", git=True,
         note="C03: enabledPlugins false in the project's settings: does it turn AGENTS.md off?",
         files={"AGENTS.md": "agents root\n"},
         settings={"enabledPlugins": {"cc-plugin-agents-md@builtin": False}}),
    Case("ag37f_disabled_in_flag_settings", git=True,
         note="C03: enabledPlugins false in a --settings file.",
         files={"AGENTS.md": "agents root\n"},
         flag_settings={"enabledPlugins": {"agents-md@builtin": False}}),
]

# ---------------------------------------------------------------- C10 block format
CASES_2_1_332 += [
    Case("e01_block_format", git=True, note="C10: the instruction block's format (recorded as block_format).",
         files={"CLAUDE.md": "root claude\n"}),
]

# ---------------------------------------------------------------- the spec's "read, not run", run
CASES_2_1_332 += [
    Case("m05b_scratchpad_layouts", git=True,
         note="C14: includes in folders laid out like a session scratchpad (claude/<p>/<session uuid>/scratchpad, "
              "claude/s/<12 digits>/scratchpad) are skipped; a session id that is no UUID and a plain scratchpad "
              "folder are not.",
         files={"CLAUDE.md": "root @claude/p/s1/scratchpad/a.md @claude/s/123456789012/scratchpad/b.md "
                             "@notes/scratchpad/c.md @claude/p/0b5e1c2d-3f4a-4b5c-8d9e-0f1a2b3c4d5e/scratchpad/d.md\n",
                "claude/p/s1/scratchpad/a.md": "a\n", "claude/s/123456789012/scratchpad/b.md": "b\n",
                "notes/scratchpad/c.md": "c\n", "claude/p/0b5e1c2d-3f4a-4b5c-8d9e-0f1a2b3c4d5e/scratchpad/d.md": "d\n"}),
    Case("m07b_automount_agents_and_rules", git=True, cwd="a/b", env={"CLAUDE_CODE_AUTOMOUNT_ROOTS": "<TREE>/a"},
         note="C15: the skipped folder's AGENTS.md, .claude/AGENTS.md and rules are not read either.",
         files={"AGENTS.md": "root agents\n", "a/AGENTS.md": "a agents\n", "a/.claude/rules/r.md": "a rule\n",
                "a/b/.claude/rules/rb.md": "b rule\n"}),
    Case("m02b_rules_subfolder_symlink_outside", git=True, cwd="proj",
         note="C12: a rules subfolder linked to outside the start folder.",
         files={"proj/CLAUDE.md": "proj\n", "proj/.claude/rules/own.md": "own rule\n",
                "proj/.claude/rules/shared": Symlink("../../../shared-rules"), "shared-rules/s.md": "shared rule\n"}),
    Case("m09b_read_deny_agents_md", git=True, note="C13: a deny rule withholds AGENTS.md too.",
         files={"AGENTS.md": "agents\n", ".claude/AGENTS.md": "dot agents\n"},
         settings={"permissions": {"deny": ["Read(./AGENTS.md)"]}}),
]
CASES_2_1_332 += [
    Case("ag79_agents_include_conditional_rule", git=True, releases=None,
         note="C01/C02: in claude-md-and-agents-md mode, AGENTS.md's include of a conditional rule the walk held "
              "back loads it (the plugin reads against what loaded); its include of CLAUDE.md and of an "
              "unconditional rule, both loaded, does not load them again. A CLAUDE.local.md's include of the same "
              "conditional rule loads nothing.",
         files={"CLAUDE.md": "claude\n", "AGENTS.md": "agents @CLAUDE.md @.claude/rules/c.md @.claude/rules/u.md\n",
                "CLAUDE.local.md": "local @.claude/rules/c.md\n",
                ".claude/rules/c.md": "---\npaths: src/**\n---\ncond rule\n", ".claude/rules/u.md": "uncond rule\n"},
         home_files={".claude/settings.json": json.dumps({"pluginConfigs": {"agents-md@builtin": {"options": {
             "instructionFiles": "claude-md-and-agents-md"}}}})}),
]
