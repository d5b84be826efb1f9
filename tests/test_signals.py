"""The signal language: every event's frames over time, how signals end, palettes, power, docs.

Times are given to the player, never slept through: ``frame(t)`` is the strip at ``t`` seconds.
"""

from __future__ import annotations

import subprocess
from pathlib import Path

import pytest

from hardware.docs_pictures import SCENES, scene_frames
from hardware.layout import LayoutError, default_map, spots_for
from hardware.leds import open_pixels
from hardware.palette import COLOUR_BLIND, PALETTES, STANDARD, palette
from hardware.power import Power
from hardware.signals import (EVENTS, ClockWarning, Fixed, GameOver, GemToTake, Guidance, IllegalChange,
                              Removable, Reset, SignalPlayer, StepAccepted, Turn)

ROOT = Path(__file__).resolve().parent.parent
MORRIS = default_map("morris9")
OFF = (0, 0, 0)


def player(*events, t=0.0, layout=MORRIS, pal=STANDARD) -> SignalPlayer:
    sp = SignalPlayer(layout, palette=pal)
    for e in events:
        sp.handle(e, t)
    return sp


def at(sp: SignalPlayer, name: str, t: float):
    """The colour of spot or status role ``name`` at time ``t``."""
    return sp.frame(t)[sp.layout.pixels_of(name)[0]]


def lit(sp: SignalPlayer, t: float) -> set[str]:
    frame = sp.frame(t)
    return {n for n, idx in sp.layout.points.items() if frame[idx[0]] != OFF}


# ---------------------------------------------------------------------------- each event
def test_turn_lights_the_turn_pixel_in_the_players_colour_and_nothing_else():
    sp = player(Turn(2))
    assert at(sp, "turn", 0.0) == STANDARD.player(2)
    assert lit(sp, 0.0) == set() and at(sp, "error", 0.0) == OFF
    sp.handle(Turn(1), 1.0)
    assert at(sp, "turn", 1.0) == STANDARD.player(1)


def test_a_legal_step_shows_green_on_its_points_then_fades_out():
    sp = player(StepAccepted(["a1", "a4"]), t=10.0)
    assert lit(sp, 10.0) == {"a1", "a4"}
    assert at(sp, "a1", 10.3) == STANDARD.legal  # held full at first
    g = [at(sp, "a1", 10.0 + dt)[1] for dt in (0.5, 0.8, 1.1, 1.4)]
    assert g == sorted(g, reverse=True) and g[0] > g[-1] > 0  # fading
    assert lit(sp, 11.7) == set()
    assert sp.busy(11.0) and not sp.busy(11.7)


def test_an_illegal_change_is_red_and_held_until_fixed():
    sp = player(Turn(1), IllegalChange(["d1", "d2"]))
    for t in (0.0, 5.0, 600.0):
        assert at(sp, "d1", t) == STANDARD.illegal and at(sp, "d2", t) == STANDARD.illegal
        assert at(sp, "error", t) == STANDARD.illegal
    sp.handle(Fixed(), 601.0)
    assert lit(sp, 601.0) == set() and at(sp, "error", 601.0) == OFF


@pytest.mark.parametrize("clearing", [IllegalChange([]), Fixed(), StepAccepted(["a1"]), Reset()])
def test_an_illegal_change_ends_when_fixed_or_a_legal_step_is_read(clearing):
    sp = player(IllegalChange(["d1"]))
    sp.handle(clearing, 1.0)
    assert at(sp, "d1", 1.0) == OFF and at(sp, "error", 1.0) == OFF


def test_guidance_breathes_white_where_a_piece_goes_and_blinks_magenta_where_one_must_go():
    sp = player(Guidance(put=["b4"], take=["c4"]))
    put = [at(sp, "b4", t) for t in (0.0, 0.5, 1.0, 1.5, 2.0)]
    assert put[0] == STANDARD.put and put[4] == STANDARD.put  # one breath in 2 s
    assert sum(put[2]) < sum(put[1]) < sum(put[0]) and put[2] != OFF  # dims but never goes dark
    assert at(sp, "c4", 0.1) == STANDARD.take and at(sp, "c4", 0.3) == OFF and at(sp, "c4", 0.55) == STANDARD.take
    assert sp.busy(100.0)
    sp.handle(Fixed(), 100.0)
    assert lit(sp, 100.0) == set()


def test_guidance_is_replaced_by_the_next_guidance():
    sp = player(Guidance(put=["b4"]))
    sp.handle(Guidance(take=["a1"]), 1.0)
    assert lit(sp, 1.0) == {"a1"}


def test_removable_pieces_swell_in_amber_and_never_go_dark():
    sp = player(StepAccepted(["d1"]), Removable(["d7", "g4"]))
    colours = [at(sp, "d7", t) for t in (0.0, 0.4, 0.8, 1.2)]
    assert colours[0] == STANDARD.removable
    assert all(c != OFF for c in colours) and sum(colours[2]) < sum(colours[0])
    assert all(c[2] == 0 and c[0] >= c[1] for c in colours)  # amber all the way
    sp.handle(StepAccepted(["g4"]), 2.0)  # the removal: the choice is over
    assert "d7" not in lit(sp, 2.0)


