"""`[tool.memlint]` in pyproject.toml, or .memlint.toml, found by walking up; validated once.

Keys: select, extend-select, ignore (codes, slugs, code prefixes like "ML1", or "ALL"); without
`select`, every rule on by default (opt-in style rules need `select` or `extend-select`); exclude
(gitignore patterns); per-file-ignores ({pattern: [codes]}); options ({rule: {option: value}});
memory-dirs (extra auto-memory folders); session-notes ({paths = [...], template = "..."});
claude-code (the Claude Code release to model, e.g. "2.1.197"; default the newest modelled);
setting-sources and add-dirs (how Claude Code is started: its `--setting-sources` as a list, and its
`--add-dir` folders, relative to the configuration's folder; the command-line options win).
Every error names the key and exits 2.
"""

from __future__ import annotations

import math
import operator
import sys
from collections.abc import Callable, Mapping
from dataclasses import field
from pathlib import Path
from typing import Any

from memlint.errors import ConfigError, MemlintError
from memlint.escape import for_terminal
from memlint.model.loading.settings import SETTING_SOURCES, Launch
from memlint.model.release import DEFAULT, Release, pick
from memlint.model.source.files import FileProblem, read_file
from memlint.model.source.ignorefiles import is_gitignore_pattern
from memlint.model.source.limits import DEFAULT_LIMITS, Limits, parse_limits
from memlint.records import dataclass
from memlint.rules import Rule, all_rules
from memlint.rules.catalog import default_codes

KEYS = {
    "select", "extend-select", "ignore", "extend-ignore", "exclude", "extend-exclude", "respect-gitignore",
    "per-file-ignores", "options", "memory-dirs", "session-notes", "claude-code", "limits", "setting-sources",
    "add-dirs",
}


@dataclass(frozen=True)
class Config:
    """A validated configuration."""

    path: Path | None = None
    root: Path = field(default_factory=Path.cwd)
    selected: frozenset[str] = frozenset()  # rule codes
    exclude: tuple[str, ...] = ()
    per_file_ignores: tuple[tuple[str, frozenset[str]], ...] = ()
    options: Mapping[str, Mapping[str, Any]] = field(default_factory=dict)  # code -> options
    memory_dirs: tuple[Path, ...] = ()
    session_notes_paths: tuple[str, ...] = ()
    session_notes_template: Path | None = None
    release: Release = DEFAULT  # `claude-code`: the Claude Code release modelled
    limits: Limits = DEFAULT_LIMITS  # memlint's own bounds (docs/limits.md)
    respect_gitignore: bool = True  # skip paths ignored by .gitignore / .ignore files
    setting_sources: frozenset[str] | None = None  # `setting-sources` (None: not set, all three)
    add_dirs: tuple[Path, ...] = ()  # `add-dirs`: Claude Code's `--add-dir` folders

    def launch(self, environ: Mapping[str, str], settings_file: Path | None = None,
               setting_sources: frozenset[str] | None = None, add_dirs: tuple[Path, ...] = ()) -> Launch:
        """How Claude Code is started: the environment and `--settings` given, and the command line's
        `--setting-sources` and `--add-dir` over this configuration's `setting-sources` and `add-dirs`."""
        return Launch.from_environ(environ, settings_file,
                                   self.setting_sources if setting_sources is None else setting_sources,
                                   add_dirs or self.add_dirs)


def resolve_selector(name: str, key: str) -> set[str]:
    """Codes named by a code, slug, prefix or ALL; an unknown name is a ConfigError."""
    rules = all_rules()
    if name == "ALL":
        return {r.code for r in rules}
    matched = {r.code for r in rules if r.code == name.upper() or r.slug == name.lower()}
    if not matched and name[:1].isalpha():  # a prefix: "ML1", or a plugin's "ACME"
        matched = {r.code for r in rules if r.code.startswith(name.upper())}
    if not matched:
        raise ConfigError(f"{key}: unknown rule {name!r} (see `memlint rules`)")
    return matched


