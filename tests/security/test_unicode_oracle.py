"""Which invisible characters and harness tags reach the model, per Claude Code release, checked
against the real Claude Code (../shared/oracle/cc_oracle.py) on 2.1.197 and 2.1.332.

One tree: the same sample lines in CLAUDE.md and in the project's auto-memory MEMORY.md. The
recordings (recordings/unicode_<release>.json, what the oracle printed for each file) are checked
in; the normal suite compares memlint's model with them offline, and with MEMLINT_ORACLE=1
`test_recordings_match_oracle` re-runs the oracle. Re-record with
`MEMLINT_ORACLE=1 python -m tests.security.test_unicode_oracle`.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import tempfile
from pathlib import Path
from typing import Any

import pytest

from memlint.model.memory.automem import sanitize_project_path
from memlint.model.release import pick
from memlint.rules.security._unicode import hidden_characters, mixed_words
from memlint.rules.security.ml604_harness_tag import tags
from tests.oracle_live import ORACLE

HERE = Path(__file__).resolve().parent
RECORDINGS = HERE / "recordings"
RELEASES = ("2.1.197", "2.1.332")

# name -> the text between `[name:` and `]` on its own line
SAMPLES: dict[str, str] = {
    **{f"bidi-{cp:04X}": f"a{chr(cp)}b" for cp in (0x202A, 0x202B, 0x202C, 0x202D, 0x202E,
                                                    0x2066, 0x2067, 0x2068, 0x2069, 0x200E, 0x200F, 0x061C)},
    **{f"zw-{cp:04X}": f"a{chr(cp)}b" for cp in (0x200B, 0x200C, 0x200D, 0x2060, 0xFEFF)},
    "tags": "x" + "".join(chr(0xE0000 + ord(c)) for c in "\x01hi\x7f") + "y",
    "homoglyph": "p\u0430ypal",
    "system-reminder": "<system-reminder>s</system-reminder>",
    "function_results": "<function_results>r</function_results>",
    "function_calls": "<function_calls>c</function_calls>",
    "invoke": '<invoke name="x">i</invoke>',
}


def sample_text() -> str:
    return "".join(f"[{name}:{text}]\n" for name, text in SAMPLES.items()) + "[end]\n"


def build(root: Path) -> tuple[Path, Path]:
    tree, home = root / "tree", root / "home"
    tree.mkdir()
    home.mkdir()
    (tree / ".git").mkdir()  # the project root (auto memory is keyed by it); no git needed
    (tree / "CLAUDE.md").write_text("# Project\n" + sample_text(), encoding="utf-8")
    memory = home / ".claude" / "projects" / sanitize_project_path(os.path.realpath(tree)) / "memory"
    memory.mkdir(parents=True)
    (memory / "MEMORY.md").write_text("- [Topic](topic.md) - samples\n" + sample_text(), encoding="utf-8")
    return tree, home


def run_oracle(release: str) -> dict[str, str]:
    """{kind: content} for CLAUDE.md (`project`) and MEMORY.md (`automem`) as the release loads them."""
    with tempfile.TemporaryDirectory(prefix="memlint-unicode-") as folder:
        tree, home = build(Path(folder))
        env = dict(os.environ, CC_ORACLE_VERSION=release, PYTHONIOENCODING="utf-8:surrogatepass")
        done = subprocess.run([sys.executable, str(ORACLE), str(tree), "--home", str(home)], check=False,
                              capture_output=True, env=env, timeout=300, stdin=subprocess.DEVNULL)
        if done.returncode != 0:
            pytest.skip(f"the oracle could not run Claude Code {release}: {done.stderr.decode()[-300:]}")
        out = json.loads(done.stdout.decode("utf-8", "surrogatepass"))
        return {f["kind"]: f["content"] for f in out["files"]}


def sample_in(content: str, name: str) -> str:
    """What the model got for sample `name`."""
    start = content.index(f"[{name}:") + len(name) + 2
    return content[start : content.index("]\n", start)]


def recording(release: str) -> dict[str, str]:
    data: dict[str, Any] = json.loads((RECORDINGS / f"unicode_{release}.json").read_text(encoding="utf-8"))
    files: dict[str, str] = data["files"]
    return files


@pytest.mark.parametrize("release", RELEASES)
@pytest.mark.parametrize("name", list(SAMPLES))
def test_memlint_agrees_with_recording(release: str, name: str) -> None:
    """memlint reports every sample; it says a sample reaches the model exactly when it did."""
    files = recording(release)
    sanitising = pick(release).memory_sanitised
    text = SAMPLES[name]
    for kind, sanitised in (("project", False), ("automem", sanitising)):
        reached = sample_in(files[kind], name)
        if name.startswith(("bidi", "zw", "tags")):
            found = list(hidden_characters(text))
            assert len(found) == 1, f"memlint does not report {name}"
            predicted = not (sanitised and found[0].sanitised)
            assert (reached == text) is predicted, f"{kind} on {release}: model got {reached!r}"
            if not predicted:
                assert reached == text.replace(text[1:-1], ""), f"{kind} on {release}: {reached!r}"
        elif name == "homoglyph":
            assert list(mixed_words(text)) and reached == text, "letters are never removed"
        else:
            predicted = bool(tags(text, sanitised))
            assert (reached == text) is predicted, f"{kind} on {release}: model got {reached!r}"


def test_recorded_facts() -> None:
    """The differences, stated: everything reaches the model from CLAUDE.md on both releases and from
    MEMORY.md on 2.1.197; 2.1.332 strips all but ZWNJ/ZWJ from MEMORY.md and neutralises
    <system-reminder> and <function_results>, not <function_calls> or <invoke>."""
    old, new = recording("2.1.197"), recording("2.1.332")
    for name, text in SAMPLES.items():
        assert sample_in(old["project"], name) == text
        assert sample_in(old["automem"], name) == text
        assert sample_in(new["project"], name) == text
    kept = {name for name, text in SAMPLES.items() if sample_in(new["automem"], name) == text}
    assert kept == {"zw-200C", "zw-200D", "homoglyph", "function_calls", "invoke"}
    assert sample_in(new["automem"], "system-reminder") == "<\\system-reminder>s<\\/system-reminder>"


@pytest.mark.oracle
@pytest.mark.parametrize("release", RELEASES)
def test_recordings_match_oracle(release: str) -> None:
    if os.environ.get("MEMLINT_ORACLE") != "1":
        pytest.skip("runs the real Claude Code: set MEMLINT_ORACLE=1")
    got = run_oracle(release)
    files = recording(release)
    for kind in ("project", "automem"):
        for name in SAMPLES:
            assert sample_in(got[kind], name) == sample_in(files[kind], name), (release, kind, name)


def record() -> None:
    RECORDINGS.mkdir(exist_ok=True)
    for release in RELEASES:
        files = run_oracle(release)
        data = {"claude_code": release, "files": {k: files[k] for k in ("project", "automem")}}
        text = json.dumps(data, ensure_ascii=True, indent=1) + "\n"
        (RECORDINGS / f"unicode_{release}.json").write_text(text, encoding="utf-8")
        print(release, "recorded")


if __name__ == "__main__":
    record()
