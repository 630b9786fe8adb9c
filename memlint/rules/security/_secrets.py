"""Secret detectors: known token shapes, private key blocks, JWTs, passwords in URLs and high-entropy
values assigned to secret-like names, with the filters that keep documentation examples out.

A match is only ever shown masked (`mask`): its kind, its first four characters and its length.
"""

from __future__ import annotations

import base64
import binascii
import bisect
import itertools
import json
import math
import re
import string
from collections import Counter
from collections.abc import Iterator

from memlint.lazy_regex import compile_lazily
from memlint.records import dataclass
from memlint.rules.security._text import MAX_PER_FILE


@dataclass(frozen=True)
class Secret:
    """A secret found in a text: its kind, where it starts, and its value (never printed)."""

    kind: str
    start: int  # offset in the text
    value: str  # never printed; `masked` is

    @property
    def masked(self) -> str:
        if self.value.startswith("-----"):
            return f"({self.value.count(chr(10)) - 1} lines)"
        if self.value.startswith("PuTTY"):
            return f"({self.value.count(chr(10)) + 1} lines)"
        return mask(self.value)


def mask(value: str) -> str:
    """`ghp_…` (40 chars): the first four characters and the length, nothing else."""
    return f"`{value[:4]}…` ({len(value)} chars)"


# Marks of a stand-in, by shape (no words: memory is written in every language): `***`, an ellipsis,
# a fill-in (`<...>`, `{...}`), a variable or command reference (`$(...)`, `$VAR`, `%VAR%`).
_PLACEHOLDER = compile_lazily(r"\*\*\*|\.\.\.|…|<|>|\{|\}|\$\(|\$[A-Z_]|%[A-Z_]+%")
# Values that documentation publishes as examples (AWS's keys, GitHub's token in its docs, the UUID
# of RFC 4122's example).
_DOC_VALUES = frozenset({
    "AKIAIOSFODNN7EXAMPLE",
    "wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY",
    "ghp_16C7e42F292c6912E7710c838347Ae178B4a",
})
_DOC_PARTS = ("123e4567",)
_LEET = str.maketrans("013457@$!", "oleastasi")
# Letters as a person types a phrase: lower case, or words that each start with a capital
# (`MySecretPassword`), once digits and signs that stand for letters are read as those letters.
_TYPED = compile_lazily(r"[A-Za-z][a-z]+(?:[A-Z][a-z]+)*")


def stand_in(value: str) -> bool:
    """A value shaped as a stand-in: a fill-in mark, one character four times in a row (`xxxx`,
    `0000`), four characters in sequence (`1234`, `abcd`, `9876`), or a published example."""
    if value in _DOC_VALUES or _PLACEHOLDER.search(value) or any(part in value for part in _DOC_PARTS):
        return True
    return re.search(r"(.)\1{3,}", value) is not None or _sequence(value)


def _sequence(value: str) -> bool:
    """Four digits or letters of one case in a row, each one after (or before) the last."""
    run, step = 1, 0
    for a, b in itertools.pairwise(value):
        diff = ord(b) - ord(a)
        same = (a.isdigit() and b.isdigit()) or (a.islower() and b.islower()) or (a.isupper() and b.isupper())
        if same and a.isascii() and b.isascii() and diff in (1, -1) and (run == 1 or diff == step):
            run, step = run + 1, diff
            if run >= 4:
                return True
        else:
            run, step = (2, diff) if same and a.isascii() and b.isascii() and diff in (1, -1) else (1, 0)
    return False


def typed(value: str) -> bool:
    """A value a person made up rather than a generator: its letters read as lower-case words or
    capitalised words (`rootpass123`, `MyS3cr3tP@ssw0rd`), up to four digits or signs at the end."""
    core = re.sub(r"[^A-Za-z]{1,4}\Z", "", value).translate(_LEET)
    if len(core) < 6 or _TYPED.fullmatch(core) is None:
        return False
    words = 1 + sum(c.isupper() for c in core[1:])
    return len(core) >= 4 * words  # words of four letters or more on average: few random values pass


def entropy(value: str) -> float:
    """Shannon entropy in bits per character."""
    counts = Counter(value)
    return -sum(n / len(value) * math.log2(n / len(value)) for n in counts.values())


def looks_random(value: str, minimum: float = 3.0) -> bool:
    """High entropy and no stand-in shape."""
    return not stand_in(value) and entropy(value) >= minimum


