"""Shortcuts taken for speed give the same answers as the long way (hypothesis properties)."""

from __future__ import annotations

from pathlib import Path
from types import SimpleNamespace
from unittest import mock

import pytest
from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st

from memlint.model.loading.chain import Chain
from memlint.model.loading.loader import Deferred
from memlint.model.memory import sanitise as sanitise_module
from memlint.model.memory.sanitise import is_removed, sanitise
from memlint.model.text.document import Document
from memlint.model.text.markdown import (
    includes_prefix,
    normalize_newlines,
    parse,
    parse_markdown_it,
    plain_tokens,
    scan_body,
)
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
    "\n- ", "\n* ", "\n+ ", "- ", "\n-  ", "\n-\t", "\n- - ", "\n  ", "\n    ",
    "snake_case", "doc_0.md", "a_b_c", "1_2",
]
PLAIN_PIECES = PLAIN_SAFE * 6 + ["\x00", "<", "_", "*", "`", "\\", "&", "[", "]", "> "]
PLAIN_BODIES = st.lists(st.sampled_from(PLAIN_PIECES), max_size=30).map("".join)


def _assert_plain_path_agrees(body: str) -> None:
    """Where `plain_tokens` answers, it answers as markdown-it-py: the same token shape and scan."""
    source = normalize_newlines(body)
    plain = plain_tokens(source)
    if plain is None:
        return
    full = parse_markdown_it(source)
    shape = [(t.type, t.markup, t.nesting, t.map, t.level, t.content, t.info) for t in plain]
    assert shape == [(t.type, t.markup, t.nesting, t.map, t.level, t.content, t.info) for t in full]
    assert scan_body(body, 0, plain) == scan_body(body, 0, full)


@settings(max_examples=2000, deadline=None, suppress_health_check=list(HealthCheck))
@given(PLAIN_BODIES)
@example("~~~\x00")  # a NUL in a fence's info string: U+FFFD to markdown-it-py
def test_plain_paragraphs_tokenize_as_markdown_it_does(body: str) -> None:
    _assert_plain_path_agrees(body)


# Bullet lists of plain items, and what may follow them (lazy continuation lines, blank and white
# space lines, headings, other markers, indented lines).
LIST_PIECES = ["\n- ", "\n- ", "\n* ", "\n+ ", "- ", "@a.md", "@docs/b.md", "x", "Shared: ", " ", "\t", "\n",
               "\n\n", "\n  ", "\n    ", "\n# ", "#", "\n-  ", "\n1. ", "`"]
LIST_BODIES = st.lists(st.sampled_from(LIST_PIECES), max_size=30).map("".join)


@settings(max_examples=2000, deadline=None, suppress_health_check=list(HealthCheck))
@given(LIST_BODIES)
def test_plain_bullet_lists_tokenize_as_markdown_it_does(body: str) -> None:
    _assert_plain_path_agrees(body)


# Fenced code blocks and what may open, close or follow them (indents, tabs, longer and shorter
# runs, info strings, text after a closing run, comments and includes inside).
FENCE_PIECES = ["```", "~~~", "````", "`", "~", "\n```\n", "\n~~~\n", "\n", "\n\n", " ", "   ", "    ", "\t",
                "py", "a`b", "@a.md", "@docs/b.md", "text", "# H", "\n- @a.md", "<!-- c -->", "<!--", "-->",
                "a_b", "_", "é_b", "x\n", "\n```py\n", "\n``` \t\n", "\n  ```\n", "\n\t```\n"]
FENCE_BODIES = st.lists(st.sampled_from(FENCE_PIECES), max_size=30).map("".join)


@settings(max_examples=3000, deadline=None, suppress_health_check=list(HealthCheck))
@given(FENCE_BODIES)
@example("# Root\n\n- @docs/a.md\n\n```\n@docs/not-an-import.md\n```\nText @b.md.\n")
@example("```\nx")
@example("~~~\n```\n~~~~ \n\n@a\n")
def test_plain_fences_and_underscores_tokenize_as_markdown_it_does(body: str) -> None:
    _assert_plain_path_agrees(body)


def test_the_plain_path_is_taken_for_include_lists_and_not_for_markup() -> None:
    assert plain_tokens("@docs/a.md\n@docs/b.md\n\nSee @c.md for more.\n") is not None
    assert plain_tokens("# Project\nword @a word @a\n") is not None
    assert plain_tokens("# Package\n\n- Shared: @docs/a.md\n- @b.md\n\nText.\n") is not None
    assert plain_tokens("# Doc\n\n- see @missing_doc.md\n\n```sh\nmake test\n```\nMore @c.md\n") is not None
    for body in ("    @a.md\n", "`@a.md`\n", "@a.md\n===\n", "<!-- @a.md -->\n", "1. @a.md\n",
                 "# a #\n", " # a\n", "- @a.md\nmore\n", "_a @b.md\n", "a__b @c.md\n", "```\n\t```\n", "- @a.md\n\n- @b.md\n", "- @a.md\n* @b.md\n"):
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

    from memlint.model.cli_js import gitignore

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
    from memlint.model.cli_js.gitignore import ignores, ignores_any

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

    from memlint.model.source.pathorder import path_order

    paths = [PurePath("/", *p) for p in parts]
    assert sorted(paths, key=path_order) == sorted(paths)


