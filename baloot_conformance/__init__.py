"""baloot-conformance: the machine-readable Baloot rulebook and conformance test kit."""

# The one place the version is written: the build reads it from here ([tool.hatch.version]).
__version__ = "0.1.0"

__all__ = ["__version__"]
