"""`memlint rules` and `memlint explain`: the rules' pages, read without importing the rules."""

from __future__ import annotations

import json
import sys
from typing import TYPE_CHECKING

import click

from memlint.commands.common import EXIT_ERROR, report_plugin_problems

if TYPE_CHECKING:
    from collections.abc import Sequence

    from memlint.rules import Rule
    from memlint.rules.catalog import Entry


def _rule_pages(report_plugins: bool) -> Sequence[Rule | Entry]:
    """Every registered rule for `rules` and `explain`: read from the rule modules' sources when
    only the built-in rules are registered (importing the rules costs more than the rest of the
    command), else imported as `check` does, reporting skipped plugins when asked."""
    from memlint.rules.catalog import builtin_entries

    entries = builtin_entries()
    if entries is not None:
        return entries
    from memlint.rules import all_rules

    rules = all_rules()
    if report_plugins:
        report_plugin_problems()
    return rules


@click.command("rules")
@click.option("--format", "fmt", type=click.Choice(["text", "json"]), default="text")
def list_rules(fmt: str) -> None:
    """List every rule: code, slug, severity, fix, summary."""
    rules = _rule_pages(report_plugins=True)
    if fmt == "json":
        click.echo(json.dumps([{"code": r.code, "slug": r.slug, "severity": r.meta.severity, "fix": r.meta.fix,
                                "summary": r.meta.summary, "default": r.meta.default} for r in rules], indent=1))
        return
    for r in rules:
        fixable = {"safe": "fix", "unsafe": "fix (unsafe)"}.get(r.meta.fix or "", "")
        opt_in = "" if r.meta.default else " (opt-in: --select it)"
        click.echo(f"{r.code}  {r.slug:<40} {r.meta.severity:<8} {fixable:<13} {r.meta.summary}{opt_in}")


@click.command()
@click.argument("rule")
def explain(rule: str) -> None:
    """Print a rule's page (by code or slug)."""
    from memlint.rules import pick_rule

    found = pick_rule(_rule_pages(report_plugins=False), rule)
    if found is None:
        click.echo(f"memlint: unknown rule {rule!r} (see `memlint rules`)", err=True)
        sys.exit(EXIT_ERROR)
    click.echo(f"# {found.code} {found.slug}\n\n{found.doc}")
