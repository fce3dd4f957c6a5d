"""The family engine: the table over any pack, the obligation stages, the phase machine."""
