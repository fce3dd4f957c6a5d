"""baloot-conformance: the machine-readable Baloot rulebook and conformance test kit."""

from baloot_conformance.version import __version__

__all__ = ["__version__"]

# Before any other module of the kit is imported: BALOOT_CONFORMANCE_PURE=1 runs a compiled
# install's Python sources (see build_kind).
from baloot_conformance.build_kind import use_sources_if_asked

use_sources_if_asked()
