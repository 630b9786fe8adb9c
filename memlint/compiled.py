"""What Python compiles again in every process, kept once per user: the methods `dataclass`
generates (memlint.records) and memlint's regular expressions (memlint.lazy_regex).

Python keeps each module's bytecode in `__pycache__`, but not the code a module makes while it
runs. Before Python 3.13 the standard `dataclass` compiles each generated method with an `exec` of
its source text, and `re` parses and compiles each pattern in Python code. On a check of bigtree
that was 21 ms of a 370 ms run (57 methods, 81 patterns), the same in every run; read back, 2.5
ms. Here both are kept in one table in the user's cache folder, beside the tokenizer's rank table
(`FOLDER`, found through `FOLDER_OF` as the command line sets it, once something is compiled: never
a project's folder, never inside Claude Code's), and read once per process:

- a method's code object, by the exact source text `dataclasses` would compile. It is compiled as
  that `exec` compiles it: no future flags inherited from memlint's modules.
- a pattern's program, by the pattern and its flags: what `re` hands to `_sre.compile` (flags, code,
  group count, group names). `_sre.compile` validates a program before it makes a pattern of it,
  and a program is kept only when the pattern made from it equals `re.compile`'s (same flags and
  code).

The table's file is named after this Python (its version and build) and this memlint, and holds a
checksum: a table from another Python, one cut short, or any file that is not the user's own
regular file, is ignored. What a process compiled that the table lacked is added at the end of the
run (`store`: a temporary file, renamed). Without a folder (memlint used as a library, the tests)
nothing is read or written, and everything is compiled as Python compiles it.
"""

from __future__ import annotations

import marshal
import os
import stat
import sys
import zlib

from memlint import __version__
from memlint.new_files import open_new

TYPE_CHECKING = False  # typing itself is not imported (it imports `re`): a replay must start fast
if TYPE_CHECKING:
    import re
    from collections.abc import Callable
    from typing import Any

# `re` and `array` are imported by the functions that use them: a replayed run (memlint.cache)
# starts here and needs neither.

FOLDER: str | None = None  # the user's cache folder, when the command line allows one
FOLDER_OF: Callable[[], str | None] | None = None  # or how to find it, asked only once something is compiled
FORMAT = 1  # the layout of a table: a table of another layout is never read
MAX_BYTES = 8 * 1024 * 1024  # a table larger is not read; one past half of it keeps what one run used
PREFIX = "compiled-"

_kept: dict[Any, Any] | None = None  # the table read from FOLDER (empty when there is none)
_added: dict[Any, Any] = {}  # what this process compiled that the table lacked
_used: set[Any] = set()  # the table's entries this process used


def file_name() -> str:
    """The table's file name: this Python (version, build, bytecode tag) and this memlint."""
    identity = repr((sys.version, sys.implementation.cache_tag, marshal.version, __version__, FORMAT))
    raw = identity.encode("utf-8", "surrogateescape")
    return f"{PREFIX}{zlib.crc32(raw):08x}{zlib.adler32(raw):08x}.marshal"


def _folder() -> str | None:
    """FOLDER, found by FOLDER_OF the first time it is asked for (a replayed run never asks)."""
    global FOLDER, FOLDER_OF
    if FOLDER is None and FOLDER_OF is not None:
        find, FOLDER_OF = FOLDER_OF, None
        try:
            FOLDER = find()
        except (OSError, ValueError):  # (no current folder to resolve a relative HOME against): no table
            FOLDER = None
    return FOLDER


def _table() -> dict[Any, Any]:
    global _kept
    if _kept is None:
        _kept = _read() if _folder() is not None else {}
    return _kept


def _read() -> dict[Any, Any]:
    assert FOLDER is not None
    try:
        fd = os.open(os.path.join(FOLDER, file_name()), os.O_RDONLY | getattr(os, "O_NOFOLLOW", 0))
    except OSError:
        return {}
    try:
        st = os.fstat(fd)
        if not stat.S_ISREG(st.st_mode) or st.st_size > MAX_BYTES or st.st_mode & 0o022 or (
                hasattr(os, "getuid") and st.st_uid != os.getuid()):
            return {}  # not the user's own file, or others may write it
        with os.fdopen(fd, "rb") as handle:
            fd = -1
            raw = handle.read(MAX_BYTES + 1)
        layout, checksum, payload = marshal.loads(raw)
        if layout != FORMAT or not isinstance(payload, bytes) or zlib.crc32(payload) != checksum:
            return {}
        table = marshal.loads(payload)
        return table if isinstance(table, dict) else {}
    except (OSError, EOFError, ValueError, TypeError):
        return {}
    finally:
        if fd >= 0:
            os.close(fd)


