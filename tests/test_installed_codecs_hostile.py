"""An installed codec distribution that gets its installation wrong never stops built-in work
(issue 77, "One installed codec distribution stops every command").

Each case lays out one hostile distribution as pip leaves it (a module and its ``.dist-info``
with ``entry_points.txt``) in a temporary site folder, puts it on a fresh process's
``PYTHONPATH`` and runs ``python -m chatcodec`` there: ``--version``, a conversion between
built-in formats and ``ServeConfig`` succeed without a word about it (the entry points are
not even read), and ``chatcodec formats`` lists the built-ins and warns once, naming the
distribution.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]

_CODEC = """
import chatcodec

class Codec:
    name = {name!r}

    def decode_request(self, payload):
        return chatcodec.decode_request("canonical", payload)

    def encode_request(self, request, losses):
        return chatcodec.encode_request("canonical", request)

    def decode_response(self, payload):
        return chatcodec.decode_response("canonical", payload)

    def encode_response(self, response, losses):
        return chatcodec.encode_response("canonical", response)

    def decode_stream(self, events):
        return chatcodec.decode_stream("canonical", events)

    def encode_stream(self, events, losses):
        return chatcodec.encode_stream("canonical", events)
{extra}
CODEC = Codec()
"""

_EDGE_RAISES = """
    @property
    def edge(self):
        raise RuntimeError("edge exploded")
