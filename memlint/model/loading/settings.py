"""Claude Code's settings and launch environment, as far as they change what it loads.

Settings files: user (`HOME/.claude/settings.json`), project (`START/.claude/settings.json`), local
(`START/.claude/settings.local.json`), the `--settings FILE` of the launch ("flag"), and managed
(`/etc/claude-code/managed-settings.json` and `managed-settings.d/*.json`). Which source counts for
what was observed with the real CLI (../shared/spec/claude-code-2.1.332-changes.md, C03, C13 and
section 4):

- `claudeMdExcludes`: every source, arrays merge;
- `autoMemoryDirectory`: local, then project, then user (the first that has the key); `~/` is HOME;
- `autoMemoryEnabled`: every source, the last one read wins;
- `env` (`CLAUDE_CODE_DISABLE_AUTO_MEMORY`): every source, the last one read wins, over the real
  environment; a true value (`1`, `true`, `yes`, `on`, any case, trimmed) turns auto memory off, a
  false one (`0`, `false`, `no`, `off`) turns it on whatever `autoMemoryEnabled` says; a non-string
  value counts as its JSON text (`1` is "1"); anything else leaves `autoMemoryEnabled` to decide
  (`env_*` cases of tests/differential/cases_layouts.py, the same on 2.1.197 and 2.1.332);
- the AGENTS.md plugin's options: user, flag and managed settings only, never project or local,
  merged key by key (a later source's key wins; the alias id's options before the full id's); its
  `instructionFiles`, or the legacy `projectInstructions` when `instructionFiles` is unset, unknown or
  the default; `enabledPlugins[<id>]`: every source, the last that names the plugin decides;
- `permissions.deny` `Read(...)` rules: every source;
- external-include approval: `HOME/.claude.json` `projects[<project root>].hasClaudeMdExternalIncludesApproved`.
"""

from __future__ import annotations

import json
import math
import os
import posixpath
import re
import unicodedata
from collections.abc import Mapping
from dataclasses import field, replace
from pathlib import Path
from typing import Any, Literal

from memlint.lazy_regex import compile_lazily
from memlint.model.cli_js.gitignore import ignores
from memlint.model.cli_js.jstext import js_trim, node_dirname, node_normalize
from memlint.model.cli_js.permission_rules import parse_rule, tool_matches
from memlint.model.loading.settings_schema import Refusal, refusal
from memlint.model.loading.workspace import Listing, surely_absent
from memlint.model.release import Release
from memlint.model.source.files import read_file
from memlint.records import dataclass

Source = Literal["user", "project", "local", "flag", "managed"]
# the sources `--setting-sources` picks from; the `--settings` file and managed settings always count
SETTING_SOURCES: tuple[Source, ...] = ("user", "project", "local")
ALL_SOURCES: frozenset[str] = frozenset(SETTING_SOURCES)
Mode = Literal["claude-md-or-agents-md", "claude-md-and-agents-md", "claude-md", "managed-only"]
MODES: tuple[Mode, ...] = ("claude-md-or-agents-md", "claude-md-and-agents-md", "claude-md", "managed-only")
DEFAULT_MODE: Mode = "claude-md-or-agents-md"
OLD_PLUGIN_ID = "agents-md@builtin"
FULL_PLUGIN_ID = "cc-plugin-agents-md@builtin"
# the legacy `projectInstructions` values (read from the bundle); any other value means claude-md
LEGACY_MODES: dict[str, Mode] = {
    "none": "managed-only", "claude": "claude-md", "agents-fallback": "claude-md-or-agents-md",
    "both": "claude-md-and-agents-md",
}
# the environment variables that change loading; everything else of the environment is ignored
ENV_KEYS = (
    "CLAUDE_CODE_AUTOMOUNT_ROOTS", "CLAUDE_CONFIG_DIR", "CLAUDE_CODE_PROJECT_DIR_NAME",
    "CLAUDE_CODE_DISABLE_AUTO_MEMORY", "CLAUDE_CODE_ADDITIONAL_DIRECTORIES_CLAUDE_MD",
)
_DIR_NAME = compile_lazily(r"[A-Za-z0-9_-]{1,64}")


