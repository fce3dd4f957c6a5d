"""Corpora of the trick family: generated sessions (:mod:`.generate`)."""
