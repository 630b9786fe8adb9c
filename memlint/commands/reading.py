"""`memlint context --reading FILE`: what Claude Code attaches when Claude reads FILE."""

from __future__ import annotations

import json
from pathlib import Path

import click

from memlint.escape import json_safe
from memlint.model.loading.settings import Launch
from memlint.model.release import Release


def show_reading(start: Path, file: Path, home: Path | None, managed_dir: Path, release: Release, launch: Launch,
                 fmt: str) -> None:
    from memlint.reading import reading

    answer = reading(start, file, home, managed_dir, release, launch)
    if fmt == "json":
        click.echo(json.dumps(json_safe(answer.to_dict()), ensure_ascii=False, indent=1))
        return
    from memlint.reporters.reading import render_text

    render_text(answer)
