"""`memlint context --reading FILE` output for people: each attached file, how it arrives and why."""

from __future__ import annotations

from collections.abc import Callable

import click

from memlint.escape import styled_for_terminal
from memlint.reading import Reading


def render_text(answer: Reading, echo: Callable[[str], None] | None = None) -> None:
    out = echo or (lambda line: click.echo(styled_for_terminal(line)))
    loaded = answer.loaded
    n = len(answer.attached)
    out(click.style(f"Claude Code {loaded.release.name}, started in {loaded.start}: reading "
                    f"{answer.show(answer.file)} attaches {n} file{'' if n == 1 else 's'}", bold=True))
    width = max([len(answer.show(a.path)) for a in answer.attached] + [20])
    for a in answer.attached:
        via = "system message" if a.via == "system" else "user block"
        out(f"  {answer.show(a.path):<{width}}  {click.style(f'{a.kind:<7}', fg='cyan')} {a.chars:>7,} chars  "
            f"{via:<14}  {a.why}")
    if answer.note:
        out(f"  ({answer.note})")
    elif n:
        how = "as system messages"
        if loaded.release.deferred_as_user_blocks:
            how = "each as its own <system-reminder> block in the user turn" + (
                ", AGENTS files as a system message" if any(a.via == "system" for a in answer.attached) else "")
        out(f"They arrive right after the Read's result, {how}; each folder's files once per session "
            "(again after /clear or a compaction).")
