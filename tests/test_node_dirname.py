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


@pytest.mark.skipif(shutil.which("node") is None, reason="Node is not installed here")
def test_the_same_as_node_on_random_paths() -> None:
    rng = random.Random(7)
    paths = ["".join(rng.choice(["/", "/", "a", ".", "..", "bc"]) for _ in range(rng.randint(0, 9))) for _ in range(3000)]
    script = 'const p=require("path").posix;const a=JSON.parse(require("fs").readFileSync(0,"utf8"));' \
             'process.stdout.write(JSON.stringify(a.map((x)=>p.dirname(x))))'
    done = subprocess.run(["node", "-e", script], input=json.dumps(paths), capture_output=True, text=True, check=True)
    assert [node_dirname(p) for p in paths] == json.loads(done.stdout)


@pytest.mark.skipif(shutil.which("node") is None, reason="Node is not installed here")
def test_node_normalize_is_nodes_but_for_a_trailing_slash() -> None:
    from memlint.model.cli_js.jstext import node_normalize

    rng = random.Random(11)
    paths = ["".join(rng.choice(["/", "/", "a", ".", "..", "bc"]) for _ in range(rng.randint(1, 9))) for _ in range(3000)]
    script = 'const p=require("path").posix;const a=JSON.parse(require("fs").readFileSync(0,"utf8"));' \
             'process.stdout.write(JSON.stringify(a.map((x)=>p.normalize(x))))'
    done = subprocess.run(["node", "-e", script], input=json.dumps(paths), capture_output=True, text=True, check=True)
    for path, node in zip(paths, json.loads(done.stdout)):
        ours = node_normalize(path)
        assert ours == (node.rstrip("/") or node), (path, ours, node)
