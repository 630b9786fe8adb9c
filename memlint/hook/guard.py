"""`memlint hook`: Claude Code's PostToolUse hook for Write, Edit and MultiEdit. When the write
touched a memory file and made it worse, the agent is told in one or two lines; else nothing.

The hook input (checked with the real CLI, 2.1.197 and 2.1.332) is one JSON object on stdin:
`hook_event_name` "PostToolUse", `tool_name`, `tool_input.file_path`, `cwd`, and `tool_response`
whose `originalFile` is the file's text before the write (null when the Write created it). The
answer is `{"hookSpecificOutput": {"hookEventName": "PostToolUse", "additionalContext": TEXT}}` on
stdout and exit 0: Claude Code hands TEXT to the agent right after the tool's result.

"Made worse": the codes that matter at write time (`CODES`) are checked on the touched file as it is
now and, only when something is found, on its text before the write; a finding is new when its
message (numbers aside) was not there before, and a MEMORY.md size finding also when the file grew.
Without the old text (a tool that does not send it) every finding counts. Only the touched file is
checked, with the files that include it, never the whole tree.
"""

from __future__ import annotations

import json
import os
from collections.abc import Mapping
from pathlib import Path

from memlint.hook.hook_input import TooDeep, js_string, loads
from memlint.lazy_regex import compile_lazily

TYPE_CHECKING = False  # neither typing nor dataclasses is imported: most writes are answered at once
if TYPE_CHECKING:
    from typing import Any

    from memlint.model.release import Release

TOOLS = ("Write", "Edit", "MultiEdit")
SIZE = ("ML301", "ML302")  # MEMORY.md cut, or past the write guard's warning point
INCLUDES = ("ML101", "ML103", "ML104", "ML105")  # an include broken
TEXT = ("ML601", "ML602")  # a secret or hidden Unicode written
PATHS = ("ML506", "ML507")  # a rule whose paths: match nothing
CODES: dict[str, tuple[str, ...]] = {"automem-index": SIZE + TEXT, "rule": INCLUDES + TEXT + PATHS}
OTHER = INCLUDES + TEXT
# which finding the agent hears of first: a leaked secret, then what loses instructions outright
URGENCY = ("ML601", "ML301", "ML101", "ML103", "ML105", "ML104", "ML602", "ML506", "ML507", "ML302")
WHAT_TO_DO = {
    "ML301": "move detail into topic files and keep one line per entry, or run `memlint fix --only-fix "
             "split-memory-index {path}`",
    "ML302": "compact it now: one line per entry, detail in topic files (`memlint fix --only-fix "
             "split-memory-index {path}` splits it)",
    "ML101": "fix the @path (it resolves from the including file's folder) or create the file",
    "ML103": "point the @path at a file, not a folder",
    "ML104": "include the file from a shallower file: Claude Code stops at four levels",
    "ML105": "remove one of the includes that form the cycle",
    "ML601": "remove the secret from the file now and rotate it; name where it is kept instead",
    "ML602": "remove the hidden characters (`memlint check {path}` shows where)",
    "ML506": "fix the paths: patterns so they match the files the rule is for",
    "ML507": "fix the paths: patterns so they match the files the rule is for",
}


class Write:
    """One write the hook was told about."""

    __slots__ = ("before", "before_known", "cwd", "path", "tool")

    def __init__(self, tool: str, path: Path, cwd: Path, before: str | None, before_known: bool) -> None:
        self.tool = tool
        self.path = path
        self.cwd = cwd
        self.before = before  # the text before the write ("" when it created the file)
        self.before_known = before_known


def parse(data: Any) -> Write | None:
    """The write in Claude Code's PostToolUse input, or None when it is none the hook looks at."""
    if not isinstance(data, dict) or data.get("hook_event_name", "PostToolUse") != "PostToolUse":
        return None
    tool, given = data.get("tool_name"), data.get("tool_input")
    if tool not in TOOLS or not isinstance(given, dict) or not isinstance(given.get("file_path"), str):
        return None
    given_cwd = data.get("cwd")
    # (a lone surrogate in a JavaScript string is U+FFFD in the file and the file name Node writes)
    cwd = js_string(given_cwd) if isinstance(given_cwd, str) and given_cwd else os.getcwd()
    path = Path(os.path.normpath(os.path.join(cwd, os.path.expanduser(js_string(given["file_path"])))))
    response = data.get("tool_response")
    before: str | None = None
    known = isinstance(response, dict) and "originalFile" in response
    if known:
        original = response["originalFile"]  # type: ignore[index]
        before = js_string(original) if isinstance(original, str) else ""
    return Write(str(tool), path, Path(cwd), before, known)


