"""The rule catalog (memlint/rules/catalog.py) reads each page from its rule module's source, the
one copy: it is what importing the rules gives, `memlint rules` and `memlint explain` print byte
for byte the same from it as from the imported rules, for every code and slug; they import no rule
module and none of the model; and they import the rules whenever the catalog cannot answer (a
plugin, a source of a form it does not read)."""

from __future__ import annotations

import importlib
import json
import os
import shutil
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest
from click.testing import CliRunner
from hypothesis import given, settings
from hypothesis import strategies as st

from memlint import cli, docgen
from memlint.commands import common
from memlint.rules import _entry_points, all_rules, plugin_problems
from memlint.rules import catalog as rule_catalog
from memlint.rules.catalog import Entry, builtin_entries, page_head

ROOT = Path(__file__).resolve().parent.parent


def _builtin() -> list[Entry]:
    return [Entry(r.meta, r.module.__name__, r.doc) for r in all_rules() if r.plugin is None]


def test_the_catalog_is_what_importing_the_rules_gives() -> None:
    entries = builtin_entries()
    assert entries is not None and list(entries) == _builtin()
    assert any("- [Note 200](note-200.md)" in e.doc for e in entries)  # ML301's `__doc__` edit, applied
    assert not (ROOT / "memlint" / "rules" / "_catalog.py").exists()  # no generated copy of the pages


def _outputs() -> Iterator[tuple[tuple[str, ...], str, str, int]]:
    names = ["NOPE", "ML000", "", " ml101 ", "include", "ML10"]
    for rule in all_rules():
        names += [rule.code, rule.slug, rule.code.lower(), rule.slug.upper(), f" {rule.slug} "]
    for args in [("rules",), ("rules", "--format", "json"), ("rules", "--format", "text"),
                 *(("explain", name) for name in names)]:
        result = CliRunner().invoke(cli.main, list(args))
        yield args, result.stdout, result.stderr, result.exit_code


def test_rules_and_explain_print_the_same_from_the_catalog_as_from_the_rules(monkeypatch: pytest.MonkeyPatch) -> None:
    asked: list[bool] = []

    def counted() -> tuple[Entry, ...] | None:
        found = builtin_entries()
        asked.append(found is not None)
        return found

    monkeypatch.setattr(rule_catalog, "builtin_entries", counted)
    from_catalog = list(_outputs())
    assert asked and all(asked)
    monkeypatch.setattr(rule_catalog, "builtin_entries", lambda: None)
    imported = list(_outputs())
    assert from_catalog == imported
    assert len(from_catalog) > 3 * len(all_rules())
    assert json.loads(from_catalog[1][1])[0]["code"] == "ML101"


_PROBE = """
import json, sys
from memlint.__main__ import _invoke
code = _invoke(sys.argv[1:])
print(json.dumps([code, sorted(sys.modules)]), file=sys.stderr)
"""


def _modules(args: list[str], pythonpath: str | None = None) -> tuple[int, str, list[str]]:
    path = pythonpath or os.pathsep.join(p for p in sys.path if p)
    env = dict(os.environ, PYTHONPATH=path)
    done = subprocess.run([sys.executable, "-c", _PROBE, *args], env=env, capture_output=True, text=True,
                          check=False, cwd=ROOT.parent)
    code, modules = json.loads(done.stderr.strip().splitlines()[-1])
    return code, done.stdout, modules


# What --version and the pages may import of the model: the token counter (for the cache) and what it
# needs, with their sub-packages' docstring-only `__init__`s.
_LIGHT_MODEL = {"memlint.model.source", "memlint.model.source.files", "memlint.model.cli_js",
                "memlint.model.cli_js.jstext", "memlint.model.text", "memlint.model.text.tokens"}


@pytest.mark.parametrize("args", [["--version"], ["rules"], ["rules", "--format", "json"], ["explain", "ML301"],
                                  ["explain", "include-target-missing"]])
def test_listing_and_explaining_import_no_rule_and_no_model(args: list[str]) -> None:
    code, _, modules = _modules(args)
    assert code == 0
    heavy = [m for m in modules if m.startswith(("memlint.rules.", "memlint.engine", "markdown_it", "memlint.api",
                                                 "memlint.config", "importlib.metadata"))
             or (m.startswith("memlint.model.") and m not in _LIGHT_MODEL)]
    allowed = {"memlint.rules.catalog"} if args[0] != "--version" else set()
    assert set(heavy) == allowed
    if args[0] == "--version":
        assert "memlint.rules" not in modules


def _copy(tmp_path: Path) -> Path:
    copy = tmp_path / "memlint"
    shutil.copytree(ROOT / "memlint", copy, ignore=shutil.ignore_patterns("__pycache__"))
    return copy


