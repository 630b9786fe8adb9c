"""Differential cases for settings files Claude Code ignores whole (memlint/model/loading/settings_schema.py):
a user, project, local or `--settings` file with one value its settings schema refuses is not used at all
(neither its `claudeMdExcludes` nor its deny rules), the same on every release; values it accepts
anyway; and JSON as JavaScript reads it (a leading byte-order mark skipped, `NaN` refused)."""
from __future__ import annotations

import json
from typing import Any

from cases import Case, Symlink

USER_SETTINGS = ".claude/settings.json"
RULES = {"CLAUDE.md": "root\n", ".claude/rules/x.md": "x rule\n", ".claude/rules/y.md": "y rule\n"}


def js(data: Any) -> str:
    return json.dumps(data, indent=2) + "\n"


CASES_SETTINGS: list[Case] = [
    Case("s01_settings_value_refused_ignores_file", git=True,
         note="a user settings file with `cleanupPeriodDays: 0` and a project one whose `permissions.deny` is a "
              "string are ignored whole: neither file's claudeMdExcludes applies (both rules load).",
         files={**RULES, ".claude/settings.json": js({"claudeMdExcludes": ["**/y.md"], "permissions": {"deny": "Read"}})},
         home_files={USER_SETTINGS: js({"claudeMdExcludes": ["**/x.md"], "cleanupPeriodDays": 0})}),
    Case("s02_settings_values_accepted", git=True,
         note="values Claude Code accepts: an env value that is no string, an enabledPlugins list, a permission "
              "entry that is no rule, `cleanupPeriodDays: 1.0`, a `hooks` string, unknown keys: both files apply "
              "(both rules are excluded).",
         files={**RULES, ".claude/settings.json": js({"claudeMdExcludes": ["**/y.md"], "hooks": "x", "unknownKey": 5})},
         home_files={USER_SETTINGS: js({"claudeMdExcludes": ["**/x.md"], "env": {"A": 1}, "enabledPlugins": {"x@y": ["a"]},
                                        "permissions": {"allow": [5]}, "model": "m", "cleanupPeriodDays": 1.0})}),
    Case("s03_settings_local_and_flag_refused", git=True,
         note="a local settings file with `autoMemoryEnabled: \"false\"` and a --settings file whose plugin "
              "options are a number are ignored whole (both rules load, and auto memory stays on).",
         files={**RULES, ".claude/settings.local.json": js({"claudeMdExcludes": ["**/x.md"], "autoMemoryEnabled": "false"})},
         flag_settings={"claudeMdExcludes": ["**/y.md"], "pluginConfigs": {"agents-md@builtin": {"options": 5}}},
         automem={"MEMORY.md": "- memory\n"}),
    Case("s04_settings_json_as_javascript_reads_it", git=True,
         note="a user settings file that starts with a byte-order mark is read (x excluded); a project one holding "
              "`NaN`, which JSON.parse refuses, is not (y loads).",
         files={**RULES, ".claude/settings.json": '{"claudeMdExcludes": ["**/y.md"], "model": NaN}\n'},
         home_files={USER_SETTINGS: "\ufeff" + js({"claudeMdExcludes": ["**/x.md"]})}),
]

