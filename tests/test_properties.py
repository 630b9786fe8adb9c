"""Properties over generated memory trees: check never raises, its output is deterministic,
context's totals add up, and fixing is idempotent and loses no line of text; the loader never
raises; JSON, SARIF and GitHub output stay well-formed and text output holds no control character.

A quick profile runs in the normal suite; the long one (10,000 examples per property) runs with
`python -m pytest -m fuzz_long tests/test_properties.py` (about an hour on two cores)."""

from __future__ import annotations

import json
import os
import re
import shutil
import tempfile
from collections.abc import Callable
from pathlib import Path

import pytest
from click.testing import CliRunner
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from memlint import api
from memlint.cli import main
from memlint.config import build
from memlint.fixes import write_all
from memlint.model.loading.loader import load
from memlint.model.loading.workspace import Workspace

NAMES = ["CLAUDE.md", "CLAUDE.local.md", ".claude/CLAUDE.md", ".claude/rules/a.md", ".claude/rules/sub/b.md",
         "docs/x.md", "docs/y.txt", "pkg/CLAUDE.md", "AGENTS.md", "claude.md", "notes.markdown",
         ".claude/agent-memory/r/MEMORY.md", ".claude/agent-memory/r/topic.md"]
PIECES = ["# Title", "", "- item @docs/x.md", "See @docs/y.txt.", "`@docs/x.md`", "```", "@pkg/CLAUDE.md",
          "<!-- comment @docs/x.md -->", "<!--", "-->", "---", "paths: src/**", "globs: '*.ts'", "\t- nested",
          "- [Topic](topic.md) — hook", "日本語のメモ @./docs/x.md", "emoji 🎉 line", "@../../outside.md",
          "@~/home.md", "text with trailing space   ", "\u00a0", "> quote @docs/x.md", "[ref]: @docs/x.md"]

HOSTILE = ["---\npaths: \"{a,b}{c,d}/**\"\n---", "---\na: &x [1]\nb: *x\n---", "---\npaths: [\"src/**\", 5]\n---",
           "## Heading \x1b[2J", "\x1b]0;title\x07 @docs/x.md", "@docs/\u202ex.md", "[link](../../../etc/passwd)",
           "- [Evil](../outside.md) \u2014 hook", "- [Con](CON.md) \u2014 hook", "@" + "a/" * 40 + "x.md", "\u0000",
           "::error file=x::forged", "%0A::warning::x", "\u200b\ufeff\u00ad", "- [T](topic.md)\r", "```md\n@docs/x.md\n```"]
texts = st.lists(st.sampled_from(PIECES + HOSTILE), max_size=12).map(lambda lines: "\n".join(lines))
raw = st.one_of(texts.map(lambda t: t.encode("utf-8")),
                texts.map(lambda t: t.replace("\n", "\r\n").encode("utf-8")),
                texts.map(lambda t: b"\xef\xbb\xbf" + t.encode("utf-8")),
                texts.map(lambda t: t.encode("utf-16")),  # a UTF-16 file with its BOM: not UTF-8
                texts.map(lambda t: t.encode("latin-1", "replace")),
                st.text(max_size=80).map(lambda t: t.encode("utf-8", "surrogatepass")),
                st.binary(max_size=64))
ODD_NAMES = ["docs/a\nb.md", "docs/\x1b[31m.md", "docs/sp ace.md", ".claude/rules/\u00e9.md", ".claude/rules/e\u0301.md"]
trees = st.dictionaries(st.sampled_from(NAMES + ODD_NAMES), raw, min_size=1, max_size=6)


def _write(tree: dict[str, bytes], root: Path) -> None:
    for name, data in tree.items():
        path = root / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_bytes(data)


def _run(args: list[str]) -> tuple[int, str]:
    result = CliRunner().invoke(main, args)
    assert result.exception is None or isinstance(result.exception, SystemExit), repr(result.exception)
    return result.exit_code, result.stdout


def check_never_raises_and_is_deterministic(tree: dict[str, bytes]) -> None:
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
            # a BOM is an encoding mark, not text: white space after it is white space at the line's start
            lines = (line.strip().lstrip("\ufeff").strip() for line in path.read_bytes().decode("utf-8", "replace").splitlines())
            out |= {line for line in lines if line}
    return out


def fix_is_idempotent_and_loses_no_line(tree: dict[str, bytes]) -> None:
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
        assert not [p for p in root.rglob("*") if p.name.endswith(".memlint-tmp")], "a temp file was left"
        shutil.rmtree(root / "never", ignore_errors=True)


def loader_never_raises(tree: dict[str, bytes]) -> None:
    with tempfile.TemporaryDirectory() as tmp:
        root = Path(tmp).resolve()
        _write(tree, root)
        workspace = Workspace()
        for start in {root, root / "pkg", root / "docs"}:
            if start.is_dir():
                loaded = load(start, root / "home", workspace, root / "managed")
                assert all(f.path.is_absolute() for f in loaded.files)


CONTROL = re.compile("[\x00-\x08\x0b-\x1f\x7f-\x9f]")
GITHUB_LINE = re.compile(r"::(error|warning|notice) title=[^:,\r\n]*,file=[^:,\r\n]*,line=\d+,col=\d+,"
                         r"endLine=\d+,endColumn=\d+::[^\r\n]*")


def output_is_well_formed(tree: dict[str, bytes]) -> None:
    with tempfile.TemporaryDirectory() as tmp:
        root = Path(tmp).resolve()
        _write(tree, root)
        os.mkdir(os.fsencode(root) + b"/\xff")  # an undecodable folder name too
        with open(os.fsencode(root) + b"/\xff/CLAUDE.md", "wb") as handle:
            handle.write(tree.get("CLAUDE.md", b"@x.md\n"))
        base = ["check", str(root), "--allow-empty", "--format"]
        data = json.loads(_run([*base, "json"])[1])
        assert all(isinstance(v["message"], str) for v in data["violations"])
        sarif = json.loads(_run([*base, "sarif"])[1])
        assert sarif["version"] == "2.1.0"
        for line in _run([*base, "github"])[1].splitlines():
            assert GITHUB_LINE.fullmatch(line), line
            assert not CONTROL.search(line), line
        text = _run([*base, "text"])[1]
        assert not CONTROL.search(text), text
        text.encode("utf-8")


PROPERTIES: list[tuple[Callable[[dict[str, bytes]], None], int]] = [
    (check_never_raises_and_is_deterministic, 60),
    (fix_is_idempotent_and_loses_no_line, 40),
    (loader_never_raises, 60),
    (output_is_well_formed, 40),
]
QUICK = {"deadline": None, "suppress_health_check": [HealthCheck.too_slow, HealthCheck.data_too_large]}


@pytest.mark.parametrize(("prop", "examples"), PROPERTIES, ids=[p.__name__ for p, _ in PROPERTIES])
def test_property(prop: Callable[[dict[str, bytes]], None], examples: int) -> None:
    settings(max_examples=examples, **QUICK)(given(trees)(prop))()  # type: ignore[arg-type]


@pytest.mark.fuzz_long
@pytest.mark.parametrize(("prop", "examples"), PROPERTIES, ids=[p.__name__ for p, _ in PROPERTIES])
def test_property_long(prop: Callable[[dict[str, bytes]], None], examples: int) -> None:
    settings(max_examples=10_000, **QUICK)(given(trees)(prop))()  # type: ignore[arg-type]
