"""``python -m gamecore.referee ...``: the same as ``gamecore tournament ...``."""

import sys

from .cli import main

sys.exit(main())