@dataclass(frozen=True)
class Launch:
    """How Claude Code is started, beyond the folder and HOME: its `--settings` file, its
    `--setting-sources` and its environment."""

    settings_file: Path | None = None
    env: Mapping[str, str] = field(default_factory=dict)
    # `--setting-sources`: the user, project and local memory files and settings files Claude Code reads
    setting_sources: frozenset[str] = ALL_SOURCES
    # `--add-dir DIR`, in order (absolute): their memory files load with CLAUDE_CODE_ADDITIONAL_DIRECTORIES_CLAUDE_MD
    add_dirs: tuple[Path, ...] = ()

    @classmethod
    def from_environ(cls, environ: Mapping[str, str], settings_file: Path | None = None,
                     setting_sources: frozenset[str] | None = None, add_dirs: tuple[Path, ...] = ()) -> Launch:
        """Only the variables that change loading are kept; `setting_sources` None is all three."""
        env = {k: environ[k] for k in ENV_KEYS if environ.get(k)}
        return cls(settings_file, env, ALL_SOURCES if setting_sources is None else setting_sources, add_dirs)

    def without(self, key: str) -> Launch:
        """The same launch with the environment variable `key` unset."""
        return replace(self, env={k: v for k, v in self.env.items() if k != key})


def parse_setting_sources(text: str) -> frozenset[str]:
    """Claude Code's reading of `--setting-sources`: names separated by commas, each trimmed, each
    `user`, `project` or `local` (in that case); the empty text is no source at all. Anything else
    is refused with the CLI's own message (ValueError), before a session starts."""
    if text == "":
        return frozenset()
    names = [js_trim(item) for item in text.split(",")]
    for name in names:
        if name not in SETTING_SOURCES:
            raise ValueError(f"Invalid setting source: {name}. Valid options are: {', '.join(SETTING_SOURCES)}")
    return frozenset(names)


PLAIN_LAUNCH = Launch()  # no --settings file, no environment that changes loading


@dataclass(frozen=True)
class SettingsFile:
    """One settings file that was read: where, which source, its JSON object."""

    path: Path
    source: Source
    data: Mapping[str, Any]
    not_json: NotJson | None = None  # its text is no JSON object as Claude Code parses it (`data` is empty)


@dataclass(frozen=True)
class NotJson:
    """Why a settings file's text is no JSON object to Claude Code, and on which line."""

    detail: str
    line: int


@dataclass(frozen=True)
class IgnoredSettings:
    """A settings file Claude Code ignores whole, and why (`ignored_because`)."""

    file: SettingsFile
    problem: Refusal | NotJson

    @property
    def refusal(self) -> Refusal | None:
        """The first value its schema refuses (None: its text is no JSON object)."""
        return self.problem if isinstance(self.problem, Refusal) else None

    def why(self) -> str:
        return because(self.problem)


def ignored_because(found: Mapping[str, Any] | NotJson, release: Release) -> Refusal | NotJson | None:
    """Why `release` ignores a user, project, local or `--settings` file read as `found` (see
    `read_settings_json`): its text is no JSON object, or a value its schema refuses; None: it is used."""
    return found if isinstance(found, NotJson) else refusal(found, release)


def because(problem: Refusal | NotJson) -> str:
    """`problem` in words, as ML528, `context` and the hook say it."""
    if isinstance(problem, NotJson):
        return f"its text is no JSON object as Claude Code parses it ({problem.detail})"
    return problem.message()


@dataclass(frozen=True)
class DenyRule:
    """A `Read(...)` deny rule (`pattern` None: a bare `Read`, every file)."""

    written: str
    pattern: str | None
    roots: tuple[Path, ...]  # the folders the pattern is matched from (a relative one: every working folder)
    settings: Path  # the file that holds it


