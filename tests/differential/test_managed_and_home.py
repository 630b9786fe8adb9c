"""Two behaviours the case builder cannot lay out, recorded once by hand with the real Claude Code
(2.1.197) and compared here: the managed policy folder (`/etc/claude-code`: its CLAUDE.md, its
`.claude/rules`, and its includes, which are external and not followed), and a CLAUDE.md in HOME,
loaded as a *project* file for a session started below HOME (its own include outside the start
folder not followed). Recorded with the tree at `<W>` = /tmp/mgd, started in `<W>/home/proj/sub`,
HOME `<W>/home`, after writing the managed files to /etc/claude-code (removed afterwards)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from memlint.api import context
from memlint.model.release import pick

RECORDINGS = Path(__file__).parent / "recordings"


@pytest.mark.parametrize("release", ["2.1.197", "2.1.332"])
def test_managed_policy_and_home_claude_md(release: str, tmp_path: Path) -> None:
    w = tmp_path.resolve()
    home = w / "home"
    (home / "proj" / "sub").mkdir(parents=True)
    (home / ".claude").mkdir()
    (home / "CLAUDE.md").write_text("# Home project file\nLoaded as a project file below HOME. @notes.md\n")
    (home / "notes.md").write_text("Home notes (inside HOME, outside the start folder)\n")
    (home / ".claude" / "CLAUDE.md").write_text("# User\nUser memory.\n")
    (home / "proj" / "CLAUDE.md").write_text("# Proj\nProject root file.\n")
    (home / "proj" / "sub" / "CLAUDE.md").write_text("# Sub\nSub file.\n")
    managed = w / "managed"
    (managed / ".claude" / "rules").mkdir(parents=True)
    (managed / "CLAUDE.md").write_text("# Managed\nOrganization policy. @policy-extra.md\n")
    (managed / "policy-extra.md").write_text("Managed extra (included from the managed file)\n")
    (managed / ".claude" / "rules" / "m.md").write_text("# Managed rule\nAlways on.\n")
    data = context(home / "proj" / "sub", home=home, managed_dir=managed, release=pick(release)).to_dict("chars4")
    got = [(f["path"].replace(str(managed), "<MANAGED>").replace(str(w), "<W>"), f["kind"], f["content"])
           for f in data["files"]]
    recorded = json.loads((RECORDINGS / release / "_managed_and_home_project.json").read_text(encoding="utf-8"))["files"]
    assert got == [(f["path"], f["kind"], f["content"]) for f in recorded]
    skipped = {(Path(s["path"]).name, s["reason"]) for s in data["skipped"]}
    assert ("policy-extra.md", "external") in skipped and ("notes.md", "external") in skipped