def _string_list(value: Any, key: str) -> list[str]:
    if not isinstance(value, list) or not all(isinstance(v, str) for v in value):
        raise ConfigError(f"{key}: expected a list of strings")
    return list(value)


def _patterns(value: Any, key: str) -> list[str]:
    """A list of gitignore patterns: one that an ignore file would have skipped (a lone `!`, a
    trailing `\\`, a backward range `[z-a]`: memlint.model.source.ignorefiles) is an error here,
    where the user wrote it to match something."""
    patterns = _string_list(value, key)
    for pattern in patterns:
        if not is_gitignore_pattern(pattern):
            raise ConfigError(f"{key}: {pattern!r} is no gitignore pattern memlint can match (a lone `!`, "
                              "a trailing `\\` or a backward range like `[z-a]`)")
    return patterns


SELECTION_KEYS = ("select", "extend-select", "ignore", "extend-ignore")


def _select_layer(layer: Mapping[str, Any], selected: set[str], prefix: str) -> set[str]:
    """Apply one layer's select / extend-select / ignore to the codes selected so far; `prefix` is
    "--" for the command line, so errors name the option the user typed."""
    names = {key: _string_list(layer.get(key) or [], prefix + key) for key in SELECTION_KEYS}
    codes = {key: {c for n in values for c in resolve_selector(n, prefix + key)} for key, values in names.items()}
    result = set(codes["select"]) if names["select"] else set(selected)
    return (result | codes["extend-select"]) - codes["ignore"] - codes["extend-ignore"]


def build(raw: Mapping[str, Any], path: Path | None, root: Path, cli: Mapping[str, Any] | None = None) -> Config:
    """Validate a `[tool.memlint]` table (plus command-line overrides) into a Config."""
    where = f"{path}: " if path else ""
    unknown = set(raw) - KEYS
    if unknown:
        raise ConfigError(f"{where}unknown key {min(unknown)!r} {_table_name(raw, path)} "
                          f"(known: {', '.join(sorted(KEYS))})")
    cli = cli or {}
    merged = dict(raw)
    for key, value in cli.items():
        if (value or value is False) and key not in SELECTION_KEYS:
            merged[key] = value
    # Rule selection as in ruff: the configuration's layer, then the command line's; a layer with
    # `select` starts afresh, `extend-select` adds, `ignore` removes. A bad name is blamed on its layer.
    # Before any layer: the default selection (rules whose finding states a consequence).
    select = set(default_codes())
    try:
        select = _select_layer(raw, select, "")
    except ConfigError as exc:
        raise ConfigError(f"{where}{for_terminal(str(exc), keep_tab=False)}") from None  # a key may hold a line break
    select = _select_layer(cli, select, "--")
    try:
        exclude = tuple(_patterns(merged.get("exclude", []), "exclude")) + tuple(
            _patterns(merged.get("extend-exclude", []), "extend-exclude"))
        respect_gitignore = merged.get("respect-gitignore", True)
        if not isinstance(respect_gitignore, bool):
            raise ConfigError("respect-gitignore: expected true or false")
        pfi_raw = merged.get("per-file-ignores", {})
        if not isinstance(pfi_raw, dict):
            raise ConfigError("per-file-ignores: expected a table of pattern = [codes]")
        _patterns(list(pfi_raw), "per-file-ignores")
        per_file = tuple(
            (pattern, frozenset(c for n in _string_list(codes, f"per-file-ignores.{pattern}")
                                for c in resolve_selector(n, f"per-file-ignores.{pattern}")))
            for pattern, codes in pfi_raw.items()
        )
        options = _options(merged.get("options", {}))
        memory_dirs = tuple((root / p).absolute() for p in _string_list(merged.get("memory-dirs", []), "memory-dirs"))
        notes = merged.get("session-notes", {})
        if not isinstance(notes, dict) or set(notes) - {"paths", "template"}:
            raise ConfigError("session-notes: expected a table with `paths` and `template`")
        note_paths = tuple(_string_list(notes.get("paths", []), "session-notes.paths"))
        template = notes.get("template")
        if template is not None and not isinstance(template, str):
            raise ConfigError("session-notes.template: expected a path string")
        release = _release(merged.get("claude-code"))
        limits = parse_limits(merged.get("limits", {}))
        setting_sources = _setting_sources(merged.get("setting-sources"))
        add_dirs = tuple((root / p).absolute() for p in _string_list(merged.get("add-dirs", []), "add-dirs"))
    except ConfigError as exc:
        raise ConfigError(f"{where}{for_terminal(str(exc), keep_tab=False)}") from None  # a key may hold a line break
    return Config(
        path, root, frozenset(select), exclude, per_file, options, memory_dirs, note_paths,
        (root / template) if template else None, release, limits, respect_gitignore, setting_sources, add_dirs,
    )


