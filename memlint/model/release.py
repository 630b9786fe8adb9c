"""Which Claude Code release memlint models, as named switches.

Memory loading changed between Claude Code 2.1.197 and 2.1.332
(../shared/spec/claude-code-2.1.332-changes.md, changes C01-C23). Every change is one boolean field of
`Release`, set from the first release that has it. A run picks its `Release` once (`pick`), and the
loader, the rules and the reporters read switches: nothing outside this module compares versions.

A version is accepted from 2.1.197 on; it gets the switches of the newest modelled release at or below
it (`2.1.300` behaves as 2.1.299, the newest modelled change before it).
"""

from __future__ import annotations

import re
from dataclasses import fields

from memlint.errors import MemlintError
from memlint.records import dataclass

Version = tuple[int, int, int]
OLDEST: Version = (2, 1, 197)


def parse_version(text: str) -> Version | None:
    match = re.fullmatch(r"\s*v?(\d+)\.(\d+)\.(\d+)\s*", text)
    if match is None:
        return None
    major, minor, patch = (int(g) for g in match.groups())
    return major, minor, patch


def _fmt(version: Version) -> str:
    return ".".join(str(n) for n in version)


# The first release that has each change. Not bisected changes are placed at the first release
# where they were seen (see the note on each).
FIRST: dict[str, Version] = {
    # A worktree's relative link back (`<git dir>/gitdir`, as git 2.48+ writes it with
    # worktree.useRelativePaths) is read from its git folder; 2.1.197 read it from the start folder,
    # so the worktree was its own project root (`wt_relative_links`, bisected)
    "worktree_relative_links": (2, 1, 198),
    # C19: the MEMORY.md write guard (PostToolUse text after a Write of MEMORY.md). Observed with the CLI
    # (tests/differential/test_write_guard_oracle.py), not in the spec: 2.1.197 and 2.1.198 already have it,
    # with the 2.1.199 wording and thresholds (`approaching` from 80 % of a cap, `over` at >= the cap), but
    # it speaks only after a Write that a PostToolUse hook matches (a hook matching `Write` or all tools;
    # one matching only `Bash` or `Edit` leaves it silent). The spec's probe ran without hooks.
    "memory_write_guard_when_hooked": (2, 1, 197),
    # ... from 2.1.199 after every Write of MEMORY.md, hooks or not (2.1.198 stays silent without one)
    "memory_write_guard": (2, 1, 199),
    # ... from 2.1.210 the current wording (an `Error:` text, `over` only past the cap)
    "memory_write_guard_current_wording": (2, 1, 210),
    # `--setting-sources` without `project` keeps the project's rules from arriving on a Read; 2.1.197 to
    # 2.1.210 still attached its conditional rules that match and the unconditional rules of the folders
    # on the way (`ss12_read_nested_local_only`, `rr16_read_nested_rules_without_project_source`, bisected:
    # 2.1.210 attaches, 2.1.211 not)
    "conditional_rules_follow_sources": (2, 1, 211),
    # A worktree nested in its main repository no longer attaches the main repository's conditional
    # rules on a Read (its checked-in files were skipped at start already; `wt_nested_conditional_rule`, bisected)
    "nested_worktree_rules_skipped": (2, 1, 227),
    # C12: includes, rule files and rule folders whose resolved target leaves the start folder are external
    "symlinks_resolved_external": (2, 1, 232),
    # C12, second step: a rules folder reached through a symlinked `.claude` (the rules folder itself no
    # link) whose target leaves the start folder is external too; 2.1.232 to 2.1.283 judged a rules folder
    # and its entries by their own links only, so such rules loaded (bisected: 2.1.283 loads, 2.1.284 not;
    # found by scripts/compare_random_trees.py, `m04b_dotclaude_symlink_in_ancestor`)
    "dotclaude_link_rules_external": (2, 1, 284),
    # C16: CLAUDE_CODE_PROJECT_DIR_NAME names the auto-memory folder (with CLAUDE_CONFIG_DIR)
    "project_dir_name_env": (2, 1, 234),
    # A rule reached through a linked rules folder (or a linked rule file) is excluded when the path the walk
    # reached it by matches `claudeMdExcludes`; before, only its real path was tried
    # (`x02_exclude_linked_rules_folder`, bisected: 2.1.238 loads it, 2.1.239 not; found by scripts/compare_random_trees.py)
    "excludes_match_reached_path": (2, 1, 239),
    # C09: one leading BOM is skipped before frontmatter
    "frontmatter_after_bom": (2, 1, 239),
    # C07: the MEMORY.md truncation notice says what was cut
    "memory_notice_detail": (2, 1, 268),
    # C10: the instruction files get their own <system-reminder> block (no "# claudeMd")
    "own_instruction_block": (2, 1, 268),
    # what loaded at start is not attached again when Claude reads a file; 2.1.197 to 2.1.280 processed a
    # Read afresh, so a nested folder's file or include that loaded at start, and a conditional rule that
    # loaded as an include, came again (`rr28`-`rr31`, `ad14` in tests/differential, bisected: 2.1.280
    # attaches, 2.1.281 not; found by scripts/compare_random_trees.py --reads)
    "read_skips_files_loaded_at_start": (2, 1, 281),
    # C01-C06: AGENTS.md and .claude/AGENTS.md (plugin `agents-md@builtin`)
    "agents_md": (2, 1, 281),
    # the settings key `attribution` may be true or false as well as an object; before, a settings file with
    # `attribution: true` was ignored whole (tests/test_settings_schema.py; bisected: 2.1.280 ignores it,
    # 2.1.281 not)
    "attribution_may_be_boolean": (2, 1, 281),
    # C08: MEMORY.md text sanitised (newlines, invisible and control characters, harness tags)
    "memory_sanitised": (2, 1, 284),
    # C03: the plugin id `cc-plugin-agents-md@builtin` (the alias `agents-md@builtin` keeps working)
    "agents_md_full_plugin_id": (2, 1, 285),
    # `autoMemoryDirectory` is read only from the settings of the sources `--setting-sources` names; 2.1.197
    # to 2.1.294 read it from the others too (`ss14_memory_directory_of_unread_settings`, bisected: 2.1.294
    # reads the project's without the project source, 2.1.295 not)
    "memory_dir_follows_sources": (2, 1, 295),
    # C13: Read(...) deny rules withhold project and local memory files and their includes
    "read_deny_withholds": (2, 1, 290),
    # the settings key `enabledMcpjsonServers` may be one string as well as a list of strings; before, a
    # settings file with `enabledMcpjsonServers: "all"` was ignored whole (tests/test_settings_schema.py;
    # bisected: 2.1.296 ignores it, 2.1.299 not, 2.1.297 and 2.1.298 were never published)
    "mcpjson_servers_string": (2, 1, 299),
    # C17: deferred files arrive as one user <system-reminder> block per file
    "deferred_as_user_blocks": (2, 1, 307),
    # C14: connector-downloads, .artifact-work, scratchpads and browser download folders are skipped
    "special_folders_skipped": (2, 1, 319),
    # C15: CLAUDE_CODE_AUTOMOUNT_ROOTS (and autofs map roots) are skipped by the folder walk
    "automount_roots_skipped": (2, 1, 323),
    # a deny rule's relative pattern is matched from each `--add-dir` folder that is not inside the start
    # folder too, not only from the start folder (`ad11`, `ad13` in tests/differential; bisected: 2.1.323
    # allows the Read, 2.1.324 refuses it; found by scripts/compare_random_trees.py --reads)
    "deny_rules_from_added_folders": (2, 1, 324),
    # C11: text kept verbatim unless a comment block is removed; then the source is spliced
    "comments_spliced_verbatim": (2, 1, 330),
    # C18: device and process files (/proc/self/..., /dev/...) are not read. Not bisected: seen in 2.1.332
    "process_files_skipped": (2, 1, 332),
    # C20: a warning when the instruction files together pass max(120,000, per-file limit) characters.
    # Read from the 2.1.332 bundle, not bisected
    "instruction_total_warning": (2, 1, 332),
}


