"""The kit's version, written in this one place: the build reads it ([tool.hatch.version]),
``--version`` and every report print it, and the record of validated rulesets depends on it."""

__version__ = "0.1.0"
