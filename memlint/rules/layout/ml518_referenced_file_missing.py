"""A loaded memory file links or names a project file that does not exist.

## What it does
Reports, once per file, markdown links (`[API](docs/api.md)`) and backticked paths
(`` `src/billing/invoice.ts` ``) in a file Claude Code loads at start that name a file which is
not there, while its folder is there with other files in it (so the file was renamed or deleted,
not left out of a partial checkout). Links
resolve from the linking file's folder; a backticked path from the project folder or the file's
folder. URLs, anchors, globs, placeholders, example paths ("e.g. `src/foo.ts`"), code blocks, paths outside the project and paths
whose folder is missing are left alone. MEMORY.md links are ML307's. A missing file named by several
loaded files is one cause: it is reported on the first of them, which names the others. Also left alone: paths inside
HTML comments (Claude Code strips them: Claude never sees the pointer), name templates such as
`memory/YYYY-MM-DD.md` (a run of one capital letter stands for a value), Claude Code's own personal
files (`CLAUDE.local.md`, `.claude/settings.local.json`), paths the repository's `.gitignore`
ignores, and paths on a line that names `.gitignore`: such files are absent from a clone by design.

## Why is this bad?
Claude Code loads the pointer into every session and Claude trusts it: it opens the file, the
read fails, and it searches or guesses. A stale path is worse than none.

## Example
```md CLAUDE.md
Error codes are listed in [the API guide](docs/api-guide.md).
```

```md docs/api.md
# API
```

Use instead:
```md CLAUDE.md
Error codes are listed in [the API guide](docs/api.md).
```
"""

from __future__ import annotations

import os
import re
from collections.abc import Iterator
from pathlib import Path
from urllib.parse import unquote

from memlint.model.loading.loader import LoadedFile
from memlint.model.run.rule_context import RuleContext
from memlint.model.text.markdown import COMMENT_SPAN
from memlint.rules import RuleMeta
from memlint.rules._paths import show
from memlint.rules.layout._common import InstructionFile, listed, loaded_instruction_files, prose_lines
from memlint.rules.security._git import find_repository, ignored_by
from memlint.violations import Finding

META = RuleMeta(
    code="ML518",
    slug="referenced-file-missing",
    severity="warning",
    summary="A loaded memory file links or names a project file that does not exist",
)

_LINK = re.compile(r"(?<!!)\[[^\]\n]*\]\(\s*<?([^)\s>]+)>?(?:\s+\"[^\"]*\")?\s*\)")
_TICKED = re.compile(r"`([A-Za-z0-9_.@-]+(?:/[A-Za-z0-9_.@-]+)+\.[A-Za-z0-9]{1,8})`")
_SCHEME = re.compile(r"[a-zA-Z][a-zA-Z0-9+.-]*:")
_SHOWN = 4
_ILLUSTRATIVE = re.compile(r"\be\.g\.|\bfor example\b|\bsuch as\b|\bfor instance\b|\blike `", re.IGNORECASE)
_PLACEHOLDER = re.compile(r"(?i)\b(?:foo|bar|baz|example|sample|my[-_]|your[-_]|xxx|yyy|name)\b|\b(?:my|your)[-_]")
_MEMORY_NAMES = frozenset({"CLAUDE.md", "CLAUDE.local.md", "AGENTS.md", "MEMORY.md"})
_PERSONAL = frozenset({"CLAUDE.local.md", "settings.local.json"})  # gitignored by design
_TEMPLATE = re.compile(r"(?:^|[^A-Za-z])([A-Z])\1+(?=[^A-Za-z]|$)")  # YYYY-MM-DD, NNN


def _by_design(ctx: RuleContext, target: str, path: Path, base: Path) -> bool:
    """A name template, one of Claude Code's personal files, or a path the repository ignores."""
    if _TEMPLATE.search(target) or path.name in _PERSONAL:
        return True
    repo = find_repository(path, ctx.document)
    top = repo.root if repo is not None else base
    if not str(path).startswith(str(top) + os.sep):
        return False
    return ignored_by(path, top, ctx.document, repo.git_dir if repo else None) is not None


def _missing(ctx: RuleContext, candidates: list[Path], inside: Path) -> bool:
    """None of the candidate paths (all inside the project) exists, and the folder of the first does."""
    for n, path in enumerate(candidates):
        if not str(path).startswith(str(inside) + os.sep):
            return False
        folder = _folder(ctx, str(path.parent))
        if folder is None or not folder[1]:
            if n == 0:
                return False  # its folder is missing or holds only memory files: a partial checkout
            continue
        if path.name in folder[0]:
            return False
    return True