# Settings keys whose value Claude Code's schema checks from a release on: before it the key is unknown, and
# any value of it is taken; from it a value of another type makes Claude Code ignore the settings file whole
# (memlint.model.loading.settings_schema holds each key's check). Each release found in the schemas of the
# published releases, and tried with the oracle on it (refused), on the release before it (taken), on one
# between it and 2.1.332 and on 2.1.332 (refused): tests/test_settings_schema.py.
SETTINGS_KEYS_SINCE: dict[str, Version] = {
    "totalTokensReminderAfterUserTurn": (2, 1, 202),
    "processWrapper": (2, 1, 210),
    "feedbackDrafts": (2, 1, 212),
    "emojiCompletionEnabled": (2, 1, 217),
    "workflowSizeGuideline": (2, 1, 219),
    "disableCommandPluginSources": (2, 1, 229),
    "syncClaudeAiSkills": (2, 1, 234),
    "autoContinueAtUsageLimit": (2, 1, 234),
    "managedSourcesBehavior": (2, 1, 242),
    "syncClaudeAiPlugins": (2, 1, 246),
    "desktopSessionCleanupPeriodDays": (2, 1, 248),
    "timeZone": (2, 1, 257),
    "bashEditDiffEnabled": (2, 1, 269),
    "allowClaudeInChromeWithManagedMcp": (2, 1, 282),
    "idleCompaction": (2, 1, 290),
    "attributionProject": (2, 1, 305),
    "responseComparisonEnabled": (2, 1, 314),
    "disableReplyCheck": (2, 1, 318),
    "disableWindowsBashCommandSplit": (2, 1, 319),
    "clawdFileProgressEnabled": (2, 1, 323),
    "allowNestedModelAccessUnderForceLogin": (2, 1, 327),
    "modelCatalogUrl": (2, 1, 331),
    "modelCatalogPublicKey": (2, 1, 331),
    "downloadsMirrorUrl": (2, 1, 331),
}


