"""An assistant message the OpenAI SDK accumulated from a stream keeps each tool call's
``index``: it is where the call streamed, nothing a user sent, so OpenAI Chat gets it back
as it came (that converting it elsewhere reports nothing for it is the conformance law over
``spelling_twins``, :mod:`providers.openai_chat.spelling_twins`)."""

from __future__ import annotations

import chatcodec
from chatcodec.testing._laws.built_in.openai_chat import accumulated_call_session

FORMAT = "openai-chat"


def test_an_sdk_accumulated_call_index_round_trips() -> None:
    body = accumulated_call_session()
    assert chatcodec.convert_request(body, source=FORMAT, target=FORMAT, on_loss="error") == body
