"""The frontmatter fast path (memlint.model.cli_js.simpleyaml) reads exactly what the Bun-compatible loader
(memlint.model.cli_js.bunyaml) reads, whenever it answers at all."""

from __future__ import annotations

from typing import Any

import pytest
import yaml
from hypothesis import assume, given, settings
from hypothesis import strategies as st

from memlint.model.cli_js.bunyaml import load
from memlint.model.cli_js.simpleyaml import never_loads, simple_load
from memlint.model.text.frontmatter import _LEADING_TABS, _as_mapping, _quote_simple_values, parse_frontmatter


def _typed(value: Any) -> Any:
    """A value with every type and the key order spelled out (so `1 == 1.0 == True` cannot hide)."""
    if isinstance(value, dict):
        return ("dict", [(_typed(k), _typed(v)) for k, v in value.items()])
    if isinstance(value, list):
        return ("list", [_typed(v) for v in value])
    return (type(value).__name__, repr(value))


def _agrees(text: str) -> bool:
    """The fast path declines, or gives what the loader gives."""
    fast = simple_load(text)
    if fast is None:
        return True
    try:
        slow = load(text)
    except (yaml.YAMLError, ValueError, RecursionError) as exc:
        raise AssertionError(f"fast path read {text!r} as {fast!r}; the loader fails: {exc}") from exc
    assert _typed(fast) == _typed(slow), (text, fast, slow)
    return True


_TRICKY = list("aZ09 -_:#'\"[]{},.?!&*|>%@`~+=/\\<\t\r") + ["\x85", "\u2028", "\ufeff", "\u00a0", "\u00e9", "\u2014",
                                                               "\x00", "\x7f", "\U0001f600"]
_WORDS = ["true", "True", "TRUE", "false", "False", "FALSE", "tRUE", "null", "Null", "NULL", "~", "yes", "off", "y",
          "1", "0x1F", "0o7", "1e3", ".5", ".inf", "-.inf", ".nan", "+1", "1_000", "2024-01-01", "<<", "0", "-", "--",
          "---", "...", "name", "description", "type", "paths", "topic 9 of agent 8", "project"]
_pieces = st.one_of(st.sampled_from(_TRICKY), st.sampled_from(_WORDS))
_scalar_text = st.lists(_pieces, max_size=6).map("".join)
_key = st.one_of(st.sampled_from(["name", "description", "type", "paths", "true", "null", "Y", "a-b", "_x", "x1",
                                  "<<", "1", "on", "k" * 130]), _scalar_text)
_quoted = _scalar_text.map(lambda s: f'"{s}"')
_value = st.one_of(_scalar_text, _quoted, st.sampled_from(_WORDS))
_separator = st.sampled_from([": ", ":", ":  ", ": \t", " : ", ":\t"])
_scalar_line = st.builds(lambda k, s, v: f"{k}{s}{v}", _key, _separator, _value)
_flow_line = st.builds(lambda k, items, gap: f"{k}: [{gap.join(items)}]", _key, st.lists(_quoted, max_size=3),
                       st.sampled_from([", ", ",", " , "]))
_indent = st.sampled_from(["", " ", "  ", "    ", "\t"])
_block = st.builds(lambda k, indents, items: "\n".join([f"{k}:"] + [f"{i}- {v}" for i, v in zip(indents, items)]),
                   _key, st.lists(_indent, min_size=3, max_size=3), st.lists(_value, max_size=3))
_line = st.one_of(_scalar_line, _scalar_line, _flow_line, _block, _scalar_text)
_document = st.builds(lambda lines, end: "\n".join(lines) + end, st.lists(_line, max_size=5),
                      st.sampled_from(["\n", "", "\r\n", "\n\n"]))


# Near the shapes the fast path takes: good keys, `: `, values mostly of ordinary characters.
_ordinary = st.lists(st.one_of(st.sampled_from(list("abcXYZ019 .,-_/()'\"+=|>!&*%@`~\\?<;$^")),
                               st.sampled_from(_TRICKY), st.sampled_from(_WORDS)), min_size=1, max_size=8).map("".join)
