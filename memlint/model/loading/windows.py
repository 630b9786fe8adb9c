"""Context windows and the auto-compact threshold, as Claude Code 2.1.332 computes them.

Read from the 2.1.332 CLI bundle (`strings` of the binary): the model table gives each model's
`context.window` (200,000, or 1,000,000 for natively long-context models, or with the `[1m]` model
suffix); auto-compact fires at `window - min(max output tokens, 20,000) - 13,000`, that is the window
less a 20,000-token reserve for the summary (every current model's default output limit is above
20,000) and a 13,000-token buffer."""

from __future__ import annotations

from memlint.lazy_regex import compile_lazily
from memlint.records import dataclass

SUMMARY_RESERVE = 20_000  # `min(maxOutputTokens, 20000)` kept free for the /compact summary
COMPACT_BUFFER = 13_000  # auto-compact fires this many tokens before the reserve
DEFAULT_WINDOW = 200_000  # Claude Code's default when a model's window is unknown

# (family, first version with a 1M window natively); earlier versions have 200,000 (1M with `[1m]`).
_NATIVE_1M_FROM = {"opus": (4, 7), "sonnet": (5, 0), "haiku": (5, 5), "fable": (0, 0), "mythos": (0, 0)}
_MODEL = compile_lazily(r"(?:claude-)?(opus|sonnet|haiku|fable|mythos)-(\d+)(?:-(\d{1,2}))?(?:-\d{8})?(\[1m\])?")


@dataclass(frozen=True)
class Window:
    """A context window in tokens and where its size came from."""

    tokens: int
    source: str  # said in the output: "--window", "config ...", "model claude-opus-4-8", "default"

    @property
    def room(self) -> int:
        """Tokens that fit before auto-compact fires."""
        return max(self.tokens - SUMMARY_RESERVE - COMPACT_BUFFER, 0)


def model_window(model: str) -> Window | None:
    """The window of a model id (`claude-opus-4-8`, `claude-sonnet-4-5-20250929`, `sonnet-4-6[1m]`),
    or None when the name is no Claude model id."""
    match = _MODEL.fullmatch(model.strip().lower())
    if match is None:
        return None
    family, major, minor, long = match.group(1), int(match.group(2)), int(match.group(3) or 0), match.group(4)
    native = (major, minor) >= _NATIVE_1M_FROM[family]
    tokens = 1_000_000 if native or long else DEFAULT_WINDOW
    name = f"Claude {family.capitalize()} {major}{f'.{minor}' if match.group(3) else ''}{' [1m]' if long else ''}"
    return Window(tokens, f"{name}'s window")
