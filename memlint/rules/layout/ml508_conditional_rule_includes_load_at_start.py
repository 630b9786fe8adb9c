"""A conditional rule `@includes` a file, and Claude Code loads that file at every start anyway.

## What it does
Reports each `@include` in a conditional rule (one with `paths:`) whose target Claude Code loads
at start, although the rule itself waits for a matching file. It asks the loading model of every
start folder, so an include that is loaded anyway by another file first is not reported.

## Why is this bad?
Claude Code defers a conditional rule, but its start-up pass still follows the rule's includes:
the included files have no `paths:` of their own, so they are loaded in every session. The author
meant them to come with the rule; instead they cost context everywhere, and the rule's own text
arrives later without them being tied to it.

## Example
```md .claude/rules/api.md
---
paths: src/api/**
---
Follow @../../docs/api-style.md for every endpoint.
```
```md docs/api-style.md
Return problem+json errors.
```

Use instead:
```md .claude/rules/api.md
---
paths: src/api/**
---
Follow the API style for every endpoint: return problem+json errors.
```
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

from memlint.model.loading.loader import LoadedContext, LoadedFile
from memlint.model.loading.shared import distinct
from memlint.model.run.rule_context import RuleContext
from memlint.rules import RuleMeta
from memlint.rules._paths import show
from memlint.violations import Finding

META = RuleMeta(
    code="ML508",
    slug="conditional-rule-includes-load-at-start",
    severity="warning",
    summary="A conditional rule's @includes are loaded at every start",
)


def check(ctx: RuleContext) -> Iterator[Finding]:
    # (rule, line, column) -> (written include, loaded files, paths of the rule)
    found: dict[tuple[Path, int, int], tuple[str, list[Path], tuple[str, ...]]] = {}
    rules = _conditional_rule_paths(ctx)
    by_segment: dict[int, dict[Path, tuple[str, ...]]] = {}  # the segments live as long as ctx.loads
    for loaded in ctx.loads.values():
        if not rules or not _includes_under(loaded, rules):
            continue  # no include chain here starts in a conditional rule
        conditional = _Conditional(loaded, by_segment)
        if not conditional:
            continue
        by_path: dict[Path, LoadedFile] | None = None  # built only when an include chain is walked up
        for item in [f for f in loaded.files if f.origin is not None]:
            current: LoadedFile | None = item
            while current is not None and current.origin is not None:
                parent = current.origin.path
                patterns = conditional.get(parent)
                if patterns is not None:
                    origin = current.origin
                    key = (parent, origin.line, origin.ref.column)
                    entry = found.setdefault(key, (origin.ref.written, [], patterns))
                    if item.path not in entry[1]:
                        entry[1].append(item.path)
                    break
                if by_path is None:
                    by_path = {f.path: f for f in loaded.files}
                current = by_path.get(parent)
    for (rule, line, column), (written, paths, patterns) in sorted(found.items()):
        first = show(ctx, paths[0])
        more = f" (and {len(paths) - 1} file{'s' if len(paths) > 2 else ''} it includes)" if len(paths) > 1 else ""
        yield Finding(
            rule,
            line,
            f"Claude Code loads `{first}`{more} at every start: `@{written}` is in a conditional rule "
            f"(paths: {', '.join(patterns)}), which is deferred, but its includes are not; move the text into "
            "the rule, or give the included file the same `paths:` frontmatter",
            column=column,
        )


def _conditional_rule_paths(ctx: RuleContext) -> set[Path]:
    """Every conditional rule any start folder defers (start folders share the deferred objects:
    each shared segment and object is read once)."""
    return {d.path for d in distinct(loaded.deferred for loaded in ctx.loads.values()) if d.reason == "conditional-rule"}


class _Conditional:
    """The `paths:` of each conditional rule one start folder defers, as the dict
    `{d.path: d.paths for d in loaded.deferred if d.reason == "conditional-rule"}` would answer,
    looked up segment by segment: a segment that start folders share is read once per run."""

    def __init__(self, loaded: LoadedContext, by_segment: dict[int, dict[Path, tuple[str, ...]]]) -> None:
        self._maps: list[dict[Path, tuple[str, ...]]] = []
        for segment in loaded.deferred.segments:
            known = by_segment.get(id(segment))
            if known is None:
                known = by_segment[id(segment)] = {d.path: d.paths for d in segment if d.reason == "conditional-rule"}
            if known:
                self._maps.append(known)

    def __bool__(self) -> bool:
        return bool(self._maps)

    def get(self, path: Path) -> tuple[str, ...] | None:
        """The rule's patterns (the last deferral of `path` wins, as in a dict), or None."""
        for known in reversed(self._maps):
            found = known.get(path)
            if found is not None:
                return found
        return None


def _includes_under(loaded: LoadedContext, rules: set[Path]) -> bool:
    """Whether an include chain of this start folder's files starts in one of `rules`."""
    by_path: dict[Path, LoadedFile] | None = None
    for item in loaded.files:
        current: LoadedFile | None = item
        while current is not None and current.origin is not None:
            if current.origin.path in rules:
                return True
            if by_path is None:
                by_path = {f.path: f for f in loaded.files}
            current = by_path.get(current.origin.path)
    return False