_good_key = st.sampled_from(["name", "description", "type", "paths", "originSessionId", "a-b", "x_1", "true", "N"])
_near_value = st.one_of(_ordinary, _ordinary.map(lambda s: f'"{s}"'), st.sampled_from(_WORDS))
_near_scalar = st.builds(lambda k, v: f"{k}: {v}", _good_key, _near_value)
_near_flow = st.builds(lambda k, items: f"{k}: [{', '.join(items)}]", _good_key,
                       st.lists(_ordinary.map(lambda s: f'"{s}"'), min_size=1, max_size=3))
_near_block = st.builds(lambda k, i, items: "\n".join([f"{k}:"] + [f"{i}- {v}" for v in items]), _good_key,
                        st.sampled_from(["", "  ", "    "]), st.lists(_near_value, min_size=1, max_size=3))
_near = st.builds(lambda lines: "\n".join(lines) + "\n",
                  st.lists(st.one_of(_near_scalar, _near_scalar, _near_flow, _near_block), min_size=1, max_size=4))


@settings(max_examples=1500, deadline=None)
@given(_document)
def test_fast_path_reads_what_the_loader_reads(text: str) -> None:
    assert _agrees(text)


@settings(max_examples=1500, deadline=None)
@given(_near)
def test_fast_path_near_its_shapes(text: str) -> None:
    assert _agrees(text)


@settings(max_examples=300, deadline=None)
@given(st.text(max_size=40))
def test_fast_path_on_any_text(text: str) -> None:
    assert _agrees(text)


def test_fast_path_takes_the_common_shapes() -> None:
    """The shapes it exists for are read without PyYAML (a guard against a fast path that never answers)."""
    common = {
        "name: topic1\ndescription: topic 1 of agent 8\ntype: project\n": {
            "name": "topic1", "description": "topic 1 of agent 8", "type": "project"},
        'paths:\n  - "packages/pkg795/**/*.ts"\n': {"paths": ["packages/pkg795/**/*.ts"]},
        'paths: ["checks/**/*.md", "a, b"]\n': {"paths": ["checks/**/*.md", "a, b"]},
        "name: Pillar 3 — 6 partners, 12+ ventures\noriginSessionId: 2ccbe833-32ed\n": {
            "name": "Pillar 3 — 6 partners, 12+ ventures", "originSessionId": "2ccbe833-32ed"},
        "name: a\nname: b\ntype: c\n": {"name": "b", "type": "c"},
        'alwaysApply: false\npaths:\n  - "src/**"\n': {"alwaysApply": False, "paths": ["src/**"]},
        "a: TRUE\nb: False\nc: \"true\"\n": {"a": True, "b": False, "c": "true"},
    }
    for text, expected in common.items():
        assert simple_load(text) == expected
        assert _agrees(text)
    for declined in ("true: x\n", "type: null\n", "type: ~\n", "n: 12\n", "a: b: c\n", "paths:\n", "a: x # c\n",
                     "metadata:\n  type: x\n", "a:\n  - \"x\"\n - \"y\"\n", "a: 'x'\n", "a: x\r\n", ""):
        assert simple_load(declined) is None, declined


def test_parse_frontmatter_uses_the_fast_path_result() -> None:
    found = parse_frontmatter("---\nname: x\ndescription: y\n---\nbody\n")
    assert found is not None and found.data == {"name": "x", "description": "y"} and found.error is None
    assert not found.retried and found.raw == "name: x\ndescription: y\n"


# The characters a plain scalar may hold, as simpleyaml's comment spells them out; the module
# writes the class as its complement (cheaper to compile): both must match the same characters.
_SAFE_SPEC = (
    r'!"$-9;-Z\\^-z|~'
    "\u00a1-\u167f\u1681-\u1fff\u200b-\u2027\u202a-\u202e\u2030-\u205e\u2060-\u2fff\u3001-\ud7ff"
    "\ue000-\ufefe\uff00-\ufffd"
)


