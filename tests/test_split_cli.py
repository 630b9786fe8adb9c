"""`memlint fix` on over-limit indexes, from the command line: plain `memlint fix` splits (the split
is verified lossless) while `check --fix` keeps it behind --unsafe-fixes; the hints name the command
that applies each fix; the summary and `--show-fixes` count the same fixes and findings; `--diff` and
the summary explain the split; a MEMORY.md named on the command line is fixed as an index; no backup
unless `--backup`; a second run changes nothing."""

from __future__ import annotations

import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
from click.testing import CliRunner

from memlint.cli import main
from memlint.model.memory.automem import MAX_LINES

CASE = Path(__file__).parent / "rules/ML301-memory-index-truncated/real-shaped-over-limit"
APPLIED = re.compile(r"^Applied (\d+) fix(?:es)? \(([^)]*)\), resolving (\d+) findings?")


def _fix(folder: Path, *flags: str) -> subprocess.CompletedProcess[str]:
    home = () if "--home" in flags else ("--no-home",)  # these cases are about the folder, not a HOME
    return subprocess.run([sys.executable, "-m", "memlint", "fix", str(folder), *home, *flags],
                          check=False, capture_output=True, text=True, timeout=120)


def _run(*args: str, stdin: str | None = None) -> tuple[int, str, str]:
    home = ["--no-home"] if args and args[0] in ("check", "fix") and "--home" not in args else []
    result = CliRunner(env={"NO_COLOR": "1", "FORCE_COLOR": None}).invoke(main, [*args, *home, "--verbose"]
                                                                        if args and args[0] == "check" else
                                                                        [*args, *home], input=stdin)
    return result.exit_code, result.stdout, result.stderr


def _files(folder: Path) -> dict[str, bytes]:
    return {p.relative_to(folder).as_posix(): p.read_bytes() for p in sorted(folder.rglob("*")) if p.is_file()}


def _copy_case(tmp_path: Path) -> Path:
    folder = tmp_path / "memory"
    shutil.copytree(CASE / "input", folder)
    return folder


@pytest.mark.parametrize("flags", [(), ("--no-backup",), ("--backup",), ("--unsafe-fixes",)])
def test_fix_writes_no_backup_unless_asked_and_counts_what_it_did(tmp_path: Path, flags: tuple[str, ...]) -> None:
    folder = _copy_case(tmp_path)
    before = _files(folder)
    run = _fix(folder, *flags)
    assert run.returncode in (0, 1), run.stderr
    after = _files(folder)
    created = sorted(set(after) - set(before) - {"MEMORY.md~"})
    assert created == sorted(p.name for p in (CASE / "fixed").iterdir() if p.name not in before)
    assert ("MEMORY.md~" in after) == ("--backup" in flags)
    if "--backup" in flags:
        assert after["MEMORY.md~"] == before["MEMORY.md"]
    assert all(after[name] == data for name, data in before.items() if name != "MEMORY.md"), "a topic file changed"
    lines = run.stderr.splitlines()
    summary = next(line for line in lines if line.startswith("Applied "))
    assert APPLIED.match(summary) and APPLIED.match(summary).group(1, 2) == ("1", "split-memory-index")  # type: ignore[union-attr]
    assert summary.endswith(f": 1 file rewritten, {len(created)} files created.")
    explained = lines[lines.index(summary) + 1 :]
    assert explained[0] == f"  split-memory-index ({folder / 'MEMORY.md'}):"
    assert "now loads whole" in explained[1] and explained[1].startswith("    MEMORY.md: 201 lines")
    said = "\n".join(explained)
    assert all(name in said for name in created) or f"({len(created)} in all)" in said
    again = _fix(folder, *flags)
    assert again.returncode in (0, 1), again.stderr
    assert _files(folder) == after, "a second run changed files"
    assert "Applied" not in again.stderr


def test_plain_fix_splits_but_check_fix_needs_unsafe_fixes(tmp_path: Path) -> None:
    folder = _copy_case(tmp_path)
    before = _files(folder)
    code, out, _ = _run("check", str(folder), "--select", "ML3", "--ignore", "ML318")
    assert code == 1 and out.splitlines()[-1].split("; ")[1].startswith("2 fixable with `memlint fix`.")
    code, out, err = _run("check", str(folder), "--fix", "--select", "ML3", "--ignore", "ML318")
    assert _files(folder) == before, "check --fix applied the split without --unsafe-fixes"
    assert "Applied" not in err and "2 fixable with `memlint fix`" in out
    code, out, err = _run("fix", str(folder), "--select", "ML3", "--ignore", "ML318")
    assert _files(folder) != before and any(p.name.endswith("sessions.md") for p in folder.iterdir())
    assert "Applied 1 fix (split-memory-index)" in err


