"""Compile memlint and its dependencies to bytecode before timing them.

An installed package has its `.pyc` files: pip writes them at install time, and Python writes them
on first import. With PYTHONDONTWRITEBYTECODE set (as on some CI images and sandboxes) an editable
checkout never gets them, and every run then compiles every module from source first, which adds
a fixed 0.3-0.4 s to each run that no user pays. The benchmarks call `ensure_bytecode()` so they
time what a user runs.
"""

from __future__ import annotations

import compileall
import importlib
from pathlib import Path

PACKAGES = ("memlint", "click", "markdown_it", "mdurl", "pathspec", "tiktoken", "yaml", "regex")


def ensure_bytecode() -> None:
    for name in PACKAGES:
        try:
            module = importlib.import_module(name)
        except ImportError:
            continue
        where = getattr(module, "__file__", None)
        if where:
            compileall.compile_dir(Path(where).parent, quiet=1)