def _setting_sources(value: Any) -> frozenset[str] | None:
    """`setting-sources = ["project"]`: Claude Code's `--setting-sources`, as the Agent SDK's
    `settingSources` list (`[]` for none)."""
    if value is None:
        return None
    names = _string_list(value, "setting-sources")
    wrong = next((name for name in names if name not in SETTING_SOURCES), None)
    if wrong is not None:
        raise ConfigError(f"setting-sources: {wrong!r} is not one of {', '.join(SETTING_SOURCES)}")
    return frozenset(names)


def _release(value: Any) -> Release:
    """`claude-code = "2.1.197"`: any release memlint models (see memlint.model.release)."""
    if value is None:
        return DEFAULT
    if not isinstance(value, str):
        raise ConfigError(f"claude-code: expected a version string like \"2.1.332\", got {value!r}")
    try:
        return pick(value)
    except MemlintError as exc:
        raise ConfigError(f"claude-code: {exc}") from None


def _options(raw: Any) -> dict[str, dict[str, Any]]:
    if not isinstance(raw, dict):
        raise ConfigError("options: expected a table of rule = {option = value}")
    out: dict[str, dict[str, Any]] = {}
    for name, values in raw.items():
        codes = resolve_selector(name, f"options.{name}")
        if len(codes) != 1 or not isinstance(values, dict):
            raise ConfigError(f"options.{name}: name one rule and give a table of options")
        code = next(iter(codes))
        rule = next(r for r in all_rules() if r.code == code)
        for option, value in values.items():
            if option not in rule.meta.options:
                known = ", ".join(sorted(rule.meta.options)) or "none"
                raise ConfigError(f"options.{name}.{option}: {code} has no such option (known: {known})")
            _check_option(rule, f"options.{name}.{option}", option, value)
        out[code] = dict(values)
    return out


def _check_option(rule: Rule, key: str, option: str, value: Any) -> None:
    """One rule option: the type of its default, one of its choices, a finite number in its range."""
    default = rule.meta.options[option]
    if isinstance(default, bool) != isinstance(value, bool) or (
        not isinstance(value, type(default)) and not (isinstance(default, float) and isinstance(value, int))
    ):
        raise ConfigError(f"{key}: expected {type(default).__name__}, got {value!r}")
    if isinstance(default, list) and not all(isinstance(v, str) for v in value):
        raise ConfigError(f"{key}: expected a list of strings, got {value!r}")
    allowed = rule.meta.choices.get(option)
    if allowed and value not in allowed:
        raise ConfigError(f"{key}: {value!r} is not one of {', '.join(allowed)}")
    if isinstance(value, bool) or not isinstance(value, (int, float)):
        return
    if abs(value) > MAX_NUMBER or not math.isfinite(value):  # inf, nan, or past exact float arithmetic
        raise ConfigError(f"{key}: expected a finite number of at most {MAX_NUMBER:,}, got {value!r}")
    spec = rule.meta.ranges.get(option, ">= 0")
    for bound in spec.split(","):
        compare, _, limit = bound.strip().partition(" ")
        if not _COMPARE[compare](value, float(limit)):
            raise ConfigError(f"{key}: expected a number {spec}, got {value!r}")


