"""``python -m doudizhu``: the command line."""

from .cli import main

raise SystemExit(main())
