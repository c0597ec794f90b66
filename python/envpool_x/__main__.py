"""``python -m envpool_x``: the CLI."""

import sys

from envpool_x.cli import main

sys.exit(main())
