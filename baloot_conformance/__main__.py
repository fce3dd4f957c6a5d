"""``python -m baloot_conformance``: the same as the ``baloot-conformance`` command."""

import sys

from baloot_conformance.cli import main

sys.exit(main())
