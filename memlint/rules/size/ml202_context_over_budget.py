"""The memory Claude Code loads at start is over a token budget.

## What it does
Adds up the tokens of everything Claude Code loads at start in each start folder (the project root
and every folder with its own CLAUDE.md): user and project memory, rules, includes and the
auto-memory index. When the total is over the budget (by default 10% of the model's context
window), it reports once per start folder, on that folder's CLAUDE.md, naming the biggest files.
A start folder that is over only because of files over Claude Code's own large-file threshold
(which ML201 reports, once per file) is left out: the cause is already stated where it is. So is a
start folder inside another project's copy (a git submodule, a folder with its own `.git`, or
`node_modules`, `vendor/`, `third_party/`): nobody starts a session of this project there.

## Why is this bad?
Start-up memory is paid for on every request and leaves less room for the conversation and the
code. Past a tenth of the window, memory usually holds detail that belongs in files Claude reads
on demand (topic files, conditional rules with `paths:`).

## Example
```md .memlint.toml
[options.ML202]
budget = 20
```
```md CLAUDE.md
# Project
Build with make. Test with make test. Deploy with make deploy. Release notes go in CHANGES.md.
@docs/style.md
```
```md docs/style.md
Four spaces, no tabs, lines under 100 characters, one class per file.
```

Use instead:
```md CLAUDE.md
# Project
Build with make.
```

## Options
- `window` (default 200000): the model's context window in tokens.
- `budget` (default 0): the budget in tokens; 0 means `budget-percent` of `window`.
- `budget-percent` (default 10.0): the budget as a percentage of the window, when `budget` is 0.
- `tokenizer` (default "cl100k"): how tokens are counted, `cl100k` (tiktoken) or `chars4`
  (Claude Code's own estimate, characters / 4).
"""

from __future__ import annotations

import os
from collections.abc import Callable, Iterator, Sequence
from pathlib import Path

from memlint.model.loading.loader import LoadedContext, LoadedFile
from memlint.model.run.rule_context import RuleContext
from memlint.model.text.tokens import TOKENIZERS, counter, seam
from memlint.rules import RuleMeta
from memlint.rules.size._common import large_file_threshold, owned, show, vendored_start, window_option
from memlint.violations import Finding

META = RuleMeta(
    code="ML202",
    slug="context-over-budget",
    severity="warning",
    summary="The memory loaded at start is over a token budget",
    options={"window": 200_000, "budget": 0, "budget-percent": 10.0, "tokenizer": "cl100k"},
    choices={"tokenizer": TOKENIZERS},
    ranges={"window": "> 0", "budget-percent": "> 0, <= 100"},
)


def check(ctx: RuleContext) -> Iterator[Finding]:
    window = window_option(ctx)
    budget = int(ctx.options.get("budget", 0))
    percent = float(ctx.options.get("budget-percent", 10.0))
    if budget <= 0:
        budget = int(window * percent / 100 + 0.5)
        basis = f"{percent:g}% of a {window:,}-token window"
    else:
        basis = "set in memlint's options"
    tokenizer = str(ctx.options.get("tokenizer", "cl100k"))
    progress = _Progress(tokenizer, counter(tokenizer))
    large = large_file_threshold(window, 4)  # Claude Code warns about these itself (ML201)
    tokens = progress.tokens
    reported: set[str] = set()
    for loaded in ctx.loads.values():
        if not loaded.files:
            continue
        if sum(progress.bound(f) for f in loaded.files) <= budget:
            continue  # within budget without counting
        if vendored_start(ctx, loaded.start):
            continue  # another project's folder (a submodule, a copy): its own sessions start elsewhere
        if _within(budget, loaded.files, progress):
            continue
        total = sum(tokens(f) for f in loaded.files)
        oversized = sum(tokens(f) for f in loaded.files
                        if f.kind != "automem" and f.chars > large and owned(ctx, f.path))
        if oversized and total - oversized <= budget:
            continue  # the files over the large-file threshold explain it, and ML201 names each
        anchor = _anchor(ctx, loaded)
        if anchor is None or str(anchor) in reported:
            continue
        reported.add(str(anchor))
        biggest = sorted(loaded.files, key=lambda f: (-tokens(f), str(f.path)))[:3]
        names = ", ".join(f"{show(ctx, f.path)} ({tokens(f):,})" for f in biggest)
        where = show(ctx, loaded.start)
        yield Finding(
            anchor, 1,
            f"Claude Code loads {total:,} tokens of memory at start in `{where}` ({len(loaded.files)} files), "
            f"over memlint's budget of {budget:,} ({basis}; Claude Code sets none, and sends these tokens with every "
            f"request); biggest: {names}",
        )


