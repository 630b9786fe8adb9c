"""Standing instructions: the one detector of "this line tells the agent what to do or not do".

Used by the MEMORY.md split (an instruction stays in the index, where Claude sees it at every
start) and by every rule that must recognise an instruction. It reads the *shape* of a line first
and its words second, in whatever language the line is written:

- a line is judged alone: one list item or a one-sentence paragraph, at most `MAX_CHARS` long;
  a line that opens with a date, a past-event marker or a table pipe is narrative or data;
- the clause must *open* with a directive marker (after a list marker, a checkbox, emphasis, a
  warning sign or a short `Label:`): "Never X" is an order, "the cron job never ran" is not. The
  markers are the modal and polarity words that open an order in each language (always, never,
  must, do not, avoid, prefer, make sure ...; immer, niemals; toujours, jamais, ne pas; siempre,
  nunca; sempre, mai, non; всегда, никогда, не; 必须, 不要, 禁止; 必ず, 絶対; 항상, 절대, 반드시 ...);
- languages that put the verb last (Japanese, Korean) close an order with a directive ending
  (しないこと, してください, 禁止, 하지 말 것, 하세요, 금지 ...): the line's end is read too;
- a shouted word of the marker kind (NEVER, IMPORTANT) or a warning sign (⚠ 🚫 ⛔ ❗) before the
  clause marks it whatever follows.

A heading marks its section always-on when it is short and its words say so (Rules, Always, Every
session, Critical; Regeln, Règles, Reglas, Regole, Правила, 规则, ルール, 규칙 ...): "Rules of the
game" (four words) is a title, not a marker.
"""

from __future__ import annotations

import re
from functools import lru_cache

from memlint.lazy_regex import compile_lazily

MAX_CHARS = 300

# Words that open an order (lower case; matched at the clause start, on a word boundary).
_OPENERS = (
    # English
    "always", "never", "must", "must not", "do not", "don't", "dont", "don’t", "avoid", "prefer", "make sure",
    "ensure", "remember", "please", "only ever", "under no circumstances", "no need to", "stop", "do",
    "use", "keep", "run", "put", "check", "ask", "write", "add", "call", "treat", "read", "commit",
    # German
    "immer", "niemals", "nie", "nicht", "kein", "keine", "bitte", "stets", "vermeide", "verwende", "nutze",
    # French
    "toujours", "jamais", "ne jamais", "ne pas", "ne plus", "éviter", "évite", "évitez", "utilise", "utiliser",
    "utilisez", "veiller", "il faut", "n'utilise", "n’utilise",
    # Spanish / Portuguese
    "siempre", "nunca", "no uses", "no usar", "evita", "evitar", "usa", "usar", "utiliza", "sempre", "jamais",
    "não", "nao", "evite", "use sempre", "usa sempre",
    # Italian
    "mai", "non", "usa sempre", "evitare", "utilizza", "ricorda",
    # Dutch
    "altijd", "nooit", "gebruik", "vermijd",
    # Polish / Czech
    "zawsze", "nigdy", "nie", "vždy", "nikdy",
    # Russian / Ukrainian
    "всегда", "никогда", "не", "нельзя", "обязательно", "используй", "используйте", "избегай", "завжди",
    "ніколи", "не використовуй",
    # Turkish / Vietnamese / Indonesian
    "her zaman", "asla", "luôn", "không bao giờ", "không được", "selalu", "jangan",
)
# Modal words that make an order after a short subject ("Tests must run in CI").
_MODALS = (
    "must", "must not", "mustn't", "should", "shouldn't", "need to", "needs to", "has to", "have to",
    "is required", "are required", "is forbidden", "are forbidden",
    "muss", "müssen", "darf nicht", "dürfen nicht", "soll", "sollen",
    "doit", "doivent", "ne doit", "ne doivent", "debe", "deben", "no debe", "deve", "devono", "non deve",
    "moet", "moeten", "musi", "nie wolno", "должен", "должны", "нужно", "надо", "нельзя", "має", "мають",
)
# Openers without word boundaries (scripts written without spaces).
_CJK_OPENERS = (
    "必须", "必需", "务必", "務必", "不要", "不得", "不能", "不可", "禁止", "严禁", "嚴禁", "切勿", "永远", "永遠", "总是",
    "總是", "始终", "始終", "请", "請", "应该", "應該", "一律", "绝不", "絕不", "勿",
    "必ず", "絶対", "常に", "決して", "禁止", "厳禁", "原則",
    "항상", "절대", "반드시", "꼭", "금지", "언제나",
)
# Endings that close an order where the verb comes last.
_ENDINGS = (
    "ないこと", "ないように", "しないで", "すること", "してください", "して下さい", "ください", "下さい", "べき", "べからず",
    "禁止", "厳禁", "必須", "こと",
    "하지 말 것", "하지 말것", "말 것", "할 것", "할것", "하지 마세요", "마세요", "하세요", "해야 함", "해야 한다",
    "해야함", "금지", "필수", "않기", "지 말기",
    "不要", "禁止", "必须",
)
_WARNING_SIGNS = "\u26a0\U0001f6ab\u26d4\u2757\u203c\U0001f6d1\u2755\U0001f534\u274c"
_HEADING_MARKERS = (
    "rule", "rules", "always", "critical", "important", "instructions", "standing instructions", "conventions",
    "guidelines", "every session", "must", "never", "do not", "don't",
    "regeln", "immer", "wichtig", "règles", "toujours", "important", "consignes", "reglas", "siempre",
    "importante", "regole", "sempre", "regras", "правила", "всегда", "важно", "zasady", "regels",
    "kurallar", "quy tắc", "aturan",
)
# The same in scripts written without spaces (found anywhere in a short heading).
_CJK_HEADING_MARKERS = ("规则", "規則", "规范", "規範", "重要", "必读", "ルール", "規約", "注意", "규칙", "중요", "항상", "필수", "금지")

