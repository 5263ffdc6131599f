"""Running the proxy with uvicorn (what ``chatcodec serve`` does)."""

from __future__ import annotations

import logging
import sys

import uvicorn

from chatcodec.serve._app import create_app
from chatcodec.serve._config import ServeConfig
from chatcodec.serve._deadlines import server_settings
from chatcodec.serve._request_log import LOGGER


def run(config: ServeConfig) -> None:
    """Serve ``config`` on its ``host`` and ``port`` until interrupted; request lines go
    to standard error as JSON."""
    if not LOGGER.handlers:
        handler = logging.StreamHandler(sys.stderr)
        handler.setFormatter(logging.Formatter("%(message)s"))
        LOGGER.addHandler(handler)
        LOGGER.setLevel(logging.INFO)
    uvicorn.run(
        create_app(config),
        host=config.host,
        port=config.port,
        access_log=False,
        log_level="warning",
        **server_settings(config.head_timeout, config.shutdown_timeout),
    )