def test_an_edited_page_is_shown_as_it_now_is_without_importing_the_rule(tmp_path: Path) -> None:
    copy = _copy(tmp_path)
    rule = copy / "rules" / "includes" / "ml101_include_target_missing.py"
    rule.write_text(rule.read_text(encoding="utf-8").replace("## What it does", "## What it does\nEdited.", 1),
                    encoding="utf-8")
    code, out, modules = _modules(["explain", "ML101"], str(tmp_path))
    assert code == 0 and "## What it does\nEdited." in out
    assert not [m for m in modules if m.startswith("memlint.rules.includes")]
    summary = copy / "rules" / "size" / "ml203_empty_file.py"
    text = summary.read_text(encoding="utf-8")
    summary.write_text(text.replace('summary="', 'summary="Edited: ', 1), encoding="utf-8")
    listed = _modules(["rules"], str(tmp_path))[1].splitlines()
    assert next(line for line in listed if "Edited: " in line).startswith("ML203  empty-file")


def test_a_page_edit_of_another_form_imports_the_rule_and_shows_the_same(tmp_path: Path) -> None:
    copy = _copy(tmp_path)
    rule = copy / "rules" / "size" / "ml203_empty_file.py"
    text = rule.read_text(encoding="utf-8")
    rule.write_text(text.replace("\nMETA = ", '\n__doc__ = __doc__.upper()\n\nMETA = ', 1), encoding="utf-8")
    code, out, modules = _modules(["explain", "ML203"], str(tmp_path))
    assert code == 0 and "## WHAT IT DOES" in out
    assert "memlint.rules.size.ml203_empty_file" in modules  # the catalog could not tell: imported


