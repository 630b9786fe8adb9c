"""`.gitignore` and `.ignore` files, read the way git reads them (never by running git): each file's
patterns are relative to its folder, deeper files override shallower ones, an ignored folder is never
entered, and the folders above a checked root count up to the repository's top (the folder with `.git`),
with `.git/info/exclude` first."""

from __future__ import annotations

import re
import warnings
from collections.abc import Collection, Iterable
from pathlib import Path
from typing import TYPE_CHECKING

from memlint.model.source.files import read_file
from memlint.records import dataclass

if TYPE_CHECKING:
    import pathspec

IGNORE_FILES = (".gitignore", ".ignore")


@dataclass(frozen=True)
class _Layer:
    """The ignore files of one folder, compiled, and the folder they apply from."""

    base: Path
    spec: pathspec.GitIgnoreSpec


def _read_layer(base: Path, files: tuple[Path, ...]) -> _Layer | None:
    lines: list[str] = []
    for file in files:
        data = read_file(file)  # a regular file up to 4 MiB: never a FIFO, a device or /dev/zero
        if isinstance(data, bytes):
            lines += data.decode("utf-8", errors="replace").splitlines()
    if not any(line.strip() and not line.lstrip().startswith("#") for line in lines):
        return None
    return _Layer(base, gitignore_spec(lines))


def gitignore_spec(lines: Iterable[str]) -> pathspec.GitIgnoreSpec:
    """`lines` compiled as git reads an ignore file. A line git takes for no pattern (a lone `!`, a
    pattern ending in an unescaped `\\`) matches nothing, and is skipped as git skips it; a line
    with a character range written backwards (`[z-a]`), which pathspec cannot compile, is skipped
    too (git matches the range's first character alone: memlint then checks a file git ignores).
    Such a line never stops the run."""
    import pathspec  # only when there are patterns (keeps the cold start light)

    lines = list(lines)
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")  # Python's `FutureWarning: Possible nested set` on `[[`
            return pathspec.GitIgnoreSpec.from_lines(lines)
    except (ValueError, re.error):
        return pathspec.GitIgnoreSpec.from_lines([line for line in lines if is_gitignore_pattern(line)])


def is_gitignore_pattern(line: str) -> bool:
    """Whether `line` is a pattern memlint matches with, or a blank or comment line (see `gitignore_spec`)."""
    import pathspec

    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            pathspec.GitIgnoreSpec.from_lines([line])
    except (ValueError, re.error):
        return False
    return True


@dataclass(frozen=True)
class IgnoreRules:
    """The ignore files in force for one folder: its own and those of every folder above it in the repository."""

    layers: tuple[_Layer, ...] = ()

    @classmethod
    def for_root(cls, root: Path) -> IgnoreRules:
        """The rules at `root`: the ignore files of its parents up to the repository's top (none when
        `root` is in no git repository), then its own."""
        root = root.absolute()
        chain: list[Path] = []
        for folder in (root, *root.parents):
            chain.append(folder)
            if (folder / ".git").exists():
                break
        else:
            chain = [root]
        rules = cls()
        top = chain[-1]
        exclude = top / ".git" / "info" / "exclude"
        if exclude.is_file():
            layer = _read_layer(top, (exclude,))
            rules = cls(rules.layers + ((layer,) if layer else ()))
        for folder in reversed(chain):
            rules = rules.descend(folder)
        return rules

    def descend(self, folder: Path, names: Collection[str] | None = None) -> IgnoreRules:
        """The rules inside `folder`: these plus the folder's own ignore files (`names`: the folder's
        file names when the caller has listed it already)."""
        present = [name for name in IGNORE_FILES if (name in names if names is not None else (folder / name).is_file())]
        if not present:
            return self
        layer = _read_layer(folder, tuple(folder / name for name in present))
        return IgnoreRules(self.layers + (layer,)) if layer else self

    def ignored(self, path: Path, is_dir: bool) -> bool:
        """Whether `path` (below every layer's folder) is ignored; the deepest matching pattern decides."""
        verdict: bool | None = None
        for layer in self.layers:
            try:
                rel = path.relative_to(layer.base).as_posix()
            except ValueError:
                continue
            result = layer.spec.check_file(rel + "/" if is_dir else rel)
            if result.include is not None:
                verdict = result.include
        return bool(verdict)
