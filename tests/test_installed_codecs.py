"""A codec another distribution installs is found by its ``chatcodec.codecs`` entry point.

Each test lays out a distribution the way an installer leaves it (the package and its
``.dist-info`` with ``entry_points.txt``) in a temporary directory, puts that directory on a
fresh process's ``PYTHONPATH``, and uses the codec there, through the API and the command
line, with no ``register_codec`` call: installing is registering. The codec is written on
public names only (``chatcodec.decode_request``...): a wire format that wraps canonical
requests and responses in ``{"envelope": ...}``.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import textwrap
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]

_ENVELOPE_CODEC = '''
"""An outside codec: canonical bodies inside {"envelope": ...}, on public names only."""
import chatcodec


class EnvelopeCodec:
    name = "envelope"

    def decode_request(self, payload):
        return chatcodec.decode_request("canonical", payload["envelope"])

    def encode_request(self, request, losses):
        return {"envelope": chatcodec.encode_request("canonical", request)}

    def decode_response(self, payload):
        return chatcodec.decode_response("canonical", payload["envelope"])

    def encode_response(self, response, losses):
        return {"envelope": chatcodec.encode_response("canonical", response)}

    def decode_stream(self, events):
        return chatcodec.decode_stream("canonical", [event["envelope"] for event in events])

    def encode_stream(self, events, losses):
        return ({"envelope": event} for event in chatcodec.encode_stream("canonical", events))


CODEC = EnvelopeCodec()
'''


def _distribution(
    site: Path, name: str, modules: dict[str, str], entry_points: dict[str, str], laws: dict[str, str] | None = None
) -> None:
    """Lay out distribution ``name`` 0.1 in ``site`` as pip installs it: modules and dist-info
    (``laws``: its ``chatcodec.laws`` entry points)."""
    for module, source in modules.items():
        (site / f"{module}.py").write_text(textwrap.dedent(source), encoding="utf-8")
    info = site / f"{name}-0.1.dist-info"
    info.mkdir()
    (info / "METADATA").write_text(f"Metadata-Version: 2.1\nName: {name}\nVersion: 0.1\n", encoding="utf-8")
    lines = "".join(f"{key} = {value}\n" for key, value in entry_points.items())
    stated = "".join(f"{key} = {value}\n" for key, value in (laws or {}).items())
    (info / "entry_points.txt").write_text(f"[chatcodec.codecs]\n{lines}\n[chatcodec.laws]\n{stated}", encoding="utf-8")


def _run(site: Path, *arguments: str, stdin: str | None = None) -> subprocess.CompletedProcess[str]:
    environment = {**os.environ, "PYTHONPATH": os.pathsep.join([str(site), str(ROOT / "src")])}
    return subprocess.run(
        [sys.executable, *arguments],
        input=stdin,
        env=environment,
        cwd=site,
        capture_output=True,
        text=True,
        check=False,
    )


def _envelope_site(tmp_path: Path) -> Path:
    site = tmp_path / "site"
    site.mkdir()
    _distribution(
        site, "chatcodec_envelope", {"chatcodec_envelope": _ENVELOPE_CODEC}, {"envelope": "chatcodec_envelope:CODEC"}
    )
    return site


def test_an_installed_codec_converts_in_a_fresh_process(tmp_path: Path) -> None:
    code = textwrap.dedent(
        """
        import json, sys
        import chatcodec
        print("chatcodec_envelope" in sys.modules, "envelope" in chatcodec.available_formats())
        body = {"model": "m", "messages": [{"role": "user", "content": "hi"}]}
        wrapped = chatcodec.convert_request(body, source="openai-chat", target="envelope")
        back = chatcodec.convert_request(wrapped, source="envelope", target="anthropic")
        print("chatcodec_envelope" in sys.modules, json.dumps(wrapped["envelope"]["messages"]), back["messages"])
        """
    )
    result = _run(_envelope_site(tmp_path), "-c", code)
    assert result.returncode == 0, result.stderr
    listed, converted = result.stdout.splitlines()
    assert listed == "False True"  # listed by name, not imported yet
    assert (
        converted == "True " + json.dumps([{"role": "user", "content": "hi"}]) + " [{'role': 'user', 'content': 'hi'}]"
    )


def test_an_installed_codec_converts_through_the_command_line(tmp_path: Path) -> None:
    site = _envelope_site(tmp_path)
    (site / "body.json").write_text(json.dumps({"model": "m", "messages": [{"role": "user", "content": "hi"}]}))
    wrapped = _run(site, "-m", "chatcodec", "convert", "body.json", "--from", "openai-chat", "--to", "envelope")
    assert wrapped.returncode == 0, wrapped.stderr
    assert json.loads(wrapped.stdout)["envelope"]["messages"] == [{"role": "user", "content": "hi"}]
    (site / "wrapped.json").write_text(wrapped.stdout)
    back = _run(site, "-m", "chatcodec", "convert", "wrapped.json", "--from", "envelope", "--to", "anthropic")
    assert back.returncode == 0, back.stderr
    assert json.loads(back.stdout)["messages"] == [{"role": "user", "content": "hi"}]


def test_built_in_conversions_never_read_the_entry_points(tmp_path: Path) -> None:
    code = textwrap.dedent(
        """
        import importlib.metadata
        read = []
        entry_points = importlib.metadata.entry_points
        importlib.metadata.entry_points = lambda **kw: read.append(kw) or entry_points(**kw)
        import chatcodec
        body = {"model": "m", "messages": [{"role": "user", "content": "hi"}]}
        chatcodec.convert_request(body, source="openai-chat", target="anthropic")
        print(len(read))
        chatcodec.available_formats()
        chatcodec.available_formats()
        print(read)
        """
    )
    result = _run(_envelope_site(tmp_path), "-c", code)
    assert result.returncode == 0, result.stderr
    assert result.stdout.splitlines() == ["0", "[{'group': 'chatcodec.codecs'}]"]  # listed: read once, by group


def test_an_entry_point_named_like_a_built_in_is_left_out_with_a_warning(tmp_path: Path) -> None:
    """Listing warns once naming the distribution, and the built-in keeps its name (before
    issue 77 listing raised, so one such distribution stopped every command that listed)."""
    site = tmp_path / "site"
    site.mkdir()
    _distribution(
        site, "chatcodec_impostor", {"chatcodec_impostor": _ENVELOPE_CODEC}, {"anthropic": "chatcodec_impostor:CODEC"}
    )
    code = textwrap.dedent(
        """
        import warnings
        import chatcodec
        body = {"model": "m", "messages": [{"role": "user", "content": "hi"}]}
        print(chatcodec.convert_request(body, source="openai-chat", target="anthropic")["messages"])
        with warnings.catch_warnings(record=True) as caught:
            warnings.simplefilter("always")
            chatcodec.available_formats()
            print(chatcodec.available_formats().count("anthropic"))
        for warning in caught:
            print(type(warning.message).__name__, warning.message)
        """
    )
    result = _run(site, "-c", code)
    assert result.returncode == 0, result.stderr
    built_in, listed_once, warned = result.stdout.splitlines()
    assert built_in == "[{'role': 'user', 'content': 'hi'}]"  # the built-in keeps its name
    assert listed_once == "1"
    assert warned.startswith("InstalledCodecWarning the distribution chatcodec_impostor 0.1 declares")
    assert "'anthropic', the name of a built-in format" in warned


def test_a_broken_entry_point_is_a_chatcodec_error_naming_the_distribution(tmp_path: Path) -> None:
    site = tmp_path / "site"
    site.mkdir()
    broken = "import a_module_that_is_not_installed\n"
    _distribution(site, "chatcodec_broken", {"chatcodec_broken": broken}, {"broken": "chatcodec_broken:CODEC"})
    code = textwrap.dedent(
        """
        import chatcodec
        try:
            chatcodec.get_codec("broken")
        except chatcodec.CodecNotAvailableError as error:
            print(error)
        """
    )
    result = _run(site, "-c", code)
    assert result.returncode == 0, result.stderr
    assert result.stdout.strip() == (
        "the codec 'broken' installed by the distribution chatcodec_broken 0.1 ('chatcodec.codecs' entry point "
        "broken = chatcodec_broken:CODEC) could not be loaded: ModuleNotFoundError: "
        "No module named 'a_module_that_is_not_installed'"
    )
    (site / "body.json").write_text(json.dumps({"messages": [{"role": "user", "content": "hi"}]}))
    command = _run(site, "-m", "chatcodec", "convert", "body.json", "--from", "openai-chat", "--to", "broken")
    assert command.returncode != 0
    assert "chatcodec_broken 0.1" in command.stderr
    assert "Traceback" not in command.stderr


def test_an_installed_object_that_is_not_a_codec_is_refused(tmp_path: Path) -> None:
    site = tmp_path / "site"
    site.mkdir()
    _distribution(site, "chatcodec_odd", {"chatcodec_odd": "CODEC = 42\n"}, {"odd": "chatcodec_odd:CODEC"})
    code = textwrap.dedent(
        """
        import chatcodec
        try:
            chatcodec.get_codec("odd")
        except chatcodec.CodecNotAvailableError as error:
            print(error)
        """
    )
    result = _run(site, "-c", code)
    assert result.returncode == 0, result.stderr
    assert "chatcodec_odd 0.1" in result.stdout
    assert "is a int, not a codec" in result.stdout


_ENVELOPE_LAWS = """
from pathlib import Path