def role(path: Path, cwd: Path, home: Path, release: Any, workspace: Any = None,
         launch: Any = None) -> tuple[str | None, tuple[Path, ...]]:
    """The touched file's memory role (None: no memory file) and the paths to check it by: the
    file with the files that include it (as `release` loads them at start in `cwd`), or a topic
    file's folder (a topic file is one only beside its index). `workspace` keeps what was read for
    the checks that follow (with the same `launch`: Claude Code's environment and settings file)."""
    from memlint.model.loading.discovery import classify

    found = classify(path)
    if found is not None:
        return found, (path,)
    if path.suffix != ".md":
        return None, ()
    if (path.parent / "MEMORY.md").is_file():
        return "topic", (path.parent,)
    from memlint.engine import NO_MANAGED
    from memlint.model.loading.loader import load

    try:  # an include target of what loads at start in the session's folder
        loaded = load(cwd, home, workspace, NO_MANAGED, False, release, launch)
    except OSError:
        return None, ()
    real = os.path.realpath(path)
    includers = tuple(f.origin.path for f in loaded.files
                      if f.origin is not None and os.path.realpath(f.path) == real)
    return ("include", (path, *includers)) if includers else (None, ())


SETTINGS_NAMES = ("settings.json", "settings.local.json")


def check(write: Write, environ: Mapping[str, str]) -> str | None:
    """The text for the agent, or None when the write made nothing worse."""
    if write.path.name in SETTINGS_NAMES and write.path.parent.name == ".claude" and os.path.isfile(write.path):
        return _settings_check(write)
    if not write.path.name.lower().endswith(".md") or not os.path.isfile(write.path):
        return None  # Claude Code loads no memory file of another name: answered without the model
    from memlint.config import load_config
    from memlint.selection import select

    home = Path(environ.get("HOME") or os.path.expanduser("~"))
    config = load_config(write.cwd if write.cwd.is_dir() else write.path.parent)
    selection = select(config, ())  # its paths only: the rules are imported below, as few as needed
    if selection.excluded(write.path):
        return None
    from memlint.model.loading.workspace import Workspace

    # one workspace for the role and both checks: the files the write did not touch are read once
    workspace = Workspace(config.release, config.limits)
    launch = config.launch(dict(environ))
    kind, roots = role(write.path, write.cwd, home, config.release, workspace, launch)
    if kind is None:
        return None
    ignored = selection.ignored(write.path)
    codes = [c for c in CODES.get(kind, OTHER) if c in config.selected and c not in ignored]
    if not codes:
        return None
    after = _findings(write, workspace, codes, config, home, roots, launch)
    if not after:
        return None
    before: list[Any] = []
    if write.before_known and write.before:
        workspace.put(write.path, write.before)  # its text before the write (the model's memo is cleared)
        before = _findings(write, workspace, codes, config, home, roots, launch)
    new = _worse(before, after, write)
    return _message(write, new) if new else None


def _settings_check(write: Write) -> str | None:
    """A write that leaves a settings file one Claude Code ignores whole (ML528: a value its schema
    refuses, or no JSON object to it), when the file was not so before the write."""
    from memlint.config import load_config
    from memlint.model.loading.settings import parse_settings_text, read_settings_json
    from memlint.selection import select

    config = load_config(write.cwd if write.cwd.is_dir() else write.path.parent)
    selection = select(config, ())
    if "ML528" not in config.selected or "ML528" in selection.ignored(write.path) or selection.excluded(write.path):
        return None
    now = _settings_problem(read_settings_json(write.path), config.release)
    if now is None:
        return None
    if write.before_known and write.before is not None and (
            _settings_problem(parse_settings_text(write.before), config.release) == now):
        return None  # as broken before the write
    shown = _shown(write)
    return (f"memlint: after this {write.tool} of {shown}: Claude Code now ignores this settings file whole, "
            f"because {now} (ML528 settings-file-ignored); none of its settings apply, its claudeMdExcludes, "
            f"deny rules and autoMemoryDirectory included\nWhat to do: fix it, then `memlint check {shown}`.")


