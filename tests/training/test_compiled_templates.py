"""Compiled chat templates kept on disk (:mod:`chatcodec._training.compiled_templates`, issue 107).

A process loads a template's code that an earlier process compiled, and renders with it what a
fresh compile renders; a stale, corrupt or foreign file, a directory others may write and a
directory that cannot be written all fall back to compiling in memory; the files are bounded."""

from __future__ import annotations

import os
import stat
from pathlib import Path
from typing import Any

import pytest

import chatcodec
from chatcodec._training import compiled_templates, families, jinja, template_limits

MESSAGES = [
    {"role": "system", "content": "be brief"},
    {"role": "user", "content": "what is 2+2?"},
    {"role": "assistant", "content": "4"},
]


@pytest.fixture
def cache_home(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """The user's cache directory in ``tmp_path``: where the compiled templates go."""
    monkeypatch.delenv("CHATCODEC_TEMPLATE_CACHE", raising=False)  # the suite's own place (conftest)
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path))
    return tmp_path / "chatcodec" / "templates"


class _Compiles:
    """The environment's compile, counted."""

    def __init__(self, environment: Any, monkeypatch: pytest.MonkeyPatch) -> None:
        self.count = 0
        original = environment.compile

        def counted(source: str, *args: Any, **kwargs: Any) -> Any:
            self.count += 1
            return original(source, *args, **kwargs)

        monkeypatch.setattr(environment, "compile", counted)


def _rendered(code: Any) -> str:
    """What ``code`` renders for :data:`MESSAGES`, run as a render runs it (in a budget)."""
    environment = jinja._environment()
    loaded = environment.template_class.from_code(environment, code, environment.make_globals(None), None)
    with template_limits.running(template_limits.DEFAULT_LIMITS):
        return "".join(loaded.generate(messages=MESSAGES, add_generation_prompt=True, tools=None))


def _fresh(template: str) -> str:
    """What ``template`` renders for :data:`MESSAGES` compiled by Jinja's ``from_string``."""
    with template_limits.running(template_limits.DEFAULT_LIMITS):
        return (
            jinja._environment().from_string(template).render(messages=MESSAGES, add_generation_prompt=True, tools=None)
        )


def _files(place: Path) -> list[Path]:
    return sorted(place.glob("*.jinja-code"))


