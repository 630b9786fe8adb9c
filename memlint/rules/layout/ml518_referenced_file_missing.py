"""A loaded memory file links or names a project file that does not exist.

## What it does
Reports, once per file, markdown links (`[API](docs/api.md)`) and backticked paths
(`` `src/billing/invoice.ts` ``) in a file Claude Code loads at start that name a file which is
not there, while its folder is there with other files in it (so the file was renamed or deleted,
not left out of a partial checkout: memory files and their variants such as `CLAUDE.ko.md` do
not count as other files). Links resolve from the linking file's folder; a backticked path from
the project folder or the file's folder. URLs, anchors, globs, code blocks, paths outside the
project and paths whose folder is missing are left alone. MEMORY.md links are ML307's. A missing
file named by several loaded files is one cause: it is reported on the first of them, which names
the others. Also left alone: paths inside HTML comments (Claude Code strips them: Claude never
sees the pointer); paths that show a shape rather than name a file, told without reading words:
a fill-in segment (`docs/<page>.md`, `{name}`, `$DIR`, `xxx`), a name template such as
`memory/YYYY-MM-DD.md` or `specs/PROJ-X-title.md` (a run of one capital letter, or a lone `X`
or `N`, stands for a value), or a metasyntactic name
programmers use in every language (`foo`, `bar`, `baz`, `qux`, `hoge`, `fuga`, `piyo`); paths
below a folder that the same file also writes below a fill-in root (`<app-dir>/ledger/` makes
`ledger/log.md` relative to that root, not to the project); Claude Code's own personal files
(`CLAUDE.local.md`, `.claude/settings.local.json`), paths the repository's `.gitignore` ignores,
and paths on a line that names `.gitignore`: such files are absent from a clone by design.

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

## Options
- `example-words` (default `[]`): words your memory files put before an example path
  (`["e.g.", "z. B.", "例えば"]`, compared without case): a backticked path on a line that holds
  one is taken as an example, not a pointer. memlint reads no words of its own.
"""

from __future__ import annotations

import os
import re
from collections.abc import Iterator
from pathlib import Path
from urllib.parse import unquote

from memlint.lazy_regex import compile_lazily
from memlint.model.loading.loader import LoadedFile
from memlint.model.run.rule_context import RuleContext
from memlint.model.text.markdown import blank_comments
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
    options={"example-words": []},
)

# A markdown link and its target. Never run it over a text: from every `[` it runs the target to the
# end and backs off one character at a time (`[a](` 25,000 times: 46 s). `_Links` finds the same
# matches in one pass; tests/hostile/test_quadratic_inputs.py compares the two.
_LINK = compile_lazily(r"(?<!!)\[[^\]\n]*\]\(\s*<?([^)\s>]+)>?(?:\s+\"[^\"]*\")?\s*\)")
_LABEL_END = compile_lazily(r"[\]\n]")
_TARGET_END = compile_lazily(r"[)\s>]")
_QUOTE = compile_lazily(r"\"")
_NOT_SPACE = compile_lazily(r"\S")
_TICKED = compile_lazily(r"`([A-Za-z0-9_.@-]+(?:/[A-Za-z0-9_.@-]+)+\.[A-Za-z0-9]{1,8})`")
_SCHEME = compile_lazily(r"[a-zA-Z][a-zA-Z0-9+.-]*:")
_SHOWN = 4
# A path segment that shows a shape instead of naming a file (a backticked path holds no `<`, `{`
# or `$`): an ellipsis, one character repeated, a name programmers use for "any" in every language.
_PLACEHOLDER = compile_lazily(r"\.\.\.|(?:^|[/_.-])([a-vx-zA-Z0-9])\1\1+(?=[/_.-]|$)|"  # (not `www`)
                          r"(?i:(?:^|[/_.-])(?:foo|bar|baz|qux|quux|hoge|fuga|piyo)(?=[/_.-]|$))")
# A folder written below a fill-in root (`<app-dir>/ledger/`, `{root}/docs/`, `$DIR/state/`).
_FILLED_ROOT = compile_lazily(r"(?:<[^<>\s/]{1,40}>|\{[^{}\s/]{1,40}\}|\$\{?[A-Za-z_]\w{0,40}\}?)/([^/\s`'\"<>{}()]+)/")
_MEMORY_NAMES = frozenset({"CLAUDE.md", "CLAUDE.local.md", "AGENTS.md", "MEMORY.md"})


def _memory_name(name: str) -> bool:
    """A memory file or a variant of one (`CLAUDE.ko.md`, `AGENTS.override.md`): not a project file."""
    return name in _MEMORY_NAMES or name.endswith(".md") and name.startswith(("CLAUDE.", "AGENTS."))
