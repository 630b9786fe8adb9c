"""CI outputs that tools accept: SARIF valid against the official OASIS schema (vendored in
tests/schemas/), GitHub annotations escaped as GitHub documents, GitLab code quality, JUnit, and the
documented JSON schema of `--format json`."""

from __future__ import annotations

import json
import re
import xml.etree.ElementTree as ET
from pathlib import Path
from urllib.parse import unquote

import jsonschema
import pytest
from click.testing import CliRunner

from memlint.cli import main
from memlint.engine import Report
from memlint.reporters.check import render_github
from memlint.violations import Violation

HERE = Path(__file__).resolve().parent
SARIF_SCHEMA = json.loads((HERE / "schemas" / "sarif-schema-2.1.0.json").read_text(encoding="utf-8"))
JSON_SCHEMA = json.loads((HERE.parent / "docs" / "json-schema.json").read_text(encoding="utf-8"))
# RFC 3986 URI-reference characters: unreserved, reserved and percent escapes, nothing else.
URI_CHARS = re.compile(r"^(?:[A-Za-z0-9\-._~:/?#\[\]@!$&'()*+,;=]|%[0-9A-F]{2})*$")


def _odd_tree(root: Path) -> Path:
    """A project whose paths hold a space and non-ASCII letters, with findings in them."""
    project = root / "my prøject"
    (project / "docs ü").mkdir(parents=True)
    (project / "docs ü" / "Grüße.md").write_text("# Hallo\n\nSee @missing file.md\n", encoding="utf-8")
    (project / "guide.md").write_text("# Guide\n", encoding="utf-8")
    (project / "CLAUDE.md").write_text("# P\n\nRead @guide.md.\nAnd @gone.md\n", encoding="utf-8")
    (project / "docs ü" / "Grüße").mkdir()
    (project / "docs ü" / "Grüße" / "CLAUDE.md").write_text("# Docs\n\nAlso @nowhere.md\n", encoding="utf-8")
    return project


def _run(args: list[str], cwd: Path, monkeypatch: pytest.MonkeyPatch) -> str:
    monkeypatch.chdir(cwd)
    result = CliRunner().invoke(main, args)
    assert result.exit_code in (0, 1), result.output
    return result.stdout


