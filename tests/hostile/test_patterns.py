"""Frontmatter and `paths:` patterns built to explode: a YAML alias bomb, `{a,b}` repeated 22
times (4 million expansions), and a wildcard that backtracks against a long file name. memlint
must finish each in seconds (globs.py and frontmatter.py bound them; the brace case still expands
every alternative and is marked xfail until it does not), report what it can, and
never say "All checks passed" on a file it gave up on silently."""

from __future__ import annotations

from pathlib import Path

from tests.hostile.helpers import memlint

LIMIT = 20.0  # seconds: each of these takes well under one when bounded


def rule(root: Path, frontmatter: str) -> None:
    (root / ".claude" / "rules").mkdir(parents=True)
    (root / ".claude" / "rules" / "r.md").write_text(f"---\n{frontmatter}\n---\nUse tabs.\n", encoding="utf-8")
    (root / "CLAUDE.md").write_text("# Project\n", encoding="utf-8")
    (root / "src").mkdir()
    (root / "src" / ("a" * 200 + ".ts")).write_text("x\n", encoding="utf-8")


def alias_bomb() -> str:
    lines = ['a: &a ["lol","lol","lol","lol","lol","lol","lol","lol","lol"]']
    for i in range(1, 9):
        prev, name = chr(96 + i), chr(97 + i)
        lines.append(f"{name}: &{name} [" + ",".join([f"*{prev}"] * 9) + "]")
    return "\n".join(lines) + "\npaths: *i"


def test_a_yaml_alias_bomb_finishes(tmp_path: Path) -> None:
    rule(tmp_path, alias_bomb())
    run = memlint("check", tmp_path, timeout=LIMIT)
    assert run.code in (1, 2)
    assert "All checks passed" not in run.out


def test_twenty_two_brace_pairs_finish(tmp_path: Path) -> None:
    rule(tmp_path, 'paths: "' + "{a,b}" * 22 + '"')
    run = memlint("check", tmp_path, timeout=LIMIT)
    assert run.code in (0, 1)


def test_a_backtracking_wildcard_finishes(tmp_path: Path) -> None:
    rule(tmp_path, 'paths: "' + "*a" * 40 + 'b"')
    run = memlint("check", tmp_path, timeout=LIMIT)
    assert run.code in (0, 1)


def test_yaml_tags_never_run_code(tmp_path: Path) -> None:
    marker = tmp_path / "ran"
    rule(tmp_path, f'paths: !!python/object/apply:os.system ["touch {marker}"]')
    memlint("check", tmp_path, timeout=LIMIT)
    assert not marker.exists()


def test_yaml_nested_past_the_recursion_limit_is_invalid_frontmatter_not_a_crash(tmp_path: Path) -> None:
    """A block sequence 2,000 levels deep, and a `paths:` item that does not parse beside a flow
    list 3,000 levels deep: ML503 reported them by crashing (ML901, RecursionError in PyYAML)."""
    rule(tmp_path, "paths:\n" + "".join(" " * depth + "- \n" for depth in range(1, 2000)).rstrip("\n"))
    (tmp_path / ".claude" / "rules" / "q.md").write_text(
        "---\npaths:\n  - **/*.ts\n  - " + "[" * 3000 + "]" * 3000 + "\n---\nUse tabs.\n", encoding="utf-8")
    run = memlint("check", tmp_path, "--no-home", timeout=LIMIT)
    assert "ML901" not in run.out, run.out
    assert "q.md:3:1: ML503 frontmatter-invalid" in run.out, run.out
    # PyYAML 6.0.4 refuses the 2,000 levels (invalid frontmatter); 6.0.3 reads a list that names no
    # pattern (a rule with no condition): either is reported, neither is a crash
    assert "r.md:2:1: ML503 frontmatter-invalid" in run.out or "r.md:2:1: ML505 rule-paths-match-everything" in run.out, \
        run.out


def test_ml505_shows_a_deeply_nested_paths_value_in_a_line() -> None:
    """Whatever YAML library reads it, a `paths:` value nested thousands deep is shown one level deep:
    `str()` of it raised RecursionError (ML901)."""
    from memlint.rules.layout.ml505_rule_paths_match_everything import _written

    deep: list[object] = []
    for _ in range(5000):
        deep = [deep]
    assert _written(deep) == "[[…]]"
    assert _written(["**", {"a": 1}, 3]) == '["**", {…}, 3]'
    assert len(_written(["x" * 500])) == 80
