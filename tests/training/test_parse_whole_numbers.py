"""A ``number`` parameter the model wrote as a whole number with a fraction (``3.0``).

The servers disagree. vLLM's Qwen3-Coder parser (``vllm/tool_parsers/qwen3coder_tool_parser.py``,
``Qwen3CoderToolParser._convert_param_value``, read at commit 00d0a333ba9b) reads a ``num*`` or
``float*`` type with ``float(value)`` and returns ``int(...)`` when the fraction is zero:
``3.0`` becomes ``3``. SGLang's (``python/sglang/srt/function_call/qwen3_coder_detector.py``,
``Qwen3CoderDetector._convert_param_value``, read at commit 048a57e8f7b0) converts to an integer
only when the text holds no ``.`` and no ``e``: ``3.0`` stays ``3.0``.

chatcodec reads what the model sampled: the text ``3.0`` is the JSON number ``3.0``, as
SGLang keeps it. Training needs the answer the model wrote: the template writes a parameter's
value back as its text, so ``3.0`` renders the sampled ``3.0`` in the next prompt, where vLLM's
``3`` would respell the model's answer (docs/training.md, "Arguments are the model's text").
"""

from __future__ import annotations

import json

import chatcodec

TOOLS = [
    {
        "type": "function",
        "function": {
            "name": "heat",
            "parameters": {
                "type": "object",
                "properties": {"degrees": {"type": "number"}, "steps": {"type": "integer"}},
            },
        },
    }
]


def _call(degrees: str, steps: str = "2") -> str:
    return (
        "<tool_call>\n<function=heat>\n"
        f"<parameter=degrees>\n{degrees}\n</parameter>\n<parameter=steps>\n{steps}\n</parameter>\n"
        "</function>\n</tool_call><|im_end|>"
    )


def _arguments(raw: str) -> tuple[str, dict[str, object]]:
    message = chatcodec.parse_completion(raw, parser="qwen3_coder", tools=TOOLS, on_loss="ignore")
    content = message.content
    assert isinstance(content, list)
    (call,) = content
    assert isinstance(call, chatcodec.ToolUsePart)
    assert isinstance(call.arguments, str)
    return call.arguments, json.loads(call.arguments)


def test_a_whole_number_written_with_a_fraction_stays_as_written() -> None:
    text, values = _arguments(_call("3.0"))
    assert '"degrees": 3.0' in text  # vLLM answers 3 here; SGLang, as chatcodec, 3.0
    assert isinstance(values["degrees"], float)


def test_a_whole_number_written_without_one_is_an_integer() -> None:
    """Both servers and chatcodec agree: ``3`` is the integer 3."""
    text, values = _arguments(_call("3"))
    assert '"degrees": 3,' in text
    assert isinstance(values["degrees"], int)


def test_an_integer_parameter_written_with_a_fraction_is_the_number_written() -> None:
    """vLLM's and SGLang's ``int("3.0")`` fails and both keep the text ``"3.0"``; chatcodec keeps
    the number the model wrote (a string would be no more the schema's integer)."""
    text, values = _arguments(_call("1.5", steps="3.0"))
    assert '"steps": 3.0' in text
    assert values == {"degrees": 1.5, "steps": 3.0}


def test_the_template_writes_the_sampled_spelling_back() -> None:
    """The answer parsed and rendered again holds the ``3.0`` the model sampled; the integer a
    vLLM reading gives would be rendered ``3``, a respelling of the sampled answer."""
    question = {"role": "user", "content": "Heat it."}
    parsed = chatcodec.parse_completion(_call("3.0"), parser="qwen3_coder", tools=TOOLS, on_loss="ignore")
    tools = [tool["function"] for tool in TOOLS]
    ours = chatcodec.render(
        {"messages": [question, parsed.model_dump(mode="json", exclude_none=True)], "tools": tools},
        template="qwen3.5",
        on_loss="ignore",
    )
    assert "<parameter=degrees>\n3.0\n</parameter>" in ours.text
    vllm_reading = {
        "role": "assistant",
        "content": [{"type": "tool_use", "id": "call_0", "name": "heat", "arguments": '{"degrees": 3, "steps": 2}'}],
    }
    theirs = chatcodec.render(
        {"messages": [question, vllm_reading], "tools": tools}, template="qwen3.5", on_loss="ignore"
    )
    assert "<parameter=degrees>\n3\n</parameter>" in theirs.text
