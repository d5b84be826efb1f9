"""Game clocks as a club runs them: game time, Fischer increments, per-move limits, flags.

Time is always passed in (``t`` in seconds), so no test sleeps.
"""

import json
import math

import pytest

import engine
from arbiter.clocks import (
    Clock,
    ClockError,
    TimeControl,
    TimeControlError,
    format_duration,
    parse_duration,
    parse_time_control,
)

# -- reading a time control ---------------------------------------------------------------------


@pytest.mark.parametrize("text, game, increment, per_move, canonical", [
    ("10m", 600, 0, None, "10m"),
    ("10m+5s", 600, 5, None, "10m+5s"),
    ("30s/move", None, 0, 30, "30s/move"),
    ("5m+3s,20s/move", 300, 3, 20, "5m+3s,20s/move"),
    ("20s/move, 5m+3s", 300, 3, 20, "5m+3s,20s/move"),
    (" 1h30m + 10s ", 5400, 10, None, "1h30m+10s"),
    ("90s", 90, 0, None, "1m30s"),
    ("1.5m", 90, 0, None, "1m30s"),
    ("10M+5S", 600, 5, None, "10m+5s"),
    ("2m+0.5s", 120, 0.5, None, "2m+0.5s"),
])
def test_time_controls_read_as_clubs_write_them(text, game, increment, per_move, canonical):
    tc = parse_time_control(text)
    assert (tc.game, tc.increment, tc.per_move) == (game, increment, per_move)
    assert str(tc) == canonical
    assert parse_time_control(str(tc)) == tc


@pytest.mark.parametrize("text, says", [
    ("", "empty"),
    ("10", "no unit: write 10m for minutes or 10s for seconds"),
    ("ten minutes", "is not a time"),
    ("+5s", "needs a game time before it"),
    ("30s/move+5s", "increment belongs to the game time"),
    ("10m,5m", "game time twice"),
    ("10s/move,20s/move", "per-move time twice"),
    ("10m/turn", "only \"/move\""),
    ("0m", "more than 0"),
    ("0s/move", "more than 0"),
    ("30s5m", "in that order"),
    ("10m,", "empty part"),
])
def test_bad_time_controls_say_what_to_write(text, says):
    with pytest.raises(TimeControlError) as info:
        parse_time_control(text)
    assert says in str(info.value)


def test_an_increment_alone_is_no_time_control():
    with pytest.raises(TimeControlError, match="10m\\+5s"):
        TimeControl(game=None, increment=5, per_move=30)


@pytest.mark.parametrize("seconds", [0, 1, 59, 60, 61, 90, 3600, 3661, 0.25, 7.5])
def test_durations_print_as_they_are_read(seconds):
    assert parse_duration(format_duration(seconds)) == seconds


# -- game time and increments ---------------------------------------------------------------------


def test_only_the_player_on_move_loses_time():
    clock = Clock("10m")
    clock.start(100.0, player=1)
    assert clock.remaining(1, 160.0) == 540.0
    assert clock.remaining(2, 160.0) == 600.0
    clock.press(160.0, to_move=2)
    assert clock.remaining(1, 400.0) == 540.0
    assert clock.remaining(2, 400.0) == 360.0


def test_fischer_increment_is_added_once_per_turn_when_it_passes_on():
    clock = Clock("1m+5s")
    clock.start(0.0)
    clock.press(10.0)  # player 1: 60 - 10 + 5
    assert clock.remaining(1, 10.0) == 55.0
    clock.press(12.0)  # player 2: 60 - 2 + 5
    assert clock.remaining(2, 12.0) == 63.0


def test_a_removal_after_a_mill_is_part_of_the_same_turn():
    clock = Clock("1m+5s,20s/move")
    clock.start(0.0, player=1)
    assert clock.press(8.0, to_move=1) is None  # the placement that formed a mill
    assert clock.remaining(1, 8.0) == 12.0  # the per-move limit runs across the whole turn
    clock.press(15.0, to_move=2)  # the removal ends the turn: one increment
    assert clock.remaining(1, 15.0) == 20.0  # per-move cap for the next turn
    assert clock.left[1] == 60 - 15 + 5


def test_press_without_to_move_passes_to_the_next_player_in_turn_order():
    clock = Clock("1m", players=3)
    clock.start(0.0)
    clock.press(1.0)
    clock.press(2.0)
    assert clock.running == 3
    clock.press(3.0)
    assert clock.running == 1


# -- flags and warnings -----------------------------------------------------------------------------


def test_the_game_clock_flags_the_player_who_runs_out():
    clock = Clock("1m")
    clock.start(0.0)
    assert clock.flag(59.9) is None
    assert clock.flag(60.0) == 1
    assert clock.remaining(1, 61.0) == 0.0
    assert clock.flag(1000.0) == 1  # it stays flagged


def test_the_per_move_limit_flags_even_with_game_time_left():
    clock = Clock("10m,30s/move")
    clock.start(0.0)
    clock.press(5.0)
    assert clock.flag(34.9) is None
    assert clock.flag(35.0) == 2


