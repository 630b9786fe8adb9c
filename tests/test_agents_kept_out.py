"""In the AGENTS.md plugin's fallback mode (`claude-md-or-agents-md`, the default from 2.1.281) the model
names the file that keeps every AGENTS.md out (`LoadedContext.agents_md_kept_out_by`): the first CLAUDE.md
family file that loaded from the start folder or above, else one the plugin finds on disk that would load
on its own (`ag72`, `ag73`, `ag77` in tests/differential), and nothing in the other modes."""

from __future__ import annotations

import json
from pathlib import Path

from memlint.model.loading.loader import LoadedContext, load
from memlint.model.loading.settings import FULL_PLUGIN_ID
from memlint.model.loading.workspace import Workspace
from memlint.model.release import pick


def _load(tree: Path, start: Path | None = None, version: str = "2.1.332") -> LoadedContext:
    release = pick(version)
    return load(start or tree, tree / "home", Workspace(release), tree / "no-managed", True, release)


def _write(path: Path, text: str) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text, encoding="utf-8")


def test_the_loaded_claude_md_above_keeps_agents_md_out(tmp_path: Path) -> None:
    _write(tmp_path / "repo" / "CLAUDE.md", "# Root\n")
    _write(tmp_path / "repo" / "a" / "AGENTS.md", "# Agents\n")
    ctx = _load(tmp_path, tmp_path / "repo" / "a")
    assert ctx.agents_md_kept_out_by == tmp_path / "repo" / "CLAUDE.md"
    assert all(f.path.name != "AGENTS.md" for f in ctx.files)


def test_a_local_file_held_back_by_a_rule_include_still_keeps_agents_md_out(tmp_path: Path) -> None:
    repo = tmp_path / "repo"
    _write(repo / "CLAUDE.local.md", "---\npaths: src/**\n---\nlocal\n")
    _write(repo / "AGENTS.md", "agents\n")
    _write(repo / ".claude" / "rules" / "r.md", "rule @../../CLAUDE.local.md\n")
    ctx = _load(tmp_path, repo)
    assert [f.path.name for f in ctx.files] == ["r.md"]
    assert ctx.agents_md_kept_out_by == repo / "CLAUDE.local.md"


def test_nothing_keeps_agents_md_out_when_no_claude_md_would_load(tmp_path: Path) -> None:
    repo = tmp_path / "repo"
    _write(repo / "CLAUDE.md", "<!-- only a comment -->\n")
    _write(repo / "AGENTS.md", "agents\n")
    ctx = _load(tmp_path, repo)
    assert ctx.agents_md_kept_out_by is None
    assert [f.path.name for f in ctx.files] == ["AGENTS.md"]


def test_only_the_fallback_mode_names_one(tmp_path: Path) -> None:
    repo = tmp_path / "repo"
    _write(repo / "CLAUDE.md", "# Root\n")
    _write(repo / "AGENTS.md", "agents\n")
    assert _load(tmp_path, repo, "2.1.280").agents_md_kept_out_by is None
    options = {"options": {"instructionFiles": "claude-md-and-agents-md"}}
    _write(tmp_path / "home" / ".claude" / "settings.json", json.dumps({"pluginConfigs": {FULL_PLUGIN_ID: options}}))
    both = _load(tmp_path, repo)
    assert both.agents_md_kept_out_by is None
    assert [f.path.name for f in both.files] == ["CLAUDE.md", "AGENTS.md"]
