"""Decoding ``chat.completion.chunk`` streams: the one path, driving the shared stream builder.

:class:`StreamDecoder` reads each chunk and tells a :class:`~chatcodec.streams._builder.StreamBuilder`
what it means: it emits events (``decode_stream``) or builds the response (``accumulate_stream``). State is which
canonical part each wire stream feeds, per choice, so work stays linear in the stream.
What it gets right where other libraries did not:

- tool-call fragments are keyed by ``(choice, index)``: parallel calls whose fragments
  interleave never mix (litellm once squashed three calls into ``{...}{...}{...}``, and
  any-llm attached fragments to the wrong call); a fragment carrying a *new* ``id`` at an
  index already in use starts a new call rather than merging into the old one (the
  langchain bug); a call may also arrive whole in one fragment (Groq);
- a fragment for an index never started (no ``id`` and ``name``), or content for a choice
  that already finished, raises :class:`~chatcodec.StreamError` naming the chunk;
- ``content: ""`` and ``refusal: ""`` (OpenAI's first chunk) start nothing by themselves:
  an empty part is only created if nothing fills it, just before the next tool call (or
  refusal) or at the finish, so the parts come out in the non-streamed order (reasoning,
  content, refusal, tool calls) even when the empty content precedes the reasoning;
- an ``error`` object inside a 200 stream (or an ``event: error``) is an
  :class:`~chatcodec.ErrorEvent`, not a crash; OpenRouter's usage chunk with
  ``choices: []``, the ``obfuscation`` padding and n > 1 interleaved choices are handled.

Kept for a proxy to re-encode: the first chunk's ``id``, ``model``, ``created`` and other
chunk fields (``system_fingerprint``, ``service_tier``, OpenRouter ``provider``, Groq
``x_groq``) on :class:`~chatcodec.ResponseStartEvent`; a text chunk's ``logprobs`` as its text
delta's tokens, other chunk extras (Groq ``channel``) on the delta event they came with; chunk fields that change
later (Groq's final ``x_groq``) as ``_chunk`` on the finish or usage event; the finishing
choice's own fields (OpenRouter ``native_finish_reason``, ``logprobs``) and the marker of a
compatible server's finish word (``_finish_reason``) as the finish event's
``choice_metadata``, so they land in the choice's bag as the non-streamed decoder puts
them; the ``delta.annotations`` of every chunk (beside their text, on a chunk of their own or on the
finish chunk) the open text's citations at the finish (:mod:`.citations`), its other ``delta``
fields the message's bag, on a ``ChoiceMetadataEvent``. Dropped, as meaningless after parsing: ``obfuscation``,
``delta.role``, ``null`` values, the ``reasoning`` text OpenRouter repeats from ``reasoning_details``.

Validation is strict and per chunk. Nearly every chunk of a stream only continues an open
part: one choice, one delta field, no finish, no usage. :meth:`StreamDecoder._read_batch` checks
that shape by hand, every value the wire adapter types being of exactly its type (the
envelope by equality with the first chunk's, which the adapter checked), and appends the
delta; that is all the general reading below would do with such a chunk. Any other chunk
is checked by one closed schema of the common shapes
(:mod:`~chatcodec._providers.openai_chat.stream_chunk`, about half the wire adapter's cost)
or, when that refuses it, by the wire adapter, whose errors name the chunk (``$[n]``) and
the path.
"""

from __future__ import annotations

from collections.abc import Iterable
from functools import partial
from operator import itemgetter
from typing import Any

from chatcodec import StreamError
from chatcodec._providers.openai_chat import citations, logprobs, reasoning, stream_indexes
from chatcodec._providers.openai_chat.finish_reason import decode_finish_reason
from chatcodec._providers.openai_chat.logprobs import join_logprobs
from chatcodec._providers.openai_chat.markers import PROVIDER
from chatcodec._providers.openai_chat.null_spelling import documented_nulls, nulls_as_spelling
from chatcodec._providers.openai_chat.stream_calls import CustomCall, call_bag, continues_call
from chatcodec._providers.openai_chat.stream_choice import ChoiceState, continued_reasoning
from chatcodec._providers.openai_chat.stream_chunk import error_event, part_event, usage_model, validated_chunk
from chatcodec._providers.openai_chat.stream_keys import CHUNK_OBJECT, DELTA_KEYS
from chatcodec._providers.openai_chat.usage import decode_usage
from chatcodec.codec_kit import (
    FeedByReading,
    as_dict,
    as_list,
    mark_absent,
    plain_usage,
    read_event,
    read_in_batches,
    read_one_event,
)
from chatcodec.codec_kit import leftovers as rest
from chatcodec.contract import (
    AnyStreamRecord,
    DecodeContext,
    PartBuilder,
    StreamBuilder,
    ThinkingDeltaRecord,
    ThinkingSignatureDeltaRecord,
)

