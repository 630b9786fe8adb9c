"""Properties over generated memory trees: check never raises, its output is deterministic,
context's totals add up, and fixing is idempotent and loses no line of text."""

from __future__ import annotations

import json
import shutil
import tempfile
from pathlib import Path

from click.testing import CliRunner
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from memlint import api
from memlint.cli import main
from memlint.config import build
from memlint.fixes import write_all

NAMES = ["CLAUDE.md", "CLAUDE.local.md", ".claude/CLAUDE.md", ".claude/rules/a.md", ".claude/rules/sub/b.md",
         "docs/x.md", "docs/y.txt", "pkg/CLAUDE.md", "AGENTS.md", "claude.md", "notes.markdown",
         ".claude/agent-memory/r/MEMORY.md", ".claude/agent-memory/r/topic.md"]
PIECES = ["# Title", "", "- item @docs/x.md", "See @docs/y.txt.", "`@docs/x.md`", "```", "@pkg/CLAUDE.md",
          "<!-- comment @docs/x.md -->", "<!--", "-->", "---", "paths: src/**", "globs: '*.ts'", "\t- nested",
          "- [Topic](topic.md) — hook", "日本語のメモ @./docs/x.md", "emoji 🎉 line", "@../../outside.md",
          "@~/home.md", "text with trailing space   ", "\u00a0", "> quote @docs/x.md", "[ref]: @docs/x.md"]

texts = st.lists(st.sampled_from(PIECES), max_size=12).map(lambda lines: "\n".join(lines))
raw = st.one_of(texts.map(lambda t: t.encode("utf-8")),
                texts.map(lambda t: t.replace("\n", "\r\n").encode("utf-8")),
                texts.map(lambda t: b"\xef\xbb\xbf" + t.encode("utf-8")),
                st.binary(max_size=64))
trees = st.dictionaries(st.sampled_from(NAMES), raw, min_size=1, max_size=6)


def _write(tree: dict[str, bytes], root: Path) -> None:
    for name, data in tree.items():
        path = root / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_bytes(data)


def _run(args: list[str]) -> tuple[int, str]:
    result = CliRunner().invoke(main, args)
    assert result.exception is None or isinstance(result.exception, SystemExit), repr(result.exception)
    return result.exit_code, result.stdout


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(trees)
def test_check_never_raises_and_is_deterministic(tree: dict[str, bytes]) -> None:
    with tempfile.TemporaryDirectory() as tmp:
        root = Path(tmp).resolve()
        _write(tree, root)
        code, out = _run(["check", str(root), "--format", "json", "--allow-empty"])
        assert code in (0, 1)
        assert not any(v["code"] == "ML901" for v in json.loads(out)["violations"]), out
        assert _run(["check", str(root), "--format", "json", "--allow-empty"]) == (code, out)
        code, out = _run(["context", str(root), "--home", str(root / "home"), "--format", "json",
                          "--tokenizer", "chars4"])
        assert code == 0
        data = json.loads(out)
        assert data["total_chars"] == sum(f["chars"] for f in data["files"])
        assert len({f["path"] for f in data["files"]}) == len(data["files"]), "a file loaded twice"


def _lines(root: Path) -> set[str]:
    out: set[str] = set()
    for path in root.rglob("*"):
        if path.is_file() and not path.name.endswith("~"):
            out |= {line.strip() for line in path.read_bytes().decode("utf-8", "replace").splitlines() if line.strip()}
    return out


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(trees)
def test_fix_is_idempotent_and_loses_no_line(tree: dict[str, bytes]) -> None:
    with tempfile.TemporaryDirectory() as tmp:
        root = Path(tmp).resolve()
        _write(tree, root)
        before = _lines(root)
        config = build({}, None, root)
        outcome = api.fix([root], config, None, unsafe=True)
        assert outcome.result.converged
        if outcome.result.changed:
            write_all(outcome.result)
        after = _lines(root)
        lost = {line for line in before - after if not any(line in other for other in after)}
        # unsafe fixes may re-space an include (`@a.md.` -> `@a.md .`) but never drop text
        assert not {line for line in lost if not any(ch in line for ch in "@\\")}, lost
        second = api.fix([root], config, None, unsafe=True)
        assert not second.result.changed, f"second fix changed {sorted(second.result.changed)}"
        shutil.rmtree(root / "never", ignore_errors=True)
