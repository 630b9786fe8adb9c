"""Claude Code's reading of one `permissions.deny` string (memlint/model/cli_js/permission_rules.py),
as seen with the real CLI on 2.1.290, 2.1.307 and 2.1.332 (differential cases m47*)."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from memlint.model.cli_js.permission_rules import PermissionRule, parse_rule, tool_matches


@pytest.mark.parametrize(("text", "rule"), [
    ("Read", PermissionRule("Read", None)),
    ("Read(*)", PermissionRule("Read", None)),  # the whole tool
    ("Read(**)", PermissionRule("Read", "**")),  # a path pattern
    ("Read(./a.md)", PermissionRule("Read", "./a.md")),
    ("Read(a(b)", PermissionRule("Read", "a(b")),  # parentheses inside the content are literal
    ("Read(./x\\(1\\).md)", PermissionRule("Read", "./x(1).md")),  # unescaped once
    ("Read(C:\\\\x)", PermissionRule("Read", "C:\\x")),
    ("Read(())", PermissionRule("Read", "()")),
    (" Read", PermissionRule(" Read", None)),  # as written: a tool no one has
    ("*", PermissionRule("*", None)),
    ("mcp__github", PermissionRule("mcp__github", None)),
    ("Read(\\(x)", PermissionRule("Read", "(x")),  # an escaped one alone is balanced
    ("Re(ad(x)", PermissionRule("Re", "ad(x")),  # opened by the first `(`: the tool `Re`
    ("\\)", PermissionRule("\\)", None)),  # every parenthesis escaped: a bare (odd) tool name
])
def test_a_valid_rule(text: str, rule: PermissionRule) -> None:
    assert parse_rule(text) == rule


@pytest.mark.parametrize("text", [
    "", "   ", "Read()", "Read(", "Read)", "Read(./a.md) ", "Read(./a.md)x", "(x)", "read(./a.md)",
    "read", "Read(\\(x))", "Read(a\\)(b)",
])
def test_a_rule_claude_code_drops(text: str) -> None:
    assert parse_rule(text) is None


@pytest.mark.parametrize(("pattern", "tool", "matches"), [
    ("Read", "Read", True), ("Read", "Reader", False), ("*", "Read", True), ("Rea*", "Read", True),
    ("R*d", "Read", True), ("*ea*", "Read", True), ("R**d", "Read", True), ("a*a", "a", False),
    ("Re*Re", "Read", False), ("*x", "Read", False), ("R*e*a*d", "Read", True), ("R*d*d", "Read", False),
])
def test_a_wildcard_tool_name(pattern: str, tool: str, matches: bool) -> None:
    assert tool_matches(pattern, tool) is matches


@given(st.text(alphabet="Read()\\*/. _x", max_size=16))
def test_any_string_is_read_or_dropped_never_raises(text: str) -> None:
    rule = parse_rule(text)
    if rule is not None:
        assert rule.tool and rule.content != ""
        assert rule.content is not None or "(" not in text or text.endswith("(*)") or "\\" in text