def test_safe_class_is_the_documented_set() -> None:
    import re

    from memlint.model.cli_js import simpleyaml

    spelled = re.compile(f"[{_SAFE_SPEC}]")
    spelled_or_space = re.compile(f"[{_SAFE_SPEC} ]")
    safe = re.compile(simpleyaml._SAFE_CHAR)
    safe_or_space = re.compile(simpleyaml._SAFE_OR_SPACE)
    for code in range(0x110000):
        char = chr(code)
        assert bool(safe.fullmatch(char)) == bool(spelled.fullmatch(char)), hex(code)
        assert bool(safe_or_space.fullmatch(char)) == bool(spelled_or_space.fullmatch(char)), hex(code)


# A flow list opened and perhaps never closed, among the other lines (how a broken rule often starts).
_flow_open = st.builds(lambda k, gap, items: f"{k}:{gap}[{items}", _key, st.sampled_from([" ", "  ", "", "\t"]),
                       st.lists(st.one_of(_pieces, st.sampled_from(["]", ", ", '"a"', "[", "#"])), max_size=5).map("".join))
_with_flow_open = st.builds(lambda head, flow, tail, end: "\n".join([*head, flow, *tail]) + end,
                            st.lists(st.one_of(_near_scalar, _near_flow, _line), max_size=3), _flow_open,
                            st.lists(st.one_of(_line, _flow_open, st.sampled_from(["  - x]", "]", "---", "  b"])),
                                     max_size=3),
                            st.sampled_from(["\n", "", "\n\n"]))

# ... and nearer the shape `never_loads` answers for: simple lines, then `key: [` and no `]` after it.
_near_open = st.builds(lambda head, k, items, tail, end: "\n".join([*head, f"{k}: [{items}", *tail]) + end,
                       st.lists(st.one_of(_near_scalar, _near_flow), max_size=3), _good_key,
                       _ordinary.map(lambda s: s.replace("]", "")),
                       st.lists(st.one_of(_near_scalar, _ordinary.map(lambda s: "  " + s.replace("]", ""))), max_size=3),
                       st.sampled_from(["\n", "", "\n\n"]))


@settings(max_examples=1500, deadline=None)
@given(st.one_of(_with_flow_open, _near_open))
def test_what_the_fast_path_calls_broken_the_loader_cannot_read(text: str) -> None:
    if never_loads(text):
        with pytest.raises((yaml.YAMLError, ValueError, RecursionError)):
            load(text)


def _slow_frontmatter(raw: str) -> tuple[Any, bool, bool]:
    """The frontmatter as PyYAML alone reads it: the text, then its quoting retry (data, retried, failed)."""
    try:
        return _typed(_as_mapping(load(raw))), False, False
    except (yaml.YAMLError, ValueError, RecursionError):
        pass
    retry = _LEADING_TABS.sub(lambda m: "  " * len(m.group(0)), _quote_simple_values(raw))
    try:
        return _typed(_as_mapping(load(retry))), True, False
    except (yaml.YAMLError, ValueError, RecursionError):
        return _typed({}), False, True


@settings(max_examples=800, deadline=None)
@given(st.one_of(_with_flow_open, _near_open, _near, _document))
def test_frontmatter_reads_what_pyyaml_alone_reads(raw: str) -> None:
    assume("---" not in raw)
    found = parse_frontmatter(f"---\n{raw}\n---\nbody\n")
    assert found is not None
    assert (_typed(found.data), found.retried, found.error is not None) == _slow_frontmatter(found.raw)


def test_a_flow_list_never_closed_is_read_without_pyyaml() -> None:
    assert never_loads("paths: [src/**\n") and never_loads("name: x\npaths: [a, b\nmore: y\n")
    for unsure in ("paths: [a]\n", 'a: "x\npaths: [b\n', "paths: [a\n  - b]\n", "paths:[a\n", "a: |\n  x\npaths: [b\n"):
        assert not never_loads(unsure), unsure
    found = parse_frontmatter("---\npaths: [src/**\n---\nbody\n")
    assert found is not None and found.data == {"paths": "[src/**"} and found.retried and found.error is None