@dataclass(frozen=True)
class Settings:
    """The parts of Claude Code's settings that change what it loads."""

    excludes: tuple[str, ...] = ()
    auto_memory_dir: Path | None = None  # `autoMemoryDirectory`, when Claude Code accepts it
    auto_memory_enabled: bool = True  # `autoMemoryEnabled`, then CLAUDE_CODE_DISABLE_AUTO_MEMORY (`auto_memory`)
    mode: Mode = DEFAULT_MODE  # the AGENTS.md plugin's `instructionFiles`
    agents_plugin_enabled: bool = True  # `enabledPlugins[<plugin id>]` is not false, and the project source is on
    deny: tuple[DenyRule, ...] = ()
    external_includes_approved: bool = False
    files: tuple[SettingsFile, ...] = ()  # every settings file Claude Code uses, in reading order
    config_dir: Path | None = None  # CLAUDE_CONFIG_DIR
    ignored: tuple[IgnoredSettings, ...] = ()  # the files it reads and then ignores whole
    sources: frozenset[str] = ALL_SOURCES  # `--setting-sources`: which of user, project, local count
    # the `--add-dir` folders whose memory files load (CLAUDE_CODE_ADDITIONAL_DIRECTORIES_CLAUDE_MD is true)
    add_dirs: tuple[Path, ...] = ()
    # C15: the folders whose own memory the walk skips, at start and on a Read (CLAUDE_CODE_AUTOMOUNT_ROOTS)
    automount_roots: frozenset[str] = frozenset()

    def denied(self, path: str) -> DenyRule | None:
        """The first `Read` deny rule that covers `path`, else None."""
        for rule in self.deny:
            if rule.pattern is None or _deny_matches(rule, path):
                return rule
        return None


def read_json(path: Path | str) -> dict[str, Any] | None:
    """A settings file's object; None when it is missing, unreadable, binary, not UTF-8 or not a
    JSON object (read as `Document.read` reads: regular files up to 4 MiB, opened without blocking,
    so a FIFO is not read). As Claude Code reads it: one leading byte-order mark is skipped, and
    `NaN` and `Infinity`, which JavaScript's `JSON.parse` refuses, make the file unreadable
    (seen with the real CLI: case s04_settings_json_as_javascript_reads_it)."""
    found = read_settings_json(path)
    return found if isinstance(found, dict) else None


def parse_settings_text(text: str) -> dict[str, Any] | NotJson | None:
    """The JSON object `text` holds as Claude Code parses it (one leading BOM skipped, `NaN` and
    `Infinity` refused), else why it holds none; None when Python cannot tell (arrays nested deeper
    than its recursion limit, which JavaScript's parser reads: the file is passed over, never
    reported)."""
    try:
        data = json.loads(text.removeprefix("\ufeff"), parse_constant=_not_json)
    except RecursionError:
        return None
    except json.JSONDecodeError as exc:
        return NotJson(f"{exc.msg} at line {exc.lineno} column {exc.colno}", exc.lineno)
    except ValueError as exc:  # NaN, Infinity
        return NotJson(str(exc), 1)
    return data if isinstance(data, dict) else NotJson(f"a JSON {type(data).__name__}, not an object", 1)


def read_settings_json(path: Path | str) -> dict[str, Any] | NotJson | None:
    """A settings file's object; NotJson when its text is read but is no JSON object to Claude Code;
    None when it is missing, cannot be read as text (unreadable, binary, not UTF-8) or is nested
    deeper than Python's parser goes."""
    raw = read_file(path)
    if not isinstance(raw, bytes) or b"\x00" in raw:
        return None
    try:
        return parse_settings_text(raw.decode("utf-8"))
    except UnicodeDecodeError:
        return None


def _not_json(constant: str) -> Any:
    raise ValueError(f"{constant} is not JSON")


def memory_dir_setting(value: Any, home: Path) -> Path | None:
    """Claude Code's reading of `autoMemoryDirectory`: `~/...` joined to HOME (its rest may not climb
    out: `~/..`, `~/../x`), then normalised as Node normalises (`//x` is `/x`), trailing slashes and
    backslashes cut; absolute, at least 3 characters and no NUL, else refused (None)."""
    if not isinstance(value, str) or not value:
        return None
    if value.startswith(("~/", "~\\")):
        rest = value[2:]
        norm = node_normalize(rest or ".")
        if norm in (".", "..") or norm.startswith(("../", "..\\")):
            return None
        value = f"{home}/{rest}" if rest else str(home)  # Node's path.join
    path = node_normalize(value).rstrip("/\\")
    if not path.startswith("/") or len(path) < 3 or "\x00" in path:
        return None
    return Path(unicodedata.normalize("NFC", path))


