"""Realistic over-limit MEMORY.md folders for the split tests, written the way people and the agent
write them (our own words, shaped like real indexes): each builder returns (MEMORY.md text, the
files already beside it, the lines that are standing instructions)."""

from __future__ import annotations

import random

Folder = tuple[str, dict[str, str], list[str]]

PHRASES = {
    "en": {
        "title": "# Project memory",
        "rules": ["- NEVER push to main directly", "- Always run `make check` before committing",
                  "- Don't add co-author lines to commits", "- Prefer small pull requests"],
        "section": "Notes on {}",
        "detail": "The {} service was rewritten in spring; it talks to the queue through a thin adapter and keeps "
                  "its own retry table, which we tuned after the outage on a Sunday.",
        "topic": "Billing export",
    },
    "ko": {
        "title": "# 프로젝트 메모리",
        "rules": ["- 항상 한국어로 답변할 것", "- main 브랜치에 직접 푸시 금지", "- 커밋 전에 반드시 테스트를 실행하세요"],
        "section": "{} 메모",
        "detail": "{} 서비스는 봄에 다시 작성되었고 큐와는 얇은 어댑터로 통신하며 재시도 표를 따로 가지고 있다. "
                  "일요일 장애 이후에 값을 조정했다.",
        "topic": "결제 내보내기",
    },
    "it": {
        "title": "# Memoria del progetto",
        "rules": ["- Usa sempre il formato ISO per le date", "- Non fare mai push diretto su main",
                  "- Rispondi sempre in italiano"],
        "section": "Note su {}",
        "detail": "Il servizio {} è stato riscritto in primavera; parla con la coda tramite un adattatore sottile e "
                  "tiene una propria tabella dei tentativi, regolata dopo il guasto di domenica.",
        "topic": "Esportazione fatture",
    },
    "ja": {
        "title": "# プロジェクトメモリ",
        "rules": ["- 本番DBに直接書き込まないこと", "- 必ず日本語で回答してください", "- mainへの直接pushは禁止"],
        "section": "{} のメモ",
        "detail": "{} サービスは春に書き直され、薄いアダプターでキューと通信し、独自のリトライ表を持っている。"
                  "日曜日の障害の後で値を調整した。",
        "topic": "請求エクスポート",
    },
    "de": {
        "title": "# Projektgedächtnis",
        "rules": ["- Niemals direkt auf main pushen", "- Immer auf Deutsch antworten", "- Tests müssen vor jedem Commit laufen"],
        "section": "Notizen zu {}",
        "detail": "Der Dienst {} wurde im Frühjahr neu geschrieben; er spricht über einen dünnen Adapter mit der Queue "
                  "und führt eine eigene Tabelle der Wiederholungen, die nach dem Ausfall am Sonntag angepasst wurde.",
        "topic": "Rechnungsexport",
    },
    "es": {
        "title": "# Memoria del proyecto",
        "rules": ["- Nunca hagas push directo a main", "- Siempre responde en español"],
        "section": "Notas sobre {}",
        "detail": "El servicio {} se reescribió en primavera; habla con la cola mediante un adaptador fino y guarda "
                  "su propia tabla de reintentos, ajustada después de la caída del domingo.",
        "topic": "Exportación de facturas",
    },
    "zh": {
        "title": "# 项目记忆",
        "rules": ["- 必须使用 pnpm 安装依赖", "- 不要直接推送到 main 分支"],
        "section": "{} 笔记",
        "detail": "{} 服务在春天重写过，通过一个很薄的适配器与队列通信，并保留自己的重试表，周日故障之后调整过参数。",
        "topic": "账单导出",
    },
}
SERVICES = ["gateway", "ledger", "search", "mailer", "scheduler", "auth", "reports", "uploads", "billing", "audit",
            "metrics", "cache"]


def topic_file(name: str, description: str) -> str:
    return f"---\nname: {name}\ndescription: {description}\nmetadata:\n  type: project\n---\n\n{description}\n"


def multilingual(lang: str, seed: int = 0) -> Folder:
    """Entries, always-on instructions in the index's language, and sections of detail prose."""
    rnd = random.Random(seed)
    p = PHRASES[lang]
    lines = [p["title"], ""]
    lines += p["rules"]
    lines.append("")
    files: dict[str, str] = {}
    for n in range(40):
        name = f"topic-{n:02d}"
        files[f"{name}.md"] = topic_file(name, f"{p['topic']} {n}")
        lines.append(f"- [{p['topic']} {n}]({name}.md) \u2014 {p['topic']} {n}")
    for s, service in enumerate(SERVICES):
        lines += ["", f"## {p['section'].format(service)}"]
        for k in range(rnd.randint(12, 16)):
            lines.append(f"- {p['detail'].format(service)} ({k})")
    return "\n".join(lines) + "\n", files, p["rules"]


