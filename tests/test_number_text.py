"""Claude Code's size and number texts (`45.9KB`, `123.5k`), rounded half up as JavaScript's
`toFixed` and `Intl.NumberFormat` round: held to the same rounding done with `decimal`."""

from __future__ import annotations

from decimal import ROUND_HALF_UP, Decimal

from hypothesis import example, given
from hypothesis import strategies as st

from memlint.model.memory.automem import format_size
from memlint.rules.size.ml204_instruction_files_over_total import compact

_TENTH = Decimal("0.1")


def _size_by_decimal(units: int) -> str:
    kib = units / 1024  # exact: a power of two
    if kib < 1:
        return f"{units} bytes"
    for unit in ("KB", "MB", "GB"):
        if kib < 1024 or unit == "GB":
            return str(Decimal(kib).quantize(_TENTH, rounding=ROUND_HALF_UP)).removesuffix(".0") + unit
        kib /= 1024
    raise AssertionError("unreachable")


def _compact_by_decimal(number: int) -> str:
    if number < 1000:
        return str(number)
    for power, suffix in ((3, "k"), (6, "m"), (9, "b"), (12, "t")):
        value = (Decimal(number) / Decimal(10) ** power).quantize(_TENTH, rounding=ROUND_HALF_UP)
        if value < 1000 or suffix == "t":
            return f"{value}{suffix}"
    raise AssertionError("unreachable")


_HALVES = st.sampled_from([1024, 1024**2, 1024**3, 10**3, 10**6, 10**9, 10**12])


@given(st.one_of(st.integers(0, 2**53), st.builds(lambda s, m, d: s * m + d, _HALVES, st.integers(1, 1100),
                                                  st.sampled_from([-52, -51, -50, -1, 0, 1, 50, 51, 52, 102, 103]))))
@example(46_998)  # 45.9KB
@example(1_048_524)  # 1023.9KB
@example(1_048_550)  # under a MB, rounded up to 1024KB
@example(999_950)  # 999.95k rounds to 1000.0: shown as 1.0m
def test_size_and_number_texts_round_half_up(units: int) -> None:
    units = max(units, 0)
    assert format_size(units) == _size_by_decimal(units)
    assert compact(units) == _compact_by_decimal(units)