def settings_files(
    start: Path, home: Path, managed_dir: Path, launch: Launch, reads: dict[object, Any] | None = None,
    listing: Listing | None = None,
) -> list[SettingsFile]:
    """Every settings file that exists, in Claude Code's reading order (later wins), whatever
    `--setting-sources` says (`read_settings` leaves out what it leaves out). `reads`, when given, keeps
    what was read for the next start folder of the same run: only the start folder's own two files
    differ between start folders. `listing`: the start folder's walk listing of this run, which may
    show it holds no `.claude` (most start folders), so neither file is looked for."""
    reads = {} if reads is None else reads
    fixed_key = ("fixed-candidates", home, managed_dir, launch.settings_file, launch.env.get("CLAUDE_CONFIG_DIR"))
    fixed = reads.get(fixed_key)
    if fixed is None:
        config_dir = Path(launch.env["CLAUDE_CONFIG_DIR"]) if launch.env.get("CLAUDE_CONFIG_DIR") else home / ".claude"
        after: list[tuple[Path, Source]] = []
        if launch.settings_file is not None:
            after.append((launch.settings_file, "flag"))
        after.append((managed_dir / "managed-settings.json", "managed"))
        drop_ins = managed_dir / "managed-settings.d"
        if drop_ins.is_dir():
            after += [(p, "managed") for p in sorted(drop_ins.glob("*.json"))]
        user_file: tuple[Path, Source] = (config_dir / "settings.json", "user")
        fixed = reads[fixed_key] = (user_file, tuple(after))
    user: tuple[Path, Source]
    after_start: tuple[tuple[Path, Source], ...]
    user, after_start = fixed
    base = str(start)
    own: tuple[tuple[Path | str, Source], ...] = () if surely_absent(listing, (".claude",)) else (
        (os.path.join(base, ".claude", "settings.json"), "project"),
        (os.path.join(base, ".claude", "settings.local.json"), "local"))
    candidates = (user, *own, *after_start)
    out = []
    for path, source in candidates:  # the start folder's two as text: a Path only for a file that is there
        data = _read_json_once(path, reads)
        if isinstance(data, NotJson):
            out.append(SettingsFile(Path(path), source, {}, data))
        elif data is not None:
            out.append(SettingsFile(Path(path), source, data))
    return out


def _read_json_once(path: Path | str, reads: dict[object, Any]) -> dict[str, Any] | NotJson | None:
    """`read_settings_json(path)`, read once per `reads` (one run)."""
    key = ("json", path)
    if key not in reads:
        reads[key] = read_settings_json(path)
    found: dict[str, Any] | NotJson | None = reads[key]
    return found


def plugin_ids(release: Release) -> tuple[str, ...]:
    return (FULL_PLUGIN_ID, OLD_PLUGIN_ID) if release.agents_md_full_plugin_id else (OLD_PLUGIN_ID,)


def plugin_options(files: list[SettingsFile] | tuple[SettingsFile, ...], release: Release) -> dict[str, Any]:
    """The AGENTS.md plugin's options as Claude Code merges them (its `Q4e`): the `options` of
    `pluginConfigs[<id>]` from user, `--settings` and managed settings in that order, the alias id
    before the full one, each key of a later one over an earlier one's."""
    merged: dict[str, Any] = {}
    for item in files:
        if item.source not in ("user", "flag", "managed"):
            continue
        configs = item.data.get("pluginConfigs")
        if not isinstance(configs, dict):
            continue
        for plugin in reversed(plugin_ids(release)):  # the alias, then the full id
            block = configs.get(plugin)
            options = block.get("options") if isinstance(block, dict) else None
            if isinstance(options, dict):
                merged.update(options)
    return merged


def instruction_mode(options: Mapping[str, Any]) -> Mode:
    """The mode the merged options set: `instructionFiles` when it is a known mode other than the
    default; else the legacy `projectInstructions` when it is set at all (any value it does not name is
    claude-md); else the default (an unknown `instructionFiles` counts as the default, so a legacy
    value beside it still decides)."""
    value = options.get("instructionFiles")
    mode: Mode = value if isinstance(value, str) and value in MODES else DEFAULT_MODE
    if mode != DEFAULT_MODE or "projectInstructions" not in options:
        return mode
    legacy = options["projectInstructions"]
    return LEGACY_MODES.get(legacy, "claude-md") if isinstance(legacy, str) else "claude-md"


def plugin_enabled(files: list[SettingsFile] | tuple[SettingsFile, ...], release: Release) -> bool:
    """`enabledPlugins[<id>]` as Claude Code reads it: every source in reading order (user, project,
    local, `--settings`, managed), the last that names the plugin deciding; within one file the full id
    before the alias. On when none names it or that value is true: `false`, and a list of strings (which
    the settings schema accepts), turn it off (`ag78_enabled_plugins_list`)."""
    value: Any = True
    for item in files:
        enabled = item.data.get("enabledPlugins")
        if isinstance(enabled, dict):
            value = next((enabled[p] for p in plugin_ids(release) if p in enabled), value)
    return value is True


