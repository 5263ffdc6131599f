"""Running the proxy with uvicorn (what ``chatcodec serve`` does).

The start-up line is said once the socket listens (:class:`ListeningServer`): printed before
``uvicorn.run``, it came seconds before the port accepted a connection (the codecs warmed up,
the store opened, the lifespan run in between), and a supervisor or a script that waits for it
connected to a closed port. It names the address the socket was given (``--port 0``: the port
the system chose).
"""

from __future__ import annotations

import contextlib
import socket
from collections.abc import Callable

import uvicorn
from starlette.applications import Starlette

from chatcodec.serve._app import create_app
from chatcodec.serve._config import ServeConfig
from chatcodec.serve._deadlines import server_settings
from chatcodec.serve._request_log import log_to_stderr

Listening = Callable[[str, int], None]
"""Told the host and port once the socket listens."""


class ListeningServer(uvicorn.Server):
    """A uvicorn server that tells ``on_listening`` its address once its socket listens and its
    lifespan has run (uvicorn's own ``started``)."""

    def __init__(self, config: uvicorn.Config, on_listening: Listening | None) -> None:
        super().__init__(config)
        self._on_listening = on_listening

    async def startup(self, sockets: list[socket.socket] | None = None) -> None:
        await super().startup(sockets)
        if self.started and self._on_listening is not None:
            host, port = self.servers[0].sockets[0].getsockname()[:2]
            self._on_listening(str(host), int(port))


def run(config: ServeConfig, app: Starlette | None = None, on_listening: Listening | None = None) -> None:
    """Serve ``app`` (default: :func:`create_app` of ``config``) on the config's ``host``
    and ``port`` until interrupted; request lines go to standard error as JSON;
    ``on_listening`` is told the address once the socket listens."""
    log_to_stderr()
    settings = uvicorn.Config(
        app if app is not None else create_app(config),
        host=config.host,
        port=config.port,
        access_log=False,
        log_level="warning",
        **server_settings(config.head_timeout, config.shutdown_timeout),
    )
    with contextlib.suppress(KeyboardInterrupt):  # as uvicorn.run: an interrupt during start-up ends quietly
        ListeningServer(settings, on_listening).run()
