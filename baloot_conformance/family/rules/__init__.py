"""Trick rulesets (``trick-ruleset/1``): their typed shape and their loading."""
