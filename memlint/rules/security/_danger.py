"""Standing instructions that are dangerous in every session, and how to tell them from prose that
forbids them."""

from __future__ import annotations

import bisect
import re
from collections.abc import Iterator

from memlint.lazy_regex import compile_lazily
from memlint.records import dataclass

_BROAD = r"(?:/\*?|~/?\*?|\$HOME/?\*?|\$\{HOME\}/?|\*|\.\./?\*?|\./?\*|\.)"
PATTERNS: tuple[tuple[str, re.Pattern[str]], ...] = tuple(
    (what, compile_lazily(pattern, re.IGNORECASE))
    for what, pattern in (
        ("pipes a download into a shell",
         r"\b(?:curl|wget)\b[^|\n`]{0,300}\|\s*(?:sudo\s+(?:-\w+\s+)*)?(?:ba|z|da|k)?sh\b(?!\.)"),
        ("pipes a download into PowerShell",
         r"\b(?:iwr|irm|invoke-webrequest|invoke-restmethod)\b[^|\n`]{0,300}\|\s*(?:iex|invoke-expression)\b"),
        ("deletes a broad path with `rm -rf`",
         (rf"\brm\s+(?:-[a-z]*r[a-z]*f[a-z]*|-[a-z]*f[a-z]*r[a-z]*|-r\s+-f|-f\s+-r|--recursive\s+--force|"
         rf"--force\s+--recursive)\s+(?:--no-preserve-root\s+)?[\"']?{_BROAD}[\"']?(?=[\s`;&|)\"']|$)")),
        ("skips git hooks with `--no-verify`", r"(?<![\w-])--no-verify(?![\w-])"),
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
_NEGATION = compile_lazily(
    r"\b(?:never|not|don'?ts?|doesn'?t|didn'?t|won'?t|shouldn'?t|mustn'?t|can'?t|cannot|avoid|avoiding|no|"
    r"forbid(?:den)?|prohibit(?:ed)?|disallow(?:ed)?|banned|without|instead\s+of|rather\s+than|refuse|block(?:s|ed)?|"
    r"deny|denied|stop|unless|except|prevent(?:s|ed)?|warn|dangerous|unsafe|risky|bad|wrong|anti-?patterns?|"
    r"blocks?|guard(?:s|ed)?|detect(?:s|ed)?|catch(?:es)?|flag(?:s|ged)?)\b|[❌🚫⛔✗✘]|\bNO\b|\bDON'T\b",
    re.IGNORECASE,
)
# After the match on its line: "`--no-verify` is forbidden", "| `rm -rf /` | ❌ |", "(never)".
_FORBIDDEN_AFTER = compile_lazily(
    r"[❌🚫⛔✗✘]|\b(?:forbidden|prohibited|not allowed|never|banned|blocked|disallowed|dangerous|do not|don't)\b",
    re.IGNORECASE,
)
_HEADING = compile_lazily(r"^\s{0,3}#{1,6}\s+(.*)$")


@dataclass(frozen=True)
class Danger:
    """A dangerous command or instruction found in a text, and where."""

    offset: int
    what: str


def _sentence_before(text: str, offset: int) -> str:
    line_start = text.rfind("\n", max(0, offset - 300), offset) + 1
    before = text[max(line_start, offset - 300) : offset]
    cut = max(before.rfind(". "), before.rfind("! "), before.rfind("? "))
    return before[cut + 1 :] if cut != -1 else before


def _after(text: str, end: int) -> str:
    """The rest of the line after `end` (at most 80 characters)."""
    return text[end : end + 80].split("\n", 1)[0]


_LIST_ITEM = compile_lazily(r"\s*(?:[-*+]|\d+[.)])\s")


def _governed(text: str) -> tuple[list[int], list[bool]]:
    """For each line (by its start offset): whether the heading, list intro or paragraph that
    governs it forbids (`## Don'ts`, `Never:`, `Forbidden commands:`). One pass over the text.

    List items, indented lines, code fences and the lines inside them inherit from the last heading
    or paragraph line above; a paragraph line forbids what follows only when it ends with `:`."""
    starts: list[int] = []
    forbids: list[bool] = []
    anchor = False
    fenced = False
    offset = 0
    for line in text.split("\n"):
        starts.append(offset)
        forbids.append(anchor)
        offset += len(line) + 1
        stripped = line.strip()
        if stripped.startswith(("```", "~~~")):
            fenced = not fenced
            continue
        if fenced or not stripped or _LIST_ITEM.match(line) or line.startswith((" ", "\t")):
            continue
        heading = _HEADING.match(line)
        if heading:
            anchor = _NEGATION.search(heading.group(1)) is not None
        else:
            anchor = stripped.endswith(":") and _NEGATION.search(stripped) is not None
    return starts, forbids


# Words one of which must be in the (lower-cased) text for each pattern to be tried at all.
GATES: dict[str, tuple[str, ...]] = {
    "pipes a download into a shell": ("curl", "wget"),
    "pipes a download into PowerShell": ("iex", "invoke-expression"),
    "deletes a broad path with `rm -rf`": ("rm ", "rm\t"),
    "skips git hooks with `--no-verify`": ("--no-verify",),
    "force-pushes to a main branch": ("push",),
    "turns off Claude Code's permission prompts": ("--dangerously-skip-permissions",),
    "tells the model to override its instructions": ("ignore", "disregard", "forget", "override"),
}


# The only letters besides ASCII that match an ASCII letter when case is ignored and do not lower-case
# to it one for one (`İ`, dotless `ı`, long `ſ`): a text holding one is searched the long way.
CASE_TRAPS = ("\u0130", "\u0131", "\u017f")


# Fewer scans before the gate words: a pipe needs a `|` in the text (a one-character `in` is the
# fastest scan there is), and a pattern that starts with fixed text (a fast scan) finds either
# spelling of `rm`, either flag, or three of the four verbs in the lower-cased text (by their `g`,
# rarer than their first letters; `override` by its `v`), where each gate word is a scan of its
# own. Every match of the `rm -rf`, flag and force-push patterns holds a `-` before a letter (`-rf`,
# `--force`, `-f`, `--no-verify`): one scan for `-[a-z]` rules all four out in most prose (its
# `---` and ` - ` included). That test is `_ASCII_AFTER_DASH`: a letter that matches an ASCII one
# when case is ignored and does not lower-case to it (`ſ`, dotless `ı`: `CASE_TRAPS`) would escape
# it, so a text holding one skips it. Patterns none of whose tests finds anything cannot match.
_ASCII_AFTER_DASH = compile_lazily("-[a-z]")
_FIRST: tuple[tuple[tuple[str | re.Pattern[str], ...], bool, tuple[str, ...]], ...] = (
    (("|",), False, ("pipes a download into a shell", "pipes a download into PowerShell")),
    ((_ASCII_AFTER_DASH,), True,
     ("deletes a broad path with `rm -rf`", "skips git hooks with `--no-verify`", "force-pushes to a main branch",
      "turns off Claude Code's permission prompts")),
    ((compile_lazily("rm[ \t]"),), True, ("deletes a broad path with `rm -rf`",)),
    ((compile_lazily("--(?:no-verify|dangerously-skip-permissions)"),), True,
     ("skips git hooks with `--no-verify`", "turns off Claude Code's permission prompts")),
    ((compile_lazily("g(?:(?<=ig)nore|(?<=disreg)ard|(?<=forg)et)"), compile_lazily("v(?<=ov)erride")), True,
     ("tells the model to override its instructions",)),
)


def candidates(text: str, lower: str) -> set[str]:
    """The patterns worth running: their gate words are in the lower-cased text (`GATES`) and no
    cheaper test rules them out (`_FIRST`)."""
    out = set(GATES)
    trapped = not text.isascii() and any(trap in text for trap in CASE_TRAPS)
    for tests, in_lower, whats in _FIRST:
        if out.isdisjoint(whats):
            continue  # ruled out already: no need to scan again
        where = lower if in_lower else text
        for test in tests:  # (a plain loop: this runs for every file, a generator costs more)
            if isinstance(test, str):
                if test in where:
                    break
            elif trapped and test is _ASCII_AFTER_DASH or test.search(where) is not None:
                break  # (a trapped text cannot rule anything out: see `_ASCII_AFTER_DASH`)
        else:
            out.difference_update(whats)
    return {what for what in out if any(word in lower for word in GATES[what])}


# The words every match of each pattern starts with. The patterns ignore case and open with `\b` or a
# cased letter, so their own search tries every offset of the text; `matches` tries them only where
# one of these words stands in the lower-cased text.
STARTS: dict[str, tuple[str, ...]] = {
    "pipes a download into a shell": ("curl", "wget"),
    "pipes a download into PowerShell": ("iwr", "irm", "invoke-"),
    "deletes a broad path with `rm -rf`": ("rm",),
    "skips git hooks with `--no-verify`": ("--no-verify",),
    "force-pushes to a main branch": ("git",),
    "turns off Claude Code's permission prompts": ("--dangerously-skip-permissions",),
    "tells the model to override its instructions": ("ignore", "disregard", "forget", "override"),
}


def matches(pattern: re.Pattern[str], text: str, lower: str, words: tuple[str, ...]) -> Iterator[re.Match[str]]:
    """`pattern.finditer(text)` for a pattern whose every match starts with one of `words` (in any
    case), tried only where one of them stands in `lower` (`text.lower()`)."""
    if len(lower) != len(text) or not text.isascii() and any(trap in text for trap in CASE_TRAPS):
        yield from pattern.finditer(text)
        return
    starts: set[int] = set()
    most = len(text) // 16 + 16  # past this many places, the pattern's own search is faster
    for word in words:
        at = lower.find(word)
        while at != -1:
            starts.add(at)
            if len(starts) > most:
                yield from pattern.finditer(text)
                return
            at = lower.find(word, at + 1)
    end = 0
    for at in sorted(starts):
        if at < end:
            continue
        match = pattern.match(text, at)
        if match is not None:
            yield match
            end = match.end()


def dangers(text: str) -> Iterator[Danger]:
    """Every dangerous standing instruction that no surrounding word forbids."""
    seen: set[int] = set()
    governed: tuple[list[int], list[bool]] | None = None
    lower = text.lower()
    worth = candidates(text, lower)
    for what, pattern in PATTERNS:
        if what not in worth:
            continue
        for match in matches(pattern, text, lower, STARTS[what]):
            governed = governed or _governed(text)
            index = bisect.bisect_right(governed[0], match.start()) - 1
            if index in seen:
                continue
            if _NEGATION.search(_sentence_before(text, match.start())):
                continue
            if _FORBIDDEN_AFTER.search(_after(text, match.end())):
                continue
            if governed[1][index]:
                continue
            seen.add(index)
            yield Danger(match.start(), what)
