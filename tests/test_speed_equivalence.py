"""Shortcuts taken for speed give the same answers as the long way (hypothesis properties)."""

from __future__ import annotations

from pathlib import Path
from unittest import mock

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from memlint.model import sanitise as sanitise_module
from memlint.model.document import Document
from memlint.model.markdown import (
    includes_prefix,
    normalize_newlines,
    parse,
    parse_markdown_it,
    plain_tokens,
    scan_body,
)
from memlint.model.sanitise import is_removed, sanitise
from memlint.rules.automem import ml320_memory_whitespace as ml320
from memlint.rules.includes._suspects import suspects
from memlint.rules.security import _secrets as secrets_module
from memlint.rules.security._secrets import key_words

# Markdown pieces that change how an `@` parses: fences, indented code, HTML blocks, lists, quotes,
# link reference definitions, code spans (also across lines), escapes, headings, CRLF.
PIECES = [
    "@a.md", "@b.md", "@c.md\n", "@", " ", "\t", "\n", "\n\n", "\r\n", "```\n", "~~~\n", "    ", "> ", "- ",
    "1. ", "[x]", "(y)", "[r]: /u\n", "[@a.md][r]", "`", "<div>\n", "</div>\n", "<pre>\n", "</pre>\n",
    "<script>", "</script>\n", "# ", "===\n", "text", "\\", "*", "_", "&amp;", "]", ":", "`x\n", "y`",
]
BODIES = st.lists(st.sampled_from(PIECES), max_size=30).map("".join)


@settings(max_examples=1000, deadline=None, suppress_health_check=list(HealthCheck))
@given(BODIES)
def test_parsing_up_to_the_includes_prefix_finds_the_same_includes(body: str) -> None:
    source = normalize_newlines(body)
    full, prefix = parse(source), parse(includes_prefix(source))
    assert scan_body(body, 0, prefix) == scan_body(body, 0, full)


# Sources that are mostly plain paragraphs, with a few pieces that end the plain path (and some
# that do not: `#`, `-`, `=`, `~` and digits inside a line, trailing white space, NBSP).
PLAIN_SAFE = [
    "@a.md", "@b.md", "@docs/c.md", "text", "x", " ", "  ", "\t", "\n", "\n\n", " \n", "\t\n", "/p", ".x", "@",
    "#", "-", "=", "~", "1", "|", "!", ":", "\u00a0", "\u3000", "A@b.md", "\x0c", "---", "1. ",
    "\n# ", "\n## ", "\n#\t", "\n####### ",
]
PLAIN_PIECES = PLAIN_SAFE * 6 + ["\x00", "<", "_", "*", "`", "\\", "&", "[", "]", "> "]
PLAIN_BODIES = st.lists(st.sampled_from(PLAIN_PIECES), max_size=30).map("".join)


@settings(max_examples=2000, deadline=None, suppress_health_check=list(HealthCheck))
@given(PLAIN_BODIES)
def test_plain_paragraphs_tokenize_as_markdown_it_does(body: str) -> None:
    source = normalize_newlines(body)
    plain = plain_tokens(source)
    if plain is None:
        return
    full = parse_markdown_it(source)
    shape = [(t.type, t.markup, t.nesting, t.map, t.level, t.content) for t in plain]
    assert shape == [(t.type, t.markup, t.nesting, t.map, t.level, t.content) for t in full]
    assert scan_body(body, 0, plain) == scan_body(body, 0, full)


def test_the_plain_path_is_taken_for_include_lists_and_not_for_markup() -> None:
    assert plain_tokens("@docs/a.md\n@docs/b.md\n\nSee @c.md for more.\n") is not None
    assert plain_tokens("# Project\nword @a word @a\n") is not None
    for body in ("- @a.md\n", "    @a.md\n", "`@a.md`\n", "@a.md\n===\n", "<!-- @a.md -->\n", "1. @a.md\n",
                 "# a #\n", " # a\n"):
        assert plain_tokens(body) is None