def test_the_summary_and_show_fixes_count_the_same(tmp_path: Path) -> None:
    folder = _copy_case(tmp_path)
    _, out, err = _run("fix", str(folder), "--show-fixes", "--select", "ML3", "--ignore", "ML318")
    headlines = [APPLIED.match(line) for line in err.splitlines() if line.startswith("Applied ")]
    assert len(headlines) == 2 and all(headlines)
    summary, shown = headlines
    assert summary.groups() == shown.groups()  # type: ignore[union-attr]
    listed = sum(int(n) for n in re.findall(r"^    (\d+) \u00d7 ML", err, re.MULTILINE))
    assert listed == int(shown.group(3)) >= 1  # type: ignore[union-attr]
    # what is left is what the report shows: no finding counted as resolved is still reported
    assert ("ML301" in out) == ("ML301" not in err)


def test_diff_explains_the_split_before_the_patch_and_writes_nothing(tmp_path: Path) -> None:
    folder = _copy_case(tmp_path)
    before = _files(folder)
    _, out, _ = _run("fix", str(folder), "--diff", "--select", "ML3", "--ignore", "ML318")
    assert _files(folder) == before
    lines = out.splitlines()
    patch = next(n for n, line in enumerate(lines) if line.startswith("--- "))
    preamble = lines[:patch]
    assert preamble[0] == f"  split-memory-index ({folder / 'MEMORY.md'}):"
    assert preamble[1].startswith("    MEMORY.md: 201 lines") and "now loads whole" in preamble[1]
    assert any("moved detail into 6 topic file(s)" in line for line in preamble[2:])
    created = next(line for line in lines if line.startswith("+++ b/") and line.endswith("sessions.md"))
    assert not (folder / created[6:]).exists()


def _hand_kept(root: Path, entries: int = 0, facts: int = 230) -> Path:
    """A repository whose docs/MEMORY.md is a long list of facts kept by hand (no topic files)."""
    docs = root / "docs"
    docs.mkdir(parents=True)
    (root / "CLAUDE.md").write_text("# Tooling\n\nRun the linters before pushing.\n", encoding="utf-8")
    lines = ["# Team notes", "", *(f"- [Area {n}](area-{n}.md) \u2014 owned by crew {n}" for n in range(entries)),
             *(f"- note {n}: queue {n} drains every {n % 7 + 1} minutes" for n in range(facts))]
    (docs / "MEMORY.md").write_text("\n".join(lines) + "\n", encoding="utf-8")
    return docs / "MEMORY.md"


def test_a_hand_kept_memory_says_how_to_fix_it_and_is_fixed_when_named(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tmp_path)
    memory = _hand_kept(tmp_path, entries=2)  # it links topic files: it may be a copy of an auto memory
    text = memory.read_bytes()
    code, out, _ = _run("check", ".")
    assert code == 0, out  # an info finding: the exit code stays clean
    code, named_out, _ = _run("check", "docs/MEMORY.md")
    assert code == 0 and "ML605" not in named_out  # a file named is no folder with a .claude/ inside
    assert "ML301" in out and "`memlint fix docs/MEMORY.md` (or its folder) fixes it as an auto-memory index" in out
    code, _, err = _run("fix", ".")
    assert memory.read_bytes() == text and "Applied" not in err, "an unnamed hand-kept MEMORY.md was split"
    for named in ("docs/MEMORY.md", "docs"):
        code, out, err = _run("fix", named, "--diff")
        assert "split-memory-index (docs/MEMORY.md)" in out and memory.read_bytes() == text
    code, out, err = _run("fix", "docs/MEMORY.md")
    assert code in (0, 1) and "Applied 1 fix (split-memory-index)" in err
    assert memory.read_text(encoding="utf-8").count("\n") <= MAX_LINES
    after = _files(tmp_path)
    code, out, err = _run("fix", "docs/MEMORY.md")
    assert _files(tmp_path) == after and "Applied" not in err