def test_a_step_made_after_the_flag_fell_loses_on_time():
    clock = Clock("30s/move")
    clock.start(0.0)
    assert clock.press(31.0) == 1
    assert clock.stopped and clock.running == 1  # the turn did not pass on
    assert clock.result(31.0) == engine.Result(2, False, "player 1 ran out of time (30s/move)")


def test_result_is_none_while_nobody_has_flagged():
    clock = Clock("1m")
    clock.start(0.0)
    assert clock.result(30.0) is None


def test_with_three_players_a_flag_only_puts_one_out():
    clock = Clock("10s/move", players=3)
    clock.start(0.0, player=3)
    assert clock.flag(11.0) == 3
    with pytest.raises(ClockError, match="use flag"):
        clock.result(11.0)


def test_warning_names_the_player_in_their_last_seconds():
    clock = Clock("1m", warn_within=10)
    clock.start(0.0)
    assert clock.warning(49.0) is None
    assert clock.warning(50.5) == 1
    assert clock.warning(60.0) is None  # flagged, not warned


def test_deadline_tells_the_referee_when_to_look_again():
    clock = Clock("1m,20s/move")
    clock.start(5.0)
    assert clock.deadline() == 25.0
    clock.press(10.0)
    assert clock.deadline() == 30.0
    assert Clock("1m").deadline() is None  # not started


def test_a_per_move_only_clock_never_runs_out_of_game_time():
    clock = Clock("15s/move")
    clock.start(0.0)
    for t in range(10, 1000, 10):
        assert clock.press(float(t)) is None
    assert clock.remaining(1, 995.0) == 15.0
    assert math.isinf(clock.left[1])


def test_stop_ends_the_game_and_freezes_the_times():
    clock = Clock("1m")
    clock.start(0.0)
    clock.stop(20.0)
    assert clock.remaining(1, 500.0) == 40.0
    assert clock.flag(500.0) is None and clock.deadline() is None


def test_the_clock_must_start_before_a_step():
    clock = Clock("1m")
    with pytest.raises(ClockError, match="start"):
        clock.press(1.0)
    clock.start(0.0)
    with pytest.raises(ClockError, match="already started"):
        clock.start(1.0)
    with pytest.raises(ClockError, match="does not exist"):
        clock.press(2.0, to_move=3)


# -- pauses, snapshots and crashes ----------------------------------------------------------------


def test_a_pause_charges_nobody():
    clock = Clock("1m")
    clock.start(0.0)
    clock.pause(10.0)
    assert clock.flag(500.0) is None and clock.remaining(1, 500.0) == 50.0
    with pytest.raises(ClockError, match="paused"):
        clock.press(500.0)
    clock.resume(1000.0)
    assert clock.remaining(1, 1005.0) == 45.0


def test_snapshot_is_json_and_holds_durations_only():
    clock = Clock("5m+3s,20s/move")
    clock.start(1_000_000.0)
    clock.press(1_000_012.0)
    snap = clock.snapshot(1_000_015.5)
    assert json.loads(json.dumps(snap)) == snap
    assert snap["left"] == {"1": 291.0, "2": 300.0}
    assert snap["running"] == 2 and snap["turn_used"] == 3.5
    assert "1000" not in json.dumps(snap)  # no absolute time from the old time base


def test_a_restored_clock_does_not_charge_the_time_the_game_stood_still():
    clock = Clock("1m+2s")
    clock.start(0.0)
    clock.press(10.0)
    snap = clock.snapshot(14.0)  # player 2 has used 4 s when the power goes
    back = Clock.restore(snap)  # the Pi reboots: a new monotonic time base
    assert back.paused and back.flag(9_999.0) is None
    back.resume(3.0)
    assert back.remaining(2, 3.0) == 56.0  # the 4 s used are kept, the downtime is not charged
    assert back.remaining(1, 3.0) == 52.0
    back.press(5.0)
    assert back.left[2] == 60 - 6 + 2


def test_restore_keeps_a_flag_and_an_unlimited_game_time():
    clock = Clock("10s/move")
    clock.start(0.0)
    clock.flag(11.0)
    back = Clock.restore(json.loads(json.dumps(clock.snapshot(11.0))))
    assert back.flag(0.0) == 1 and back.stopped and math.isinf(back.left[2])


def test_restore_of_a_clock_not_yet_started():
    back = Clock.restore(Clock("1m").snapshot(0.0))
    back.start(0.0, 2)
    assert back.remaining(2, 1.0) == 59.0


@pytest.mark.parametrize("damage", [
    lambda s: s.pop("left"),
    lambda s: s.update(control="soon"),
    lambda s: s.update(running=7),
    lambda s: s["left"].pop("2"),
])
def test_a_damaged_snapshot_is_a_clock_error(damage):
    snap = Clock("1m").snapshot(0.0)
    damage(snap)
    with pytest.raises(ClockError, match="clock snapshot"):
        Clock.restore(snap)
