"""baloot-conformance: the machine-readable Baloot rulebook and conformance test kit."""

# The one place the version is written: the build reads it from here ([tool.hatch.version]).
__version__ = "0.1.0"

__all__ = ["__version__"]

# Before any other module of the kit is imported: BALOOT_CONFORMANCE_PURE=1 runs a compiled
# install's Python sources (see build_kind).
from baloot_conformance.build_kind import use_sources_if_asked

use_sources_if_asked()
