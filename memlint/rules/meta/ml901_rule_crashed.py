"""A rule crashed while checking; its findings for this run are missing.

## What it does
The engine runs every rule, built-in or from a plugin, inside a guard. When a rule raises, the run
goes on and this problem is reported instead, naming the rule, the exception and where it was raised,
on the file the rule was looking at (a rule that checks file by file; its findings on the files
after it are missing too), else on the run's first file. The engine emits it itself; the rule's
`check` has nothing to look for.

## Why is this bad?
A crashed rule checked nothing, so a clean result would be a lie: the tree may hold exactly the
problems that rule exists to find. Report it to the rule's author with the message.

## Example
```md CLAUDE.md
# Project
```

Use instead:
```md CLAUDE.md
# Project
```
(This problem comes from the engine, not from a file's text: neither tree triggers it.)
"""

from __future__ import annotations

from collections.abc import Iterator

from memlint.model.run.rule_context import RuleContext
from memlint.rules import RuleMeta
from memlint.violations import Finding

META = RuleMeta("ML901", "rule-crashed", "error", "A rule crashed; its findings are missing")


def check(ctx: RuleContext) -> Iterator[Finding]:
    """The engine reports crashes (see memlint.engine.run_rules); files never trigger this."""
    return iter(())