_LEAD = compile_lazily(
    r"[ \t]*(?:>[ \t]*)*(?:(?:[-*+]|\d{1,9}[.)])[ \t]+)?(?:\[[ xX]\][ \t]+)?"
    rf"(?:[{_WARNING_SIGNS}\ufe0f\U0001f4cc\U0001f449\u2192\u27a1][ \t]*)*(?:\*\*|__|[*_])?"
)
_DATE = compile_lazily(r"(?:\d{4}[-/.]\d{1,2}(?:[-/.]\d{1,2})?|\d{1,2}[-/.]\d{1,2}[-/.]\d{2,4})\b")
_LABEL = compile_lazily(r"([^:：\n]{1,40}?)(?:\*\*|__|[*_])?[ \t]*[:：](?:\*\*|__|[*_])?[ \t]+(?:\*\*|__|[*_])?")
_SHOUT = compile_lazily(r"(?:\*\*|__)?([A-ZÀ-ÞА-Я][A-ZÀ-ÞА-Я'’ ]{2,}[A-ZÀ-ÞА-Я])\b")
_SENTENCE_SPLIT = compile_lazily(r"[.!?。！？](?:\s|$)")
_WORDS = compile_lazily(r"[^\W\d_]+(?:['’][^\W\d_]+)?")


def _alternation(words: tuple[str, ...]) -> str:
    # longest first; equal lengths by their text, so the pattern is the same in every process
    # (a set's order is not: a pattern that changes from run to run is never found kept compiled)
    return "|".join(re.escape(w) for w in sorted(set(words), key=lambda w: (-len(w), w)))


_OPENER = compile_lazily(rf"(?:{_alternation(_OPENERS)})(?![\w'’-])", re.IGNORECASE)
_MODAL = compile_lazily(rf"(?<![\w'’-])(?:{_alternation(_MODALS)})(?![\w'’-])", re.IGNORECASE)
_CJK_OPENER = compile_lazily(_alternation(_CJK_OPENERS))
_ENDING = compile_lazily(rf"(?:{_alternation(_ENDINGS)})[ \t]*[。．.!！]?[ \t]*(?:\*\*|__)?[ \t]*$")
_CJK_HEADING_MARKER = compile_lazily(_alternation(_CJK_HEADING_MARKERS))
_HEADING_MARKER = compile_lazily(rf"(?<![\w-])(?:{_alternation(_HEADING_MARKERS)})(?![\w-])", re.IGNORECASE)