def _folder(ctx: RuleContext, folder: str) -> tuple[frozenset[str], bool] | None:
    """The names in `folder` and whether it holds a file that is not memory (once per folder and
    run), or None when it cannot be listed."""
    def read() -> tuple[frozenset[str], bool] | None:
        listing = ctx.workspace.listing(folder)
        if listing is None:
            return None
        names = frozenset(name for name, _, _ in listing)
        return names, any(is_file and name not in _MEMORY_NAMES for name, _, is_file in listing)

    return ctx.once(("ml518.folder", folder), read)


def _references(ctx: RuleContext, file: LoadedFile, base: Path) -> list[tuple[int, str, str]]:
    """(line, path as written, the missing file it names) for each stale pointer of a loaded file."""
    text = ctx.document(file.path).text
    out: list[tuple[int, str, str]] = []
    if "](" not in text and "`" not in text:
        return out  # no link and no code span: nothing can name a file
    if "<!--" in text:  # Claude Code strips comments: blank them, keeping the line numbers
        text = COMMENT_SPAN.sub(lambda m: re.sub(r"[^\n]", " ", m.group(0)), text)
    here = file.path.parent
    for number, line in prose_lines(text):
        if ".gitignore" in line:
            continue  # names files to ignore: they are absent from a clone on purpose
        for m in _LINK.finditer(line) if "](" in line else ():
            target = unquote(m.group(1).split("#", 1)[0].split("?", 1)[0])
            if not target or _SCHEME.match(target) or target.startswith(("/", "~", "<", "{")):
                continue
            path = Path(os.path.normpath(here / target))
            if _missing(ctx, [path], base) and not _by_design(ctx, target, path, base):
                out.append((number, target, str(path)))
        illustrative: bool | None = None  # searched for on the first code span only
        for m in _TICKED.finditer(line) if "`" in line else ():
            target = m.group(1)
            if illustrative is None:
                illustrative = bool(_ILLUSTRATIVE.search(line))
            if illustrative or _PLACEHOLDER.search(target):
                continue  # an example path ("e.g. `src/foo/bar.ts`"), not a pointer
            if target.startswith(("~", ".")) and not target.startswith(".claude/"):
                continue
            paths = [Path(os.path.normpath(base / target)), Path(os.path.normpath(here / target))]
            if _missing(ctx, paths, base) and not _by_design(ctx, target, paths[0], base):
                out.append((number, target, str(paths[0])))
    return out


FILES = loaded_instruction_files


def _stale(ctx: RuleContext) -> tuple[dict[str, list[tuple[int, str, str]]], dict[str, str]]:
    """Every loaded file's stale pointers, and for each missing file the first loaded file that names
    it: one missing file is one cause, reported on that file (once per run)."""
    def scan() -> tuple[dict[str, list[tuple[int, str, str]]], dict[str, str]]:
        by_file: dict[str, list[tuple[int, str, str]]] = {}
        owner: dict[str, str] = {}
        for file, _doc, base in loaded_instruction_files(ctx):
            found = _references(ctx, file, base)
            if found:
                by_file[str(file.path)] = found
                for _, _, missing in found:
                    owner.setdefault(missing, str(file.path))
        return by_file, owner

    return ctx.once(("ml518.stale",), scan)


def check_file(ctx: RuleContext, entry: InstructionFile) -> Iterator[Finding]:
    file = entry[0]
    by_file, owner = _stale(ctx)
    key = str(file.path)
    found = [f for f in by_file.get(key, []) if owner[f[2]] == key]
    if not found:
        return  # every file it names is reported where it is first named
    also = sorted({other for other, refs in by_file.items() if other != key
                   for _, _, missing in refs if owner[missing] == key})
    named = (f"; also named by {len(also)} other loaded file{'s' if len(also) > 1 else ''} "
             f"({', '.join(f'`{show(ctx, Path(o))}`' for o in also[:3])}{', …' if len(also) > 3 else ''})"
             if also else "")
    shown = listed([f"line {n} `{target}`" for n, target, _ in found[:_SHOWN]], len(found))
    yield Finding(
        file.path,
        found[0][0],
        f"`{show(ctx, file.path)}` points Claude at {'files that do' if len(found) > 1 else 'a file that does'} "
        f"not exist ({shown}) although the folder is there: Claude Code "
        "loads this into every session, Claude opens the path and the read fails; point at the file's "
        f"new name or drop the reference{named}",
        end_line=found[-1][0],
    )
