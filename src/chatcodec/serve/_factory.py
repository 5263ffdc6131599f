"""The application factory ``uvicorn --factory`` calls: :func:`app_from_environment`.

uvicorn (``uvicorn --factory chatcodec.serve:app_from_environment --workers 4``, or
gunicorn with uvicorn's workers) calls a factory with no argument, once in each worker
process, so the settings come from the environment: :data:`CONFIG_VARIABLE` names the TOML
file ``chatcodec serve --config`` reads (:func:`~chatcodec.serve._config.read_config_file`).
The workers share nothing but what the file names: give them one ``--store`` (a SQLite
file on one host, Redis across hosts), which also holds the seal key when no
``seal_key_file`` is given, so an answer one worker kept is continued by any other.

Where uvicorn's own options govern instead of the file: ``host`` and ``port`` (uvicorn's
``--host``/``--port``), the shutdown wait (``--timeout-graceful-shutdown``) and the
request head's deadline (``head_timeout`` is ``chatcodec serve``'s own protocol; behind
uvicorn alone, put a reverse proxy's header timeout in front).

A setting that is wrong stops the worker before it listens, with one line on standard
error naming it and exit code 3: uvicorn's own code for a worker that failed to start,
on which its supervisor stops rather than start the worker again and again.
"""

from __future__ import annotations

import os
import sys

from starlette.applications import Starlette

from chatcodec._public_label import shown_as
from chatcodec.serve._app import create_app
from chatcodec.serve._config import ServeConfig, check_given_settings, read_config_file
from chatcodec.serve._request_log import log_to_stderr

__all__ = ["CONFIG_VARIABLE", "STARTUP_FAILURE", "app_from_environment"]

CONFIG_VARIABLE = "CHATCODEC_SERVE_CONFIG"
"""The environment variable naming the TOML settings file."""
STARTUP_FAILURE = 3
"""uvicorn's exit code for a worker that could not start (``uvicorn.config.STARTUP_FAILURE``)."""


def app_from_environment() -> Starlette:
    """The proxy for the settings file :data:`CONFIG_VARIABLE` names, its request lines on
    standard error as ``chatcodec serve`` writes them (unless the ``chatcodec.serve``
    logger has a handler already); exits (code 3) with one line when a setting is wrong."""
    path = os.environ.get(CONFIG_VARIABLE)
    try:
        if not path:
            raise ValueError(f"{CONFIG_VARIABLE} must name the settings file (TOML, as chatcodec serve --config reads)")
        settings = read_config_file(path)
        check_given_settings(settings)
        app = create_app(ServeConfig(**settings))
    except (ValueError, OSError) as error:
        print(f"chatcodec serve: {error}", file=sys.stderr, flush=True)
        raise SystemExit(STARTUP_FAILURE) from None
    log_to_stderr()
    return app


shown_as("chatcodec.serve", app_from_environment)
