"""Running the laws over one installed codec: what ``chatcodec check-codec NAME`` and a codec's
own test suite call.

:func:`codec_law_cases` is the pytest entry (parametrize a test over it and call
``case.run()``); :func:`check_codec` runs them all and says which failed, for the command line.
"""

from __future__ import annotations

from collections.abc import Iterator

from chatcodec._public_label import shown_as
from chatcodec.testing._laws.derived_entry import derived_entry
from chatcodec.testing._laws.entry import ProviderEntry
from chatcodec.testing._laws.installed_entry import stated_entry
from chatcodec.testing._laws.registry import LawCase, law_cases


def codec_law_cases(name: str, entry: ProviderEntry | None = None) -> list[LawCase]:
    """Every law's cases over the installed codec ``name``, with the facts ``entry`` states
    (its recordings, SDK oracles, documented rewrites). Without ``entry``, the one its
    distribution states under the ``chatcodec.laws`` entry point group, else only what the
    codec itself gives. For a codec's own test suite::

        @pytest.mark.parametrize("case", codec_law_cases("my-codec"), ids=str)
        def test_law(case: LawCase) -> None:
            case.run()
    """
    subject = entry if entry is not None else stated_entry(name) or derived_entry(name)
    assert subject.name == name, f"the entry is {subject.name!r}'s, not {name!r}'s"
    return law_cases([subject], only=name)


def check_codec(name: str, entry: ProviderEntry | None = None) -> Iterator[tuple[LawCase, BaseException | None]]:
    """Run every law case over ``name`` (:func:`codec_law_cases`), giving each with what it
    raised (None when the law holds)."""
    for case in codec_law_cases(name, entry):
        try:
            case.run()
        except Exception as error:
            yield case, error
        else:
            yield case, None


shown_as("chatcodec.testing", codec_law_cases, check_codec)