# Each shape with the literal text every match contains: a pattern runs only on text that holds
# one of them (a substring test is a fast scan; a regex over every offset of every file is not).
_SHAPES: tuple[tuple[str, re.Pattern[str], int, tuple[str, ...]], ...] = tuple(
    (kind, compile_lazily(pattern), group, literals)
    for kind, pattern, group, literals in (
        ("AWS access key id", r"(A[KS]IA[0-9A-Z]{16})(?![0-9A-Za-z])", 1, ("AKIA", "ASIA")),
        ("GitHub token", r"(gh[pousr]_[A-Za-z0-9]{36})(?![0-9A-Za-z])", 1, ("ghp_", "gho_", "ghu_", "ghs_", "ghr_")),
        ("GitHub fine-grained token", r"(github_pat_[A-Za-z0-9_]{50,255})", 1, ("github_pat_",)),
        ("GitLab token", r"(glpat-[A-Za-z0-9_-]{20,255})", 1, ("glpat-",)),
        ("Slack token", r"(xox[abpr]-[0-9]{6,20}-[0-9A-Za-z-]{10,255})", 1, ("xoxa-", "xoxb-", "xoxp-", "xoxr-")),
        ("Stripe live key", r"([sr]k_live_[0-9A-Za-z]{20,255})", 1, ("k_live_",)),
        ("Anthropic API key", r"(sk-ant-[a-z0-9]{1,20}-[A-Za-z0-9_-]{40,255})", 1, ("sk-ant-",)),
        ("OpenAI API key", r"(sk-(?!ant-)(?:proj-|svcacct-|admin-)?[A-Za-z0-9_-]{40,255})", 1, ("sk-",)),
        ("Google API key", r"(AIza[0-9A-Za-z_-]{35})(?![0-9A-Za-z_-])", 1, ("AIza",)),
    )
)
# Fewer scans for the shapes: each pattern here starts with a fixed character (a fast scan, faster
# for a rare one: `_` and `-` before the letters that precede them) and finds the literals of one
# or more shapes; a shape is looked for only when a group that finds one of its literals is in the
# text (a group absent rules out all its shapes in one scan, not one each). A group's first
# character is in every match: a text without it (a one-character `in`, a scan several times faster
# than a pattern's) skips the group's search.
_SHAPE_GROUPS: tuple[re.Pattern[str], ...] = (
    compile_lazily("A(?:KIA|SIA|Iza)"),
    compile_lazily("_(?:(?<=gh[pousr]_)|(?<=github_pat_)|(?<=k_live_))"),
    compile_lazily("-(?:(?<=glpat-)|(?<=xox[abpr]-)|(?<=sk-))"),
)
# For each shape, the groups that find one of its literals.
_SHAPE_GATES = tuple(frozenset(i for i, group in enumerate(_SHAPE_GROUPS) for literal in literals if group.search(literal))
                     for _, _, _, literals in _SHAPES)
