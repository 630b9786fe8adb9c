"""memlint.records.dataclass behaves as dataclasses.dataclass, its seldom-called methods made late."""

from __future__ import annotations

import copy
import dataclasses
from typing import Any

import pytest

from memlint import records
from memlint.records import dataclass

needs_deferral = pytest.mark.skipif(records._CREATE_FN is None,
                                    reason="Python 3.13+ compiles a dataclass in one exec: nothing is deferred")

OPTIONS = [{}, {"frozen": True}, {"frozen": True, "slots": True}, {"order": True}, {"frozen": True, "order": True},
           {"eq": False}, {"slots": True}, {"frozen": True, "slots": True, "eq": False}]


def _pair(options: dict[str, Any]) -> tuple[type, type]:
    """The same class made by both decorators."""

    def body() -> type:
        class Entry:
            """One entry."""

            name: str
            line: int = 0
            tags: tuple[str, ...] = ()

        return Entry

    return dataclasses.dataclass(**options)(body()), dataclass(**options)(body())


@pytest.mark.parametrize("options", OPTIONS, ids=str)
def test_every_generated_method_answers_as_the_standard_ones(options: dict[str, Any]) -> None:
    standard, deferred = _pair(options)
    a, b, c = (deferred("x", 1), deferred("x", 1), deferred("y", 2))
    sa, sb, sc = (standard("x", 1), standard("x", 1), standard("y", 2))
    assert repr(a) == repr(sa).replace(standard.__qualname__, deferred.__qualname__)
    assert (a == b, a == c, a != b) == (sa == sb, sa == sc, sa != sb)
    assert (deferred.__hash__ is None) == (standard.__hash__ is None)
    if standard.__hash__ is not None and options.get("eq", True):
        assert (hash(a) == hash(b)) == (hash(sa) == hash(sb))
        assert len({a, b, c}) == len({sa, sb, sc})
    if options.get("order"):
        assert sorted([c, a]) == [a, c] and (a < c, a <= b, c > a, c >= a) == (sa < sc, sa <= sb, sc > sa, sc >= sa)
    if options.get("frozen"):
        with pytest.raises(dataclasses.FrozenInstanceError):
            a.line = 3  # type: ignore[misc]
        with pytest.raises(dataclasses.FrozenInstanceError):
            del a.line  # type: ignore[misc]
    else:
        a.line = 3
        assert a.line == 3
    assert [f.name for f in dataclasses.fields(deferred)] == ["name", "line", "tags"]
    assert dataclasses.replace(c, line=5) == deferred("y", 5) or not options.get("eq", True)
    assert hasattr(deferred, "__slots__") == hasattr(standard, "__slots__")
    assert copy.copy(c).name == "y" and copy.deepcopy(c).line == 2


@needs_deferral
def test_a_method_is_made_at_its_first_call_and_then_takes_the_stub_s_place() -> None:
    _, deferred = _pair({"frozen": True, "slots": True})
    assert deferred.__dict__["__eq__"].__dict__.get("deferred")
    assert deferred("x") == deferred("x")
    assert not deferred.__dict__["__eq__"].__dict__.get("deferred")
    assert deferred.__eq__.__qualname__.endswith("Entry.__eq__")
    assert deferred.__dict__["__setattr__"].__dict__.get("deferred")  # never called: never made


@needs_deferral
def test_a_recursive_repr_is_still_guarded() -> None:
    @dataclass
    class Node:
        children: list[Any]

    node = Node([])
    node.children.append(node)
    first = repr(node)  # made at this call
    assert first == repr(node) == "test_a_recursive_repr_is_still_guarded.<locals>.Node(children=[...])"


@needs_deferral
def test_the_standard_module_is_left_as_it_was_even_when_a_class_is_refused() -> None:
    with pytest.raises(TypeError):
        @dataclass
        class Broken:
            first: int = 0
            second: int  # a field without a default after one with a default

    assert vars(dataclasses)["_create_fn"] is records._CREATE_FN

    @dataclasses.dataclass
    class Plain:
        value: int

    assert not Plain.__dict__["__eq__"].__dict__.get("deferred")


def test_a_subclass_gets_the_base_s_real_methods() -> None:
    @dataclass(frozen=True)
    class Base:
        value: int

    class Child(Base):
        pass

    assert Child(1) == Child(1) and hash(Child(1)) == hash(Base(1)) and Base(2) != Base(3)
