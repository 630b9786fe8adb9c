"""`dataclass`: the standard decorator, with the methods a run seldom calls compiled when first called.

Before Python 3.13 the standard decorator compiles each generated method with its own `exec`: a
frozen class costs six (`__init__`, `__repr__`, `__eq__`, `__hash__`, `__setattr__`,
`__delattr__`), most of the 0.4-0.8 ms it takes to define one. memlint defines about seventy at
start, 50 ms of every run, yet a run calls `__repr__`, `__setattr__` and `__delattr__` of a
frozen record never and `__eq__`, `__hash__` or the order methods of only some.

Here those methods, and `__init__` of a class that is never made in a run, are made by the
standard code, from the same text, at their first call; the real method then takes the stub's
place on its class, so later calls cost what they always did. (A class without a docstring gets
its `__init__` at once: the standard decorator writes that docstring from `__init__`'s signature.)
Nothing else changes: fields, `replace`, `fields`, frozen and slots behave as with
`dataclasses.dataclass` (tests/test_records.py compares them). Each method's code, compiled from
that text, is kept once per user (memlint.compiled), so a run compiles only what no earlier run
of this memlint and this Python did.

From Python 3.13 (one `exec` per class, no `_create_fn`) this is `dataclasses.dataclass` itself.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable
from functools import partial
from typing import TYPE_CHECKING, Any

from memlint.compiled import method_code

__all__ = ["dataclass"]

# The generated methods compiled at their first call.
LAZY_METHODS = frozenset({"__init__", "__repr__", "__eq__", "__lt__", "__le__", "__gt__", "__ge__", "__hash__",
                          "__setattr__", "__delattr__"})

_CREATE_FN: Callable[..., Any] | None = getattr(dataclasses, "_create_fn", None)


def _exec_kept(source: str, globals_: Any = None, locals_: Any = None) -> None:
    """`exec` as `dataclasses._create_fn` calls it, with the code kept per user (memlint.compiled)."""
    exec(method_code(source), globals_, locals_)  # noqa: S102 - the text dataclasses itself would exec


def _create(*args: Any, **kwargs: Any) -> Any:
    """`dataclasses._create_fn`, its source text compiled once per user, not once per process."""
    assert _CREATE_FN is not None
    module = vars(dataclasses)
    module["exec"] = _exec_kept  # found before the builtin by `_create_fn`'s own `exec(...)`
    try:
        return _CREATE_FN(*args, **kwargs)
    finally:
        module.pop("exec", None)


def _deferred_create_fn(defer_init: bool, name: str, args: Any, body: Any, **kwargs: Any) -> Any:
    """`dataclasses._create_fn`, deferred to the first call for the methods in `LAZY_METHODS`
    (`__init__` only with `defer_init`)."""
    create = _create
    if name not in LAZY_METHODS or (name == "__init__" and not defer_init):
        return create(name, args, body, **kwargs)
    if isinstance(kwargs.get("locals"), dict):
        kwargs["locals"] = dict(kwargs["locals"])  # `_create_fn` may add to it: keep the caller's as it is now
    real: Any = None

    def method(*call_args: Any, **call_kwargs: Any) -> Any:
        nonlocal real
        if real is None:
            real = create(name, args, body, **kwargs)
            real.__qualname__ = method.__qualname__
            owner = method.__dict__.get("owner")
            if owner is not None and owner.__dict__.get(name) is method:
                setattr(owner, name, real)  # later calls go straight to the real method
        return real(*call_args, **call_kwargs)

    method.__name__ = name
    method.__dict__["deferred"] = True
    return method


def _dataclass(cls: Any = None, /, **options: Any) -> Any:
    def wrap(target: Any) -> Any:
        assert _CREATE_FN is not None
        module = vars(dataclasses)
        # A class without a docstring gets one from `inspect.signature(cls)`, read from `__init__`
        # while it is made: there `__init__` is made at once.
        module["_create_fn"] = partial(_deferred_create_fn, bool(target.__dict__.get("__doc__")))
        try:
            made = dataclasses.dataclass(**options)(target)
        finally:
            module["_create_fn"] = _CREATE_FN
        for name in LAZY_METHODS:
            stub = made.__dict__.get(name)
            if getattr(stub, "deferred", False):
                stub.__dict__["owner"] = made  # the class the decorator gives back (a new one with slots=True)
        return made

    return wrap if cls is None else wrap(cls)


if TYPE_CHECKING:
    from dataclasses import dataclass
elif _CREATE_FN is None:
    dataclass = dataclasses.dataclass
else:
    dataclass = _dataclass
