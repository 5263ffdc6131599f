"""``chatcodec convert`` lines and the one-pass sides (issue 25, dataset CLI on the fast path).

:func:`chatcodec.batch.convert_payload` gave a request line (JSON bytes) to the one pass
when the source's one-pass side declined every body :func:`chatcodec.detect.mismatch`
refuses (``DECLINES_OTHER_FORMATS``). Only OpenAI Chat's side did, and OpenAI Chat now
reads and writes canonical data with one reader and one writer (issue 29): its lines go
through the format check and ``convert_request``, which reads them in one pass, without a
model (``tests/test_first_use.py``). What stays here is the registry's look-up of a side.
"""

from __future__ import annotations

import chatcodec
from chatcodec import one_pass
from chatcodec.registry import PROVIDER_NAMES, get_one_pass


def test_no_built_in_side_declares_it_declines_other_formats() -> None:
    """The batch's one-pass shortcut has no built-in source left (see the module docstring)."""
    sides = [get_one_pass(name) for name in PROVIDER_NAMES]
    assert [side for side in sides if getattr(side, "DECLINES_OTHER_FORMATS", False)] == []


def test_a_codec_registered_after_a_one_pass_lookup_gives_its_own_side() -> None:
    """The registry looks each name's one-pass side up once; registering a codec under
    the name again (a custom codec replacing a built-in) forgets it, and unregistering
    brings the built-in side back."""
    name = next(name for name in PROVIDER_NAMES if get_one_pass(name) is not None)
    built_in = get_one_pass(name)
    assert get_one_pass(name) is built_in
    chatcodec.register_codec(name, lambda: chatcodec.get_codec("canonical"))
    try:
        assert get_one_pass(name) is None  # the canonical codec has no one-pass side
        assert one_pass.convert_request({"model": "m", "messages": []}, name, "openai-chat") is None
    finally:
        chatcodec.unregister_codec(name)
    assert get_one_pass(name) is built_in