def _deny_rules(item: SettingsFile, start: Path, home: Path, working: tuple[Path, ...]) -> list[DenyRule]:
    permissions = item.data.get("permissions")
    deny = permissions.get("deny") if isinstance(permissions, dict) else None
    out = []
    for rule in deny if isinstance(deny, list) else []:
        parsed = parse_rule(rule) if isinstance(rule, str) else None
        if parsed is None:
            continue
        if parsed.content is None:  # the whole tool (`Read`, `Read(*)`, `*`, `Rea*`): every file
            if tool_matches(parsed.tool, "Read"):
                out.append(DenyRule(rule, None, (start,), item.path))
            continue
        if parsed.tool != "Read":
            continue  # (a wildcard tool name with a content withholds nothing)
        pattern = parsed.content
        if pattern.startswith("//"):
            out.append(DenyRule(rule, _deny_pattern(pattern[1:]), (Path("/"),), item.path))
        elif pattern.startswith("~/"):
            out.append(DenyRule(rule, _deny_pattern("/" + pattern[2:]), (home,), item.path))
        elif pattern.startswith("/"):
            # `/` is the settings' own root: the start folder for project, local and managed settings, the
            # folder that holds the file for user settings (the config folder, `~/.claude`) and `--settings`
            base = item.path.parent if item.source in ("user", "flag") else start
            out.append(DenyRule(rule, _deny_pattern(pattern), (base,), item.path))
        else:
            # gitignore semantics from each working folder: `./CLAUDE.md` is `CLAUDE.md`, which matches at any
            # depth (it withholds `.claude/CLAUDE.md` too; seen with the real CLI)
            out.append(DenyRule(rule, _deny_pattern(pattern.removeprefix("./")), working, item.path))
    return out


def working_folders(start: Path, launch: Launch, release: Release) -> tuple[Path, ...]:
    """The folders a deny rule's relative pattern is matched from: the start folder and, from
    `deny_rules_from_added_folders`, each `--add-dir` folder that is not inside it, as given and as its
    real path (with CLAUDE_CODE_ADDITIONAL_DIRECTORIES_CLAUDE_MD or without: they are the session's
    working folders; one inside the start folder is none of its own, `ad12` in tests/differential)."""
    folders = [start]
    if release.deny_rules_from_added_folders:
        here = os.path.normpath(start)
        for added in launch.add_dirs:
            folder = os.path.normpath(added)
            if folder != here and not folder.startswith(here.rstrip("/") + "/"):
                folders += [Path(spelling) for spelling in (folder, os.path.realpath(folder))
                            if Path(spelling) not in folders]
    return tuple(folders)


def _deny_pattern(relative: str) -> str:
    """The gitignore pattern Claude Code matches for a deny rule's path once its root is split off: runs
    of `/` are one `/` (`Read(///abs/CLAUDE.md)` is `/abs/CLAUDE.md` from `/`), and a trailing `/**` is
    cut, so `Read(./a/**)` is `a`, a file or folder named `a` at any depth with all below it, and
    `Read(./**/x.md/**)` withholds `x.md` itself (its permission rules' normalising, in every release
    that withholds; found by scripts/compare_random_trees.py)."""
    pattern = re.sub(r"/{2,}", "/", relative)
    if pattern.endswith("/**"):
        head = pattern[:-3]
        pattern = head if re.search(r"[^/]", head) else "/**"
    return pattern


def _deny_matches(rule: DenyRule, path: str) -> bool:
    """gitignore semantics, the pattern anchored at each of the rule's roots in turn."""
    assert rule.pattern is not None
    for root in rule.roots:
        base = str(root).rstrip("/")
        if base and not (path == base or path.startswith(base + "/")):
            continue
        relative = path[len(base) + 1 :] if base else path.lstrip("/")
        if relative and ignores((rule.pattern,), relative):
            return True
    return False


