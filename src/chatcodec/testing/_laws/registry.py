"""How a law is declared and run: :func:`law` registers a function with the cases it takes
from a :class:`~chatcodec.testing._laws.suite.Suite`, and :func:`law_cases` makes one
:class:`LawCase` per case, ordered so that every case over one codec comes before any case
over two (a bug in one codec's field fails its single-codec law first, before every pair law
that crosses it repeats it).

No law depends on pytest: a case is a callable that raises when the law does not hold, so the
same cases run under pytest (the repository's ``tests/conformance``, a codec's own test suite)
and under ``chatcodec check-codec`` (which counts and prints them).
"""

from __future__ import annotations

from collections.abc import Callable, Generator, Iterable, Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass
from typing import Any, TypeVar

from hypothesis import settings

from chatcodec._public_label import shown_as
from chatcodec.testing._laws.entry import ProviderEntry
from chatcodec.testing._laws.suite import Suite

LawFunction = TypeVar("LawFunction", bound=Callable[..., None])

Cases = Callable[[Suite], Iterable[object]]
"""The cases of a law over a suite: each a tuple of arguments, or one argument."""


@dataclass(frozen=True)
class _Law:
    module: str
    function: Callable[..., None]
    cases: Cases


_LAWS: list[_Law] = []


def law(cases: Cases) -> Callable[[LawFunction], LawFunction]:
    """Declare a law: ``function(*case)`` for every case ``cases(suite)`` gives."""

    def declare(function: LawFunction) -> LawFunction:
        _LAWS.append(_Law(function.__module__.rpartition(".")[2], function, cases))
        return function

    return declare


def _label(value: object) -> str:
    return value.name if isinstance(value, ProviderEntry) else str(value)


@dataclass(frozen=True)
class LawCase:
    """One law over one case: ``run()`` returns when the law holds and raises when it does not."""

    id: str
    """``module::law[case]``, as pytest would name it."""
    codecs: tuple[str, ...]
    """The codecs the case is over (one, or two for a law across codecs)."""
    run: Callable[[], None]

    def __str__(self) -> str:
        return self.id


def _codecs(arguments: tuple[object, ...], suite: Suite) -> tuple[str, ...]:
    names = [
        argument.name if isinstance(argument, ProviderEntry) else argument
        for argument in arguments
        if isinstance(argument, ProviderEntry) or (isinstance(argument, str) and argument in suite.by_name)
    ]
    return tuple(dict.fromkeys(names))


def _cases_of(declared: _Law, suite: Suite) -> Iterator[LawCase]:
    name = declared.function.__name__
    for case in declared.cases(suite):
        arguments: tuple[Any, ...] = _arguments(case)
        label = "-".join(_label(argument) for argument in arguments)
        run: Callable[[], None] = _bound(declared.function, arguments)
        yield LawCase(f"{declared.module}::{name}[{label}]", _codecs(arguments, suite), run)


def _arguments(case: object) -> tuple[Any, ...]:
    """A case's arguments: a tuple of them, or one."""
    if isinstance(case, tuple):
        spread: tuple[Any, ...] = case  # pyright: ignore[reportUnknownVariableType]
        return spread
    return (case,)


def _bound(function: Callable[..., None], arguments: tuple[Any, ...]) -> Callable[[], None]:
    def run() -> None:
        function(*arguments)

    return run


def law_cases(entries: Sequence[ProviderEntry], *, only: str | None = None) -> list[LawCase]:
    """Every shipped law's cases over ``entries`` (the codecs' facts), those over one codec
    first; with ``only``, the cases over that codec (alone, or with another of ``entries``)."""
    from chatcodec.testing._laws.every_law import import_every_law

    import_every_law()
    suite = Suite.of(entries)
    cases = [case for declared in _LAWS for case in _cases_of(declared, suite)]
    if only is not None:
        cases = [case for case in cases if only in case.codecs]
    return sorted(cases, key=lambda case: min(len(case.codecs), 2))


def seed_every_law(seed: int) -> None:
    """Draw every declared law's examples from ``seed`` (``chatcodec check-codec --seed``):
    the same seed draws the same examples, another seed others (Hypothesis's ``seed``)."""
    from hypothesis import seed as seeded

    for declared in _LAWS:
        seeded(seed)(declared.function)


def at_least(floor: int) -> settings:
    """Hypothesis settings of at least ``floor`` examples under a profile of a quarter of it
    or more (the test suite's 25, check-codec's 100), the profile's own under a longer one; a
    smaller profile (a quick pass over every built-in) scales the floor down with it."""
    profile: Any = settings()  # the loaded one
    loaded: int = profile.max_examples
    return settings(max_examples=max(min(floor, 4 * loaded), loaded), deadline=None)


@contextmanager
def raises(kind: type[BaseException], match: str | None = None) -> Generator[list[BaseException]]:
    """The laws' ``pytest.raises``: the block must raise ``kind`` (with ``match`` in its text);
    the list holds what it raised."""
    raised: list[BaseException] = []
    try:
        yield raised
    except kind as error:
        if match is not None and match not in str(error):
            raise AssertionError(f"{kind.__name__} without {match!r}: {error}") from error
        raised.append(error)
        return
    raise AssertionError(f"did not raise {kind.__name__}")


shown_as("chatcodec.testing", LawCase, law_cases)
