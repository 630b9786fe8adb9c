"""A loaded memory file tells Claude to run `npm run X` or `make X`, and the project defines no X.

## What it does
Reads `package.json` scripts and Makefile targets as data (nothing is run) in the folder a memory
file speaks for (the folder of its CLAUDE.md or `.claude/`; for an include, the start folder) and
reports, once per file, `npm run X`, `pnpm run X`, `yarn run X` and `make X` written as commands
(in code, or at the start of a line) where X is not defined there. Commands with `cd`, `--prefix`, `-w`/`--workspace`, `--filter` or `make -C` run
elsewhere and are left alone, and so is a Makefile that includes others or has pattern rules.

## Why is this bad?
Claude Code loads the instruction into every session and Claude follows it: the command fails,
and Claude spends turns finding out why (or guesses another). Usually the script was renamed.

## Example
```md CLAUDE.md
Run `npm run lint` before every commit.
```

```md package.json
{"scripts": {"lint:fix": "eslint --fix .", "test": "vitest"}}
```

Use instead:
```md CLAUDE.md
Run `npm run lint:fix` before every commit.
```
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterator
from pathlib import Path

from memlint.lazy_regex import compile_lazily
from memlint.model.run.rule_context import RuleContext
from memlint.rules import RuleMeta
from memlint.rules._paths import show
from memlint.rules.layout._common import InstructionFile, listed, loaded_instruction_files
from memlint.violations import Finding

META = RuleMeta(
    code="ML517",
    slug="command-not-defined",
    severity="warning",
    summary="A loaded memory file says to run `npm run X` or `make X` and the project defines no X",
)

_NPM = compile_lazily(r"\b(npm|pnpm|yarn)\s+run\s+([A-Za-z0-9:_.@/-]+)")
_MAKE = compile_lazily(r"(?<![\w/.-])make((?:\s+[A-Za-z0-9_./-]+)+)")
_ELSEWHERE = compile_lazily(r"\bcd\s|--prefix|(?:^|\s)(?:-w|--workspace|--filter|-C)\b")
_TARGET = compile_lazily(r"^([A-Za-z0-9_./ -]+?)\s*::?(?![=])", re.MULTILINE)
_FENCE_LINE = compile_lazily(r"^\s{0,3}(`{3,}|~{3,})")
_CODE_SPAN = compile_lazily(r"(`+)(.+?)\1")
_LEADING = compile_lazily(r"^\s*(?:[-*+]\s+|\d+[.)]\s+)?(?:\$\s+)?")
_PROSE = frozenset(["sure", "it", "the", "a", "an", "this", "that", "them", "these", "those", "any", "all", "every", "your", "our", "use", "changes"])
_MAKEFILES = ("GNUmakefile", "makefile", "Makefile")
_SHOWN = 4


def _scripts(ctx: RuleContext, folder: Path) -> set[str] | None:
    doc = ctx.document(folder / "package.json")
    if doc.problem is not None:
        return None
    try:
        data = json.loads(doc.text)
    except (ValueError, RecursionError):
        return None
    scripts = data.get("scripts") if isinstance(data, dict) else None
    return set(scripts) if isinstance(scripts, dict) else None


def _targets(ctx: RuleContext, folder: Path) -> set[str] | None:
    for name in _MAKEFILES:
        doc = ctx.document(folder / name)
        if doc.problem is not None:
            continue
        if re.search(r"^-?include\s|^[^\s#]*%[^:]*:", doc.text, re.MULTILINE):
            return None  # targets come from elsewhere or from patterns
        return {t for m in _TARGET.finditer(doc.text) for t in m.group(1).split() if not t.startswith(".")}
    return None


def _commands(text: str) -> Iterator[tuple[int, str]]:
    """(line, command text) for what reads as a command: code spans, code blocks, and lines that
    start with `$ ` or with the command itself. Prose ("make sure ...") is not a command."""
    fence: str | None = None
    for number, line in enumerate(text.split("\n"), 1):
        match = _FENCE_LINE.match(line)
        if match:
            fence = None if fence is not None and match.group(1)[0] == fence[0] else fence or match.group(1)
            continue
        if fence is not None:
            yield number, line
            continue
        for span in _CODE_SPAN.finditer(line):
            yield number, span.group(2)
        bare = _LEADING.sub("", line)
        if bare.startswith(("make ", "npm ", "pnpm ", "yarn ")):
            yield number, bare


def _undefined(ctx: RuleContext, text: str, base: Path) -> list[tuple[int, str, str]]:
    out: list[tuple[int, str, str]] = []
    if "make" not in text and "run" not in text:
        return out  # neither `make ...` nor `npm run ...` (and the like) can be here
    # package.json and the Makefile are read once per folder and run, not once per memory file
    scripts, targets = ctx.once(("ml517.defined", base), lambda: (_scripts(ctx, base), _targets(ctx, base)))
    if scripts is None and targets is None:
        return out
    for number, command in _commands(text):
        if _ELSEWHERE.search(command):
            continue
        if scripts is not None:
            for m in _NPM.finditer(command):
                if m.group(2) not in scripts:
                    out.append((number, m.group(0), f"`package.json` has no script `{m.group(2)}`"))
        if targets is not None:
            for m in _MAKE.finditer(command):
                goals = [g for g in m.group(1).split() if "=" not in g and not g.startswith("-")]
                missing = [g for g in goals[:1] if g not in targets and g not in _PROSE
                           and re.fullmatch(r"[a-z][a-z0-9_.-]*", g)]
                out += [(number, f"make {g}", f"the Makefile has no target `{g}`") for g in missing]
    return sorted(set(out))


FILES = loaded_instruction_files


def check_file(ctx: RuleContext, entry: InstructionFile) -> Iterator[Finding]:
    file, doc, base = entry
    found = _undefined(ctx, doc.text, base)
    if not found:
        return
    shown = listed([f"line {n} `{cmd}`: {why}" for n, cmd, why in found[:_SHOWN]], len(found), "; ")
    yield Finding(
        file.path,
        found[0][0],
        f"`{show(ctx, file.path)}` tells Claude to run commands the project does not define ({shown}): "
        "Claude Code loads this into every session, Claude runs the command and it fails; name the "
        "script or target that exists",
        end_line=found[-1][0],
    )