from chatcodec.testing import ProviderEntry, SingleHop, chat_requests, chat_responses


def entry():
    return ProviderEntry.minimal(
        "envelope",
        finish_reasons={},
        with_finish_reason=lambda body, word: body,
        finish_reason_fixture="",
        streams=None,
        shaped_responses=lambda: chat_responses(finished=True),
        single_hop=SingleHop(requests=chat_requests, original=lambda r: r, decoded=lambda r: r),
        tool_name_rule=None,
        deep_kept_value=lambda events, value: (events, 0),
        fixtures=Path(__file__).parent / "envelope_fixtures",
    )


NOT_AN_ENTRY = 42
"""


def _law_site(tmp_path: Path, laws: str) -> Path:
    site = tmp_path / "site"
    site.mkdir()
    modules = {"chatcodec_envelope": _ENVELOPE_CODEC, "envelope_laws": _ENVELOPE_LAWS}
    _distribution(site, "chatcodec_envelope", modules, {"envelope": "chatcodec_envelope:CODEC"}, {"envelope": laws})
    recorded = site / "envelope_fixtures" / "request"
    recorded.mkdir(parents=True)
    body = {"envelope": {"model": "m", "messages": [{"role": "user", "content": "hi"}]}}
    (recorded / "hello.json").write_text(json.dumps(body), encoding="utf-8")
    return site


_COUNT_RECORDED = textwrap.dedent(
    """
    import chatcodec, chatcodec.testing
    try:
        cases = chatcodec.testing.codec_law_cases("envelope")
    except chatcodec.CodecNotAvailableError as error:
        print(error)
    else:
        print([case.id for case in cases if "recorded_request_round_trips_exactly" in case.id])
    """
)


def test_the_laws_read_the_facts_a_distribution_states(tmp_path: Path) -> None:
    """``check-codec NAME`` without an entry takes the one the ``chatcodec.laws`` entry point
    names: here its one recorded request, which the derived entry would not know."""
    result = _run(_law_site(tmp_path, "envelope_laws:entry"), "-c", _COUNT_RECORDED)
    assert result.returncode == 0, result.stderr
    assert result.stdout.strip() == "['law_recordings::recorded_request_round_trips_exactly[envelope-hello.json]']"


def test_stated_law_facts_that_are_no_entry_are_refused_naming_the_distribution(tmp_path: Path) -> None:
    result = _run(_law_site(tmp_path, "envelope_laws:NOT_AN_ENTRY"), "-c", _COUNT_RECORDED)
    assert result.returncode == 0, result.stderr
    assert result.stdout.strip() == (
        "the law facts of 'envelope' stated by the distribution chatcodec_envelope 0.1 ('chatcodec.laws' entry point "
        "envelope = envelope_laws:NOT_AN_ENTRY) are a int, not a chatcodec.testing.ProviderEntry"
    )