_CHUNK_KEYS = ("id", "created", "model", "choices", "usage", "obfuscation")
_DELTA_KEY_SET = frozenset(DELTA_KEYS)

_CHOICE_KEYS = frozenset({"index", "delta", "finish_reason", "logprobs"})
_ENVELOPE = itemgetter("id", "object", "created", "model")
_CHOICE = itemgetter("index", "delta", "finish_reason")
_FRAGMENT = itemgetter("index", "function")


STREAM_END = "a chunk with a finish_reason"
"""Each choice's last chunk carries its ``finish_reason``; ``data: [DONE]`` follows
(platform.openai.com/docs/api-reference/chat-streaming), which the SSE reader stops at and
an SDK never yields, so the finish of every choice is what says the stream is whole."""


class StreamDecoder(FeedByReading):
    """Push-style decoding: feed chunks as they arrive (from a sync or async source).

    ``builder`` receives what the chunks mean; by default one that emits canonical events,
    which :meth:`feed` returns.
    """

    def __init__(self, builder: StreamBuilder | None = None, context: DecodeContext | None = None) -> None:
        self.builder: StreamBuilder = builder if builder is not None else StreamBuilder(emit=True)
        self.context: DecodeContext = context if context is not None else DecodeContext(PROVIDER)
        """The decode's shared state (:class:`~chatcodec._providers.contract.context.DecodeContext`)."""
        self._count = 0
        self._start: dict[str, Any] | None = None
        self._envelope: tuple[Any, ...] | None = None
        self._choices: dict[int, ChoiceState] = {}
        self._extras: dict[str, Any] | None = None  # for the choice's first delta or finish
        self._tokens: tuple[list[dict[str, Any]], object] | None = None  # the chunk's, for its text delta
        self._chunk: dict[str, Any] | None = None  # whose changed fields go on its first finish or usage

    def close(self) -> list[AnyStreamRecord]:
        """Parts a cut-off stream left open stay as they are; a custom tool call it cut
        off is given as far as it came."""
        for number, state in self._choices.items():
            self._flush_custom(state, number)
            if state.annotations:  # a choice cut off before its finish keeps what its deltas cited
                self.builder.choice_data(number, message_metadata={PROVIDER: {"annotations": state.annotations}})
        unfinished = [number for number, state in sorted(self._choices.items()) if not state.finished]
        if self._choices and not unfinished:
            self.builder.end()
        self.builder.stream_closed(f"a finish_reason for choice {unfinished[0]}" if unfinished else STREAM_END)
        return self.builder.take_events()

    def read(self, events: Iterable[dict[str, Any]]) -> None:
        """Read wire chunks into the builder (the whole stream, for ``accumulate_stream``),
        a batch at a time up to the next compaction, so no chunk pays for the count."""
        read_in_batches(events, lambda: self._count, self._read_batch, self.builder)

    def feed(self, event: dict[str, Any]) -> list[AnyStreamRecord]:
        """The canonical events for one chunk (:meth:`read` of it, without the batching)."""
        read_one_event(event, self._count + 1, self._read_batch, self.builder)
        return self.builder.take_events()

    def _read_batch(self, events: Iterable[dict[str, Any]], first: int) -> int:
        """Read ``events``, the first being chunk number ``first`` (from 1); how many there were.

        A chunk that only continues an open part (see the module docstring) is read here,
        flat, as it is nearly every chunk: each check is one the wire adapter or the
        general reading would make of such a chunk, and the delta is appended. Any other
        chunk, or one that fails a check, is read by :meth:`_read`. (``x.__class__ is
        dict`` is ``type(x) is dict`` that leaves a value typed ``Any`` for the checkers.)
        """
        count, envelope, states = first - 1, self._envelope, self._choices
        for count, event in enumerate(events, first):
            try:
                (wire_choice,) = event["choices"]
                number, delta, finish = _CHOICE(wire_choice)
                if (
                    finish is None
                    and delta.__class__ is dict
                    and len(delta) == 1
                    and number.__class__ is int
                    and wire_choice.__class__ is dict
                    and event.__class__ is dict
                    and _ENVELOPE(event) == envelope
                    and event["created"].__class__ is int
                    and event.get("usage") is None
                    and "error" not in event
                    and ((len(wire_choice) == 4 and wire_choice["logprobs"] is None) or len(wire_choice) == 3)
                    and (state := states.get(number)) is not None
                ):
                    content = delta.get("content")
                    if content is not None:
                        part = state.text
                        if part is None and not state.finished and content.__class__ is str and content:
                            part = self._text(state, number)  # the text's first delta opens it
                    elif (calls := delta.get("tool_calls")).__class__ is list:  # one fragment of a known call
                        (fragment,) = calls
                        key, function = _FRAGMENT(fragment)
                        content = function["arguments"]
                        known = state.tools.get(key)
                        part = None
                        if (
                            known
                            and key.__class__ is int
                            and fragment.__class__ is dict
                            and function.__class__ is dict
                            and (
                                (len(fragment) == 2 and len(function) == 1) or continues_call(known, fragment, function)
                            )
                        ):
                            part = known[0]
                    else:
                        part, content = continued_reasoning(state, delta)
                    if part is not None and content.__class__ is str and content:
                        part.append(content)
                        continue
            except (KeyError, TypeError, ValueError):  # not the shape of a continuing chunk
                pass
            self._count = count
            read_event(partial(self._read, position=count - 1), event, count - 1)
            envelope = self._envelope
        self._count = count
        return count - first + 1

    # --- any chunk ---------------------------------------------------------------------

    def _read(self, event: dict[str, Any], position: int) -> None:
        if "error" in event:
            self.builder.error(error_event(event["error"]))
            if "choices" not in event:
                return
        chunk = validated_chunk(event, position)
        if self._start is None:
            self._open_response(chunk)
        self._chunk = chunk
        for index, wire_choice in enumerate(chunk["choices"]):
            self._choice(wire_choice, (position, index))
        if isinstance(chunk.get("usage"), dict):
            counts = decode_usage(chunk["usage"])
            # Plain counts need no model (the builder keeps them as they are); anything else
            # is validated here, so a refusal is the same event error as ever.
            usage = counts if plain_usage(counts) is not None else usage_model(counts)
            self.builder.usage(usage, self._late_fields())
        self._chunk = None

    def _open_response(self, chunk: dict[str, Any]) -> None:
        """The first chunk opens the response; its fields are what later ones are compared to."""
        self._start = rest(chunk, _mapped(chunk))
        if "id" in chunk and "object" in chunk and "created" in chunk and "model" in chunk:
            self._envelope = _ENVELOPE(chunk)
        bag = documented_nulls(dict(self._start), "ChatCompletionChunk")  # a server's empty extras: spelling
        mark_absent(bag, chunk, "id", "object", "created", "model")
        self.builder.start(
            id=chunk.get("id"),
            model=chunk.get("model"),
            created=chunk.get("created"),
            metadata={PROVIDER: bag} if bag else None,
        )

    def _late_fields(self) -> dict[str, dict[str, Any]] | None:
        """On the chunk's first finish or usage, the chunk fields that changed since the
        first chunk (``_chunk``), as the event's (response-level) metadata."""
        chunk, self._chunk = self._chunk, None
        if chunk is not None and self._start is not None:
            start = self._start
            late = {key: value for key, value in rest(chunk, _mapped(chunk)).items() if start.get(key, ...) != value}
            if late:
                return {PROVIDER: {"_chunk": late}}
        return None

    def _choice(self, wire_choice: dict[str, Any], where: tuple[int, int]) -> None:
        number: int = wire_choice["index"]
        state = self._choices.get(number)
        if state is None:
            state = self._choices[number] = ChoiceState()
        delta: dict[str, Any] = wire_choice["delta"]
        finish = wire_choice.get("finish_reason")
        state.check_role(number, delta.get("role"), where)
        if state.finished:
            self._after_finish(state, number, wire_choice, where)
            return
        extras = _extras(wire_choice, delta)  # a delta's annotations wait for the finish (.citations)
        self._extras = None if extras is None else citations.take_annotations(extras, state.annotations)
        self._tokens = None
        if self._extras is not None:
            state.extras.update(self._extras)
            self._tokens = state.chunk_tokens(self._extras, delta)  # a text chunk's, for its delta (_append)
            self._extras = self._extras or None
        if delta.get(reasoning.BLOCKS):
            delta = self._blocks(state, number, delta)
        if "reasoning_content" in delta or "reasoning" in delta or "reasoning_details" in delta:
            self._reasoning(state, number, delta)
        if "content" in delta:
            self._content(state, number, delta["content"])
        if "refusal" in delta:
            self._refusal(state, number, delta["refusal"])
        for index, fragment in enumerate(delta.get("tool_calls") or ()):
            self._tool_call(state, number, fragment, (*where, index))
        if self._tokens is not None:  # no text delta took them: the finish gives them
            state.logprobs = join_logprobs(state.logprobs, self._tokens[1])
            self._tokens = None
        if isinstance(finish, str):
            self._finish(state, number, finish)
        self._extras = None

    def _after_finish(
        self, state: ChoiceState, number: int, wire_choice: dict[str, Any], where: tuple[int, int]
    ) -> None:
        """A chunk for a choice that already finished: benign when it only repeats the
        finish (OpenRouter puts ``finish_reason`` again on its trailing usage-only chunk,
        with an empty ``content``); content or another finish word is an error. Fields of
        the choice that are new on the repeat (not ``null``, not seen at the finish) are
        carried by a repeated finish event, so nothing is dropped."""
        delta: dict[str, Any] = wire_choice["delta"]
        finish = wire_choice.get("finish_reason")
        if _has_payload(delta):
            raise StreamError(f"choice {number} continues after its finish_reason", _at(where, "delta"), where[0])
        if finish is not None and finish != state.finish_word:
            message = f"choice {number} finished again with {finish!r} after {state.finish_word!r}"
            raise StreamError(message, _at(where, "finish_reason"), where[0])
        extras = _extras(wire_choice, delta)
        new = {key: value for key, value in (extras or {}).items() if state.extras.get(key, ...) != value}
        if new and state.finish_word is not None:
            state.extras.update(new)
            self._extras = new
            self._finish(state, number, state.finish_word)

    def _append(self, part: PartBuilder, text: str) -> None:
        """A delta; the first of a choice carries the choice's extras, a text delta the
        chunk's tokens (:func:`.stream_calls.text_tokens`)."""
        tokens = None
        if self._tokens is not None and part.kind == "text":
            tokens, self._tokens = self._tokens[0], None
        if self._extras is None and tokens is None:
            part.append(text)
        else:
            self.builder.delta(part, text, {PROVIDER: self._extras} if self._extras else None, logprobs=tokens)
            self._extras = None

    # --- reasoning ---------------------------------------------------------------------

    def _reasoning(self, state: ChoiceState, number: int, delta: dict[str, Any]) -> None:
        content = delta.get("reasoning_content")
        details: list[dict[str, Any]] = delta.get("reasoning_details") or []
        copied = reasoning.repeated_reasoning(delta.get("reasoning"), content, details)
        if isinstance(content, str):  # "" opens the part, as the non-streamed message's "" is one
            self._thinking_text(state, number, "reasoning_content", content)
        if isinstance(delta.get("reasoning"), str) and delta["reasoning"] and not copied:
            self._thinking_text(state, number, "reasoning", delta["reasoning"])
        for position, fragment in enumerate(details):
            self._detail(state, number, fragment, position)

    def _blocks(self, state: ChoiceState, number: int, delta: dict[str, Any]) -> dict[str, Any]:
        """Read litellm's ``thinking_blocks`` fragments into thinking parts as
        :func:`~chatcodec._providers.openai_chat.reasoning.decode_block` reads a whole
        message's entries: a fragment's ``thinking`` continues the open block, its
        ``signature`` or another ``index`` ends it, a ``redacted_thinking`` one is a whole
        part. A ``reasoning_content`` beside a fragment, equal to its text, repeats it and
        is not read again (the delta without it is returned); a block
        opened so is marked as repeated there (``_also``) as the non-streamed reader marks
        it, unless reasoning text of its own came first (then the whole message's
        ``reasoning_content`` is more than the blocks' text, and the reader marks none)
        (https://docs.litellm.ai/docs/reasoning_content)."""
        fragments: list[dict[str, Any]] = delta[reasoning.BLOCKS]
        content = delta.get("reasoning_content")
        copied = False
        for entry in fragments:
            fragment, key = stream_indexes.framed(entry)
            state.block, state.block_key = (None if key not in (None, state.block_key) else state.block), key
            redacted = fragment.get("type") == "redacted_thinking"
            text = "" if redacted else fragment.get("thinking", "")
            repeated = isinstance(content, str) and content == text
            copied |= repeated
            # the whole message's reasoning_content is only a copy when no text of its own came first
            also = {"_also": ["reasoning_content"]} if repeated and "reasoning_content" not in state.thinking else {}
            if redacted:
                state.block = None
                part = {**reasoning.decode_block(fragment)}
                part["provider_metadata"][PROVIDER].update(also)
                self.builder.whole(part_event({"index": state.take(), "choice": number, "part": part}))
                continue
            block = state.block
            if block is None:
                bag = {reasoning.BLOCK: True, **rest(fragment, ("type", "thinking", "signature")), **also}
                metadata = {PROVIDER: bag}
                provider = reasoning.BLOCK_PROVIDER
                block = self.builder.open_thinking(number, state.take(), provider=provider, metadata=metadata)
                state.block = block
                state.open.append(block)
            if text:
                self._append(block, text)
            signature = fragment.get("signature")
            if isinstance(signature, str):  # an empty signature is still one, as in a whole message
                self._signature(block, signature)
                state.block = None
        return {key: value for key, value in delta.items() if key != "reasoning_content"} if copied else delta

    def _thinking_text(self, state: ChoiceState, number: int, field: str, text: str, **bag: Any) -> None:
        part = state.thinking.get(field)
        if part is None:
            metadata = {PROVIDER: {"field": field, **bag}}
            part = self.builder.open_thinking(number, state.take(), provider=PROVIDER, metadata=metadata)
            state.thinking[field] = part
            state.open.append(part)
        if text:
            self._append(part, text)

    def _detail(self, state: ChoiceState, number: int, fragment: dict[str, Any], position: int) -> None:
        key = fragment["index"] if isinstance(fragment.get("index"), int) else position
        kind = fragment.get("type")
        if key not in state.details:
            if kind == "reasoning.encrypted":
                index = state.take()
                state.details[key] = index
                part = reasoning.decode_detail(fragment)
                self.builder.whole(part_event({"index": index, "choice": number, "part": part}))
                return
            bag = {"field": reasoning.DETAILS, **rest(fragment, ("text", "summary", "signature", "data"))}
            text_key = "summary" if kind == "reasoning.summary" else "text"
            if text_key not in fragment:  # a signature-only entry, as reasoning.decode_detail marks it
                bag["_absent"] = [text_key]
            provider = reasoning.detail_provider(fragment)
            thinking = self.builder.open_thinking(number, state.take(), provider=provider, metadata={PROVIDER: bag})
            state.details[key] = thinking
            state.open.append(thinking)
        target = state.details[key]
        text = fragment.get("summary" if kind == "reasoning.summary" else "text")
        if isinstance(text, str) and text:
            self._detail_text(target, number, text, ThinkingDeltaRecord)
        if isinstance(fragment.get("signature"), str) and fragment["signature"]:
            self._detail_text(target, number, fragment["signature"], ThinkingSignatureDeltaRecord)
        if isinstance(fragment.get("data"), str) and kind != "reasoning.encrypted":
            state.encrypted[target if isinstance(target, int) else target.index] = fragment["data"]

    def _detail_text(
        self,
        target: PartBuilder | int,
        number: int,
        text: str,
        event_class: type[ThinkingDeltaRecord] | type[ThinkingSignatureDeltaRecord],
    ) -> None:
        """Reasoning text or signature for an entry's part; an encrypted entry's part is
        complete, so text for it is an event the builder refuses when building."""
        if isinstance(target, int):
            extras, self._extras = self._extras, None
            metadata = {PROVIDER: extras} if extras is not None else None
            self.builder.add(event_class(index=target, choice=number, delta=text, provider_metadata=metadata))
        elif event_class is ThinkingSignatureDeltaRecord:
            self._signature(target, text)
        else:
            self._append(target, text)

    def _signature(self, part: PartBuilder, text: str) -> None:
        extras, self._extras = self._extras, None
        self.builder.signature(part, text, {PROVIDER: extras} if extras is not None else None)

    # --- content, refusal, tool calls ----------------------------------------------------

    def _content(self, state: ChoiceState, number: int, content: object) -> None:
        listed = as_list(content)
        if listed is not None:  # Mistral: text and thinking parts
            for item in listed:
                self._content_part(state, number, item)
        elif isinstance(content, str) and content:
            self._append(self._text(state, number), content)
        elif content == "" and state.text is None:
            state.pending_text = True

    def _content_part(self, state: ChoiceState, number: int, item: dict[str, Any]) -> None:
        match item.get("type"):
            case "text":
                self._content(state, number, item["text"])
            case "thinking":  # its index is where it goes in the stream, not its data (.stream_indexes)
                extra = rest(item, ("type", "thinking", "index"))
                text = reasoning.chunk_text(item["thinking"])
                self._thinking_text(state, number, reasoning.CONTENT, text, **extra)
            case _:
                part = {"type": "opaque", "provider": PROVIDER, "data": item}
                self.builder.whole(part_event({"index": state.take(), "choice": number, "part": part}))

    def _text(self, state: ChoiceState, number: int) -> PartBuilder:
        if state.text is None:
            state.text = self.builder.open_text(number, state.take())
            state.open.append(state.text)
        state.pending_text = False
        return state.text

    def _refusal(self, state: ChoiceState, number: int, refusal: object) -> None:
        if not isinstance(refusal, str):
            return
        if refusal == "" and state.refusal is None:
            state.pending_refusal = True
            return
        if refusal:
            self._settle(state, number, refusal=False)
            self._append(self._refusal_part(state, number), refusal)

    def _refusal_part(self, state: ChoiceState, number: int) -> PartBuilder:
        if state.refusal is None:
            state.refusal = self.builder.open_refusal(number, state.take())
        state.pending_refusal = False
        return state.refusal

    def _settle(self, state: ChoiceState, number: int, *, refusal: bool) -> None:
        """Create the empty parts announced by ``""`` now that their place is known."""
        if state.pending_text and state.text is None:
            self._text(state, number)
        if refusal and state.pending_refusal and state.refusal is None:
            self._append(self._refusal_part(state, number), "")

    def _tool_call(
        self, state: ChoiceState, number: int, fragment: dict[str, Any], where: tuple[int, int, int]
    ) -> None:
        key: int = fragment["index"]
        if fragment.get("type") == "custom" or (key in state.custom and fragment.get("type") is None):
            self._custom_call(state, number, fragment, where)
            return
        function: dict[str, Any] = fragment.get("function") or {}
        call_id, name = fragment.get("id"), function.get("name")
        known = state.tools.get(key)
        if known is None or (call_id and call_id != known[1]):
            if not isinstance(call_id, str) or not isinstance(name, str):
                message = f"tool-call fragment for index {key}, which was never started (no id and name)"
                raise StreamError(message, _at(where[:2], f"delta.tool_calls[{where[2]}]"), where[0])
            self._settle(state, number, refusal=True)
            self._flush_custom(state, number)  # calls stream one after another: it is complete
            metadata = call_bag(fragment, function)
            part = self.builder.open_tool_call(number, state.take(), id=call_id, name=name, metadata=metadata)
            state.open.append(part)
            state.tools[key] = known = (part, call_id, name)
        elif name and name != known[2]:
            message = f"tool call {known[1]!r} changed its name from {known[2]!r} to {name!r}"
            raise StreamError(message, _at(where[:2], f"delta.tool_calls[{where[2]}].function.name"), where[0])
        arguments = function.get("arguments")
        if isinstance(arguments, str) and arguments:
            self._append(known[0], arguments)

    def _custom_call(
        self, state: ChoiceState, number: int, fragment: dict[str, Any], where: tuple[int, int, int]
    ) -> None:
        key: int = fragment["index"]
        custom = as_dict(fragment.get("custom")) or {}
        call_id = fragment.get("id")
        known = state.custom.get(key)
        if known is None or (call_id and call_id != known.id):
            if not isinstance(call_id, str) or not isinstance(custom.get("name"), str):
                message = f"custom tool-call fragment for index {key}, which was never started (no id and name)"
                raise StreamError(message, _at(where[:2], f"delta.tool_calls[{where[2]}]"), where[0])
            self._flush_custom(state, number)
            self._settle(state, number, refusal=True)
            known = state.custom[key] = CustomCall(state.take(), fragment)
        text = custom.get("input")
        if isinstance(text, str):
            known.inputs.append(text)
        elif text is not None:
            message = f"custom tool call {known.id!r}: input must be text"
            raise StreamError(message, _at(where[:2], f"delta.tool_calls[{where[2]}].custom.input"), where[0])

    def _flush_custom(self, state: ChoiceState, number: int) -> None:
        """Give the custom call being gathered as a whole part: the next call began (calls
        stream one after another), the choice finished, or the stream ended."""
        for _, call in sorted(state.custom.items()):
            event = part_event({"index": call.index, "choice": number, "part": call.part()})
            self.builder.whole(event)
        state.custom = {}

    def _finish(self, state: ChoiceState, number: int, finish: str) -> None:
        extras, self._extras = self._extras, None  # the finishing choice's, not the empty part settled here
        called = bool(state.tools or state.custom)  # calls are kept to the finish, a custom one to the next call
        cited, bag_of_text, extras = citations.finish_citations(extras, state.open, state.annotations)
        self._settle(state, number, refusal=True)
        self._flush_custom(state, number)
        for part in state.open:
            encrypted = state.encrypted.get(part.index) if part.kind == "thinking" else None
            cites, bag_of = (cited, bag_of_text) if part.kind == "text" else (None, None)
            self.builder.close(part, encrypted=encrypted, metadata=bag_of, citations=cites)
        state.open = []
        state.finished = True
        state.text = state.refusal = None  # nothing continues a finished choice
        state.thinking, state.tools, state.block, state.annotations = {}, {}, None, []
        state.finish_word = finish
        bag: dict[str, Any] = {}  # the choice's: the finish word's marker, the chunk's choice extras
        reason = decode_finish_reason(finish, bag, has_tool_calls=called) or {}
        bag.update(extras or {})
        message_fields = bag.pop("delta", None)
        if message_fields is not None:  # the finish chunk's delta: the message's own fields
            self.builder.choice_data(
                number, message_metadata={PROVIDER: nulls_as_spelling(dict(message_fields), answer=True)}
            )
        tokens = logprobs.take_choice_logprobs(bag, state.logprobs)  # those no text delta carried
        tokens = None if tokens == [] and state.streamed_tokens else tokens  # OpenAI's first chunk's "content": []
        choice_metadata = {PROVIDER: bag} if bag else None
        self.builder.finish(number, reason, self._late_fields(), choice_metadata=choice_metadata, logprobs=tokens)


