"""``python -m chatcodec``: the command line."""

from chatcodec.cli.main import main

raise SystemExit(main())
