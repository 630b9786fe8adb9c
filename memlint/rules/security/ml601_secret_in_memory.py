"""A file Claude Code loads holds a secret: a private key, a cloud or SaaS token, a JWT, a password.

## What it does
Reports, once per file, every secret in a file Claude Code loads or may load: CLAUDE.md,
CLAUDE.local.md, rules (conditional ones too), included files, nested CLAUDE.md files, and auto
memory (MEMORY.md and its topic files). It finds:

- private keys: PEM blocks (`-----BEGIN ... PRIVATE KEY-----`: OpenSSH, RSA, EC, PKCS#8, encrypted
  PKCS#8, PGP private key blocks) whose body decodes to a key, and PuTTY key files (`.ppk`);
- tokens with a known shape: AWS access key ids (`AKIA`, `ASIA`) and secret keys next to an
  `aws ... secret` name, GitHub (`ghp_`, `gho_`, `ghs_`, `ghu_`, `ghr_`, `github_pat_`), GitLab
  (`glpat-`), Slack (`xoxa-`, `xoxb-`, `xoxp-`, `xoxr-`), Stripe live keys (`sk_live_`, `rk_live_`),
  Anthropic (`sk-ant-`), OpenAI (`sk-`, `sk-proj-`), Google API keys (`AIza`);
- JSON Web Tokens (`eyJ...eyJ...sig`);
- passwords in URLs (`postgres://user:password@host`);
- high-entropy values assigned to names like `token`, `secret`, `password`, `api_key`,
  `client_secret` (`API_KEY=...`, `password: ...`).

The message names each secret's kind, line and a masked form (its first four characters and its
length): memlint never prints a secret. A `<!-- memlint: disable-next-line ML601 -->` comment
silences the one occurrence below it (a test key you mean to keep); the file's other secrets are
still reported. At most 10,000 findings are counted per file.

Documentation examples are left alone, told by their shape, never by words (memory is written in
every language). A key block whose body decodes to a key's structure is always a secret (its
base64 has runs like `AAAA` and may spell any word); any other value is only a secret when the
random part of it has high Shannon entropy (3 bits per character for a known token shape, 3.5
for an assigned value, 4 for a key body that does not decode), holds both letters and digits, and
has no stand-in shape: one character four times in a row (`AKIAXXXXXXXXXXXXXXXX`, `0000`), four
characters in sequence (`1234`, `abcd`, `9876`), `***`, `...`, `<...>`, `{...}`, `${VAR}`, `$VAR`,
`%VAR%`. Published examples are known: AWS's documented keys (`AKIAIOSFODNN7EXAMPLE`), GitHub's
documented token, RFC 4122's example UUID, and a JWT whose claims hold a stand-in (jwt.io's
`"sub": "1234567890"`) or that is a public `anon` key. Assigned values that are paths, URLs,
variable or code references (`process.env.X`, `secrets.X`, `op://`), lower-case words joined by
`-` or `_` (`github-token-name`), or a phrase a person typed (letters in lower-case or capitalised
words, digits and signs read as the letters they stand for, a few of them at the end:
`MyS3cr3tP@ssw0rd`, `rootpass123`) are not generated keys. A password in a URL is skipped when it
equals the user name, is shorter than 8 characters, uses one kind of character only, or is such
a phrase. Secret-like names (`token`, `password`, `api_key`...) are read as the identifiers of
code and configuration they are, the same in a file written in any language.

## Why is this bad?
Claude Code sends these files to the model provider at the start of every session (or when it
reads a matching file), so the secret is copied into every conversation and its logs, and Claude
may paste it into commands, commits or answers. A CLAUDE.md, rule or include is usually committed:
everyone who can read the repository has the secret too. Auto memory lives in your home folder
but is read back into every session of the project.

## Example
```md CLAUDE.md
# Deploy
Connect with DB_PASSWORD=q8Zr2LkP9vXw4TnB7yHs and run `make migrate`.
```

Use instead:
```md CLAUDE.md
# Deploy
Connect with the password in `$DB_PASSWORD` (from the team vault) and run `make migrate`.
```

Remove the secret from the file (and from git history: `git filter-repo` or your host's secret
removal), rotate it at its provider since it has been exposed, and tell Claude where the secret
lives instead (an environment variable, a vault, a `.env` file that is not loaded).
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

from memlint.model.run.rule_context import RuleContext
from memlint.rules import RuleMeta
from memlint.rules._paths import show
from memlint.rules.security._exposure import ExposedFile, exposed_files, line_col, where
from memlint.rules.security._secrets import find_secrets
from memlint.rules.security._suppress import unsuppressed
from memlint.rules.security._text import MAX_PER_FILE, and_more, capped, how_many
from memlint.violations import Finding

META = RuleMeta(
    code="ML601",
    slug="secret-in-memory",
    severity="error",
    summary="A file Claude Code loads holds a secret (key, token, JWT, password)",
)

_SHOWN = 5


def _shared(ctx: RuleContext, path: Path) -> str:
    if any(root == path or root in path.parents for root in ctx.roots):
        return ", and everyone who can read the repository has it"
    return ", in every session of the project"


FILES = exposed_files


def check_file(ctx: RuleContext, entry: ExposedFile) -> Iterator[Finding]:
    item, doc = entry.item, entry.document()
    if doc is None:
        return
    secrets, over = capped(find_secrets(doc.text))
    over = over or len(secrets) >= MAX_PER_FILE
    secrets, dropped = unsuppressed(ctx, item.path, doc, META, secrets, lambda secret: secret.start)
    yield from dropped  # the engine drops these: the comment covers that occurrence only
    if not secrets:
        return
    listed = []
    for secret in secrets[:_SHOWN]:
        line, _ = line_col(doc.text, secret.start)
        listed.append(f"{secret.kind} {secret.masked} at line {line}")
    more = and_more(len(secrets), _SHOWN, over)
    line, column = line_col(doc.text, secrets[0].start)
    count = "a secret" if len(secrets) == 1 else f"{how_many(secrets, over)} secrets"
    yield Finding(
        item.path,
        line,
        f"`{show(ctx, item.path)}` ({where(ctx, item)}) holds {count}: {'; '.join(listed)}{more}; "
        f"Claude Code sends it to the model with the file{_shared(ctx, item.path)}: "
        "remove it, rotate it, and name where it is kept instead",
        column=column,
    )
