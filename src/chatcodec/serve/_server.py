"""Running the proxy with uvicorn (what ``chatcodec serve`` does)."""

from __future__ import annotations

import uvicorn
from starlette.applications import Starlette

from chatcodec.serve._app import create_app
from chatcodec.serve._config import ServeConfig
from chatcodec.serve._deadlines import server_settings
from chatcodec.serve._request_log import log_to_stderr


def run(config: ServeConfig, app: Starlette | None = None) -> None:
    """Serve ``app`` (default: :func:`create_app` of ``config``) on the config's ``host``
    and ``port`` until interrupted; request lines go to standard error as JSON."""
    log_to_stderr()
    uvicorn.run(
        app if app is not None else create_app(config),
        host=config.host,
        port=config.port,
        access_log=False,
        log_level="warning",
        **server_settings(config.head_timeout, config.shutdown_timeout),
    )
