"""``python -m balancelab_cli``: the ``balancelab`` command."""

import sys

from . import main

sys.exit(main())
