"""PyYAML's safe loader made to read like `Bun.YAML.parse`, the YAML parser in Claude Code (see
`memlint.model.text.frontmatter`). A module of its own so that PyYAML is imported only when a file has
frontmatter."""

from __future__ import annotations

import re
from typing import Any, ClassVar

import yaml

from memlint.lazy_regex import compile_lazily
from memlint.model.cli_js.simpleyaml import CORE_RESOLVERS  # shared with the fast path there

_BASE: Any = getattr(yaml, "CSafeLoader", yaml.SafeLoader)  # the C loader where PyYAML has it


class _BunLoader(_BASE):  # type: ignore[misc]
    """PyYAML's safe loader made to read like `Bun.YAML.parse`, the parser in Claude Code: the YAML
    1.2 core schema (`off`, `yes`, `y` are strings; `010` is ten; `1_000` and dates are strings),
    duplicate keys keep the last value, an unknown tag (`!tag x`) is ignored, an explicit standard
    tag on a quoted scalar keeps the string (tests/fidelity/frontmatter_table.json)."""

    yaml_implicit_resolvers: ClassVar[dict[str | None, list[tuple[str, re.Pattern[str]]]]] = {}


for _tag, (_regex, _first) in CORE_RESOLVERS.items():
    _BunLoader.add_implicit_resolver(_tag, compile_lazily(f"^(?:{_regex})$"), list(_first))
_BunLoader.add_implicit_resolver("tag:yaml.org,2002:merge", compile_lazily(r"^(?:<<)$"), ["<"])
_BunLoader.add_implicit_resolver(
    "tag:yaml.org,2002:null", compile_lazily(r"^$"), None)  # an empty value


def _quoted(node: Any) -> bool:
    return isinstance(node, yaml.ScalarNode) and node.style in ("'", '"')


def _int(loader: Any, node: Any) -> Any:
    text = loader.construct_scalar(node)
    if _quoted(node):
        return text
    digits = text.replace("+", "")
    value = int(digits, 0) if digits.startswith(("0o", "0x")) else int(digits)
    return value if abs(value) <= 2**53 else float(value)  # JavaScript numbers


def _float(loader: Any, node: Any) -> Any:
    text = loader.construct_scalar(node)
    if _quoted(node):
        return text
    lowered = text.lower()
    if lowered.endswith("inf"):
        return float("-inf") if lowered.startswith("-") else float("inf")
    return float("nan") if lowered.endswith("nan") else float(text)


def _keep_string_when_quoted(name: str) -> Any:
    plain = _BunLoader.yaml_constructors[f"tag:yaml.org,2002:{name}"]
    return lambda loader, node: loader.construct_scalar(node) if _quoted(node) else plain(loader, node)


def _untagged(loader: Any, suffix: str, node: Any) -> Any:
    if isinstance(node, yaml.ScalarNode):
        return loader.construct_scalar(node)
    if isinstance(node, yaml.SequenceNode):
        return loader.construct_sequence(node)
    return loader.construct_mapping(node)


_BunLoader.add_constructor("tag:yaml.org,2002:int", _int)
_BunLoader.add_constructor("tag:yaml.org,2002:float", _float)
for _name in ("bool", "null"):
    _BunLoader.add_constructor(f"tag:yaml.org,2002:{_name}", _keep_string_when_quoted(_name))
_BunLoader.add_multi_constructor("!", _untagged)
_Loader: Any = _BunLoader


def load(text: str) -> Any:
    return yaml.load(text, Loader=_Loader)
