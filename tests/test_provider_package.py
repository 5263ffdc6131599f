"""A folder is the modules it has: ``ProviderCodec.from_package`` builds a codec from a
provider folder's package, giving the roles a wire does not have their defaults (no tools,
settings, usage, finish words or streams), taking a role from elsewhere when the folder's
``markers.ROLES`` names it, and refusing by name a folder or role module that lacks what
the contract asks. An installed distribution's entry point may name such a package."""

from __future__ import annotations

import importlib
import sys
import textwrap
from collections.abc import Iterator
from importlib.metadata import EntryPoint
from pathlib import Path

import pytest

import chatcodec
from chatcodec import _installed_codecs as installed_codecs
from chatcodec import _registry as registry
from chatcodec._providers.contract.provider_codec import from_folder
from chatcodec.contract import LossRecorder, OptionTable, ProviderCodec

TEMPLATE = "chatcodec._providers._template"

_BARE = {
    "__init__.py": '"""A folder with the three roles every codec has, and nothing else."""\n',
    "markers.py": 'PROVIDER = "bare"\n',
    "capabilities.py": (
        f"import importlib\nCAPABILITIES = importlib.import_module('{TEMPLATE}.capabilities').CAPABILITIES\n"
    ),
    "request.py": f"from {TEMPLATE}.request import decode_request, decode_message_list, encode_request\n",
    "response.py": f"from {TEMPLATE}.response import decode_response, encode_response\n",
}


def _write(root: Path, package: str, files: dict[str, str]) -> None:
    folder = root / package
    folder.mkdir()
    for name, text in files.items():
        (folder / name).write_text(textwrap.dedent(text))


@pytest.fixture
def packages(tmp_path: Path) -> Iterator[Path]:
    """A directory on ``sys.path`` for this test's packages, forgotten afterwards."""
    sys.path.insert(0, str(tmp_path))
    before = set(sys.modules)
    try:
        yield tmp_path
    finally:
        sys.path.remove(str(tmp_path))
        for name in set(sys.modules) - before:
            if name.startswith(("bare_codec", "broken_codec", "borrowing_codec")):
                del sys.modules[name]


def test_a_folder_with_only_the_required_roles_is_a_codec_with_the_defaults(packages: Path) -> None:
    _write(packages, "bare_codec", _BARE)
    codec = ProviderCodec.from_package("bare_codec")
    assert codec.name == "bare"
    assert (codec.tools, codec.settings, codec.usage, codec.finish_reasons, codec.parts) == (None,) * 5
    assert (codec.rules, codec.edge, codec.structure) == (None, None, None)
    assert not codec.decodes_streams
    assert not codec.encodes_streams
    assert "model" not in codec.options  # no OPTIONS in its markers.py: no options
    assert codec.options == OptionTable.of()
    body = {"model": "m", "messages": [{"role": "user", "content": "hi"}]}
    assert codec.write_request(codec.read_request(body), LossRecorder()) == body
    with pytest.raises(chatcodec.CodecNotAvailableError, match="the bare codec has no stream decoder"):
        codec.decode_stream([])


def test_the_template_is_built_with_every_role_and_its_streams_imported_on_first_use() -> None:
    codec = ProviderCodec.from_package(TEMPLATE, name="template-copy")
    assert codec.name == "template-copy"
    assert codec.tools is not None
    assert codec.usage is not None
    assert codec.decodes_streams
    assert codec.encodes_streams
    assert codec.edge is not None


def test_a_role_named_in_markers_roles_is_played_from_elsewhere(packages: Path) -> None:
    roles = f'ROLES = {{"parts": "{TEMPLATE}.parts", "tools": "{TEMPLATE}.tools:encode_tools"}}\n'
    _write(packages, "borrowing_codec", {**_BARE, "markers.py": 'PROVIDER = "borrowing"\n' + roles})
    with pytest.raises(TypeError, match=rf"{TEMPLATE}.tools:encode_tools plays the tools role without decode_tools"):
        ProviderCodec.from_package("borrowing_codec")