def _extras(wire_choice: dict[str, Any], delta: dict[str, Any]) -> dict[str, Any] | None:
    """A choice's and its delta's unmapped fields that are not ``null`` (``logprobs``,
    Groq ``channel``), or None when there are none, as in nearly every chunk."""
    extras: dict[str, Any] = {}
    if not wire_choice.keys() <= _CHOICE_KEYS or wire_choice.get("logprobs") is not None:
        choice_rest = rest(wire_choice, ("index", "delta", "finish_reason"))
        extras = {key: value for key, value in choice_rest.items() if value is not None}
    if not delta.keys() <= _DELTA_KEY_SET:
        read = (*DELTA_KEYS, reasoning.BLOCKS) if delta.get(reasoning.BLOCKS) else DELTA_KEYS
        delta_extras = {key: value for key, value in rest(delta, read).items() if value is not None}
        if delta_extras:
            extras["delta"] = delta_extras
    return extras or None


def _mapped(chunk: dict[str, Any]) -> tuple[str, ...]:
    """Chunk keys that never reach a bag (``object`` only when it is the chunk object)."""
    return _CHUNK_KEYS if chunk.get("object") != CHUNK_OBJECT else (*_CHUNK_KEYS, "object")


def _has_payload(delta: dict[str, Any]) -> bool:
    return any(delta.get(key) for key in DELTA_KEYS if key != "role") or bool(delta.get(reasoning.BLOCKS))


def _at(where: tuple[int, int], rest_of_path: str) -> str:
    return f"$.choices[{where[1]}].{rest_of_path}"