def _settings_problem(found: Any, release: Release) -> str | None:
    """Why `release` would ignore settings read as `found` (`read_settings_json`), or None."""
    from memlint.model.loading.settings import because, ignored_because
    from memlint.model.loading.settings_schema import Refusal

    problem = None if found is None else ignored_because(found, release)  # (None: missing or unreadable)
    if problem is None:
        return None
    if isinstance(problem, Refusal):
        return f"{because(problem)} (it is `{json.dumps(problem.value, ensure_ascii=False)[:40]}`)"
    return because(problem)


def _findings(write: Write, workspace: Any, codes: list[str], config: Any, home: Path,
              roots: tuple[Path, ...], launch: Any) -> list[Any]:
    """The findings of `codes` on the touched file, as `workspace` holds it."""
    from memlint import engine
    from memlint.rules.families import builtin_rules

    with engine.settled_heap():
        # their modules only, not their families; a rule of one file at a time on the touched file alone
        rules = [_on_file(rule, write.path) for rule in builtin_rules(codes)]
        ctx = engine.build_context(list(roots), config, home, workspace, launch, rules=rules)
        if write.cwd.is_dir() and write.cwd not in ctx.loads:
            # the session's own start folder, without listing the tree below it: what loads at start
            from memlint.model.loading.loader import load

            ctx.loads[write.cwd] = load(write.cwd, home, workspace, engine.NO_MANAGED, False, config.release, launch)
        # findings worded as `memlint check <cwd>` words them; a file outside the project (user
        # memory, auto memory) is shown from HOME and is in no repository
        ctx.roots = (write.cwd,) if write.cwd in write.path.parents else ()
        return [v for v in engine.run_rules(ctx, rules) if v.path == write.path]


def _on_file(rule: Any, path: Path) -> Any:
    """`rule`, looking only at `path` when it looks at files one at a time (its findings on a file
    come from that file: the others' would be dropped after checking every file the start folder loads)."""
    if not rule.per_file:
        return rule
    from types import ModuleType

    from memlint.rules import Rule

    module = ModuleType(rule.module.__name__, rule.module.__doc__)
    module.META, module.check_file = rule.meta, rule.module.check_file  # type: ignore[attr-defined]
    module.FILES = lambda ctx: [item for item in rule.files(ctx)  # type: ignore[attr-defined]
                                if _as_path(getattr(item, "path", item)) == path]
    return Rule(rule.meta, module, None)


def _as_path(found: Any) -> Path:
    return found if isinstance(found, Path) else Path(found)  # (a Path compares at once: made again it costs)


_NUMBER = compile_lazily(r"\d[\d,.]*")


def _worse(before: list[Any], after: list[Any], write: Write) -> list[Any]:
    known = {(v.code, _NUMBER.sub("#", v.detail or v.message)) for v in before}
    codes_before = {v.code for v in before}
    grew = write.before is None or not write.before_known or _size(write.path) > len(write.before)
    return [v for v in after if (v.code, _NUMBER.sub("#", v.detail or v.message)) not in known
            or (v.code in SIZE and (v.code not in codes_before or grew))]


def _size(path: Path) -> int:
    try:
        return len(path.read_text(encoding="utf-8", errors="replace"))
    except OSError:
        return 0


def _shown(write: Write) -> str:
    try:
        return str(write.path.relative_to(write.cwd))
    except ValueError:
        home = os.path.expanduser("~")
        text = str(write.path)
        return "~" + text[len(home):] if text.startswith(home.rstrip("/") + "/") else text