# Anything an instruction must hold somewhere: a line without any of it is no instruction (most
# lines of a big index are ruled out by this one search).
_ANY = compile_lazily(
    rf"(?i:(?<![\w'’-])(?:{_alternation(_OPENERS + _MODALS)})(?![\w'’-]))|{_alternation(_CJK_OPENERS + _ENDINGS)}"
    rf"|[{_WARNING_SIGNS}:：]|[A-ZÀ-ÞА-Я]{{3}}"
)


_PERFECT = compile_lazily(r"\s+(?:have|'ve|haben|avoir|eu|avuto|tenido)\b", re.IGNORECASE)


def _clause(content: str) -> str:
    """The line's words after list markers, checkbox, warning signs and opening emphasis."""
    lead = _LEAD.match(content)
    return content[lead.end() if lead else 0 :].strip()


def is_instruction(content: str) -> bool:
    """`content` (one line, standing alone) tells the agent what to do or not do."""
    if len(content) > MAX_CHARS or not _ANY.search(content):
        return False
    return _is_instruction(content)


@lru_cache(maxsize=65536)
def _is_instruction(content: str) -> bool:
    stripped = content.lstrip()
    if not stripped or stripped.startswith(("|", "#", "```", "~~~", "<!--")):
        return False
    warned = any(ch in _WARNING_SIGNS for ch in stripped[:4])
    clause = _clause(content)
    if not clause or _DATE.match(clause):
        return False
    if len(_SENTENCE_SPLIT.findall(clause.rstrip(".!?。！？ \t*_"))) > 1:
        return False  # several sentences: a note, not one order
    if _opens_order(clause):
        return True
    label = _LABEL.match(clause)
    if label is not None:
        if _shouted(label.group(1)) or _HEADING_MARKER.fullmatch(label.group(1).strip(" *_")):
            return True  # `IMPORTANT: ...`, `Rule: ...`
        rest = clause[label.end() :]
        if rest and not _DATE.match(rest) and _opens_order(rest):
            return True
    if warned:
        return True
    return bool(_ENDING.search(clause.rstrip()))


def _opens_order(clause: str) -> bool:
    if _shouted(clause):
        return True
    if _CJK_OPENER.match(clause):
        return True
    match = _OPENER.match(clause)
    if match is not None:
        after = clause[match.end() : match.end() + 2]
        # `Use case: ...`, `Keep-alive`, `Stop.`: an opener must lead into the clause
        return not after.startswith((":", "-", ")")) and not _LABEL.match(clause) or match.group(0).lower() in (
            "always", "never", "must", "do not", "don't")
    words = _WORDS.findall(clause[:80])
    head = " ".join(words[:6])
    modal = _MODAL.search(head)
    if modal is None or len(head[: modal.start()].split()) > 4:
        return False
    return not _PERFECT.match(head, modal.end())  # "must have dropped": a guess about the past


def _shouted(text: str) -> bool:
    """The clause opens with a shouted marker word (`NEVER`, `DO NOT`, `IMPORTANT`, `NIEMALS`)."""
    match = _SHOUT.match(text.strip())
    if match is None:
        return False
    word = match.group(1)
    return bool(_OPENER.fullmatch(word.lower()) or _HEADING_MARKER.fullmatch(word.lower())
                or _MODAL.fullmatch(word.lower()) or word.lower() in ("critical", "important", "mandatory", "required",
                                                                      "wichtig", "obligatoire", "obligatorio",
                                                                      "obbligatorio", "важно"))


def marks_always_on(heading: str) -> bool:
    """A heading that says its section applies at every start (short, and its words say so)."""
    words = heading.strip(" #*_:").split()
    if not words:
        return False
    if len(words) > 3 and not any("\u3000" <= ch for ch in heading):
        return False
    if any("\u3000" <= ch for ch in heading) and len(heading.strip()) <= 16 and _CJK_HEADING_MARKER.search(heading):
        return True
    return bool(_HEADING_MARKER.search(heading)) or _shouted(heading)