def test_a_captured_gem_pulses_blue_on_its_square():
    hanky = default_map("brain-hanky-6")
    sp = player(GemToTake(["Oc3"]), layout=hanky)
    assert lit(sp, 0.0) == {"Oc3"}
    assert at(sp, "Oc3", 0.0) == STANDARD.gem
    low = at(sp, "Oc3", 0.6)  # half a pulse
    assert 0 < sum(low) < sum(STANDARD.gem) / 3 and low[2] > low[0]
    assert at(sp, "Oc3", 1.2) == STANDARD.gem
    sp.handle(StepAccepted(["Oc3"]), 2.0)
    assert "Oc3" not in lit(sp, 5.0)


def test_a_clock_warning_blinks_the_clock_pixel_faster_as_time_runs_out_then_turns_red():
    sp = player(Turn(1), ClockWarning(1, 30.0))
    blinks = lambda t0, t1, step: [at(sp, "clock", t0 + k * step) != OFF for k in range(int((t1 - t0) / step))]
    slow = blinks(0.0, 2.0, 0.1)
    fast = blinks(21.0, 23.0, 0.1)
    changes = lambda seq: sum(a != b for a, b in zip(seq, seq[1:]))
    assert changes(fast) > 2 * changes(slow) > 0
    assert at(sp, "clock", 0.0) == STANDARD.clock
    assert at(sp, "clock", 31.0) == STANDARD.illegal  # the flag has fallen
    assert "player 1: 20 s left" in sp.caption(10.0)
    sp.handle(Turn(2), 32.0)  # the clock passes to the other player
    assert at(sp, "clock", 32.0) == OFF


def test_a_clock_warning_of_none_clears_it():
    sp = player(ClockWarning(2, 5.0))
    sp.handle(ClockWarning(2, None), 1.0)
    assert at(sp, "clock", 1.0) == OFF


def _brightest_column(sp: SignalPlayer, t: float) -> float:
    spots = spots_for("morris9")
    frame = sp.frame(t)
    best = max(sp.layout.points, key=lambda n: sum(frame[sp.layout.points[n][0]]))
    return spots.coords[best][0]


def test_game_over_sweeps_the_winners_colour_across_the_board():
    sp = player(Turn(1), StepAccepted(["a1"]), IllegalChange(["d1"]), GameOver(2))
    assert at(sp, "turn", 0.0) == STANDARD.player(2)
    assert at(sp, "error", 0.0) == OFF  # every other signal ends
    xs = [_brightest_column(sp, t) for t in (0.3, 0.6, 0.9, 1.2)]
    assert xs == sorted(xs) and xs[0] < xs[-1]  # left to right
    assert lit(sp, 0.3) == set(MORRIS.points)  # the whole board glows in the winner's colour
    frame = sp.frame(0.3)
    for name in MORRIS.points:
        c = frame[MORRIS.points[name][0]]
        assert c[1] <= c[0] and c[2] >= c[0]  # violet throughout: never another colour
    assert sp.busy(50.0)


def test_a_drawn_game_sweeps_both_sides_colours_in_turn():
    sp = player(Turn(1), Turn(2), GameOver(None))
    first, second = sp.frame(0.8), sp.frame(1.6 + 0.8)
    i = MORRIS.points[max(MORRIS.points, key=lambda n: sum(first[MORRIS.points[n][0]]))][0]
    j = MORRIS.points[max(MORRIS.points, key=lambda n: sum(second[MORRIS.points[n][0]]))][0]
    assert first[i] == STANDARD.player(1) and second[j] == STANDARD.player(2)
    assert at(sp, "turn", 0.0) == OFF
    assert "a draw" in sp.caption(0.0)


def test_a_new_turn_after_game_over_ends_the_sweep():
    sp = player(GameOver(1))
    sp.handle(Turn(2), 3.0)  # a take-back reopened the game
    assert lit(sp, 3.0) == set() and at(sp, "turn", 3.0) == STANDARD.player(2)


def test_reset_turns_everything_off():
    sp = player(Turn(1), Removable(["a1"]), Guidance(put=["b2"]), ClockWarning(1, 3), GameOver(1))
    sp.handle(Reset(), 1.0)
    assert set(sp.frame(1.0)) == {OFF}
    assert not sp.busy(1.0)


# ---------------------------------------------------------------------------- layering
def test_illegal_red_covers_other_signals_on_the_same_point():
    sp = player(Removable(["d7"]), Guidance(take=["d7"]), IllegalChange(["d7"]))
    assert at(sp, "d7", 0.0) == STANDARD.illegal