def test_sarif_with_spaces_and_non_ascii_paths_validates(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    project = _odd_tree(tmp_path)
    data = json.loads(_run(["check", ".", "--format", "sarif"], project, monkeypatch))
    jsonschema.Draft7Validator(SARIF_SCHEMA).validate(data)
    run = data["runs"][0]
    assert run["originalUriBaseIds"]["%SRCROOT%"]["uri"].startswith("file:///")
    assert run["originalUriBaseIds"]["%SRCROOT%"]["uri"].endswith("/")
    assert "my%20pr%C3%B8ject" in run["originalUriBaseIds"]["%SRCROOT%"]["uri"]
    locations = [r["locations"][0]["physicalLocation"]["artifactLocation"] for r in run["results"]]
    assert locations and all(loc["uriBaseId"] == "%SRCROOT%" for loc in locations)
    assert all(URI_CHARS.match(loc["uri"]) and not loc["uri"].startswith(("/", "~")) for loc in locations)
    assert "docs%20%C3%BC/Gr%C3%BC%C3%9Fe/CLAUDE.md" in {loc["uri"] for loc in locations}
    assert {unquote(loc["uri"]) for loc in locations} >= {"docs ü/Grüße/CLAUDE.md", "CLAUDE.md"}
    assert all(len(r["partialFingerprints"]["memlint/v1"]) == 32 for r in run["results"])
    driver = run["tool"]["driver"]
    assert "informationUri" not in driver and "memlint" not in json.dumps(driver.get("informationUri", ""))
    ml101 = next(r for r in driver["rules"] if r["id"] == "ML101")
    explained = CliRunner().invoke(main, ["explain", "ML101"]).stdout.strip()
    assert ml101["help"]["text"] == explained and "## What it does" in ml101["help"]["markdown"]


def test_sarif_for_a_home_file_is_an_absolute_file_uri(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    project = tmp_path / "p"
    project.mkdir()
    (project / "CLAUDE.md").write_text("# P\n", encoding="utf-8")
    home = tmp_path / "home dir"
    (home / ".claude").mkdir(parents=True)
    (home / ".claude" / "CLAUDE.md").write_text("# Me\n\n@nope.md\n", encoding="utf-8")
    data = json.loads(_run(["check", ".", "--home", str(home), "--format", "sarif"], project, monkeypatch))
    jsonschema.Draft7Validator(SARIF_SCHEMA).validate(data)
    uris = [r["locations"][0]["physicalLocation"]["artifactLocation"] for r in data["runs"][0]["results"]]
    outside = [u for u in uris if "uriBaseId" not in u]
    assert outside and all(u["uri"].startswith("file:///") and "home%20dir" in u["uri"] for u in outside)


def test_github_escaping_as_documented() -> None:
    v = Violation(Path("/w/a,b:c.md").absolute(), 3, 2, "ML101", "include-target-missing", "error",
                  "100% sure: a, b\nnext line\r", 3, 5)
    line = render_github(Report((v,), 1, ()))
    assert line.endswith("::100%25 sure: a, b%0Anext line%0D")
    props = line.split("::")[1]
    assert "title=ML101 include-target-missing" in props
    assert "file=/w/a%2Cb%3Ac.md," in props
    assert "\n" not in line


def test_json_output_matches_the_documented_schema(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    project = _odd_tree(tmp_path)
    data = json.loads(_run(["check", ".", "--format", "json", "--unsafe-fixes"], project, monkeypatch))
    jsonschema.Draft202012Validator.check_schema(JSON_SCHEMA)
    jsonschema.Draft202012Validator(JSON_SCHEMA).validate(data)
    assert data["schema_version"] == JSON_SCHEMA["properties"]["schema_version"]["const"] == 1
    assert any(v["fix"] for v in data["violations"])
    broken = dict(data, violations=[dict(data["violations"][0], severity="fatal")])
    with pytest.raises(jsonschema.ValidationError):
        jsonschema.Draft202012Validator(JSON_SCHEMA).validate(broken)


def test_gitlab_code_quality(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    project = _odd_tree(tmp_path)
    issues = json.loads(_run(["check", ".", "--format", "gitlab"], project, monkeypatch))
    assert issues and len({i["fingerprint"] for i in issues}) == len(issues)
    for issue in issues:
        assert set(issue) >= {"description", "check_name", "fingerprint", "severity", "location"}
        assert issue["severity"] in {"info", "minor", "major", "critical", "blocker"}
        assert not issue["location"]["path"].startswith("/") and issue["location"]["lines"]["begin"] >= 1
    assert "docs ü/Grüße/CLAUDE.md" in {i["location"]["path"] for i in issues}


def test_junit(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    project = _odd_tree(tmp_path)
    root = ET.fromstring(_run(["check", ".", "--format", "junit"], project, monkeypatch).encode("utf-8"))
    suite = root.find("testsuite")
    assert suite is not None
    failures = suite.findall("testcase/failure")
    assert failures and int(suite.get("failures", "0")) == len(failures)
    assert {f.get("type") for f in failures} >= {"ML101"}
    clean = tmp_path / "clean"
    clean.mkdir()
    (clean / "CLAUDE.md").write_text("# Fine\n", encoding="utf-8")
    ok = ET.fromstring(_run(["check", ".", "--format", "junit"], clean, monkeypatch).encode("utf-8"))
    assert ok.find("testsuite/testcase") is not None and ok.find("testsuite/testcase/failure") is None


def test_json_schema_covers_a_shared_fix(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    memory = tmp_path / ".claude" / "agent-memory" / "reviewer"
    memory.mkdir(parents=True)
    sections = "".join(f"## Topic {i}\n\n" + "".join(f"Detail {i}.{j} of topic {i}.\n" for j in range(12)) + "\n"
                       for i in range(25))
    (memory / "MEMORY.md").write_text("# Memory\n\n" + sections, encoding="utf-8")
    data = json.loads(_run(["check", ".", "--format", "json", "--select", "ALL"], tmp_path, monkeypatch))
    jsonschema.Draft202012Validator(JSON_SCHEMA).validate(data)
    assert any("same_as" in (v["fix"] or {}) for v in data["violations"])