# The text every `_KEY_WORD` match starts with (`key_words` finds matches from these).
_KEY_WORD_STARTS = ("token", "secret", "passw", "pwd", "api", "access", "private", "client", "auth", "credential")
_AWS_SECRET = compile_lazily(r"(?i)aws.{0,20}secret.{0,20}?[=:]\s*[\"']?([A-Za-z0-9/+]{40})(?![A-Za-z0-9/+])")
# What follows the separator of every `_AWS_SECRET` match in an ASCII text (where ignoring case adds
# nothing to `[A-Za-z0-9/+]`), one pattern for each separator (each starts with its own: a fast scan).
_AWS_VALUE = tuple(compile_lazily(sep + r"\s*[\"']?[A-Za-z0-9/+]{40}(?![A-Za-z0-9/+])") for sep in "=:")
_PRIVATE_KEY = compile_lazily(r"-----BEGIN ((?:[A-Z0-9]+ )*)PRIVATE KEY(?: BLOCK)?-----([\s\S]{0,8000}?)-----END")
# A PuTTY key file (.ppk, versions 2 and 3): its private lines, then the MAC over the whole key.
_PUTTY = compile_lazily(
    r"PuTTY-User-Key-File-[23]: [^\r\n]{1,100}\r?\n(?:[A-Za-z-]{1,40}: [^\r\n]{0,300}\r?\n){0,6}?"
    r"(?:[A-Za-z0-9+/=]{1,100}\r?\n){0,200}?Private-Lines: \d{1,4}\r?\n((?:[A-Za-z0-9+/=]{1,100}\r?\n){1,200}?)"
    r"Private-MAC: [0-9a-f]{40,64}"
)
_JWT = compile_lazily(r"(eyJ[A-Za-z0-9_-]{8,300}\.eyJ[A-Za-z0-9_-]{8,4000}\.[A-Za-z0-9_-]{16,1000})")
_JWT_START = compile_lazily("J(?<=eyJ)")  # `eyJ` found by its `J`, rarer than `e` (a faster scan)
# A character of each text looked for, tested first: a one-character `in` is a memchr scan, several
# times faster than a longer one or a pattern's search, and most texts lack these rarer characters.
_RARE = {"PRIVATE KEY": "V", "eyJ": "J", "://": "/"}
# After `://`: user, password, host. The scheme is read backwards from `://` (leading patterns
# without a literal make Python's regex engine try every offset of a 4 MiB file).
_URL_PASSWORD = compile_lazily(r"([^\s:/@'\"`<>]{1,256}):([^\s/@'\"`<>]{1,256})@([^\s/?#'\"`<>]{1,256})")
_SCHEME = compile_lazily(r"[A-Za-z][A-Za-z0-9+.-]{1,20}$")
# A secret-like name (its key word; the rest of the name is read backwards from it), then `=`, `:`,
# `:=` or `=>`, then the value. Key words are found first in the lower-cased text.
_KEY_WORD = compile_lazily(
    r"token|secret|passw|passwd|pwd|api[_-]?key|apikey|access[_-]?key|private[_-]?key|client[_-]?secret|auth[_-]?key|"
    r"credential"
)
_ASSIGNED = compile_lazily(
    r"(?i)(?:token|secret|passw(?:or)?d|passwd|pwd|api[_-]?key|apikey|access[_-]?key|private[_-]?key|"
    r"client[_-]?secret|auth[_-]?key|credentials?)[A-Za-z0-9_-]{0,60}[\"']?[ \t]{0,8}(?:=|:|:=|=>)"
    r"[ \t]{0,8}[\"'`]?([^\s\"'`,;)\]}]{16,512})"
)
# The end of every `_ASSIGNED` match's separator (`=`, `:`, the `=` of `:=`, `=>`) and what follows it:
# only lines where one of these stands can hold an assigned value.
_VALUE_AFTER = tuple(compile_lazily(sep + r"[ \t]{0,8}[\"'`]?[^\s\"'`,;)\]}]{16}") for sep in ("=>?", ":"))
_NAME_CHARS = compile_lazily(r"[A-Za-z0-9_.-]{0,60}\Z")


def is_private_key(label: str, block: str) -> bool:
    """The body of a `-----BEGIN <label>PRIVATE KEY-----` block holds a key: its base64 decodes to
    the structure of one (OpenSSH's `openssh-key-v1`, a DER sequence of exactly the decoded length,
    an OpenPGP secret-key packet), or, when it does not decode (a shortened key in a page), it is
    long and looks random. A real key's base64 has runs like `AAAA` (its length fields) and may
    spell any word, so the stand-in filter is not asked about one that decodes."""
    lines = [line.strip() for line in block.splitlines()]
    lines = [line for line in lines if line and ":" not in line]  # Proc-Type, DEK-Info, Version, Comment
    if label.startswith("PGP") and lines and re.fullmatch(r"=[A-Za-z0-9+/]{4}", lines[-1]):
        lines.pop()  # the armour's CRC-24 line
    data = _base64("".join(lines))
    if data is not None and len(data) >= 32 and (
        data.startswith(b"openssh-key-v1\0") or _der_sequence(data) or label.startswith("PGP") and _pgp_secret(data)
    ):
        return True
    body = re.sub(r"[^A-Za-z0-9+/=]", "", "\n".join(lines))
    return len(body) >= 64 and looks_random(body, 4.0)


def _base64(text: str) -> bytes | None:
    try:
        return base64.b64decode(re.sub(r"\s", "", text), validate=True)
    except (binascii.Error, ValueError):
        return None


def _der_sequence(data: bytes) -> bool:
    """A DER SEQUENCE whose length is exactly the rest of `data` (PKCS#1, SEC 1, PKCS#8 keys)."""
    if data[0] != 0x30:
        return False
    if data[1] < 0x80:
        return 2 + data[1] == len(data)
    size = data[1] & 0x7F
    if not 1 <= size <= 4:
        return False
    return 2 + size + int.from_bytes(data[2 : 2 + size], "big") == len(data)


def _pgp_secret(data: bytes) -> bool:
    """An OpenPGP packet header of a Secret-Key (tag 5) or Secret-Subkey (tag 7) packet."""
    head = data[0]
    if not head & 0x80:
        return False
    tag = head & 0x3F if head & 0x40 else (head >> 2) & 0x0F
    return tag in (5, 7)