_PERSONAL = frozenset({"CLAUDE.local.md", "settings.local.json"})  # gitignored by design
# A name template: a run of one capital letter, or a lone X or N, stands for a value (YYYY-MM-DD,
# NNN, PROJ-X-title).
_TEMPLATE = compile_lazily(r"(?:^|[^A-Za-z0-9])(?:([A-Z])\1+|[XN])(?=[^A-Za-z0-9]|$)")


class _Next:
    """Where `pattern` first matches at or after a position (the text's length when nowhere), for
    positions asked in increasing order: an answer holds for every position from the one asked up
    to it, so each search starts past the last answer and the text is read once in all."""

    def __init__(self, text: str, pattern: re.Pattern[str]) -> None:
        self.text, self.search = text, pattern.search
        self.asked, self.found = 0, -1

    def __call__(self, at: int) -> int:
        if not self.asked <= at <= self.found:
            match = self.search(self.text, at)
            self.asked, self.found = at, match.start() if match else len(self.text)
        return self.found


class _Links:
    """(start, end, target) of each match of `_LINK` in a line, in order, in linear time: each part
    of a link is decided as the regex decides it (`_at`), and each kind of scan asks its own `_Next`,
    whose positions only grow from one `[` to the next."""

    def __init__(self, line: str) -> None:
        self.line = line
        self.label_end, self.target_end, self.quote = (_Next(line, p) for p in (_LABEL_END, _TARGET_END, _QUOTE))
        # white space is skipped at three places of a link: before the target, after it, after a title
        self.after_paren, self.after_target, self.after_title = (_Next(line, _NOT_SPACE) for _ in range(3))

    def __iter__(self) -> Iterator[tuple[int, int, str]]:
        line, at = self.line, 0
        while (start := line.find("[", at)) != -1:
            found = None if start and line[start - 1] == "!" else self._at(start)
            if found is None:
                at = start + 1
            else:
                yield start, found[0], found[1]
                at = found[0]

    def _at(self, start: int) -> tuple[int, str] | None:
        """(end, target) of the link the regex matches at `start`, or None. The regex has no choice
        to back off into: the label ends at its first `]`; the spaces before the target and the
        target (no white space, `)` or `>`) are taken whole, since nothing after them may start
        with what they would give back; `<` opens the target unless the target would then be
        empty (it is then the target); a title runs from its `"` to the next; a link without a
        title ending in `)` closes at the `)` after the spaces that follow the target."""
        line, n = self.line, len(self.line)
        label = self.label_end(start + 1)
        if label == n or line[label] != "]" or line[label + 1 : label + 2] != "(":
            return None
        first = self.after_paren(label + 2)
        end = self.target_end(first)
        if end == first:
            return None
        begin = first + 1 if line[first] == "<" and end > first + 1 else first
        after = end + 1 if end < n and line[end] == ">" else end
        spaces = self.after_target(after)
        if after < spaces < n and line[spaces] == '"':
            close = self.quote(spaces + 1)
            paren = self.after_title(close + 1) if close < n else n
            if paren < n and line[paren] == ")":
                return paren + 1, line[begin:end]
        if spaces < n and line[spaces] == ")":
            return spaces + 1, line[begin:end]
        return None


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
        return names, any(is_file and not _memory_name(name) for name, _, is_file in listing)

    return ctx.once(("ml518.folder", folder), read)


def _references(ctx: RuleContext, file: LoadedFile, base: Path) -> list[tuple[int, str, str]]:
    """(line, path as written, the missing file it names) for each stale pointer of a loaded file."""
    text = ctx.document(file.path).text
    words = tuple(str(w).lower() for w in ctx.options.get("example-words", ()) if str(w).strip())
    out: list[tuple[int, str, str]] = []
    if "](" not in text and "`" not in text:
        return out  # no link and no code span: nothing can name a file
    if "<!--" in text:  # Claude Code strips comments: blank them, keeping the line numbers
        text = blank_comments(text)
    here = file.path.parent
    rooted = {m.group(1) for m in _FILLED_ROOT.finditer(text)} if "/" in text else set()
    for number, line in prose_lines(text):
        if ".gitignore" in line:
            continue  # names files to ignore: they are absent from a clone on purpose
        for _start, _end, written in _Links(line) if "](" in line else ():
            target = unquote(written.split("#", 1)[0].split("?", 1)[0])
            if not target or _SCHEME.match(target) or target.startswith(("/", "~", "<", "{")):
                continue
            path = Path(os.path.normpath(here / target))
            if _missing(ctx, [path], base) and not _by_design(ctx, target, path, base):
                out.append((number, target, str(path)))
        illustrative: bool | None = None  # searched for on the first code span only
        for m in _TICKED.finditer(line) if "`" in line else ():
            target = m.group(1)
            if illustrative is None:
                illustrative = bool(words) and any(w in line.lower() for w in words)
            if illustrative or _PLACEHOLDER.search(target) or target.split("/", 1)[0] in rooted:
                continue  # an example path (`src/foo/bar.ts`), or one below a fill-in root
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
