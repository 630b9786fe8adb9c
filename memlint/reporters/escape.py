"""Escaping for output formats that give characters a meaning.

GitHub workflow commands (`::error file=...,line=...::message`), as GitHub documents them: in the
message, `%` becomes `%25`, CR `%0D` and LF `%0A`; in a property value also `:` becomes `%3A` and `,`
becomes `%2C`."""

from __future__ import annotations


def github_data(text: str) -> str:
    """A workflow command's message."""
    return text.replace("%", "%25").replace("\r", "%0D").replace("\n", "%0A")


def github_property(text: str) -> str:
    """A workflow command's property value (file, title)."""
    return github_data(text).replace(":", "%3A").replace(",", "%2C")
