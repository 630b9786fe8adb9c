"""Standing instructions that are dangerous in every session, and how to tell them from prose that
forbids them."""

from __future__ import annotations

import re
from collections.abc import Iterator
from dataclasses import dataclass

_BROAD = r"(?:/\*?|~/?\*?|\$HOME/?\*?|\$\{HOME\}/?|\*|\.\./?\*?|\./?\*|\.)"
PATTERNS: tuple[tuple[str, re.Pattern[str]], ...] = tuple(
    (what, re.compile(pattern, re.IGNORECASE))
    for what, pattern in (
        ("pipes a download into a shell",
         r"\b(?:curl|wget)\b[^|\n`]{0,300}\|\s*(?:sudo\s+(?:-\w+\s+)*)?(?:ba|z|da|k)?sh\b(?!\.)"),
        ("pipes a download into PowerShell",
         r"\b(?:iwr|irm|invoke-webrequest|invoke-restmethod)\b[^|\n`]{0,300}\|\s*(?:iex|invoke-expression)\b"),
        ("deletes a broad path with `rm -rf`",
         (rf"\brm\s+(?:-[a-z]*r[a-z]*f[a-z]*|-[a-z]*f[a-z]*r[a-z]*|-r\s+-f|-f\s+-r|--recursive\s+--force|"
         rf"--force\s+--recursive)\s+(?:--no-preserve-root\s+)?[\"']?{_BROAD}[\"']?(?=[\s`;&|)\"']|$)")),
        ("skips git hooks with `--no-verify`", r"(?<![\w-])--no-verify\b"),
        ("force-pushes to a main branch",
         (r"\bgit\s+push\b[^\n`;&|]{0,80}?(?:\s--force(?![\w-])|\s-f\b)[^\n`;&|]{0,80}?\b(?:main|master)\b|"
         r"\bgit\s+push\b[^\n`;&|]{0,80}?\b(?:main|master)\b[^\n`;&|]{0,40}?(?:\s--force(?![\w-])|\s-f\b)")),
        ("turns off Claude Code's permission prompts", r"--dangerously-skip-permissions\b"),
        ("tells the model to override its instructions",
         (r"\b(?:ignore|disregard|forget|override)\s+(?:all\s+|any\s+)?(?:of\s+)?(?:the\s+|your\s+)?"
         r"(?:previous|prior|above|earlier|preceding|system|user'?s?)\s+(?:instructions|prompts?|rules|messages?|"
         r"guidelines|directions)\b|\bdisregard\s+(?:the\s+)?(?:system\s+prompt|user)\b")),
    )
)

# A forbidding word earlier in the sentence, or a heading / list intro that forbids.
_NEGATION = re.compile(
    r"\b(?:never|not|don'?ts?|doesn'?t|didn'?t|won'?t|shouldn'?t|mustn'?t|can'?t|cannot|avoid|avoiding|no|"
    r"forbid(?:den)?|prohibit(?:ed)?|disallow(?:ed)?|banned|without|instead\s+of|rather\s+than|refuse|block(?:s|ed)?|"
    r"deny|denied|stop|unless|except|prevent(?:s|ed)?|warn|dangerous|unsafe|risky|bad|wrong|anti-?patterns?|"
    r"blocks?|guard(?:s|ed)?|detect(?:s|ed)?|catch(?:es)?|flag(?:s|ged)?)\b|[❌🚫⛔✗✘]|\bNO\b|\bDON'T\b",
    re.IGNORECASE,
)
# After the match on its line: "`--no-verify` is forbidden", "| `rm -rf /` | ❌ |", "(never)".
_FORBIDDEN_AFTER = re.compile(
    r"[❌🚫⛔✗✘]|\b(?:forbidden|prohibited|not allowed|never|banned|blocked|disallowed|dangerous|do not|don't)\b",
    re.IGNORECASE,
)
_HEADING = re.compile(r"^\s{0,3}#{1,6}\s+(.*)$")


@dataclass(frozen=True)
class Danger:
    offset: int
    what: str


def _sentence_before(text: str, offset: int) -> str:
    line_start = text.rfind("\n", 0, offset) + 1
    before = text[line_start:offset]
    cut = max(before.rfind(". "), before.rfind("! "), before.rfind("? "))
    return before[cut + 1 :] if cut != -1 else before


def _after(text: str, end: int) -> str:
    line_end = text.find("\n", end)
    return text[end : line_end if line_end != -1 else len(text)]


def _context_forbids(text: str, offset: int) -> bool:
    """The nearest heading above, or the line that introduces the list or block holding the match,
    forbids (`## Don'ts`, `Never:`, `Forbidden commands:`)."""
    lines = text[:offset].split("\n")
    current = lines.pop() if lines else ""
    in_list = bool(re.match(r"\s*(?:[-*+]|\d+[.)])\s", current)) or current.startswith((" ", "\t"))
    for line in reversed(lines[-40:]):
        heading = _HEADING.match(line)
        if heading:
            return _NEGATION.search(heading.group(1)) is not None
        stripped = line.strip()
        if not stripped:
            continue
        if re.match(r"(?:[-*+]|\d+[.)])\s", stripped) or line.startswith((" ", "\t")) or stripped.startswith("```"):
            continue  # a sibling list item or a code line: keep looking for the intro
        if in_list or stripped.endswith(":"):
            return stripped.endswith(":") and _NEGATION.search(stripped) is not None
        return False
    return False


def dangers(text: str) -> Iterator[Danger]:
    """Every dangerous standing instruction that no surrounding word forbids."""
    seen: set[int] = set()
    for what, pattern in PATTERNS:
        for match in pattern.finditer(text):
            line_start = text.rfind("\n", 0, match.start()) + 1
            if line_start in seen:
                continue
            if _NEGATION.search(_sentence_before(text, match.start())):
                continue
            if _FORBIDDEN_AFTER.search(_after(text, match.end())[:80]):
                continue
            if _context_forbids(text, match.start()):
                continue
            seen.add(line_start)
            yield Danger(match.start(), what)
