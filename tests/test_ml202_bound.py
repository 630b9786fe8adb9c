"""ML202 counts tokens only until it knows a start folder is within budget: the bytes of the files
not counted yet bound their tokens (a cl100k token is at least one byte)."""

from __future__ import annotations

from memlint.rules.size.ml202_context_over_budget import _within

SIZES = {"big": (3000, 500), "mid": (1000, 1000), "small": (500, 400)}  # name: (UTF-8 bytes, tokens)


def _ask(budget: int) -> tuple[bool, list[str]]:
    counted: list[str] = []

    def tokens(name: str) -> int:
        counted.append(name)
        return SIZES[name][1]

    return _within(budget, list(SIZES), lambda name: SIZES[name][0], tokens), counted  # type: ignore[arg-type]


def test_within_budget_in_bytes_counts_nothing() -> None:
    assert _ask(4500) == (True, [])


def test_files_are_counted_in_order_and_counting_stops_once_the_bound_is_within() -> None:
    assert _ask(2000) == (True, ["big"])  # 500 + 1000 + 500 bytes left: within


def test_over_budget_counts_every_file_and_says_so() -> None:
    assert _ask(1899) == (False, ["big", "mid", "small"])  # 1,900 tokens in all
    assert _ask(1900) == (True, ["big", "mid", "small"])
