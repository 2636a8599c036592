"""``python -m boardlab``: the same as the ``boardlab`` command."""

import sys

from boardlab.cli.main import main

sys.exit(main())