FOLDER_PARTS = st.lists(st.sampled_from([".claude", "rules", "x", "session-memory", "agent-memory", "memory"]),
                        max_size=6)
FILE_NAMES = st.sampled_from(["CLAUDE.md", "claude.md", "Claude.MD", "CLAUDE.local.md", "claude-local.md",
                              "AGENTS.md", "MEMORY.md", "summary.md", "notes.md", "rules", ".claude", "a.txt",
                              "CLAUDE.markdown", "agents.md"])


@settings(max_examples=2000, deadline=None)
@given(FOLDER_PARTS, FILE_NAMES)
def test_discovery_skips_only_names_classify_gives_no_role(parts: list[str], name: str) -> None:
    from memlint.model.loading import discovery

    folder = Path("/", *parts)
    kept = discovery._rules_folder(folder.parts) or name in discovery._ROLE_NAMES or name.lower() in discovery._MISNAMED
    assert kept or discovery.classify(folder / name) is None


_DEFERRED_POOL = [
    Deferred(Path(f"/r/.claude/rules/{name}.md"), reason, "project", patterns)  # type: ignore[arg-type]
    for name in ("a", "b", "c")
    for reason in ("conditional-rule", "nested-claude-md")
    for patterns in ((), ("src/**",), ("*.ts", "docs/**"))
]


@st.composite
def _start_folders(draw: st.DrawFn) -> list[Chain[Deferred]]:
    """Start folders' deferred lists, made of segments shared with other start folders and of their
    own (a segment may repeat objects of another one, or a path with other patterns)."""
    objects = st.sampled_from(_DEFERRED_POOL)
    pool = [tuple(t) for t in draw(st.lists(st.lists(objects, max_size=5), min_size=1, max_size=5))]
    own = st.lists(objects, max_size=5).map(tuple)
    return [Chain(draw(st.lists(st.sampled_from(pool) | own, max_size=4))) for _ in range(draw(st.integers(0, 6)))]


@settings(max_examples=500, deadline=None)
@given(_start_folders())
def test_distinct_gives_each_object_once_in_first_seen_order(starts: list[Chain[Deferred]]) -> None:
    from memlint.model.loading.shared import distinct

    expected = list({id(d): d for s in starts for d in s}.values())
    assert [id(d) for d in distinct(starts)] == [id(d) for d in expected]


@settings(max_examples=500, deadline=None)
@given(_start_folders())
def test_ml508_reads_a_start_folders_conditional_rules_as_the_dict_would(starts: list[Chain[Deferred]]) -> None:
    from memlint.rules.layout.ml508_conditional_rule_includes_load_at_start import _Conditional

    by_segment: dict[int, dict[Path, tuple[str, ...]]] = {}
    for deferred in starts:
        expected = {d.path: d.paths for d in deferred if d.reason == "conditional-rule"}
        found = _Conditional(SimpleNamespace(deferred=deferred), by_segment)  # type: ignore[arg-type]
        assert bool(found) == bool(expected)
        assert {p: found.get(p) for p in {d.path for d in _DEFERRED_POOL}} == {
            p: expected.get(p) for p in {d.path for d in _DEFERRED_POOL}}


@settings(max_examples=300, deadline=None)
@given(_start_folders())
def test_the_start_folders_that_load_a_file_later_are_those_a_pass_over_each_finds(starts: list[Chain[Deferred]]) -> None:
    from memlint.rules.security._exposure import _Later

    loads = {Path(f"/r/s{n}"): SimpleNamespace(deferred=d) for n, d in enumerate(starts)}
    key = {id(d.path): str(d.path).upper() for d in _DEFERRED_POOL}
    workspace = SimpleNamespace(absolute=str, realpath=lambda text: (text.upper(), True))  # as `key`
    later = _Later(SimpleNamespace(loads=loads, workspace=workspace))  # type: ignore[arg-type]
    for real in sorted(set(key.values())):
        expected = [folder for folder, context in sorted(loads.items()) for d in context.deferred if key[id(d.path)] == real]
        assert later.of(real) == list(dict.fromkeys(expected))


_PATH_PARTS = st.sampled_from(["src", "a", "A.ts", "b.md", "x.TS", "ts", ".ts", "docs", "c"])


@settings(max_examples=500, deadline=None)
@given(st.lists(st.lists(_PATH_PARTS, min_size=1, max_size=3).map("/".join), max_size=8).map(tuple),
       st.lists(st.lists(st.sampled_from([".ts", "a", "docs/", "s/a", "ts", "/", "b.md", "c/\n"]), min_size=1,
                         max_size=3), max_size=6))