def keyword_traps() -> Folder:
    """Prose that mentions never/must/keep/use without being an order, and a few real orders."""
    rules = ["- NEVER commit secrets", "- Always run the linter before pushing"]
    lines = ["# Memory", "", *rules, ""]
    traps = ["- The cron job never ran on Sundays until we moved it to the new scheduler host in March.",
             "- Keep-alive is set to 30 seconds on the gateway and 60 on the internal load balancer.",
             "- Use case: the finance team exports invoices at month end and reconciles them by hand.",
             "- The old importer must have dropped rows silently; we found 214 missing invoices in the audit."]
    for s in range(16):
        lines += [f"## Rules of the game {s}" if s == 3 else f"## Incident {s}"]
        for k in range(12):
            lines.append(traps[(s + k) % len(traps)].replace(".", f" (case {s}.{k}).", 1))
        lines.append("")
    return "\n".join(lines), {}, rules


def pointer_bound() -> Folder:
    """114 entries under 57 headings, a blank line after each group: 228 lines, nothing but pointers."""
    lines = ["# Memory"]
    files = {}
    for g in range(57):
        lines.append(f"## Area {g}")
        for k in range(2):
            name = f"area-{g}-{k}"
            files[f"{name}.md"] = topic_file(name, f"area {g} note {k}")
            lines.append(f"- [Area {g} note {k}]({name}.md) \u2014 what we know about area {g}, part {k}")
        lines.append("")
    return "\n".join(lines[:-1]) + "\n", files, []


def dangling_long() -> Folder:
    """150 entries of about 400 characters, each to a topic file that was never written."""
    lines = ["# Memory", "", "- NEVER deploy on Fridays", ""]
    words = ["card", "wallet", "ledger", "refund", "payout", "invoice", "dispute", "coupon", "tax", "fee", "fx",
             "bank", "escrow", "credit", "debit"]
    for n in range(150):
        name = f"{words[n % 15]}-{words[(n // 15) % 15]}-policy"
        hook = (f"payments retry policy number {n}: retries back off exponentially from two seconds; NEVER retry a "
                f"declined card; the ledger reconciles at midnight and the report goes to finance on Mondays; "
                f"owners are the payments team and the on-call engineer for that week; see the runbook "
                f"for the escalation path and the contact list kept in the team wiki page {n}")
        lines.append(f"- [Retry policy {n}]({name}.md) \u2014 {hook}")
    return "\n".join(lines) + "\n", {}, ["- NEVER deploy on Fridays"]


def append_style(seed: int = 1) -> Folder:
    """An index kept by appending: each topic listed 2-5 times as it was revised."""
    rnd = random.Random(seed)
    files = {}
    entries: list[tuple[int, str]] = []
    for n in range(60):
        name = f"decision-{n}"
        files[f"{name}.md"] = topic_file(name, f"decision {n}")
        for rev in range(rnd.randint(2, 5)):
            entries.append((rnd.random() + rev, (f"- [Decision {n}]({name}.md) \u2014 revision {rev}: the team agreed on "
                                                 f"option {rev} for decision {n} after the review with the platform "
                                                 f"group and the security lead; this replaces earlier notes")))
    entries.sort()
    lines = ["# Memory", "", "- Always ask before changing a decision", ""] + [line for _, line in entries]
    return "\n".join(lines) + "\n", files, ["- Always ask before changing a decision"]


def bracketed_titles() -> Folder:
    """Entries whose titles hold brackets, and detail to push the index over."""
    files = {}
    lines = ["# Memory", ""]
    for n in range(30):
        name = f"release-{n}"
        files[f"{name}.md"] = topic_file(name, f"release {n}")
        title = f"[v{n}] Release notes" if n % 2 else f"[WIP] Release {n}"
        lines.append(f"- [{title}]({name}.md) \u2014 what shipped in release {n}")
    lines += ["", "## Background"]
    for k in range(200):
        lines.append(f"- the build farm had {k} agents at some point; the count changed with the budget")
    return "\n".join(lines) + "\n", files, []


def session_log() -> Folder:
    """A 246-line dated session log inside the index, and entries."""
    files = {}
    lines = ["# Memory", "", "- Always reply in English", ""]
    for n in range(10):
        files[f"note-{n}.md"] = topic_file(f"note-{n}", f"note {n}")
        lines.append(f"- [Note {n}](note-{n}.md) \u2014 note {n}")
    lines += ["", "## Session log"]
    for d in range(246):
        lines.append(f"- 2026-{1 + d // 28:02d}-{1 + d % 28:02d}: worked on the importer, fixed case {d}, "
                     f"left the retry change for the next session")
    return "\n".join(lines) + "\n", files, ["- Always reply in English"]


KINDS = {
    "keyword-traps": keyword_traps,
    "pointer-bound": pointer_bound,
    "dangling-long": dangling_long,
    "append-style": append_style,
    "bracketed-titles": bracketed_titles,
    "session-log": session_log,
    **{f"language-{lang}": (lambda lang=lang: multilingual(lang)) for lang in PHRASES},
}