@pytest.fixture
def plugin(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    site = tmp_path / "site"
    site.mkdir()
    (site / "acme_good.py").write_text(
        '"""Acme\'s own rule.\n\n## What it does\nNothing."""\nfrom memlint.rules import RuleMeta\n'
        "META = RuleMeta(code='AC101', slug='acme-rule', severity='info', summary='acme')\n"
        "def check(ctx):\n    return iter(())\n", encoding="utf-8")
    info = site / "acme_good-1.0.dist-info"
    info.mkdir()
    (info / "METADATA").write_text("Metadata-Version: 2.1\nName: acme-good\nVersion: 1.0\n", encoding="utf-8")
    (info / "entry_points.txt").write_text("[memlint.rules]\nacme = acme_good\n", encoding="utf-8")
    monkeypatch.syspath_prepend(str(site))
    importlib.invalidate_caches()
    all_rules.cache_clear()
    yield
    all_rules.cache_clear()
    common._REPORTED.clear()


@pytest.mark.usefixtures("plugin")
def test_a_plugin_is_listed_and_explained_with_the_builtin_rules() -> None:
    assert builtin_entries() is None
    listed = CliRunner().invoke(cli.main, ["rules"])
    assert "AC101  acme-rule" in listed.stdout and "ML101  include-target-missing" in listed.stdout
    assert listed.stderr == "" and plugin_problems() == ()
    assert CliRunner().invoke(cli.main, ["explain", "acme-rule"]).stdout == "# AC101 acme-rule\n\nAcme's own rule.\n\n## What it does\nNothing.\n"
    assert CliRunner().invoke(cli.main, ["explain", "ML301"]).stdout.startswith("# ML301 memory-index-truncated")


def test_docgen_check_fails_on_stale_docs(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(docgen, "DOCS", tmp_path / "rules")
    assert docgen.main([]) == 0 and docgen.main(["--check"]) == 0
    page = tmp_path / "rules" / "ML101-include-target-missing.md"
    page.write_text(page.read_text(encoding="utf-8").replace("exist", "exists", 1), encoding="utf-8")
    assert docgen.main(["--check"]) == 1


_RULE_FILES = sorted(str(p.relative_to(ROOT / "memlint")) for p in (ROOT / "memlint" / "rules").glob("*/ml*.py"))


@settings(max_examples=60, deadline=None)
@given(st.sampled_from(_RULE_FILES), st.text(), st.data())
def test_the_page_head_covers_the_page_and_meta_and_nothing_below(path: str, added: str, data: st.DataObject) -> None:
    text = (ROOT / "memlint" / path).read_bytes()
    head = page_head(text)
    assert head.endswith(b")") and b"\nMETA = " in head and text.startswith(head)
    code = text[len(head):]
    assert code.startswith(b"\n")
    below = data.draw(st.integers(1, len(code)))
    assert page_head(head + code[:below] + added.encode() + code[below:]) == head  # a change to the code
    at = data.draw(st.integers(0, len(head) - 1))
    changed = head[:at] + b"#" + head[at:]
    assert page_head(changed + code) != head  # any insertion above changes what is parsed


def test_a_crlf_checkout_reads_the_same_pages(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    for path in (ROOT / "memlint").rglob("*.py"):
        target = tmp_path / path.relative_to(ROOT / "memlint")
        target.parent.mkdir(parents=True, exist_ok=True)
        target.write_bytes(path.read_bytes().replace(b"\n", b"\r\n"))
    monkeypatch.setattr(rule_catalog, "PACKAGE", str(tmp_path))
    monkeypatch.setattr(rule_catalog, "_PARSED", {})
    entries = builtin_entries()
    assert entries is not None and list(entries) == _builtin()


def test_an_install_without_sources_imports_the_rules(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(rule_catalog, "PACKAGE", str(tmp_path / "gone"))
    monkeypatch.setattr(rule_catalog, "_PARSED", {})
    assert builtin_entries() is None


def test_memlint_registered_twice_alike_is_one_registration(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """An editable install puts memlint's entry points on sys.path twice (its dist-info and the
    checkout's egg-info): the catalog still answers, with no plugin lookup; a copy that differs
    (a stale egg-info, a plugin) is left to importlib.metadata."""
    section = "".join(f"{ep.name} = {ep.value}\n" for ep in _entry_points())
    info = tmp_path / "claude_memlint.egg-info"
    info.mkdir()
    (info / "entry_points.txt").write_text(f"[console_scripts]\nmemlint = memlint.__main__:run\n\n[memlint.rules]\n{section}",
                                           encoding="utf-8")
    monkeypatch.syspath_prepend(str(tmp_path))
    calls: list[str] = []
    import importlib.metadata

    monkeypatch.setattr(importlib.metadata, "entry_points", lambda **kw: calls.append("asked") or [])
    assert builtin_entries() is not None and calls == []
    (info / "entry_points.txt").write_text(f"[memlint.rules]\n{section}stale = memlint.rules.gone\n", encoding="utf-8")
    assert builtin_entries() is None and calls == ["asked"]


def _defaults() -> frozenset[str]:
    return frozenset(r.code for r in all_rules() if r.meta.default)


def test_the_default_codes_read_from_the_sources_are_the_imported_rules_defaults(monkeypatch: pytest.MonkeyPatch) -> None:
    assert rule_catalog.default_codes() == _defaults()
    assert any(not r.meta.default for r in all_rules())  # the opt-in rules are left out
    read: list[str] = []
    real = rule_catalog._code_and_default
    monkeypatch.setattr(rule_catalog, "_code_and_default", lambda module: read.append(module) or real(module))
    monkeypatch.setattr(rule_catalog, "all_rules", lambda: pytest.fail("imported the rules"))
    monkeypatch.setattr(rule_catalog, "rules_imported", lambda: False)  # (this process imported them: as `hook`)
    assert rule_catalog.default_codes() == _defaults() and len(read) == len(all_rules.__wrapped__())


def test_the_default_codes_come_from_the_rules_once_they_are_imported(monkeypatch: pytest.MonkeyPatch) -> None:
    """`check` and `fix` import every rule before they read the configuration: no source is read again."""
    all_rules()
    monkeypatch.setattr(rule_catalog, "_read", lambda module: pytest.fail(f"read {module}"))
    assert rule_catalog.default_codes() == _defaults()


@pytest.mark.parametrize("meta", ['RuleMeta(CODE, "empty-file", "warning", "s")',
                                  'RuleMeta("ML203", "empty-file", "warning", "s", default=OFF)',
                                  'make_meta("ML203")', 'RuleMeta("ML203", "empty-file", "warning", "s", **OFF)',
                                  'RuleMeta(*ARGS)'])
def test_a_meta_not_written_in_literals_has_the_default_codes_read_from_the_imported_rules(
        meta: str, monkeypatch: pytest.MonkeyPatch) -> None:
    real = rule_catalog._read
    edited = "memlint.rules.size.ml203_empty_file"
    monkeypatch.setattr(rule_catalog, "_read", lambda module: b'"""Page."""\n\nMETA = ' + meta.encode() + b"\n"
                        if module == edited else real(module))
    with pytest.raises(rule_catalog.Unreadable):
        rule_catalog._code_and_default(edited)
    imported: list[bool] = []
    monkeypatch.setattr(rule_catalog, "rules_imported", lambda: False)
    monkeypatch.setattr(rule_catalog, "all_rules", lambda: imported.append(True) or all_rules())
    assert rule_catalog.default_codes() == _defaults() and imported == [True]