def _jwt_is_example(token: str) -> bool:
    payload = token.split(".")[1]
    try:
        data = json.loads(base64.urlsafe_b64decode(payload + "=" * (-len(payload) % 4)))
    except (ValueError, UnicodeDecodeError, RecursionError):
        return True  # not a JWT after all (or arrays nested past Python's recursion limit)
    if isinstance(data, dict) and data.get("role") == "anon":
        return True  # a public "anon" key (Supabase and the like): meant to ship to browsers
    # (jwt.io's sample has `"sub": "1234567890"`: a sequence)
    values = data.values() if isinstance(data, dict) else ()
    return any(isinstance(v, str) and stand_in(v) for v in values)


def find_secrets(text: str) -> Iterator[Secret]:
    """Every secret in `text`, in order of appearance (one per place)."""
    found: dict[int, Secret] = {}
    taken: list[tuple[int, int]] = []  # sorted, non-overlapping (start, end) of what was found

    def add(kind: str, start: int, end: int, value: str) -> None:
        if len(found) >= MAX_PER_FILE:
            return
        index = bisect.bisect_left(taken, (start, end))
        if any(s < end and start < e for s, e in taken[max(0, index - 1) : index + 1]):
            return  # the same text found by another detector (`GITHUB_TOKEN=ghp_...`)
        taken.insert(index, (start, end))
        found[start] = Secret(kind, start, value)

    for match in _PRIVATE_KEY.finditer(text) if _RARE["PRIVATE KEY"] in text and "PRIVATE KEY" in text else ():
        if is_private_key(match.group(1) or "", match.group(2)):
            add(f"{match.group(1) or ''}private key block".strip(), match.start(), match.end(), match.group(0))
    for match in _PUTTY.finditer(text) if "PuTTY-User-Key-File-" in text else ():
        if _base64(match.group(1)) is not None:
            add("PuTTY private key", match.start(), match.end(), match.group(0))
    groups = {i for i, gate in enumerate(_SHAPE_GROUPS) if gate.pattern[:1] in text and gate.search(text)}
    # (no group found, no shape to look for: most texts skip the loop)
    for (kind, pattern, group, literals), gates in zip(_SHAPES, _SHAPE_GATES) if groups else ():
        if not gates & groups or not any(literal in text for literal in literals):
            continue
        for match in pattern.finditer(text):
            if _glued(text, match.start()):
                continue
            value = match.group(group)
            rand = value[4:]
            if value not in _DOC_VALUES and looks_random(rand, 3.0) and re.search(r"[0-9]", rand) \
                    and re.search(r"[A-Za-z]", rand) and not _wordy(rand):
                add(kind, match.start(group), match.end(group), value)
    # The whole text lower-cased only when needed: an ASCII text lower-cases each run of lines on its
    # own (`_key_word_starts`), to the same offsets.
    ascii_text = text.isascii()
    lower = None if ascii_text else _lowered(text)
    # (?i) also matches a few non-ASCII letters (`ſ` for s): only ASCII text is gated on "aws"
    if not ascii_text or any(gate.pattern[:1] in text and gate.search(text) for gate in _AWS_VALUE) \
            and "aws" in text.lower():
        for match in _AWS_SECRET.finditer(text):
            if looks_random(match.group(1), 4.0):
                add("AWS secret access key", match.start(1), match.end(1), match.group(1))
    for match in _JWT.finditer(text) if _RARE["eyJ"] in text and _JWT_START.search(text) else ():
        if not _glued(text, match.start()) and not _jwt_is_example(match.group(1)):
            add("JWT", match.start(1), match.end(1), match.group(1))
    for sep in re.finditer("://", text) if _RARE["://"] in text else ():
        scheme = _SCHEME.search(text, max(0, sep.start() - 21), sep.start())
        url = _URL_PASSWORD.match(text, sep.end())
        if scheme is None or url is None:
            continue
        user, password = url.group(1), url.group(2)
        if password == user or len(password) < 8 or not looks_random(password, 3.0) or typed(password):
            continue
        if sum(bool(re.search(c, password)) for c in ("[a-z]", "[A-Z]", "[0-9]", "[^A-Za-z0-9]")) < 2:
            continue
        add(f"password in a `{scheme.group(0).lower()}://` URL", url.start(2), url.end(2), password)
    end = 0
    for word in _key_word_starts(text, lower, assignment_lines(text)):
        if word < end:
            continue
        assigned = _ASSIGNED.match(text, word)
        if assigned is None:
            continue
        end = assigned.end()
        value = assigned.group(1)
        if _credential_value(value):
            head = _NAME_CHARS.search(text, max(0, assigned.start() - 60), assigned.start())
            name = (head.group(0) if head else "") + text[assigned.start() : assigned.start(1)]
            name = re.sub(r"[\"'`]?[ \t]*(?:=|:|:=|=>)[ \t]*[\"'`]?\Z", "", name)
            add(f"value of `{name}`", assigned.start(1), assigned.end(1), value)
    return iter(found[k] for k in sorted(found))


