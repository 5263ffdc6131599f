"""``chatcodec serve``: one provider's HTTP API in front of others' (the ``serve`` extra).

A caller's official SDK (``openai``, ``anthropic``, ``google-genai``) points its
``base_url`` at this server; each request is read with :func:`~chatcodec.decode_request`
(a bad one answered 400 in the caller's own error shape), written for the upstream with
:func:`~chatcodec.encode_request`, and the upstream's answer converted back, a stream
chunk by chunk as it arrives (:class:`~chatcodec.StreamConverter`), never buffered.

The public names: :class:`ServeConfig` (the settings), :func:`create_app` (the ASGI
application for a config: to run under a server of one's own, mount in another ASGI app,
or call in-process through ``httpx.ASGITransport``) and :func:`app_from_environment` (the
factory ``uvicorn --factory chatcodec.serve:app_from_environment`` calls, reading the
TOML file ``CHATCODEC_SERVE_CONFIG`` names). Everything else is under underscored
modules and may move: the app only wires a request's steps (``_steps``: authenticate,
read, route, validate, fit, send, answer or stream, keep), each a module of its own.
What each API says on HTTP is its provider's edge (``_providers/<name>/edge.py``), read
through :func:`~chatcodec._registry.get_edge`; this package names no provider.
Starlette, uvicorn and httpx are imported only here, and only when :func:`create_app`
is first asked for (each public name loads on first access, PEP 562, and
``ServeConfig`` imports none of them, so the command line checks its settings first);
the core never imports this package. The ``TYPE_CHECKING`` imports are the one export
list: ``__all__`` and ``_EXPORTED_FROM`` are written from them by ``tools/exports.py``.
"""

import importlib as _importlib
import typing as _typing

if _typing.TYPE_CHECKING:
    from chatcodec.serve._app import create_app
    from chatcodec.serve._config import ServeConfig
    from chatcodec.serve._factory import app_from_environment

__all__ = [
    "ServeConfig",
    "app_from_environment",
    "create_app",
]

_EXPORTED_FROM: dict[str, str] = {
    name: module
    for module, names in (
        ("chatcodec.serve._config", "ServeConfig"),
        ("chatcodec.serve._factory", "app_from_environment"),
        ("chatcodec.serve._app", "create_app"),
    )
    for name in names.split()
}


if not _typing.TYPE_CHECKING:  # type checkers see the imports above, so a misspelt name is an error

    def __getattr__(name: str) -> _typing.Any:
        module_name = _EXPORTED_FROM.get(name)
        if module_name is None:
            raise AttributeError(f"module 'chatcodec.serve' has no attribute {name!r}")
        value = getattr(_importlib.import_module(module_name), name)
        globals()[name] = value  # later lookups skip this function
        return value


def __dir__() -> list[str]:
    return sorted({*(name for name in globals() if not name.startswith("_")), *__all__})