CASES_SETTINGS += [
    Case("s05_settings_plain_keys_refused", git=True,
         note="keys of a plain type in the schemas of both ends (memlint/model/loading/settings_schema.py): a user "
              "file with `fastMode: \"yes\"`, a project one with `agent: 5` and a local one with "
              "`companyAnnouncements: \"x\"` are each ignored whole (all three rules load).",
         files={"CLAUDE.md": "root\n", ".claude/rules/x.md": "x rule\n", ".claude/rules/y.md": "y rule\n",
                ".claude/rules/z.md": "z rule\n",
                ".claude/settings.json": js({"claudeMdExcludes": ["**/y.md"], "agent": 5}),
                ".claude/settings.local.json": js({"claudeMdExcludes": ["**/z.md"], "companyAnnouncements": "x"})},
         home_files={USER_SETTINGS: js({"claudeMdExcludes": ["**/x.md"], "fastMode": "yes"})}),
    Case("s07_settings_attribution_boolean", git=True,
         note="`attribution: true` in the user's settings: 2.1.197-2.1.280 ignore the file whole (x loads), 2.1.281 "
              "on take it (x is excluded); bisected on 2.1.280 and 2.1.281 (release switch "
              "`attribution_may_be_boolean`).",
         files={"CLAUDE.md": "root\n", ".claude/rules/x.md": "x rule\n"},
         home_files={USER_SETTINGS: js({"claudeMdExcludes": ["**/x.md"], "attribution": True})}),
    Case("s08_settings_mcpjson_servers_string", git=True,
         note="`enabledMcpjsonServers: \"all\"` in the project's settings: 2.1.197-2.1.296 ignore the file whole (x "
              "loads), 2.1.299 on take it (x is excluded); bisected on 2.1.296 and 2.1.299 (release switch "
              "`mcpjson_servers_string`).",
         files={"CLAUDE.md": "root\n", ".claude/rules/x.md": "x rule\n",
                ".claude/settings.json": js({"claudeMdExcludes": ["**/x.md"], "enabledMcpjsonServers": "all"})}),
    Case("s09_settings_key_checked_from_a_release", git=True,
         note="`timeZone: 5` in the user's settings: 2.1.197 does not know the key and takes the file (x is "
              "excluded); 2.1.257 on check it and ignore the file whole (x loads). Tried on 2.1.252, 2.1.257, 2.1.294 "
              "and 2.1.332 too (`Release.settings_keys`).",
         files={"CLAUDE.md": "root\n", ".claude/rules/x.md": "x rule\n"},
         home_files={USER_SETTINGS: js({"claudeMdExcludes": ["**/x.md"], "timeZone": 5})}),
    Case("s06_settings_plain_keys_accepted", git=True,
         note="the same keys with values of their type: all three files apply (no rule loads).",
         files={"CLAUDE.md": "root\n", ".claude/rules/x.md": "x rule\n", ".claude/rules/y.md": "y rule\n",
                ".claude/rules/z.md": "z rule\n",
                ".claude/settings.json": js({"claudeMdExcludes": ["**/y.md"], "agent": "a"}),
                ".claude/settings.local.json": js({"claudeMdExcludes": ["**/z.md"], "companyAnnouncements": ["x"]})},
         home_files={USER_SETTINGS: js({"claudeMdExcludes": ["**/x.md"], "fastMode": True})}),
]

CASES_SETTINGS += [
    Case("x01_exclude_pattern_real_folder", git=True, cwd="a/b",
         note="claudeMdExcludes: an absolute pattern also matches under its folder's real path, the folder taken "
              "as Node's dirname of the text before the first glob character: `<TREE>//a//CLAUDE.md` excludes "
              "a/CLAUDE.md (its folder `<TREE>//a/` resolves), `<TREE>/l/*` (l a link to a/b) excludes nothing (its "
              "folder is `<TREE>`), and `//<TREE>/CLAUDE.md`, a `//host` path, is never resolved.",
         files={"CLAUDE.md": "root\n", "a/CLAUDE.md": "a\n", "a/b/CLAUDE.md": "a b\n", "l": Symlink("a/b")},
         home_files={USER_SETTINGS: js({"claudeMdExcludes": ["<TREE>//a//CLAUDE.md", "<TREE>/l/*", "/<TREE>/CLAUDE.md"]})}),
]

MEMOS = {"flag-mem/MEMORY.md": "- flag memo\n", "local-mem/MEMORY.md": "- local memo\n",
         "user-mem/MEMORY.md": "- user memo\n", "mem2/MEMORY.md": "- memo two\n", "mem3/MEMORY.md": "- memo three\n"}
CASES_SETTINGS += [
    Case("am01_memory_directory_sources", git=True,
         note="autoMemoryDirectory: the first source that sets one wins, managed settings first (checked by hand), "
              "then --settings, local, project and user: the --settings folder here.",
         files={"CLAUDE.md": "root\n", ".claude/settings.local.json": js({"autoMemoryDirectory": "~/local-mem"})},
         home_files={**MEMOS, USER_SETTINGS: js({"autoMemoryDirectory": "~/user-mem"})},
         flag_settings={"autoMemoryDirectory": "~/flag-mem"}),
    Case("am02_memory_directory_normalised", git=True,
         note="autoMemoryDirectory is normalised as Node normalises: `/<HOME>//mem2/` (two leading slashes) is "
              "`<HOME>/mem2`.",
         files={"CLAUDE.md": "root\n"},
         home_files={**MEMOS, USER_SETTINGS: js({"autoMemoryDirectory": "/<HOME>//mem2/"})}),
    Case("am03_memory_directory_home_join", git=True,
         note="autoMemoryDirectory `~//mem3`: the rest after `~/` is joined to HOME (`<HOME>/mem3`), not taken as "
              "an absolute path.",
         files={"CLAUDE.md": "root\n"},
         home_files={**MEMOS, USER_SETTINGS: js({"autoMemoryDirectory": "~//mem3"})}),
]
CASES_SETTINGS += [
    Case("x02_exclude_linked_rules_folder", git=True,
         note="`.claude/rules` is a link to `team-rules/` in the tree: the exclude `**/.claude/rules/**` names the "
              "rule by the path the walk reached it by.",
         files={"CLAUDE.md": "root\n", "team-rules/t.md": "team rule\n", ".claude/rules": Symlink("../team-rules"),
                ".claude/settings.json": js({"claudeMdExcludes": ["**/.claude/rules/**"]})}),
]
