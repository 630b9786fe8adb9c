"""Drive the real Claude Code (through ../shared/oracle/cc_oracle.py's mock API) through a session,
`/compact` and one more prompt, and report which memory files are in the first request after the
compaction: in the start-up instructions block, as re-attached reads, or not at all.

    python -m tests.compaction.driver > tests/compaction/after_compact_2.1.332.json   # re-record
"""

from __future__ import annotations

import http.server
import json
import os
import subprocess
import sys
import tempfile
import threading
from pathlib import Path
from typing import Any

ORACLE_DIR = Path(__file__).resolve().parents[3] / "shared" / "oracle"
HEADER = "Codebase and user instructions are shown below."

# (path relative to the tree or to the auto-memory folder, text with a unique marker)
TREE = {
    "CLAUDE.md": "# Root memory\n\nROOT-MARKER\n",
    "packages/api/CLAUDE.md": "# API memory\n\nNESTED-MARKER\n",
    "packages/api/x.py": "print('CODE-MARKER')\n",
    ".claude/rules/py.md": "---\npaths: ['**/*.py']\n---\nRULE-MARKER\n",
}
MEMORY = {
    "MEMORY.md": "# Memory\n\n- [Deploy](deploy.md) — MEMINDEX-MARKER\n",
    "deploy.md": "---\nname: Deploy\ndescription: d\nmetadata:\n  type: project\n---\n\nTOPIC-MARKER\n",
}
READS = ("packages/api/x.py", "@memory/deploy.md")  # what Claude reads before the compaction


def _texts(request: dict[str, Any]) -> list[str]:
    out: list[str] = []
    for message in request.get("messages", []):
        content = message.get("content")
        for part in [{"text": content}] if isinstance(content, str) else content or []:
            if isinstance(part, dict):
                out.append(part.get("text") or json.dumps(part.get("content", "")))
    return out


def observe(workdir: Path) -> dict[str, Any]:
    sys.path.insert(0, str(ORACLE_DIR))
    import cc_oracle  # type: ignore[import-not-found]

    tree, home = workdir / "tree", workdir / "home"
    for rel, text in TREE.items():
        (tree / rel).parent.mkdir(parents=True, exist_ok=True)
        (tree / rel).write_text(text, encoding="utf-8")
    real_tree = os.path.realpath(tree)
    from memlint.api import context

    memory = context(real_tree, home=os.path.realpath(home)).loaded.automem_dir  # where Claude Code looks
    memory.mkdir(parents=True)
    for rel, text in MEMORY.items():
        (memory / rel).write_text(text, encoding="utf-8")
    binary = cc_oracle.claude_binary()
    mock = cc_oracle._Mock
    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), mock)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    env = {k: v for k, v in os.environ.items() if not k.startswith(("ANTHROPIC_", "CLAUDE"))}
    env.update(HOME=os.path.realpath(home), ANTHROPIC_API_KEY="sk-ant-oracle",
               ANTHROPIC_BASE_URL=f"http://127.0.0.1:{server.server_address[1]}",
               CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC="1", DISABLE_TELEMETRY="1", DISABLE_AUTOUPDATER="1")

    def run(prompt: str, *args: str, reads: tuple[str, ...] = ()) -> list[dict[str, Any]]:
        mock.captured.clear()
        mock.read_paths = [str(memory / r[len("@memory/"):]) if r.startswith("@memory/") else f"{real_tree}/{r}"
                           for r in reads]
        mock.answered = 0
        done = subprocess.run([binary, "-p", prompt, "--output-format", "json", *args], cwd=real_tree, env=env,
                              capture_output=True, text=True, timeout=180, stdin=subprocess.DEVNULL, check=False)
        if done.returncode != 0:
            raise RuntimeError(f"claude exited {done.returncode}: {done.stderr[-500:]}")
        return list(mock.captured)

    try:
        run("hello", reads=READS)
        run("/compact", "--continue")
        after = run("hello again", "--continue")[0]
    finally:
        server.shutdown()
    texts = _texts(after)
    block = next((t for t in texts if HEADER in t), "")
    result: dict[str, list[str]] = {"start_block": [], "reattached_read": [], "absent": []}
    files = {**TREE, **{"@memory/" + name: text for name, text in MEMORY.items()}}
    for rel, text in sorted(files.items()):
        marker = next(word.strip("'()") for word in text.split() if "MARKER" in word)
        if marker in block:
            result["start_block"].append(rel)
        elif any(marker in t and "Result of calling the Read tool" in t for t in texts):
            result["reattached_read"].append(rel)
        else:
            result["absent"].append(rel)
    return {"claude_code": cc_oracle.VERSION, **result}


if __name__ == "__main__":
    with tempfile.TemporaryDirectory() as where:
        print(json.dumps(observe(Path(where)), indent=1))
