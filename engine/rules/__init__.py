"""Rulesets, one module per family of games (a family is one ruleset with options)."""
