"""Checking BTN 2 transcripts against a trick ruleset: verdicts in the kit's shape."""
