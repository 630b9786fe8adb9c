"""Paths Claude Code refuses to read as memory whatever they hold (C14 special folders, C18
process files), by path alone: the loader asks, the release decides whether it applies."""

from __future__ import annotations

import re

from memlint.lazy_regex import compile_lazily

# C14: a connector's download folder (any case, trailing dots and spaces ignored), an artifact work
# folder, a session scratchpad (or a folder laid out like one: claude/<project>/<session uuid>/scratchpad or
# claude/s/<12 digits>/scratchpad; a session id that is no UUID does not count, seen with the real CLI)
_CONNECTOR = compile_lazily(r"connector-downloads[. ]*", re.IGNORECASE)
_UUID = r"[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}"
_SCRATCHPAD = compile_lazily(rf"(?:^|/)claude/(?:s/\d{{12}}|[^/]+/{_UUID})/scratchpad(?:/|$)")
# C18: device files and a process's own files (/proc/self/..., /proc/<pid>/...); /proc/version loads
_PROCESS = compile_lazily(r"^/(?:dev(?:/|$)|proc/(?:self|thread-self|\d+)(?:/|$))")


def special_folder(path: str) -> str | None:
    """Why a file in (or reached through) this path is skipped by 2.1.319+, else None."""
    if "scratchpad" not in path and ".artifact-work" not in path and "connector-downloads" not in path.lower():
        return None  # the common case, decided without splitting the path
    for part in path.split("/"):
        if _CONNECTOR.fullmatch(part):
            return "it is in a connector-downloads folder"
        if part == ".artifact-work":
            return "it is in a folder named .artifact-work"
    if _SCRATCHPAD.search(path):
        return "it is in a session's scratchpad"
    return None


def process_file(path: str) -> bool:
    """A device or process file that 2.1.332 does not read."""
    return path.startswith(("/dev", "/proc/")) and _PROCESS.match(path) is not None
