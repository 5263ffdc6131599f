"""``python -m chatcodec``: the command line."""

from chatcodec.cli import main

raise SystemExit(main())
