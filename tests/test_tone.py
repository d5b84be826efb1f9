"""The camera's tone curve near white (vision/tone.py): how a light piece's look is predicted in a
brighter or darker frame, and when a frame flattens it against the board."""

from __future__ import annotations

import numpy as np
import pytest

from vision import tone


def test_the_curve_is_linear_below_the_knee_and_never_reaches_white():
    v = np.linspace(0, 2000, 401)
    c = tone.compress(v)
    assert np.allclose(c[v <= tone.KNEE], v[v <= tone.KNEE])
    assert np.all(np.diff(c) > 0) and c.max() < tone.TOP
    # the slope is continuous at the knee
    eps = 1e-3
    assert (tone.compress(tone.KNEE + eps) - tone.KNEE) / eps == pytest.approx(1.0, abs=1e-2)


def test_expand_undoes_compress():
    v = np.array([0.0, 50.0, tone.KNEE, 150.0, 240.0, 400.0, 800.0])
    assert np.allclose(tone.expand(tone.compress(v)), v, rtol=1e-6)
    assert np.isfinite(tone.expand(np.array([255.0, 300.0]))).all()


def _looks(rng, white=1.9, dark=0.3, samples=12):
    """A light class (a white ring on the blue cloth, 1.9 times the ground in its lightest
    channel) and a dark one, as (C, K, 3) relative looks."""
    light = np.array([1.0, 1.3, white]) * (1 + 0.02 * rng.standard_normal((samples, 3)))
    darker = np.full((samples, 3), dark)
    return np.stack([light, darker])


def test_at_calibration_light_nothing_changes():
    T = _looks(np.random.default_rng(1))
    scale = np.tile([185.0, 105.0, 60.0], (5, 1))  # the blue cloth, lit as at calibration
    looks = tone.looks_in_frame(T, scale, np.ones((5, 3)))
    assert np.allclose(looks, T[None], atol=1e-6) if looks.ndim == 4 else np.allclose(looks, T)


def test_only_light_looks_bend_and_they_bend_towards_the_board():
    """Twice the light on the cloth: the dark class is unchanged, the light class is predicted
    lower (relative to the cloth) than it was, but still above the cloth in every channel it
    outshone."""
    T = _looks(np.random.default_rng(2))
    cloth = np.array([185.0, 105.0, 60.0])
    light = np.full((4, 3), 2.0)
    looks = tone.looks_in_frame(T, np.tile(cloth, (4, 1)) * 2.0, light)
    assert looks.shape == (4,) + T.shape
    assert np.allclose(looks[:, 1], T[1][None])
    assert np.all(looks[:, 0].mean(axis=1) < T[0].mean(axis=0) + 1e-9)
    assert np.all(looks[:, 0, :, 2] > 1.0)


def test_a_dim_frame_flattens_nothing_and_a_bright_one_does():
    T = _looks(np.random.default_rng(3))
    cloth = np.array([185.0, 105.0, 60.0])
    n = 10

    def share(gain):
        scale = np.tile(tone.compress(cloth * gain), (n, 1))
        return tone.washed_out(T, tone.looks_in_frame(T, scale, scale / cloth), 0.16)

    assert share(0.7)[0] == 0.0 and share(1.0)[0] == 0.0
    assert share(8.0)[0] == 1.0  # the cloth itself near white: the ring shows as the cloth
    assert share(8.0)[1] == 0.0  # a dark class never counts


def test_a_look_never_far_from_its_board_is_not_called_flattened():
    """A cream man on a cream print lies close to the board from the start (the simulator's
    white men): the frame does not flatten it, so it must not refuse the frame."""
    man = np.tile([1.55, 1.12, 1.0], (8, 1))[None]  # one class, 0.22 from the board
    board = np.array([140.0, 180.0, 200.0])
    scale = np.tile(board * 1.3, (6, 1))
    assert tone.apart(man)[0] > 0.16
    assert tone.washed_out(man, tone.looks_in_frame(man, scale, np.full((6, 3), 1.3)), 0.16)[0] == 0.0


# ---------------------------------------------------------------------------- the frame's own ink curve
def test_ink_gamma_recovers_the_power_the_frame_applied():
    rng = np.random.default_rng(3)
    then = rng.uniform(0.3, 0.8, (200, 3))
    g = np.array([1.6, 1.4, 0.7])
    seen = then ** g * (1 + 0.01 * rng.standard_normal((200, 3)))
    assert tone.ink_gamma(seen, then) == pytest.approx(g, abs=0.05)
    assert np.allclose(tone.bend(np.ones((4, 3)), g), 1.0)  # the board stays the board
    assert np.allclose(tone.bend(then, g), then ** g)


def test_ink_gamma_says_nothing_on_too_little_ink_or_ink_that_moved():
    rng = np.random.default_rng(4)
    then = rng.uniform(0.3, 0.8, (200, 3))
    assert tone.ink_gamma(then[:10], then[:10]) is None  # too few samples
    assert tone.ink_gamma(np.ones((200, 3)) * 0.9, np.ones((200, 3)) * 0.95) is None  # all paper: no ink
    # lines that landed elsewhere (a camera moved or refocused): each sample's power differs
    shuffled = then[rng.permutation(200)]
    assert tone.ink_gamma(shuffled, then) is None


def test_ink_powers_mark_by_mark():
    """Each mark's power: the frame's tone where its line shows, 0 where the board's own colour
    shows instead (a hand over it), and ink lighter than the board (the blue cloth's webs)
    counted the other way up; NaN for a mark calibration saw no ink at."""
    from vision.tone import ink_powers

    then = np.array([[0.5, 0.5, 0.5], [0.4, 0.45, 0.5], [1.5, 1.6, 1.7], [0.5, 0.5, 0.5], [0.97, 0.98, 0.99]])
    seen = np.concatenate([then[:3] ** 0.7, [[1.0, 1.0, 1.0], [0.5, 0.5, 0.5]]])
    p = ink_powers(seen, then)
    assert np.allclose(p[:3], 0.7)
    assert abs(p[3]) < 1e-9
    assert np.isnan(p[4])
