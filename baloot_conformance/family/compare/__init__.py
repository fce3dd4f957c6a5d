"""Comparing trick rulesets: their semantic differences, witness hands, and inference."""
