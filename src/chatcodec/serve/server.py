"""Running the proxy with uvicorn (what ``chatcodec serve`` does)."""

from __future__ import annotations

import logging
import sys

import uvicorn

from chatcodec.serve.app import create_app
from chatcodec.serve.config import ServeConfig
from chatcodec.serve.request_log import LOGGER


def run(config: ServeConfig, *, host: str = "127.0.0.1", port: int = 8080) -> None:
    """Serve ``config`` until interrupted; request lines go to standard error as JSON."""
    if not LOGGER.handlers:
        handler = logging.StreamHandler(sys.stderr)
        handler.setFormatter(logging.Formatter("%(message)s"))
        LOGGER.addHandler(handler)
        LOGGER.setLevel(logging.INFO)
    uvicorn.run(create_app(config), host=host, port=port, access_log=False, log_level="warning")