_ASCII_LOWER = str.maketrans(string.ascii_uppercase, string.ascii_lowercase)


def _lowered(text: str) -> str:
    lower = text.lower()
    if len(lower) != len(text):  # a few letters lower-case to two characters: keep offsets
        lower = text.translate(_ASCII_LOWER)
    return lower


def _key_word_starts(text: str, lower: str | None, runs: list[tuple[int, int]]) -> Iterator[int]:
    """The offset of each key word in the runs of lines, in order: found in `lower`, the whole text
    lower-cased, or (when None: an ASCII text, whose letters lower-case one for one and alone) in
    each run lower-cased on its own."""
    for start, stop in runs:
        if lower is None:
            yield from (start + word.start() for word in key_words(text[start:stop].lower()))
        else:
            yield from (word.start() for word in key_words(lower, start, stop))


def assignment_lines(text: str) -> list[tuple[int, int]]:
    """(start, end) of each run of lines, in order, where a separator is followed by a value as long
    as `_ASSIGNED` wants on every line (no match spans a line break): the only lines whose key words
    can start a match."""
    lines: dict[int, int] = {}
    most = len(text) // 256 + 64  # past this many lines, reading the whole text at once is faster
    for gate in _VALUE_AFTER:
        if gate.pattern[0] not in text:
            continue  # every match starts with this separator: a one-character `in` is a faster scan
        pos = 0  # the start of a line: each search resumes on the line after the last one found
        while (match := gate.search(text, pos)) is not None:
            newline = text.rfind("\n", pos, match.start())
            start = pos if newline == -1 else newline + 1
            stop = text.find("\n", match.start())
            lines[start] = stop = len(text) if stop == -1 else stop
            pos = stop + 1
            if len(lines) > most:
                return [(0, len(text))]
    runs: list[tuple[int, int]] = []
    for start, stop in sorted(lines.items()):
        if runs and runs[-1][1] + 1 == start:
            start = runs.pop()[0]  # the next line: one run (key words never span a line break)
        runs.append((start, stop))
    return runs


def key_words(lower: str, pos: int = 0, endpos: int | None = None) -> list[re.Match[str]]:
    """`list(_KEY_WORD.finditer(lower, pos, endpos))`, found faster: every match starts with one of
    `_KEY_WORD_STARTS`, so the pattern is tried only where one stands (a substring search is a fast
    scan; the regex alone stops at every t, s, p, a and c of the text), left to right, each search
    resuming after the last match as `finditer` does."""
    if endpos is None or endpos > len(lower):
        endpos = len(lower)
    starts: list[int] = []
    for literal in _KEY_WORD_STARTS:
        at = lower.find(literal, pos, endpos)
        while at != -1:
            starts.append(at)
            at = lower.find(literal, at + 1, endpos)
    out: list[re.Match[str]] = []
    end = 0
    for at in sorted(starts):
        if at < end:
            continue
        match = _KEY_WORD.match(lower, at, endpos)
        if match is not None:
            out.append(match)
            end = match.end()
    return out


def _glued(text: str, start: int) -> bool:
    """The match continues a longer word (`xAKIA...`), so it is not a token of its own."""
    return start > 0 and (text[start - 1].isalnum() or text[start - 1] == "_")


def _credential_value(value: str) -> bool:
    """A value that looks generated: mixed letters and digits, high entropy, no path, URL, code or
    variable reference."""
    if "/" in value or "." in value and not re.fullmatch(r"[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+", value):
        return False
    if value.startswith(("$", "%", "process", "os.", "env", "ENV", "secrets", "vault:", "op://")):
        return False
    if "[" in value or "(" in value:
        return False  # an index or a call (`pages[1:`, `cumsum(x`): code, not a key
    if not (re.search(r"[0-9]", value) and re.search(r"[A-Za-z]", value)):
        return False
    if _wordy(value) or typed(value):
        return False  # snake-case or kebab-case words, or a phrase a person typed: not a generated key
    return looks_random(value, 3.5)


def _wordy(value: str) -> bool:
    """Lower-case words joined by `-` or `_` (a name like `sk-bs4-parsing-helper`), not a key."""
    return re.fullmatch(r"[a-z0-9]*(?:[_-][a-z0-9]+)+", value.lstrip("_-")) is not None and bool(
        re.search(r"[a-z]{3}", value))