MAX_NUMBER = 2**53  # the largest number an option may hold: rules compute with floats
_COMPARE: dict[str, Callable[[float, float], bool]] = {
    ">": operator.gt, ">=": operator.ge, "<": operator.lt, "<=": operator.le,
}

MAX_CONFIG_BYTES = 64 * 1024 * 1024  # a larger .memlint.toml or pyproject.toml is refused, not parsed


def find_config_file(start: Path) -> tuple[Path | None, dict[str, Any]]:
    """The nearest .memlint.toml, or pyproject.toml with [tool.memlint], walking up from `start`."""
    folder = start.absolute() if start.is_dir() else start.absolute().parent
    for candidate in (folder, *folder.parents):
        for name in (".memlint.toml", "pyproject.toml"):
            path = candidate / name
            if not path.is_file():
                continue
            data = _load_toml(path)
            if name == ".memlint.toml":
                return path, _memlint_table(data, path)
            tool = data.get("tool")
            table = tool.get("memlint") if isinstance(tool, dict) else None
            if isinstance(table, dict):
                return path, table
            if table is not None:  # `[tool] memlint = "x"`: meant for memlint, so not skipped
                raise ConfigError(f"{path}: tool.memlint: expected a table, got {type(table).__name__}")
    return None, {}


def load_config(start: Path, explicit: Path | None = None, cli: Mapping[str, Any] | None = None) -> Config:
    if explicit is not None:
        path, raw = find_config_file(explicit) if explicit.is_dir() else (explicit, _read(explicit))
    else:
        path, raw = find_config_file(start)
    root = path.parent if path else (start.absolute() if start.is_dir() else start.absolute().parent)
    return build(raw, path, root, cli)


def _read(path: Path) -> dict[str, Any]:
    return _memlint_table(_load_toml(path), path)


def _load_toml(path: Path) -> dict[str, Any]:
    # The TOML parser is imported only when there is a configuration file to read.
    if sys.version_info >= (3, 11):
        import tomllib
    else:  # pragma: no cover
        import tomli as tomllib  # type: ignore[import-not-found,unused-ignore]
    raw = read_file(path, MAX_CONFIG_BYTES)  # a regular file only: `--config /dev/zero` or a FIFO is refused
    if isinstance(raw, FileProblem):
        raise ConfigError(f"{path}: cannot read: {raw.detail}")
    try:
        text = raw.decode("utf-8").replace("\r\n", "\n").replace("\r", "\n")  # as `read_text` reads it
        data: dict[str, Any] = tomllib.loads(text)
    except (UnicodeDecodeError, tomllib.TOMLDecodeError, RecursionError) as exc:
        raise ConfigError(f"{path}: cannot read: {exc}") from exc
    return data


class _ToolTable(dict):  # type: ignore[type-arg]
    """A configuration read from a file's `[tool.memlint]` table (not from its top level)."""


def _table_name(raw: Mapping[str, Any], path: Path | None) -> str:
    """Where the configuration's keys were read, for messages: `in [tool.memlint]` or at a file's top level."""
    if isinstance(raw, _ToolTable) or (path is not None and path.name == "pyproject.toml"):
        return "in [tool.memlint]"
    return f"at the top level of {path.name}" if path is not None else "in the configuration"


def _memlint_table(data: dict[str, Any], path: Path) -> dict[str, Any]:
    """`[tool.memlint]` when the file has one, else the whole file; `tool = 5` is a config error."""
    tool = data.get("tool")
    if tool is None:
        return data
    if not isinstance(tool, dict):
        raise ConfigError(f"{path}: tool: expected a table like [tool.memlint], got {type(tool).__name__}")
    table = tool.get("memlint", data)
    if not isinstance(table, dict):
        raise ConfigError(f"{path}: tool.memlint: expected a table, got {type(table).__name__}")
    return _ToolTable(table) if table is not data else table