def _approved(home: Path, config_dir: Path | None, project_root: Path, reads: dict[object, Any]) -> bool:
    folder = config_dir or home
    state_key = ("claude-json-path", folder)  # the path made once per run, not once per start folder
    state_path = reads.get(state_key)
    if state_path is None:
        state_path = reads[state_key] = folder / ".claude.json"
    state = _read_json_once(state_path, reads)  # CLAUDE_CONFIG_DIR holds it when set
    projects = state.get("projects") if isinstance(state, dict) else None
    entry = projects.get(str(project_root)) if isinstance(projects, dict) else None
    return isinstance(entry, dict) and entry.get("hasClaudeMdExternalIncludesApproved") is True


def read_settings(
    start: Path, home: Path, project_root: Path, release: Release, managed_dir: Path, launch: Launch = PLAIN_LAUNCH,
    reads: dict[object, Any] | None = None, listing: Listing | None = None,
) -> Settings:
    """Everything of the settings that changes what Claude Code loads from `start` (`reads` and
    `listing`: what this run read and listed already, see `settings_files`)."""
    reads = {} if reads is None else reads
    files: list[SettingsFile] = []
    ignored: list[IgnoredSettings] = []
    unread: list[SettingsFile] = []  # of sources `--setting-sources` leaves out, read for one key by old releases
    for item in settings_files(start, home, managed_dir, launch, reads, listing):
        # managed settings are read value by value: only a text that is no JSON object drops one
        problem = item.not_json or (ignored_because(item.data, release) if item.source != "managed" else None)
        if item.source in ALL_SOURCES and item.source not in launch.setting_sources:  # Claude Code leaves it unread
            if problem is None and not release.memory_dir_follows_sources:
                unread.append(item)
        elif problem is None:
            files.append(item)
        else:  # Claude Code uses nothing of it (model/loading/settings_schema.py)
            ignored.append(IgnoredSettings(item, problem))
    patterns: list[str] = []
    seen: set[str] = set()
    enabled = True
    deny: list[DenyRule] = []
    working = working_folders(start, launch, release)
    for item in files:
        value = item.data.get("claudeMdExcludes")
        if isinstance(value, list):
            for pattern in value:
                if isinstance(pattern, str) and pattern not in seen:
                    seen.add(pattern)
                    patterns.append(pattern)
        if isinstance(item.data.get("autoMemoryEnabled"), bool):
            enabled = item.data["autoMemoryEnabled"]
        deny += _deny_rules(item, start, home, working)
    mode = instruction_mode(plugin_options(files, release))
    # without the project source the AGENTS.md plugin reads nothing (r05_setting_sources_user)
    plugin_on = plugin_enabled(files, release) and "project" in launch.setting_sources
    memory_dir = None
    # `autoMemoryDirectory`: the first source that sets one (null is none), managed settings first, then
    # `--settings`, local, project and user (the last managed file that sets it, as they merge), even
    # when Claude Code then refuses the value (tests/differential: am01_memory_directory_sources); before
    # `memory_dir_follows_sources`, from the files of every source whatever `--setting-sources` says
    for source in ("managed", "flag", "local", "project", "user"):
        values = [item.data["autoMemoryDirectory"] for item in (*files, *unread)
                  if item.source == source and item.data.get("autoMemoryDirectory") is not None]
        if values:
            memory_dir = memory_dir_setting(values[-1], home)
            break
    config_dir = Path(launch.env["CLAUDE_CONFIG_DIR"]) if launch.env.get("CLAUDE_CONFIG_DIR") else None
    return Settings(
        _expand_excludes(patterns, reads), memory_dir, auto_memory(enabled, files, launch), mode, plugin_on, tuple(deny),
        _approved(home, config_dir, project_root, reads), tuple(files), config_dir, tuple(ignored),
        launch.setting_sources, launch.add_dirs if env_word(files, launch, ADDITIONAL_DIRECTORIES) in _TRUE else (),
        automount_roots(release, tuple(files), launch),
    )


DISABLE_AUTO_MEMORY = "CLAUDE_CODE_DISABLE_AUTO_MEMORY"
ADDITIONAL_DIRECTORIES = "CLAUDE_CODE_ADDITIONAL_DIRECTORIES_CLAUDE_MD"
_TRUE = frozenset({"1", "true", "yes", "on"})
_FALSE = frozenset({"0", "false", "no", "off"})