def test_a_role_module_without_its_protocols_function_is_refused_by_name(packages: Path) -> None:
    files = {**_BARE, "usage.py": "def decode_usage(wire):\n    return {}\n"}
    _write(packages, "broken_codec", files)
    with pytest.raises(TypeError, match=r"broken_codec.usage plays the usage role without encode_usage"):
        ProviderCodec.from_package("broken_codec")


def test_a_built_in_folders_roles_are_imported_and_checked_when_first_read(packages: Path) -> None:
    """The registry builds a built-in's codec with ``from_folder``: a role module is found
    when the codec is built and imported when first read (a stream reads no request role),
    where a role without its protocol's function is refused by the same name."""
    files = {**_BARE, "usage.py": "def decode_usage(wire):\n    return {}\n"}
    _write(packages, "broken_codec", files)
    codec = from_folder("broken_codec")
    assert "broken_codec.request" not in sys.modules
    assert "broken_codec.usage" not in sys.modules
    assert codec.tools is None  # no tools.py: the default, found without an import
    with pytest.raises(TypeError, match=r"broken_codec.usage plays the usage role without encode_usage"):
        codec.usage  # noqa: B018 (the read is the test)
    body = {"model": "m", "messages": [{"role": "user", "content": "hi"}]}
    assert codec.write_request(codec.read_request(body), LossRecorder()) == body
    assert "broken_codec.request" in sys.modules
    (packages / "broken_codec" / "response.py").unlink()
    importlib.invalidate_caches()
    with pytest.raises(TypeError, match=r"the provider folder broken_codec has no response\.py"):
        from_folder("broken_codec")


_ROLES = ("finish_reasons", "usage", "messages", "parts", "tools", "settings", "rules")


@pytest.mark.parametrize(
    ("name", "package"), [(name, spec) for name, spec in registry._BUILT_IN.items() if ":" not in spec]
)
def test_every_built_in_folder_passes_the_check_at_once_and_reads_the_same_roles_when_first_read(
    name: str, package: str
) -> None:
    """The registry's codecs check a role when it is first read; building each built-in folder
    with ``from_package`` checks every role now (a role module missing a protocol function is
    refused here, by name, before any conversion reads it), and reads the same modules."""
    checked, registered = ProviderCodec.from_package(package), chatcodec.get_codec(name)
    assert isinstance(registered, ProviderCodec)
    assert checked.name == registered.name == name
    assert [getattr(checked, role) for role in _ROLES] == [getattr(registered, role) for role in _ROLES]


def test_a_folder_without_a_required_role_or_a_name_is_refused(packages: Path) -> None:
    _write(packages, "bare_codec", {name: text for name, text in _BARE.items() if name != "response.py"})
    with pytest.raises(TypeError, match=r"the provider folder bare_codec has no response\.py"):
        ProviderCodec.from_package("bare_codec")
    for name in [name for name in sys.modules if name.startswith("bare_codec")]:
        del sys.modules[name]
    (packages / "bare_codec" / "response.py").write_text(_BARE["response.py"])
    (packages / "bare_codec" / "markers.py").write_text("")
    importlib.invalidate_caches()
    with pytest.raises(TypeError, match=r"names no codec: give name=, or PROVIDER in its markers\.py"):
        ProviderCodec.from_package("bare_codec")
    assert ProviderCodec.from_package("bare_codec", name="bare").name == "bare"


def test_an_entry_point_may_name_the_folders_package(packages: Path) -> None:
    _write(packages, "bare_codec", _BARE)
    point = EntryPoint(name="bare", value="bare_codec", group=installed_codecs.GROUP)
    codec = installed_codecs.load(point)
    assert isinstance(codec, ProviderCodec)
    assert codec.name == "bare"
    wrong = EntryPoint(name="other", value="bare_codec", group=installed_codecs.GROUP)
    with pytest.raises(chatcodec.CodecNotAvailableError, match="is named 'bare'"):
        installed_codecs.load(wrong)