class _Progress:
    """How far each text is counted, run-wide: a file's text is counted once (by path, and whether
    it is a MEMORY.md cut to its loaded part; two copies of a text once), and only as far as a
    budget question needs. A token is at least one UTF-8 byte, so a text counted up to a seam
    (`tokens.seam`: where the counts of the two parts add up) holds at most the tokens counted
    plus the bytes left."""

    def __init__(self, tokenizer: str, count: Callable[[str], int]) -> None:
        self._tokenizer = tokenizer
        self._count = count
        self._sizes: dict[tuple[str, bool], int] = {}  # UTF-8 bytes of each file not counted yet
        self._texts: dict[tuple[str, bool], str] = {}  # the text of each file being counted
        self._done: dict[str, list[int]] = {}  # text -> [characters counted, bytes left, tokens counted]

    @staticmethod
    def _key(item: LoadedFile) -> tuple[str, bool]:
        return str(item.path), item.truncation is None

    def _state(self, item: LoadedFile) -> tuple[str, list[int]]:
        key = self._key(item)
        text = self._texts.get(key)
        if text is None:
            text = self._texts[key] = item.content
        state = self._done.get(text)
        if state is None:
            state = self._done[text] = [0, _utf8_bytes(text), 0]
        return text, state

    def bound(self, item: LoadedFile) -> int:
        """At most this many tokens, as far as the file is counted yet (a file not counted yet
        keeps its size only, not its text: most are never counted)."""
        key = self._key(item)
        text = self._texts.get(key)
        if text is not None:
            state = self._done[text]
            return state[1] + state[2]
        size = self._sizes.get(key)
        if size is None:
            size = self._sizes[key] = _utf8_bytes(item.content)
        return size

    def count_to(self, item: LoadedFile, allowance: int) -> int:
        """Count the file on, a part at a time, until its bound is within `allowance` or the whole
        file is counted; its bound then. A part is at least the bytes still to save."""
        text, state = self._state(item)
        while state[1] and state[1] + state[2] > allowance:
            done = state[0]
            end = seam(self._tokenizer, text, done + max(state[1] + state[2] - allowance, _STEP))
            part = text[done:end]
            state[0], state[1], state[2] = end, state[1] - _utf8_bytes(part), state[2] + self._count(part)
        return state[1] + state[2]

    def tokens(self, item: LoadedFile) -> int:
        """The file's tokens, counted to the end."""
        return self.count_to(item, -1)


_STEP = 4096  # characters: the least counted at a time, so a text is not cut into many small parts


def _utf8_bytes(text: str) -> int:
    return len(text) if text.isascii() else len(text.encode("utf-8", "surrogatepass"))


def _within(budget: int, files: Sequence[LoadedFile], progress: _Progress) -> bool:
    """Whether `files` hold at most `budget` tokens, counting as little as it takes to know: the
    files are counted in order, each as far as it takes for the bound of all of them to be within
    budget (a context within budget in bytes needs no tokenizer: most runs never load one)."""
    bound = sum(progress.bound(f) for f in files)
    for item in files:
        if bound <= budget:
            return True
        rest = bound - progress.bound(item)
        bound = rest + progress.count_to(item, budget - rest)
    return bound <= budget


def _anchor(ctx: RuleContext, loaded: LoadedContext) -> Path | None:
    """The file to report on: the start folder's own CLAUDE.md, else its first loaded file."""
    start = str(loaded.start)
    for name in ("CLAUDE.md", ".claude/CLAUDE.md", "CLAUDE.local.md"):
        for item in loaded.files:
            if str(item.path) == os.path.join(start, name) and owned(ctx, item.path):
                return item.path
    for item in loaded.files:
        if owned(ctx, item.path) and str(item.path).startswith(start.rstrip("/") + "/"):
            return item.path
    return None
