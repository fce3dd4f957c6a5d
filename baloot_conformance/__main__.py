"""``python -m baloot_conformance``: the same as the ``baloot-conformance`` command."""

from baloot_conformance.cli import run

run()