@pytest.fixture(scope="module")
def folder(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """Suspects name existing files only: the pieces' targets exist here."""
    path = tmp_path_factory.mktemp("suspects")
    for name in ("a.md", "b.md", "c.md"):
        (path / name).write_text("x\n", encoding="utf-8")
    return path


@settings(max_examples=200, deadline=None, suppress_health_check=list(HealthCheck))
@given(body=BODIES)
def test_parsing_up_to_the_includes_prefix_finds_the_same_suspects(folder: Path, body: str) -> None:
    whole = Document.from_text(folder / "CLAUDE.md", body)
    whole._tokens = parse(normalize_newlines(whole.body))
    cut = Document.from_text(folder / "CLAUDE.md", body)
    assert suspects(cut, None) == suspects(whole, None)


@settings(max_examples=300, deadline=None, suppress_health_check=list(HealthCheck))
@given(body=PLAIN_BODIES)
def test_plain_paragraphs_give_the_same_suspects(folder: Path, body: str) -> None:
    full = Document.from_text(folder / "CLAUDE.md", body)
    full._tokens = parse_markdown_it(normalize_newlines(full.body))
    assert suspects(Document.from_text(folder / "CLAUDE.md", body), None) == suspects(full, None)


WHITESPACE = st.lists(
    st.sampled_from(list("ab #-`~\n\r\t\u00a0\ufeff\v[]()>*") + ["```\n", "---\n", "\n\n", " \n", "<!--", "-->"]),
    max_size=40,
).map("".join)


@settings(max_examples=500, deadline=None)
@given(WHITESPACE)
def test_a_text_ml320_skips_as_tidy_has_nothing_to_tidy(text: str) -> None:
    if not text.strip() or ml320._maybe_untidy(text):
        return
    doc = Document.from_text(Path("/memory/topic.md"), text)
    if doc.newline == "\r":
        return
    with mock.patch.object(ml320, "_files", lambda ctx: iter([(doc.path, doc)])):
        assert not list(ml320.check(mock.Mock())), "a text called tidy has white space to fix"


def _ignores_one_path_at_a_time(globs: tuple[str, ...], path: str) -> bool:
    """The matcher's walk for one path, as written before folders were shared between paths."""
    import re

    from memlint.model import gitignore

    if not path or path.startswith("/") or re.match(r"\.\.?(/|$)", path):
        return False
    rules = gitignore._rules(globs)
    if not rules:
        return False
    collapsed = re.sub("/+", "/", path) if "//" in path else path
    parents = [collapsed[: m.start() + 1] for m in re.finditer("/", collapsed[:-1]) if m.start() > 0]
    return any(gitignore._verdict(rules, folder) for folder in parents) or gitignore._verdict(rules, path)


SEGMENTS = st.sampled_from(["a", "b", "A", "pkg", ".x", "*", "**", "c.ts", "d.md", "", "..", "."])
GLOBS = st.lists(st.sampled_from(
    ["a/", "*.ts", "!b/*.ts", "pkg/**", "**/d.md", "a/*", "!a/c.ts", "/b", "x/**/*.ts", "*", "!pkg/", "#c", ""]
), max_size=4).map(tuple)


@settings(max_examples=1000, deadline=None)
@given(GLOBS, st.lists(st.lists(SEGMENTS, min_size=1, max_size=4).map("/".join), max_size=8).map(tuple))
def test_any_matches_tests_each_folder_once_with_the_same_answer(globs: tuple[str, ...], paths: tuple[str, ...]) -> None:
    from memlint.model.gitignore import ignores, ignores_any

    assert ignores_any(globs, paths) == any(_ignores_one_path_at_a_time(globs, p) for p in paths)
    assert [ignores(globs, p) for p in paths] == [_ignores_one_path_at_a_time(globs, p) for p in paths]


def test_the_sanitiser_never_removes_printable_ascii_tab_or_line_feed() -> None:
    assert not [ch for ch in "\t\n" + "".join(map(chr, range(0x20, 0x7F))) if is_removed(ch)]


@settings(max_examples=1000, deadline=None)
@given(st.text(alphabet=st.characters(codec=None), max_size=60)
       | st.lists(st.sampled_from(["a", " ", "<", "system-reminder>", "\u200b", "\ue000", "\r\n", "\u2028", "\x07",
                                   "\U000e0041", "\ud800", "\u00ad", "\ufeff", "\t"]), max_size=30).map("".join))
def test_the_sanitiser_removes_what_the_character_by_character_rule_removes(text: str) -> None:
    by_character = "".join(ch for ch in sanitise_module._NEWLINES.sub("\n", text) if not is_removed(ch))
    expected = sanitise_module._TAG.sub(lambda m: "<\\" + m.group(1) + m.group(2), by_character)
    assert sanitise(text) == expected


@settings(max_examples=1000, deadline=None)
@given(st.lists(st.sampled_from(["token", "secret", "passwd", "passw", "pwd", "api_key", "api-key", "apikey", "api",
                                 "access_key", "accesskey", "private-key", "client_secret", "clientsecret", "auth_key",
                                 "auth", "credentials", "key", "to", "ken", "sec", " ", "_", "-", "=", "x"]),
                max_size=25).map("".join))
def test_key_words_are_the_regex_matches(lower: str) -> None:
    assert [m.span() for m in key_words(lower)] == [m.span() for m in secrets_module._KEY_WORD.finditer(lower)]


@settings(max_examples=300, deadline=None)
@given(st.lists(st.lists(st.sampled_from(["a", "A", "a-b", "a.b", "a b", "ab", "_", "é", "Z", "0", ".claude"]),
                         min_size=1, max_size=4), max_size=30))
def test_path_order_sorts_as_pathlib_does(parts: list[list[str]]) -> None:
    from pathlib import PurePath

    from memlint.model.pathorder import path_order

    paths = [PurePath("/", *p) for p in parts]
    assert sorted(paths, key=path_order) == sorted(paths)