def test_a_path_index_answers_a_text_asked_again_as_a_fresh_search(paths: tuple[str, ...], asks: list[list[str]]) -> None:
    from memlint.model.cli_js.globs import PathIndex

    shared = PathIndex(paths)
    for texts in asks:
        expected = tuple(p for p in paths if any(t in p.lower() for t in texts))
        assert shared.containing(texts) == PathIndex(paths).containing(texts) == expected


def _any_matches_by_required_text(globs: tuple[str, ...], paths: tuple[str, ...]) -> bool:
    """`any_matches` as written before anchored patterns were looked up by their literal folders."""
    from memlint.model.cli_js.globs import PathIndex, _required_text, ignores_any

    required = [_required_text(p) for p in globs if p and not p.startswith(("!", "#"))]
    if required and all(r is not None for r in required):
        paths = PathIndex(paths).containing([r for r in required if r is not None])
    return ignores_any(globs, paths)


_GLOB_PARTS = st.sampled_from(["a", "A", "B", "s", "src", "SRC", "pkg", "*", "**", "?", "[ab]", "[", "]", ".ts", "x.TS", " ",
                               "\u017f", "\u212a", "k", "\\", "\\a", "a\\b", "{a,b}", ".", "..", "", "a*b", "*.md"])
_PATTERNS = st.tuples(st.sampled_from(["", "", "/", "**/", "!", "!/", "#"]),
                      st.lists(_GLOB_PARTS, min_size=1, max_size=4).map("/".join),
                      st.sampled_from(["", "", "/", " ", "/**"])).map("".join)
_PATH_SEGMENTS = st.sampled_from(["a", "A", "src", "pkg", "b.ts", "x.TS", "\u017f", "\u212a", "s", "k", ".x", "a b",
                                  "{a,b}", "[ab]", "c.md", "ab", "axb", "", "b", "\u017frc", "\u017f.ts"])


@settings(max_examples=3000, deadline=None)
@example(("SRC/*.ts",), ("src/a.ts",))
@example(("a/b*",), ("a//bc",))
@example(("s/*.ts",), ("\u017f/a.ts",))
@example(("\u017f/*.ts",), ("s/a.ts",))
@example(("/a\\b/*",), ("ab/c",))
@example(("pkg/a/**", "!pkg/a/b.ts"), ("pkg/a/b.ts", "pkg/b/c.ts", "pkg/a/c.md"))
@given(st.lists(_PATTERNS, min_size=1, max_size=3).map(tuple),
       st.lists(st.lists(_PATH_SEGMENTS, min_size=1, max_size=4).map("/".join), max_size=10).map(tuple))
def test_anchored_patterns_looked_up_by_their_folders_answer_as_before(globs: tuple[str, ...], paths: tuple[str, ...]) -> None:
    from memlint.model.cli_js.globs import PathIndex, _anchored_prefix, any_matches, ignores

    index = PathIndex(paths)
    assert any_matches(globs, paths, index) == any_matches(globs, paths) == _any_matches_by_required_text(globs, paths)
    for glob in globs:  # every path an anchored pattern matches starts with its prefix (or is handed over anyway)
        prefix = _anchored_prefix(glob) if glob.isascii() and not glob.startswith(("!", "#")) else None
        if prefix is not None:
            for path in paths:
                if ignores((glob,), path):
                    assert path.lower().startswith(prefix) or not path.isascii() or "//" in path, (glob, path)


@settings(max_examples=2000, deadline=None)
@given(FOLDER_PARTS, FILE_NAMES)
def test_discovery_role_by_name_is_classify(parts: list[str], name: str) -> None:
    from memlint.model.loading import discovery

    folder = Path("/", *parts)
    in_rules = discovery._rules_folder(folder.parts)
    assert discovery.role_in_folder(name, in_rules, folder.name) == discovery.classify(folder / name)
    # the rule test spelled on the whole path: the file's last `.claude` is followed by `rules` and more
    whole = (folder / name).parts
    last = len(whole) - 1 - whole[::-1].index(".claude") if ".claude" in whole else None
    is_rule = last is not None and whole[last + 1 : last + 2] == ("rules",) and len(whole) > last + 2
    assert (discovery.classify(folder / name) == "rule") == is_rule


@pytest.mark.parametrize("body", ["> - <pre>\n> ", "@a.md\n> - <pre>\n> ", "> @a.md\n> - <pre>\n> "])
def test_a_source_markdown_it_py_cannot_parse_is_read_with_a_final_line_break(folder: Path, body: str) -> None:
    """markdown-it-py 4.3 raises IndexError on a quote that ends in `> ` with no line break after
    it; memlint reads such a file as if it ended with one, so it is checked, not a traceback."""
    tokens = parse_markdown_it(body)
    assert [t.content for t in tokens if t.type == "inline"] == [
        t.content for t in parse_markdown_it(body + "\n") if t.type == "inline"]
    whole = Document.from_text(folder / "CLAUDE.md", body)
    assert [ref.written for ref in whole.scan().includes] == (["a.md"] if "@a.md" in body else [])
