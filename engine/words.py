"""Steps in players' words: what the referee says a step was, and how it lists candidates.

Kept apart from the rules: every family's steps are described from their kind and the pieces
they move (``Rules.colour_name`` names the mover), so a new family gets sentences for free.
"""

from __future__ import annotations

from typing import Any

from .core import CALL, CLUSTER, JUMP, MOVE, PLACE, REMOVE, TAKE, Step


def describe_step(rules: Any, before: Any, step: Step) -> str:
    """One step in players' words, as the referee announces it: "White moved d2 to d3."."""
    who = rules.colour_name(before.colour_to_move).capitalize()
    if step.kind == PLACE:
        return f"{who} put a piece on {step.dst}."
    if step.kind == REMOVE:
        victim = before.position().get(step.dst)
        whose = f"{rules.colour_name(victim.owner)} " if victim else ""
        return f"{who} took the {whose}piece off {step.dst}."
    if step.kind == CLUSTER:
        return f"{who} placed a cluster on {step.dst}."
    if step.kind == TAKE:
        n = step.count
        return f"{who} took {n} chip{'s' if n != 1 else ''}."
    if step.kind == CALL:
        return f"{who}: {rules.public_text(step)}."  # a secret call (a code) is named, never shown
    if step.kind == JUMP:
        return f"{who} jumped from {step.src} to {step.dst}."
    if step.kind == MOVE and len(step.path) > 2:
        mover = before.position().get(step.src)
        kind = mover.kind if mover else "piece"
        return f"{who} pushed {len(step.path) - 1} {kind}s from {step.src} to {step.dst}."
    return f"{who} moved {step.src} to {step.dst}."


def step_words(step: Step, kind: str = "piece") -> str:
    """A step as a short phrase for lists of candidates: "a piece on d2", "d2 to d3".

    ``kind``: what a push moves ("ring"), for the words of a string move."""
    if step.kind == PLACE:
        return f"a piece on {step.dst}"
    if step.kind == REMOVE:
        return f"take off {step.dst}"
    if step.kind == CLUSTER:
        return f"a cluster on {step.dst}"
    if step.kind == TAKE:
        return f"take {step.count}"
    if step.kind == CALL:
        return step.dst
    if step.kind == JUMP:
        return f"jump {step.src} to {step.dst}"
    if step.kind == MOVE and len(step.path) > 2:
        return f"push {step.src} to {step.dst} ({len(step.path) - 1} {kind}s)"
    return f"{step.src} to {step.dst}"


__all__ = ["describe_step", "step_words"]