"""

_BUILT_IN_NAMES = ("openai-chat", "canonical", "langchain", "pydantic-ai", "ai-sdk-ui", "ai-sdk-model")

_HOSTILE: dict[str, tuple[str, str]] = {
    # case: (the module's source, the entry points' names)
    "system-exit": ("raise SystemExit(3)\n", "hostile"),
    "keyboard-interrupt": ("raise KeyboardInterrupt\n", "hostile"),
    "edge-raises": (_CODEC.format(name="hostile", extra=_EDGE_RAISES), "hostile"),
    "getattr-raises": ("def __getattr__(name):\n    raise RuntimeError(f'no {name} here')\n", "hostile"),
    # one distribution naming six codecs like built-ins: each left out, each warned about once
    "named-like-built-ins": (_CODEC.format(name="openai-chat", extra=""), ", ".join(_BUILT_IN_NAMES)),
    "slow-import": ("import time\ntime.sleep(600)\n", "hostile"),
}


def _site(tmp_path: Path, source: str, entries: str, distribution: str = "chatcodec_hostile") -> Path:
    """A site folder holding the distribution ``distribution`` 0.1: module ``hostile_codec``
    with ``source``, declared as the ``chatcodec.codecs`` entry points ``entries`` (comma-separated)."""
    site = tmp_path / "site"
    site.mkdir(exist_ok=True)
    (site / "hostile_codec.py").write_text(source, encoding="utf-8")
    info = site / f"{distribution}-0.1.dist-info"
    info.mkdir()
    (info / "METADATA").write_text(f"Metadata-Version: 2.1\nName: {distribution}\nVersion: 0.1\n", encoding="utf-8")
    declared = "".join(f"{entry} = hostile_codec:CODEC\n" for entry in entries.split(", "))
    (info / "entry_points.txt").write_text(f"[chatcodec.codecs]\n{declared}", encoding="utf-8")
    (site / "body.json").write_text(json.dumps({"model": "m", "messages": [{"role": "user", "content": "hi"}]}))
    return site


def _run(site: Path, *arguments: str, timeout: float = 60) -> subprocess.CompletedProcess[str]:
    environment = {**os.environ, "PYTHONPATH": os.pathsep.join([str(site), str(ROOT / "src")])}
    return subprocess.run(
        [sys.executable, *arguments],
        env=environment,
        cwd=site,
        capture_output=True,
        text=True,
        check=False,
        timeout=timeout,  # a slow codec imported by built-in work would run past it (it sleeps 600 s)
    )


_SERVE_CONFIG = textwrap.dedent(
    """
    import sys
    from chatcodec.serve import ServeConfig
    config = ServeConfig(api="anthropic", upstream="openai-chat", upstream_url="http://127.0.0.1:9/v1")
    print(config.api, "hostile_codec" in sys.modules)
    """
)


@pytest.mark.parametrize("case", sorted(_HOSTILE))
def test_built_in_commands_never_touch_a_hostile_installed_codec(tmp_path: Path, case: str) -> None:
    site = _site(tmp_path, *_HOSTILE[case])
    version = _run(site, "-m", "chatcodec", "--version", timeout=30)
    assert (version.returncode, version.stderr) == (0, "")
    assert version.stdout.startswith("chatcodec ")
    converted = _run(site, "-m", "chatcodec", "convert", "body.json", "--from", "openai-chat", "--to", "gemini")
    assert (converted.returncode, converted.stderr) == (0, ""), converted.stderr
    assert json.loads(converted.stdout)["contents"] == [{"role": "user", "parts": [{"text": "hi"}]}]
    served = _run(site, "-c", _SERVE_CONFIG, timeout=30)
    assert (served.returncode, served.stderr, served.stdout) == (0, "", "anthropic False\n")


@pytest.mark.parametrize("case", sorted(set(_HOSTILE) - {"slow-import"}))
def test_listing_warns_once_naming_the_distribution(tmp_path: Path, case: str) -> None:
    site = _site(tmp_path, *_HOSTILE[case])
    listed = _run(site, "-m", "chatcodec", "formats")
    assert listed.returncode == 0, listed.stderr
    warnings = listed.stderr.splitlines()
    expected = len(_HOSTILE[case][1].split(", "))  # each once, though listing reads the entry points twice
    assert len(warnings) == expected, listed.stderr
    for warning in warnings:
        assert warning.startswith("chatcodec: warning: the distribution chatcodec_hostile 0.1 ") or (
            warning.startswith(
                "chatcodec: warning: the codec 'hostile' installed by the distribution chatcodec_hostile"
            )
        )
    names = [line.split()[0] for line in listed.stdout.splitlines()]
    assert {"openai-chat", "canonical", "langchain", "pydantic-ai", "ai-sdk-ui", "ai-sdk-model"} <= set(names)
    assert len(names) == len(set(names))  # a built-in's name is listed once: the built-in's
    assert "hostile" not in names


@pytest.mark.parametrize("case", ["system-exit", "keyboard-interrupt", "edge-raises", "getattr-raises"])
def test_naming_a_broken_installed_codec_is_one_error_naming_its_distribution(tmp_path: Path, case: str) -> None:
    site = _site(tmp_path, *_HOSTILE[case])
    command = _run(site, "-m", "chatcodec", "convert", "body.json", "--from", "openai-chat", "--to", "hostile")
    assert command.returncode == 69  # EX_UNAVAILABLE: the codec is installed but cannot be used
    assert command.stderr.startswith("chatcodec convert: error: the codec 'hostile' installed by the distribution ")
    assert "chatcodec_hostile 0.1" in command.stderr
    assert "Traceback" not in command.stderr
    served = _run(site, "-c", _SERVE_CONFIG.replace('upstream="openai-chat"', 'upstream="hostile"'))
    assert served.returncode == 1
    assert served.stderr.strip().splitlines()[-1].startswith("ValueError: --upstream 'hostile': the codec 'hostile'")


def test_a_broken_codec_asked_for_again_is_not_imported_again(tmp_path: Path) -> None:
    site = _site(tmp_path, "import sys\nprint('imported', file=sys.stderr)\nraise RuntimeError('broken')\n", "hostile")
    code = textwrap.dedent(
        """
        import chatcodec
        for _ in range(3):
            try:
                chatcodec.get_codec("hostile")
            except chatcodec.CodecNotAvailableError as error:
                print(error)
        """
    )
    result = _run(site, "-c", code)
    assert result.returncode == 0, result.stderr
    assert result.stderr == "imported\n"
    assert len(set(result.stdout.splitlines())) == 1
    assert "RuntimeError: broken" in result.stdout


def test_two_distributions_declaring_one_name_keep_neither(tmp_path: Path) -> None:
    site = _site(tmp_path, _CODEC.format(name="twice", extra=""), "twice", distribution="chatcodec_one")
    (site / "hostile_codec_too.py").write_text(_CODEC.format(name="twice", extra=""), encoding="utf-8")
    info = site / "chatcodec_two-0.1.dist-info"
    info.mkdir()
    (info / "METADATA").write_text("Metadata-Version: 2.1\nName: chatcodec_two\nVersion: 0.1\n", encoding="utf-8")
    (info / "entry_points.txt").write_text("[chatcodec.codecs]\ntwice = hostile_codec_too:CODEC\n", encoding="utf-8")
    command = _run(site, "-m", "chatcodec", "convert", "body.json", "--from", "openai-chat", "--to", "twice")
    assert command.returncode == 64
    first, *rest = command.stderr.splitlines()
    assert first.startswith("chatcodec: warning: two distributions declare the codec 'twice'")
    assert "chatcodec_one 0.1" in first
    assert "chatcodec_two 0.1" in first
    assert "unknown format 'twice'" in rest[0]


_GARBAGE = """
class Codec:
    name = "hostile"

    def decode_request(self, payload):
        return "not a request"

    def encode_request(self, request, losses):
        return ["not", "a", "body"]

    def decode_response(self, payload):
        raise KeyError("choices")

    def encode_response(self, response, losses):
        return {}

    def decode_stream(self, events):
        return iter(())

    def encode_stream(self, events, losses):
        return iter([1])

