"""``bench/call_regions.py``: each step's count from the dumps around its calls (the counts
themselves need valgrind and are the bench's), and the wrapper a step is counted through."""

from __future__ import annotations

import pytest

from bench_modules import bench_module as _bench


def test_steps_charge_each_dump_to_the_innermost_step_running() -> None:
    regions = _bench("call_regions")
    dumps = [
        ("C|whole", 100),  # before the conversion: charged to nothing
        ("C|read", 12),  # the whole's own
        ("C|recall", 30),  # read's own
        ("R|recall", 50),  # recall's
        ("R|read", 7),  # read's own
        ("C|recall", 2),  # the whole's own again
        ("R|recall", 22),
        ("R|whole", 5),
    ]
    found = {step.name: step for step in regions.steps(dumps, dump_cost=2)}
    assert found["recall"] == regions.Step("recall", 2, 48 + 20, 48 + 20)
    assert found["read"] == regions.Step("read", 1, 28 + 48 + 5, 28 + 5)
    assert found["whole"] == regions.Step("whole", 1, 10 + 28 + 48 + 5 + 0 + 20 + 3, 10 + 0 + 3)
    assert regions.steps(dumps, dump_cost=2)[0].name == "whole"


def test_a_return_out_of_order_is_refused() -> None:
    regions = _bench("call_regions")
    with pytest.raises(ValueError, match="out of order"):
        regions.steps([("C|read", 1), ("R|write", 1)], dump_cost=0)


def test_a_wrapped_step_dumps_around_its_call_and_keeps_its_result_and_errors() -> None:
    regions = _bench("call_regions")
    labels: list[str] = []

    def half(value: int) -> int:
        if value % 2:
            raise ValueError("odd")
        return value // 2

    counted = regions.wrapped("half", half, labels.append)
    assert counted(4) == 2
    with pytest.raises(ValueError, match="odd"):
        counted(3)
    assert labels == ["C|half", "R|half", "C|half", "R|half"]
    assert counted.__name__ == "half"


def test_every_step_named_is_found_where_its_callers_look() -> None:
    import importlib

    regions = _bench("call_regions")
    for target in regions.STEPS:
        module_name, _, attribute = target.partition(":")
        owner_name, _, name = attribute.rpartition(".")
        module = importlib.import_module(module_name)
        owner = getattr(module, owner_name) if owner_name else module
        assert callable(owner.__dict__[name] if owner_name else getattr(owner, name)), target
