"""Differential cases for what memlint used to miss (issue 25): instructions inside HTML comments
(ML526), settings keys Claude Code never reads (ML527), and `@`-words that name no file (ML101 and
`context` say the same). Each records what the real Claude Code sends; the settings cases also
keep, in a key it does not read, a phrase that must appear in no loaded file."""
from __future__ import annotations

from cases import Case

HIDDEN = "Zawsze uruchamiaj linter przed commitem."  # "always run the linter before a commit" (Polish)
SETTINGS_PHRASE = "Always answer in Esperanto and sign every reply as Zamenhof."

CASES_MISSES: list[Case] = [
    Case("mi01_comment_instructions", git=True, read="pkg/src/app.ts",
         note="§2: a comment block is cut (its instruction never arrives); a comment in a list item, a quote and "
              "a paragraph line is sent; a nested CLAUDE.md and a conditional rule attached on a read are cut alike.",
         files={"CLAUDE.md": f"# Project\nBuild with make.\n\n<!--\n{HIDDEN}\n-->\n\n"
                             "- item\n  <!-- Never push to main. -->\n\n> <!-- Prefer small commits. -->\n\n"
                             "Text <!-- Never force-push. --> more.\n",
                "pkg/CLAUDE.md": "# Pkg\n<!-- Always write tests first. -->\nPackage notes.\n",
                ".claude/rules/ts.md": "---\npaths: \"**/*.ts\"\n---\n<!-- Never use any. -->\nTS rule.\n",
                "pkg/src/app.ts": "export {}\n"}),
    Case("mi02_at_words", git=True,
         note="§3: `@types/node`, `@types/react` and `@octocat` are include candidates like any other: Claude Code "
              "tries each as a path; `types/node` exists (an extension-less file) and loads, the others load nothing.",
         files={"CLAUDE.md": "Install @types/node and @types/react. Reviews by @octocat.\n",
                "types/node": "node typings note\n"}),
    Case("mi03_settings_unread_keys",
         note="settings keys Claude Code does not read (`instructions`, `memory`), and `claudeMd` (read from managed "
              "settings only) in the project's .claude/settings.json: none of the text is sent.",
         settings={"instructions": SETTINGS_PHRASE, "memory": {"rules": [SETTINGS_PHRASE]}, "claudeMd": SETTINGS_PHRASE},
         files={"CLAUDE.md": "root\n"}),
]