def _message(write: Write, found: list[Any]) -> str:
    """One or two lines: what the write did, and what to do."""
    shown = _shown(write)
    found = sorted(found, key=lambda v: (v.severity != "error", URGENCY.index(v.code) if v.code in URGENCY else 99))
    first = found[0]
    if first.code in SIZE:
        what = _size_sentence(write.path, first)
    else:
        what = f"{first.detail or first.message} ({first.code} {first.slug})"  # the whole finding
    rest = sorted({f"{v.code} {v.slug}" for v in found[1:]})
    more = f" Also {', '.join(rest)}: `memlint check {shown}`." if rest else ""
    todo = WHAT_TO_DO.get(first.code, "run `memlint check {path}`").format(path=shown)
    return f"memlint: after this {write.tool} of {shown}: {what}\nWhat to do: {todo}.{more}"


def _size_sentence(path: Path, finding: Any) -> str:
    """`MEMORY.md is now 214 lines: lines 201-214 will not load next session` from the model."""
    from memlint.model.memory.automem import GUARD_WARN_LINES, MAX_LINES, format_size, truncate_index
    from memlint.model.text.document import Document

    try:
        text = path.read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError):
        return f"{finding.detail or finding.message} ({finding.code} {finding.slug})"
    t = truncate_index(Document(path, text).loaded)
    if t.truncated:
        total = text.rstrip().count("\n") + 1
        lines = f"lines {t.kept_lines + 1}-{total}" if total > t.kept_lines + 1 else f"line {total}"
        size = f"{t.line_count} lines" if t.over_lines else f"{format_size(t.size)} ({t.line_count} lines)"
        return f"MEMORY.md is now {size}: {lines} will not load next session"
    if t.line_count >= GUARD_WARN_LINES:
        return (f"MEMORY.md is now {t.line_count} of {MAX_LINES} lines, past the write guard's warning point: "
                "entries added past the limit will not load")
    return (f"MEMORY.md is now {format_size(t.size)}, past the write guard's warning point: entries added past "
            "the size limit will not load")


def answer(raw: bytes, environ: Mapping[str, str]) -> str | None:
    """The JSON to print for the hook input `raw`, or None to stay silent."""
    try:
        data = loads(raw.decode("utf-8", "replace")) if raw.strip() else None
    except TooDeep:
        raise ValueError("the hook input on stdin is JSON nested too deep to read") from None
    except ValueError:
        raise ValueError("the hook input on stdin is not JSON") from None
    write = parse(data)
    if write is None:
        return None
    text = check(write, environ)
    if text is None:
        return None
    reply = {"hookSpecificOutput": {"hookEventName": "PostToolUse", "additionalContext": text}}
    try:
        text.encode("utf-8")
    except UnicodeEncodeError:  # a file name that is not UTF-8 (surrogate escapes): written as JSON escapes
        return json.dumps(reply)
    return json.dumps(reply, ensure_ascii=False)


def run(stdin: Any, stdout: Any, stderr: Any, environ: Mapping[str, str]) -> int:
    """`memlint hook` as a process: the input from `stdin` (bytes), the answer to `stdout`, exit 0;
    input that is no JSON is one line on `stderr` and exit 1, which Claude Code shows to the user,
    not to the agent (exit 2 would hand it to the agent as an error of its write)."""
    from memlint.errors import MemlintError

    if getattr(stdin, "isatty", lambda: False)():  # run by hand: nothing to wait for
        stderr.write("memlint hook: reads Claude Code's PostToolUse hook input on stdin; `memlint hook install` "
                     "adds it to Claude Code's settings (`memlint hook --help`)\n")
        return 2
    try:
        text = answer(stdin.read(), environ)
    except (ValueError, MemlintError, OSError) as exc:
        stderr.write(f"memlint hook: {exc}\n")
        return 1
    except Exception as exc:  # noqa: BLE001 - a bug in memlint: one line for the user, never a traceback
        import traceback

        where = traceback.extract_tb(exc.__traceback__)[-1]
        stderr.write(f"memlint hook: internal error: {type(exc).__name__}: {str(exc)[:300]} at "
                     f"{os.path.basename(where.filename)}:{where.lineno}; this is a bug in memlint, please report it\n")
        return 1
    if text is not None:
        stdout.write(text + "\n")
    return 0
