"""``chatcodec serve``: one provider's HTTP API in front of others' (the ``serve`` extra).

A caller's official SDK (``openai``, ``anthropic``, ``google-genai``) points its
``base_url`` at this server; each request is read with :func:`~chatcodec.decode_request`
(a bad one answered 400 in the caller's own error shape), written for the upstream with
:func:`~chatcodec.encode_request`, and the upstream's answer converted back, a stream
chunk by chunk as it arrives (:class:`~chatcodec.StreamConverter`), never buffered.

Modules: :mod:`.config` (the settings, routes by model, the TOML file), :mod:`.fronts`
(the caller-facing APIs: paths, where the model, stream flag and key are;
:mod:`.fronts.answering`, what a front whose answers are the server's own resources owes,
the Responses API's), :mod:`.response_store` (answers kept for ``previous_response_id``,
``--store``; :mod:`.store_spelling` reads the spelling and opens it),
:mod:`.upstream` (URLs, bodies and headers for the upstream), :mod:`.auth` (client keys
and the key sent upstream), :mod:`.limits` (body size, model names, headers passed back,
work moved off the event loop), :mod:`.refusal` (every error in the front's shape),
:mod:`.endpoints` (``/health``, model lists, token counting), :mod:`.request_log` (one
JSON line per request), :mod:`.telemetry` and :mod:`.genai_messages` (opt-in GenAI
spans), :mod:`.steps` (a request's steps, one module each, in the order it passes them:
authenticate, read, route, validate, fit, send, answer or stream, keep), :mod:`.app`
(the Starlette application, which only wires the steps), :mod:`.server` (uvicorn).
What each API says on HTTP is its provider's edge (``_providers/<name>/edge.py``), read
through :func:`~chatcodec._registry.get_edge`; this package names no provider.
Starlette, uvicorn and httpx are imported only here; the core never imports this package.
"""

from chatcodec.serve._config import ServeConfig

__all__ = ["ServeConfig"]
