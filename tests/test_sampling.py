"""Sampling a frame: the board is blurred by a line's width before it is sampled; a metal gem's
tint is in its facets, so its pieces' own groups are told from samples taken unblurred."""

from __future__ import annotations

import numpy as np

import engine
from vision import sampling
from vision.families import family_for


def _frame_and_layout(game: str):
    family = family_for(engine.load(game))
    layout = sampling.Layout.build(family, family.xy[:4] + 0.15)
    lo = family.xy.min(axis=0) - 1
    H = np.array([[80.0, 0, -lo[0] * 80], [0, 80.0, -lo[1] * 80], [0, 0, 1]])  # 80 pixels a board unit
    size = np.ceil((family.xy.max(axis=0) - lo + 1) * 80).astype(int)
    rng = np.random.default_rng(5)
    image = rng.integers(0, 240, (size[1], size[0], 3), dtype=np.uint8)  # single-pixel detail, none clipped
    return family, layout, image, H


def test_a_sharp_kind_is_also_sampled_from_the_picture_unblurred():
    family, layout, image, H = _frame_and_layout("brain-hanky")
    assert family.patterns["gem"].sharp and not family.patterns["ring"].sharp
    s = sampling.take(layout, image, H)
    assert set(s.unblurred) == {"gem"}
    gem = layout.groups["gem"]
    at = sampling.project(H, layout.spot_at[gem][:, None, :] + family.patterns["gem"].offsets[None])
    want = sampling.fetch(image, at.reshape(-1, 2)).reshape(s.unblurred["gem"].shape)
    np.testing.assert_allclose(s.unblurred["gem"], want)
    # the blurred samples of the same points are not the picture's own
    assert np.abs(s.tops["gem"] - want).mean() > 20


def test_the_unblurred_samples_of_lifted_pieces_are_round_their_tops():
    family, layout, image, H = _frame_and_layout("brain-hanky")
    lift = np.tile([0.02, -0.05], (len(family.xy), 1))  # each top seen a little up and aside
    s = sampling.take(layout, image, H, lift)
    gem = layout.groups["gem"]
    at = sampling.project(H, (layout.spot_at[gem] + lift[gem])[:, None, :] + family.patterns["gem"].offsets[None])
    np.testing.assert_allclose(s.unblurred["gem"], sampling.fetch(image, at.reshape(-1, 2)).reshape(
        s.unblurred["gem"].shape))
    assert not np.allclose(s.unblurred["gem"], sampling.take(layout, image, H).unblurred["gem"])


def test_a_kind_without_sharp_has_no_unblurred_samples():
    family, layout, image, H = _frame_and_layout("nine-mens-morris")
    assert not any(p.sharp for p in family.patterns.values())
    assert sampling.take(layout, image, H).unblurred is None


def test_unblurred_samples_are_made_relative_like_the_others_and_their_clipped_ones_filled():
    family, layout, image, H = _frame_and_layout("brain-hanky")
    s = sampling.take(layout, image, H)
    raw = s.unblurred["gem"]
    raw[0, :3] = 255.0  # a mirrored lamp over three samples of the first gem
    n = len(family.xy)
    rel, _ratio = sampling.normalise(layout, s, np.asarray(s.probes), np.full((n, 3), 100.0))
    scale = rel.scale["gem"][:, None, :]
    np.testing.assert_allclose(rel.unblurred["gem"][1:], raw[1:] / scale[1:], rtol=1e-5)
    # the clipped samples take the mean of the gem's others (``Pattern.fill_clipped``)
    np.testing.assert_allclose(rel.unblurred["gem"][0, :3], np.broadcast_to((raw[0, 3:] / scale[0]).mean(axis=0),
                                                                            (3, 3)), rtol=1e-5)


def test_nanmedian_is_numpys_with_and_without_missing_values():
    """``sampling.nanmedian`` skips NumPy's slow masked path only when nothing is missing: the
    same numbers either way, NaN rows ignored as ``np.nanmedian`` ignores them."""
    rng = np.random.default_rng(5)
    a = rng.random((40, 7, 3))
    assert np.array_equal(sampling.nanmedian(a, axis=1), np.nanmedian(a, axis=1))
    a[3, 2, 1] = a[10, :, 0][0] = np.nan
    got = sampling.nanmedian(a, axis=1)
    assert np.array_equal(got, np.nanmedian(a, axis=1))
    assert np.isfinite(got[3, 1]) and got[3, 1] == np.median(np.delete(a[3, :, 1], 2))