def test_a_fresh_step_is_laid_over_the_removable_amber_and_shows_through_as_it_fades():
    sp = player(StepAccepted(["d1"]))
    sp.handle(Removable(["d1", "g1"]), 0.0)
    assert at(sp, "d1", 0.1) == STANDARD.legal
    assert at(sp, "d1", 4.8) == STANDARD.removable  # three swells on: amber at full


def test_steady_signals_leave_the_player_idle():
    assert not player(Turn(1), IllegalChange(["a1"])).busy(10.0)


def test_events_name_points_the_map_has():
    with pytest.raises(LayoutError, match="no pixel for 'z9'"):
        player(IllegalChange(["z9"]))
    with pytest.raises(ValueError, match="players 1, 2, 3, 4, 5, 6, not 7"):
        player(Turn(7))
    with pytest.raises(TypeError, match="not a signal event"):
        player("beep")


def test_a_single_point_may_be_given_bare():
    assert IllegalChange("d1").points == ("d1",)
    assert Guidance(put="a1").put == ("a1",)


def test_the_caption_says_what_is_shown():
    sp = player(Turn(1), IllegalChange(["d1"]), Guidance(put=["b4"], take=["c4"]))
    assert sp.caption(0.0) == ("player 1 to move · illegal change at d1 · put a piece on b4 · "
                               "take the piece off c4")


def test_show_sends_the_frame_with_its_caption_through_the_power_budget():
    layout = default_map("brain-hanky-6")
    px = open_pixels("memory", layout, power=Power(brightness=1.0, amp_limit=1.5))
    sp = SignalPlayer(layout)
    sp.handle(Turn(1), 0.0)
    sp.handle(GameOver(1), 0.0)  # every pixel of a 376-pixel board lit in warm white
    sent = sp.show(px, 0.8)
    assert px.last_amps <= 1.5 and px.power.estimate_amps(sp.frame(0.8)) > 1.5
    assert len(sent) == layout.count and px.captions[-1] == "game over: player 1 wins"


# ---------------------------------------------------------------------------- palettes
@pytest.mark.parametrize("pal", PALETTES.values(), ids=list(PALETTES))
def test_every_palette_keeps_its_signal_colours_apart(pal):
    board_signals = [pal.legal, pal.illegal, pal.put, pal.take, pal.removable, pal.gem]
    assert len(set(board_signals)) == len(board_signals)
    assert all(OFF != c for c in board_signals + list(pal.players.values()))
    assert len(set(pal.players.values())) == len(pal.players) == 6


def _hue(c) -> float:
    import colorsys

    return colorsys.rgb_to_hsv(*(v / 255 for v in c))[0] * 360


def test_the_colour_blind_palette_swaps_green_and_red_for_blue_and_vermillion():
    assert 200 <= _hue(COLOUR_BLIND.legal) <= 240  # blue
    assert _hue(COLOUR_BLIND.illegal) <= 20  # vermillion
    assert 90 <= _hue(STANDARD.legal) <= 150  # the standard palette's green
    assert palette("colour-blind") is COLOUR_BLIND
    with pytest.raises(ValueError, match="one of standard, colour-blind"):
        palette("neon")
    sp = player(StepAccepted(["a1"]), pal=COLOUR_BLIND)
    assert at(sp, "a1", 0.0) == COLOUR_BLIND.legal


def test_no_player_is_shown_black_on_the_turn_pixel():
    for pal in PALETTES.values():
        assert all(max(c) >= 150 for c in pal.players.values())


# ---------------------------------------------------------------------------- docs
def _picture_there(rel: str) -> bool:
    """In the work tree, or tracked but left out by a sparse checkout (the README's Pi clone
    leaves the docs' pictures out)."""
    if (ROOT / rel).is_file():
        return True
    r = subprocess.run(["git", "ls-files", "--error-unmatch", rel], cwd=ROOT, capture_output=True)
    return r.returncode == 0


def test_every_event_has_a_picture_scene_and_the_docs_show_each_picture():
    shown = {type(e) for scene in SCENES for e in scene.events}
    assert shown | {Fixed, Reset} == set(EVENTS)
    doc = (ROOT / "docs" / "signals.md").read_text()
    for name in [s.name for s in SCENES] + ["turn", "palettes"]:
        assert _picture_there(f"docs/signals/{name}.png"), name
        assert f"signals/{name}.png" in doc, name
    for event in EVENTS:
        assert f"`{event.__name__}" in doc, event.__name__


@pytest.mark.parametrize("scene", SCENES, ids=[s.name for s in SCENES])
def test_every_scene_lights_something_at_every_moment_pictured(scene):
    for t, frame in scene_frames(scene):
        assert any(c != OFF for c in frame), (scene.name, t)


def test_every_brain_hanky_side_has_a_turn_colour_in_both_palettes():
    """Brain Hanky on the expanded board has up to six sides; a turn signal for side 5 or 6 must
    light, not raise (it once did, ending the turn display in a five-player game)."""
    from hardware.palette import palette

    for name in ("standard", "colour-blind"):
        p = palette(name)
        colours = [p.player(n) for n in range(1, 7)]
        assert len(set(colours)) == 6