@pytest.mark.parametrize("family", ["qwen3-training", "qwen3", "llama3.1", "gpt-oss"])
def test_a_template_compiled_once_is_loaded_by_the_next_process_and_renders_alike(
    family: str, cache_home: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    environment = jinja._environment()
    template = families.template_text(family)
    compiles = _Compiles(environment, monkeypatch)
    first = compiled_templates.compiled_code(environment, template)
    assert compiles.count == 1
    assert len(_files(cache_home)) == 1
    again = compiled_templates.compiled_code(environment, template)  # a new process: nothing in memory
    assert compiles.count == 1
    assert _rendered(again) == _rendered(first)
    assert _rendered(again) == _fresh(template)


def test_the_directory_is_the_users_own_and_closed_to_others(cache_home: Path) -> None:
    compiled_templates.compiled_code(jinja._environment(), "{{ messages | length }}")
    found = os.lstat(cache_home)
    assert found.st_uid == os.getuid()
    assert stat.S_IMODE(found.st_mode) & (stat.S_IRWXG | stat.S_IRWXO) == 0


@pytest.mark.parametrize(
    "written",
    [
        b"",  # empty
        b"not jinja's bytecode at all",  # a foreign file
        b"j2",  # cut inside the magic
        "magic only",  # Jinja's magic, then nothing: its checksum's pickle is cut short
        "magic and junk",  # Jinja's magic, then no pickle
        "cut code",  # the code cut short
    ],
)
def test_a_corrupt_or_foreign_file_is_compiled_again(
    written: bytes | str, cache_home: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from jinja2.bccache import bc_magic

    environment = jinja._environment()
    template = families.template_text("qwen3")
    compiled_templates.compiled_code(environment, template)
    (path,) = _files(cache_home)
    whole = path.read_bytes()
    spoiled = (
        {
            "magic only": bc_magic,
            "magic and junk": bc_magic + b"\xff\x00junk",
            "cut code": whole[: len(whole) // 2],
        }.get(written, written)
        if isinstance(written, str)
        else written
    )
    path.write_bytes(spoiled)
    compiles = _Compiles(environment, monkeypatch)
    code = compiled_templates.compiled_code(environment, template)
    assert compiles.count == 1
    assert _rendered(code) == _fresh(template)
    assert path.read_bytes() == whole  # written again, whole


def test_code_from_another_generator_or_jinja_is_never_loaded(
    cache_home: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    environment = jinja._environment()
    template = families.template_text("qwen3-training")
    compiled_templates.compiled_code(environment, template)
    monkeypatch.setattr(compiled_templates, "_generator_fingerprint", lambda: "another chatcodec or Jinja")
    compiles = _Compiles(environment, monkeypatch)
    compiled_templates.compiled_code(environment, template)
    assert compiles.count == 1
    assert len(_files(cache_home)) == 2


def test_the_fingerprint_reads_the_generator_s_source(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    compiled_templates._generator_fingerprint.cache_clear()
    try:
        known = compiled_templates._generator_fingerprint()
        assert known is not None
        monkeypatch.setattr(
            compiled_templates, "_GENERATOR_MODULES", (*compiled_templates._GENERATOR_MODULES, "absent.py")
        )
        compiled_templates._generator_fingerprint.cache_clear()
        assert compiled_templates._generator_fingerprint() is None  # unreadable: nothing is cached
        monkeypatch.setattr(compiled_templates, "_GENERATOR_MODULES", compiled_templates._GENERATOR_MODULES[:-2])
        compiled_templates._generator_fingerprint.cache_clear()
        assert compiled_templates._generator_fingerprint() not in (None, known)
    finally:
        monkeypatch.undo()
        compiled_templates._generator_fingerprint.cache_clear()


def test_a_directory_others_may_write_is_not_used(cache_home: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    cache_home.mkdir(parents=True)
    cache_home.chmod(0o777)
    environment = jinja._environment()
    compiles = _Compiles(environment, monkeypatch)
    for _ in range(2):
        compiled_templates.compiled_code(environment, "{{ messages | length }}")
    assert compiles.count == 2
    assert _files(cache_home) == []


def test_a_directory_of_another_user_is_not_used(cache_home: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    compiled_templates.compiled_code(jinja._environment(), "{{ messages | length }}")
    monkeypatch.setattr(os, "getuid", lambda: os.lstat(cache_home).st_uid + 1)
    environment = jinja._environment()
    compiles = _Compiles(environment, monkeypatch)
    compiled_templates.compiled_code(environment, "{{ messages | length }}")
    assert compiles.count == 1


def test_without_a_writable_cache_the_template_is_compiled_in_memory(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    blocked = tmp_path / "a file"
    blocked.write_text("", encoding="utf-8")
    monkeypatch.delenv("CHATCODEC_TEMPLATE_CACHE", raising=False)
    monkeypatch.setenv("XDG_CACHE_HOME", str(blocked))  # no directory can be made under a file
    environment = jinja._environment()
    template = families.template_text("qwen3")
    code = compiled_templates.compiled_code(environment, template)
    assert _rendered(code) == _fresh(template)
    monkeypatch.setenv("XDG_CACHE_HOME", "relative/cache")  # the XDG rule: ignored, the home's is used
    monkeypatch.setenv("HOME", str(tmp_path / "home"))
    assert compiled_templates.directory() == tmp_path / "home" / ".cache" / "chatcodec" / "templates"


def test_the_files_kept_are_bounded(cache_home: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(compiled_templates, "MOST_FILES", 3)
    environment = jinja._environment()
    for number in range(6):
        compiled_templates.compiled_code(environment, f"{{{{ messages | length }}}} {number}")
        assert len(_files(cache_home)) == min(number + 1, 3)


def test_render_gives_the_same_rendering_with_a_cold_and_a_warm_cache(cache_home: Path) -> None:
    jinja.compiled.cache_clear()
    try:
        cold = chatcodec.render(MESSAGES, template="qwen3", train_on="all_assistant_messages")
        assert _files(cache_home)
        jinja.compiled.cache_clear()
        warm = chatcodec.render(MESSAGES, template="qwen3", train_on="all_assistant_messages")
    finally:
        jinja.compiled.cache_clear()
    assert (warm.text, warm.sampled, warm.losses) == (cold.text, cold.sampled, cold.losses)


def test_the_variable_names_the_directory_or_turns_the_cache_off(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """``CHATCODEC_TEMPLATE_CACHE``: a directory used instead of the user's cache, ``off`` for none."""
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "xdg"))
    monkeypatch.setenv("CHATCODEC_TEMPLATE_CACHE", str(tmp_path / "chosen"))
    assert compiled_templates.directory() == tmp_path / "chosen"
    monkeypatch.setenv("CHATCODEC_TEMPLATE_CACHE", "off")
    assert compiled_templates.directory() is None
    monkeypatch.setenv("CHATCODEC_TEMPLATE_CACHE", "relative/place")  # ignored, as XDG ignores one
    assert compiled_templates.directory() == tmp_path / "xdg" / "chatcodec" / "templates"