_CODE_TYPE = type(file_name.__code__)


def method_code(source: str) -> Any:
    """The code object of `source` as `exec(source, ...)` in `dataclasses` compiles it."""
    key = ("fn", source)
    kept = _table().get(key)
    if kept is not None:
        try:
            code = marshal.loads(kept)
            if isinstance(code, _CODE_TYPE):
                _used.add(key)
                return code
        except (EOFError, ValueError, TypeError):
            pass
    code = compile(source, "<string>", "exec", dont_inherit=True)
    if _folder() is not None:
        _added[key] = marshal.dumps(code)
    return code


def regex(pattern: str | bytes, flags: int | re.RegexFlag = 0) -> re.Pattern[Any]:
    """`re.compile(pattern, flags)`, from the kept program when there is one."""
    import re
    from array import array

    flags = int(flags)  # a `re.RegexFlag` is no key marshal can keep
    key = ("re", pattern, flags)
    kept = _table().get(key)
    if kept is not None:
        import _sre  # type: ignore[import-not-found]

        try:
            final_flags, code, groups, groupindex, indexgroup = marshal.loads(kept)
            made = _sre.compile(pattern, final_flags, array("I", code).tolist(), groups, groupindex, indexgroup)
            _used.add(key)
            return made  # type: ignore[no-any-return]
        except (EOFError, ValueError, TypeError, RuntimeError):
            pass  # not a program this Python accepts: compiled below as re compiles it
    compiled = re.compile(pattern, flags)
    if _folder() is not None:
        program = _program(pattern, flags)
        if program is not None and program[1] == compiled:
            _added[key] = marshal.dumps(program[0])
    return compiled


def _program(pattern: str | bytes, flags: int) -> tuple[tuple[Any, ...], re.Pattern[Any]] | None:
    """What `re`'s compiler hands to `_sre.compile` for `pattern` (the same steps as its
    `compile`), and the pattern made of it; None when this Python's `re` has other insides."""
    from array import array

    try:
        if sys.version_info >= (3, 11):
            from re import _compiler, _parser
        else:
            import sre_compile as _compiler
            import sre_parse as _parser
        import _sre

        parsed = _parser.parse(pattern, flags)  # type: ignore[arg-type]
        code = _compiler._code(parsed, flags)  # type: ignore[attr-defined]
        groupindex = parsed.state.groupdict
        indexgroup: list[str | None] = [None] * parsed.state.groups
        for name, index in groupindex.items():
            indexgroup[index] = name
        words = array("I", code)  # 32 bits a word, as `_sre` keeps them (its opcodes are int subclasses)
        if words.itemsize != 4:
            return None
        program = (int(flags | parsed.state.flags), words.tobytes(), int(parsed.state.groups - 1),
                   dict(groupindex), tuple(indexgroup))
        return program, _sre.compile(pattern, program[0], words.tolist(), *program[2:])
    except Exception:  # noqa: BLE001 - any change in re's insides: the pattern is simply not kept
        return None


def store() -> None:
    """Add what this process compiled to the table in FOLDER (best effort: a folder that cannot be
    written keeps the table it has)."""
    global _kept
    folder = _folder() if _added else None
    if folder is None:
        return
    table = {**_table(), **_added}
    try:
        payload = marshal.dumps(table)
        if len(payload) > MAX_BYTES // 2:  # grown past its bound: what this process used stays
            table = {key: value for key, value in table.items() if key in _used or key in _added}
            payload = marshal.dumps(table)
    except ValueError:
        return  # something marshal cannot hold: nothing is kept
    target = os.path.join(folder, file_name())
    temporary = f"{target}.{os.getpid()}.tmp"
    try:
        os.makedirs(folder, mode=0o700, exist_ok=True)  # (a run that keeps no run cache, `memlint hook`)
        with open_new(temporary, 0o600) as handle:
            marshal.dump((FORMAT, zlib.crc32(payload), payload), handle)
        os.replace(temporary, target)
    except OSError:
        try:
            os.unlink(temporary)
        except OSError:
            pass
        return
    _added.clear()
    _kept = table