@dataclass(frozen=True)
class Release:
    """The memory behaviour of one Claude Code release."""

    version: Version
    worktree_relative_links: bool = False
    memory_write_guard_when_hooked: bool = False
    memory_write_guard: bool = False
    memory_write_guard_current_wording: bool = False
    conditional_rules_follow_sources: bool = False
    read_skips_files_loaded_at_start: bool = False
    nested_worktree_rules_skipped: bool = False
    symlinks_resolved_external: bool = False
    dotclaude_link_rules_external: bool = False
    project_dir_name_env: bool = False
    excludes_match_reached_path: bool = False
    frontmatter_after_bom: bool = False
    memory_notice_detail: bool = False
    own_instruction_block: bool = False
    agents_md: bool = False
    attribution_may_be_boolean: bool = False
    memory_sanitised: bool = False
    agents_md_full_plugin_id: bool = False
    memory_dir_follows_sources: bool = False
    read_deny_withholds: bool = False
    mcpjson_servers_string: bool = False
    deferred_as_user_blocks: bool = False
    special_folders_skipped: bool = False
    automount_roots_skipped: bool = False
    deny_rules_from_added_folders: bool = False
    comments_spliced_verbatim: bool = False
    process_files_skipped: bool = False
    instruction_total_warning: bool = False
    # the keys of SETTINGS_KEYS_SINCE this release's settings schema checks (not a switch: a set of keys)
    settings_keys: frozenset[str] = frozenset()

    @property
    def name(self) -> str:
        """`2.1.332`, as printed in `context` and the check summary."""
        return _fmt(self.version)

    def switches(self) -> dict[str, bool]:
        """Every named switch and its value (for JSON output and the README table)."""
        return {f.name: getattr(self, f.name) for f in fields(self) if f.name not in ("version", "settings_keys")}


def _build(version: Version) -> Release:
    return Release(version, **{name: version >= first for name, first in FIRST.items()},
                   settings_keys=frozenset(key for key, first in SETTINGS_KEYS_SINCE.items() if version >= first))


# The releases memlint models: the oldest supported and every release that changed something.
MODELLED: tuple[Version, ...] = tuple(sorted({OLDEST, *FIRST.values(), *SETTINGS_KEYS_SINCE.values()}))
NEWEST: Version = MODELLED[-1]


def supported_text() -> str:
    return f"{_fmt(OLDEST)} or newer (modelled: {', '.join(_fmt(v) for v in MODELLED)})"


def pick(text: str | None) -> Release:
    """The release for `--claude-code` / `claude-code = "..."` (None: the newest modelled release).

    A newer release than memlint knows gets the newest switch set; an older or malformed one is a
    usage error that lists what is supported."""
    if text is None:
        return _build(NEWEST)
    version = parse_version(text)
    if version is None:
        raise MemlintError(f"Claude Code version {text!r} is not a version like 2.1.332; supported: {supported_text()}")
    if version < OLDEST:
        raise MemlintError(f"Claude Code {_fmt(version)} is older than memlint models; supported: {supported_text()}")
    built = _build(max(v for v in MODELLED if v <= version))
    return Release(version, **built.switches(), settings_keys=built.settings_keys)


DEFAULT = pick(None)
