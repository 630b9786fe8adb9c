"""`node_dirname` is Node's `path.posix.dirname` (claudeMdExcludes resolve the folder it gives)."""

from __future__ import annotations

import json
import random
import shutil
import subprocess

import pytest

from memlint.model.cli_js.jstext import node_dirname

# printed by Node 18 (`require("path").posix.dirname`)
KNOWN = {"/a//b": "/a/", "/a/b/": "/a", "/a/b": "/a", "/a": "/", "/": "/", "//a": "//", "a": ".", "a/b": "a",
         "//": "/", "/a/b//": "/a", "": ".", "///a/b": "///a", "/tmp/x//p//CLAUDE.md": "/tmp/x//p/",
         "/tmp/link/": "/tmp", "./a": ".", "../": ".", "a//": "."}


@pytest.mark.parametrize(("path", "folder"), sorted(KNOWN.items()))
def test_known_folders(path: str, folder: str) -> None:
    assert node_dirname(path) == folder


def _random_paths(seed: int, shortest: int) -> list[str]:
    rng = random.Random(seed)
    return ["".join(rng.choice(["/", "/", "a", ".", "..", "bc"]) for _ in range(rng.randint(shortest, 9)))
            for _ in range(3000)]


def _node(function: str, paths: list[str]) -> list[str]:
    """Node's `path.posix.<function>` of each path."""
    script = 'const p=require("path").posix;const a=JSON.parse(require("fs").readFileSync(0,"utf8"));' \
             f'process.stdout.write(JSON.stringify(a.map((x)=>p.{function}(x))))'
    done = subprocess.run(["node", "-e", script], input=json.dumps(paths), capture_output=True, text=True, check=True)
    found: list[str] = json.loads(done.stdout)
    return found


@pytest.mark.skipif(shutil.which("node") is None, reason="Node is not installed here")
def test_the_same_as_node_on_random_paths() -> None:
    paths = _random_paths(7, 0)
    assert [node_dirname(p) for p in paths] == _node("dirname", paths)


@pytest.mark.skipif(shutil.which("node") is None, reason="Node is not installed here")
def test_node_normalize_is_nodes_but_for_a_trailing_slash() -> None:
    from memlint.model.cli_js.jstext import node_normalize

    paths = _random_paths(11, 1)
    for path, node in zip(paths, _node("normalize", paths)):
        ours = node_normalize(path)
        assert ours == (node.rstrip("/") or node), (path, ours, node)
