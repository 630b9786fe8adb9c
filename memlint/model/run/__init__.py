"""What a rule sees of one run: the `RuleContext` and the facts derived once from the loading for rules.

Owns: `rule_context` (the context a rule reads: files, loads, documents, options), `include_problems`
(one classification of every include Claude Code did not load) and `memory_identity` (whether a
MEMORY.md is Claude Code's auto-memory index or only shares the name).

May import: every other part of `memlint.model`. Imported by the rules and the layers above them.
"""