def env_word(files: tuple[SettingsFile, ...] | list[SettingsFile], launch: Launch, key: str) -> str:
    """`key` where Claude Code reads it (`env_value`), trimmed and lower-cased, as it compares it with
    its true words (`1`, `true`, `yes`, `on`) and false words (`0`, `false`, `no`, `off`); "" when unset."""
    value = env_value(files, launch, key)
    return value.strip().lower() if value is not None else ""


def env_value(files: tuple[SettingsFile, ...] | list[SettingsFile], launch: Launch, key: str) -> str | None:
    """What Claude Code's process sees for `key`: the `env` block of the last settings file that sets
    it (settings are applied over the real environment), else the real environment."""
    value = launch.env.get(key)
    for item in files:
        block = item.data.get("env")
        if isinstance(block, dict) and key in block:
            text = _js_string(block[key])
            value = text if text is not None else value
    return value


def _js_string(value: Any) -> str | None:
    """A settings `env` value as the string Claude Code puts into its environment."""
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, str):
        return value
    if isinstance(value, int):
        return str(value)
    if isinstance(value, float) and not math.isnan(value) and not math.isinf(value):
        return str(int(value)) if value.is_integer() and abs(value) < 1e21 else repr(value)
    return None


def auto_memory(enabled: bool, files: tuple[SettingsFile, ...] | list[SettingsFile], launch: Launch) -> bool:
    """Whether auto memory is on: CLAUDE_CODE_DISABLE_AUTO_MEMORY (settings `env` over the real
    environment) when it is a true or a false value, else `autoMemoryEnabled` (`enabled`)."""
    word = env_word(files, launch, DISABLE_AUTO_MEMORY)
    if word in _TRUE:
        return False
    if word in _FALSE:
        return True
    return enabled


def _expand_excludes(patterns: list[str], reads: dict[object, Any]) -> tuple[str, ...]:
    """Absolute patterns also match under their folder's real path, as Claude Code adds them: the
    folder is Node's `dirname` of the text before the first glob character (so `/a/link/*.md` asks
    for `/a`, and `/a//p//CLAUDE.md` for `/a//p/`), resolved as `realpath` resolves it (normalised,
    links followed; a folder that is not there, or a `//host` path, adds nothing), and the rest of
    the pattern follows the real folder (tests/differential: x01_exclude_pattern_real_folder). Worked
    out once per run (`reads`) for the patterns every start folder shares."""
    key = ("excludes", tuple(patterns))
    found: tuple[str, ...] | None = reads.get(key)
    if found is None:
        found = reads[key] = _expanded(patterns)
    return found


def _expanded(patterns: list[str]) -> tuple[str, ...]:
    expanded = [p.replace("\\", "/") for p in patterns]
    for pattern in expanded:  # (patterns added are walked too, as Claude Code's loop does; they add none)
        if not pattern.startswith("/"):
            continue
        cut = min((i for i, ch in enumerate(pattern) if ch in "*?{["), default=len(pattern))
        folder = node_dirname(pattern[:cut])
        if folder.startswith("//") and folder[2:3] not in ("", "/"):
            continue  # a `//host/share` path is never resolved
        try:
            real = os.path.realpath(posixpath.normpath(folder), strict=True)
        except (OSError, ValueError):
            continue
        if real != folder:
            expanded.append(real + pattern[len(folder) :])
    return tuple(p for p in expanded if p)


def automem_dir_name(release: Release, launch: Launch) -> str | None:
    """C16: `CLAUDE_CODE_PROJECT_DIR_NAME` names the project's folder when `CLAUDE_CONFIG_DIR` is set too."""
    name = launch.env.get("CLAUDE_CODE_PROJECT_DIR_NAME")
    if not release.project_dir_name_env or not launch.env.get("CLAUDE_CONFIG_DIR") or name is None:
        return None
    return name if _DIR_NAME.fullmatch(name) else None


def automount_roots(release: Release, files: tuple[SettingsFile, ...], launch: Launch) -> frozenset[str]:
    """C15: folders the walk skips (`CLAUDE_CODE_AUTOMOUNT_ROOTS`, a `:`-separated list), from a
    settings `env` block as from the real environment (`env_value`; case m07b_automount_roots_settings_env)."""
    if not release.automount_roots_skipped:
        return frozenset()
    value = env_value(files, launch, "CLAUDE_CODE_AUTOMOUNT_ROOTS") or ""
    return frozenset(posixpath.normpath(p) for p in value.split(os.pathsep) if p.startswith("/"))
