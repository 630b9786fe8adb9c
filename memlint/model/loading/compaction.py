"""What Claude Code's context holds after `/compact` (or auto-compact), as observed with the real CLI
2.1.332 (tests/compaction/): the start-up instructions block (every CLAUDE.md, rules file, include and
the MEMORY.md loaded at start) is sent again whole; files Claude had read come back as re-attached
reads; memory that arrived during the session because Claude read a file (a nested CLAUDE.md, a rule
with `paths:`) is gone until Claude reads a matching file again, even when that file's read comes back."""

from __future__ import annotations

from memlint.model.loading.loader import Deferred, LoadedContext, LoadedFile
from memlint.records import dataclass


@dataclass(frozen=True)
class AfterCompact:
    reinjected: tuple[LoadedFile, ...]  # the start-up block, sent again whole
    gone_until_read: tuple[Deferred, ...]  # attached on a read during the session; not restored


def after_compact(ctx: LoadedContext) -> AfterCompact:
    return AfterCompact(tuple(ctx.files), tuple(ctx.deferred))