def test_a_long_memory_md_that_links_nothing_outside_a_memory_folder_gets_no_note(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """A MEMORY.md of plain notes in `docs/` only shares the name: ML301 says nothing about it."""
    monkeypatch.chdir(tmp_path)
    _hand_kept(tmp_path)
    code, out, _ = _run("check", ".", "--select", "ML301")
    assert code == 0 and "ML301" not in out


def test_the_orphan_fix_adds_nothing_to_a_memory_md_that_is_no_index(tmp_path: Path) -> None:
    memory = _hand_kept(tmp_path, facts=4)
    for name in ("api", "cli"):  # files beside it with name/description frontmatter: judged an exported folder
        (memory.parent / f"{name}.md").write_text(
            f"---\nname: {name}\ndescription: how the {name} is laid out\n---\n\n# {name}\n", encoding="utf-8")
    text = memory.read_bytes()
    _, out, _ = _run("fix", str(tmp_path), "--unsafe-fixes", "--select", "ML308")
    assert memory.read_bytes() == text
    assert "its entry is not added: MEMORY.md holds no index entry" in out
    memory.write_text("# Team notes\n\n- [API](api.md) \u2014 how the api is laid out\n", encoding="utf-8")
    _, out, _ = _run("fix", str(tmp_path), "--unsafe-fixes", "--select", "ML308")
    assert "(cli.md)" in memory.read_text(encoding="utf-8"), "an index that holds an entry gets the others"


def test_an_editor_never_gets_a_split_index_back(tmp_path: Path) -> None:
    folder = _copy_case(tmp_path)
    text = (folder / "MEMORY.md").read_text(encoding="utf-8")
    _, out, _ = _run("fix", "-", "--stdin-filename", str(folder / "MEMORY.md"), "--unsafe-fixes",
                        "--select", "ML301", stdin=text)
    assert out == text, "the topic files a split needs would never be written"
    assert not (folder / "sessions.md").exists()


# An index whose detail is one long log section; its standing instructions are a Rules section.
_RULES = "## Rules\n- Never push to main directly\n- Always run the migrations twice\n"
_LOG = "## Incident log\n" + "".join(f"- 2026-01-{n % 28 + 1:02d}: pager {n} fired and was acknowledged\n"
                                     for n in range(60))
_ENTRIES = "".join(f"- [Service {n}](service-{n}.md) \u2014 how service {n} is deployed\n" for n in range(100))


def _topic(folder: Path, n: int) -> None:
    (folder / f"service-{n}.md").write_text(
        f"---\nname: service-{n}\ndescription: how service {n} is deployed\nmetadata:\n  type: project\n---\n\n"
        f"Service {n} ships on Tuesdays.\n", encoding="utf-8")


def test_after_the_split_check_does_not_flag_the_kept_instructions(tmp_path: Path) -> None:
    folder = tmp_path / "memory"
    folder.mkdir()
    (folder / "MEMORY.md").write_text(f"# Memory\n\n{_RULES}\n## Services\n{_ENTRIES}\n{_LOG}", encoding="utf-8")
    for n in range(100):
        _topic(folder, n)
    selection = ("--select", "ML3", "--ignore", "ML318,ML321")
    code, out, err = _run("fix", str(folder), *selection)
    assert "split-memory-index" in next(line for line in err.splitlines() if line.startswith("Applied "))
    assert _RULES in (folder / "MEMORY.md").read_text(encoding="utf-8")
    code, out, _ = _run("check", str(folder), *selection)
    assert code == 0, out


def test_ml301_says_what_the_split_does_or_what_keeps_it_cut(tmp_path: Path) -> None:
    folder = tmp_path / "memory"
    folder.mkdir()
    rules = "## Rules\n" + "".join(f"- Always tag build {n} before shipping it\n" for n in range(120))
    (folder / "MEMORY.md").write_text(f"# Memory\n\n## Services\n{_ENTRIES}\n{_LOG}\n{rules}", encoding="utf-8")
    for n in range(100):
        _topic(folder, n)
    _, out, _ = _run("check", str(folder), "--select", "ML301")
    message = " ".join(out.split())  # the whole message (--verbose), white space made plain
    assert "the split (`memlint fix`) leaves" in message and "it loads whole" in message
    (folder / "MEMORY.md").write_text(f"# Memory\n{_ENTRIES}\n{rules}", encoding="utf-8")  # entries outside any group
    _, out, _ = _run("check", str(folder), "--select", "ML301")
    message = " ".join(out.split())  # the whole message (--verbose), white space made plain
    assert "no split makes it load whole" in message and "sections marked always-on: 'Rules'" in message
    assert "entries 100 lines" in message and "smallest change by hand: remove or merge" in message


def test_a_topic_name_never_clashes_by_case_with_a_file_that_is_no_memory(tmp_path: Path) -> None:
    """`deploy.MD` beside MEMORY.md is no topic file (not `*.md`), yet `deploy.md` beside it is one
    file on macOS and Windows: the writer refuses that name, so a split that took it was never
    applied while `check` kept calling it fixable. The split names its file otherwise."""
    folder = tmp_path / "memory"
    folder.mkdir()
    (folder / "deploy.MD").write_text("Old deploy notes.\n", encoding="utf-8")
    lines = ["# Memory", ""]
    for title in ["Deploy", "Billing", "Search", "Login", "Cache", "Queue", "Mail", "Reports", "Exports", "Audit"]:
        lines += [f"## {title}", ""] + [f"{title} fact {i}: keep it in mind." for i in range(22)] + [""]
    (folder / "MEMORY.md").write_text("\n".join(lines) + "\n", encoding="utf-8")
    run = _fix(folder)
    assert "Applied 1 fix (split-memory-index)" in run.stderr, run.stderr
    names = {p.name.casefold() for p in folder.iterdir() if p.name != "deploy.MD"}
    assert "deploy.md" not in names and len(names) == 11, sorted(names)
    assert _fix(folder).returncode == 0


def test_the_closing_report_checks_the_topic_files_the_split_made_in_home(tmp_path: Path) -> None:
    # the project's auto memory under HOME: the check after the fix counts (and checks) the topic
    # files the split created there; a fence left open made one 300-line part over the recall cap
    # (ML319 after a fix that said "All checks passed"), now cut into parts that each load whole
    project, home = tmp_path / "proj", tmp_path / "home"
    (project / ".git").mkdir(parents=True)
    (project / "CLAUDE.md").write_text("# Project\n", encoding="utf-8")
    memory = home / ".claude" / "projects" / re.sub(r"[^A-Za-z0-9]", "-", str(project)) / "memory"
    memory.mkdir(parents=True)
    index = memory / "MEMORY.md"
    index.write_text("```\n" + "".join(f"step {i} of the build\n" for i in range(300)), encoding="utf-8")
    before = index.read_text(encoding="utf-8").splitlines()
    fixed = CliRunner().invoke(main, ["fix", str(project), "--home", str(home), "--no-cache"])
    topics = sorted(p for p in memory.iterdir() if p.name != "MEMORY.md")
    assert fixed.exit_code == 0 and len(topics) == 2, fixed.output
    assert f"{len(topics) + 2} memory files checked" in fixed.stdout
    assert all(len(p.read_text(encoding="utf-8").splitlines()) <= 200 for p in topics)
    moved = [line for p in topics for line in p.read_text(encoding="utf-8").splitlines()]
    assert [line for line in moved if line in before] == before  # every line, in order
    check = CliRunner().invoke(main, ["check", str(project), "--home", str(home), "--no-cache"])
    assert check.exit_code == 0, check.output


def test_a_fix_that_could_not_be_written_reports_the_files_as_they_are(tmp_path: Path,
                                                                       monkeypatch: pytest.MonkeyPatch) -> None:
    # a read-only memory folder (or a full disk): the split is not written, and the report after it
    # is the check of the files on disk, not of the fixed text that never reached them
    from memlint import fixes

    def fail(path: Path) -> None:
        raise PermissionError(13, "Permission denied", str(path))

    monkeypatch.setattr(fixes, "_make_folders", lambda folder: fail(folder))
    monkeypatch.setattr(fixes, "write_temp", lambda target, *args: fail(target))
    folder = _copy_case(tmp_path)
    before = _files(folder)
    code, out, err = _run("fix", str(folder), "--no-cache")
    assert _files(folder) == before and "not written" in err and "Permission denied" in err
    assert code == 1 and "ML301" in out and "All checks passed" not in out


def test_backup_never_overwrites_a_file_of_that_name(tmp_path: Path) -> None:
    # `MEMORY.md~` may be the user's own file: the split is refused, nothing is written
    folder = _copy_case(tmp_path)
    (folder / "MEMORY.md~").write_text("kept by hand\n", encoding="utf-8")
    before = _files(folder)
    run = _fix(folder, "--backup")
    assert _files(folder) == before
    assert run.returncode == 1 and "MEMORY.md~ exists" in run.stderr, run.stderr