CODEC = Codec()
"""


@pytest.mark.parametrize(
    ("direction", "said"),
    [
        (("--from", "hostile", "--to", "openai-chat"), "returned a str from decode_request, not a ChatRequest"),
        (("--from", "openai-chat", "--to", "hostile"), "returned a list from encode_request, not a dict"),
    ],
)
def test_an_installed_codec_returning_garbage_is_named_not_an_internal_error(
    tmp_path: Path, direction: tuple[str, ...], said: str
) -> None:
    """Issue 87 (fuzz): what an installed codec returns is checked, and the error names the
    distribution that installed it, never "internal error, please report it" (chatcodec's own bug)."""
    site = _site(tmp_path, _GARBAGE, "hostile")
    command = _run(site, "-m", "chatcodec", "convert", "body.json", *direction)
    assert command.returncode not in (0, 70), command.stderr
    assert "internal error" not in command.stderr
    assert "the codec 'hostile' (installed by the distribution chatcodec_hostile 0.1)" in command.stderr
    assert said in command.stderr
    raised = _run(site, "-c", "import chatcodec\nchatcodec.decode_response('hostile', {})")
    assert "CodecNotAvailableError: the codec 'hostile' (installed by the distribution chatcodec_hostile 0.1)" in (
        raised.stderr
    )
    assert "failed in decode_response: KeyError: 'choices'" in raised.stderr


_NOT_JSON = """
import chatcodec

class Codec:
    name = "hostile"

    def decode_request(self, payload):
        return chatcodec.decode_request("canonical", payload)

    def encode_request(self, request, losses):
        return {"model": request.model, "messages": [{"role": "user", "content": %s}]}

    def decode_response(self, payload):
        return chatcodec.decode_response("canonical", payload)

    def encode_response(self, response, losses):
        return {"id": %s}

    def decode_stream(self, events):
        return iter(())

    def encode_stream(self, events, losses):
        return iter([{"type": "start"}, {"type": "delta", "text": %s}])

CODEC = Codec()
"""


@pytest.mark.parametrize(
    ("stray", "said"),
    [
        ('float("nan")', "NaN"),
        ("object()", "a value of type object"),
        ('b"bytes"', "a value of type bytes"),
    ],
)
def test_an_installed_codec_returning_what_json_cannot_spell_is_named_not_an_internal_error(
    tmp_path: Path, stray: str, said: str
) -> None:
    """Issue 101 (reproducer W9-06): a body holding NaN, an object or bytes is the codec's
    fault, said at its place, not chatcodec's JSON writer failing as an internal error (70)."""
    site = _site(tmp_path, _NOT_JSON % (stray, stray, stray), "hostile")
    command = _run(site, "-m", "chatcodec", "convert", "body.json", "--from", "openai-chat", "--to", "hostile")
    assert command.returncode not in (0, 70), command.stderr
    assert "internal error" not in command.stderr
    assert "Traceback" not in command.stderr
    assert (
        f"the codec 'hostile' (installed by the distribution chatcodec_hostile 0.1) returned {said} at "
        "$.messages[0].content from encode_request: what a codec returns is JSON data"
    ) in command.stderr
    code = textwrap.dedent(
        """
        import chatcodec
        message = {"role": "assistant", "content": "hi"}
        response = {"id": "r", "model": "m", "choices": [{"index": 0, "message": message}]}
        for call in (
            lambda: chatcodec.encode_response("hostile", chatcodec.decode_response("canonical", response)),
            lambda: list(chatcodec.encode_stream("hostile", [])),
        ):
            try:
                call()
            except chatcodec.CodecNotAvailableError as error:
                print(error)
        """
    )
    raised = _run(site, "-c", code)
    assert raised.returncode == 0, raised.stderr
    said_response, said_stream = raised.stdout.splitlines()
    assert f"returned {said} at $.id from encode_response" in said_response
    assert f"returned {said} at $.text from encode_stream" in said_stream


_NAN_MODEL = """
import chatcodec

class Codec:
    name = "hostile"

    def decode_request(self, payload):
        request = chatcodec.decode_request("canonical", payload)
        return request.model_copy(update={"temperature": float("nan")})  # no validation: anything goes in

    def encode_request(self, request, losses):
        return {"model": request.model}

    def decode_response(self, payload):
        return chatcodec.decode_response("canonical", payload)

    def encode_response(self, response, losses):
        return {}

    def decode_stream(self, events):
        return iter(())

    def encode_stream(self, events, losses):
        return iter(())

CODEC = Codec()
"""


def test_a_decoded_model_holding_nan_is_named_not_written_as_invalid_json(tmp_path: Path) -> None:
    """Issue 101 (W9-06): a model built without validation (``model_copy(update=...)``) is
    checked as its data: a NaN temperature was written out as ``NaN``, which is no JSON."""
    site = _site(tmp_path, _NAN_MODEL, "hostile")
    command = _run(site, "-m", "chatcodec", "convert", "body.json", "--from", "hostile", "--to", "openai-chat")
    assert command.returncode not in (0, 70), command.stderr
    assert "NaN" not in command.stdout
    assert (
        "the codec 'hostile' (installed by the distribution chatcodec_hostile 0.1) returned NaN at $.temperature "
        "from decode_request"
    ) in command.stderr
