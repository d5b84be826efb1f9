"""Training's owner term and lamp highlights: the loss's owner term (``training.episodes.loss``,
``owner=``) must make an owner confused within one shape cost more and change nothing else; the
highlight augmentation (``--highlight``, run 17's, not the committed network's) must land on
pieces only. Needs the training extra."""

import numpy as np
import pytest

torch = pytest.importorskip("torch")

from training import episodes as E  # noqa: E402

D = 4


def _episode(q_label: int) -> E.Episode:
    """Two spots' empty looks, one calibration piece of each of two owners (one kind), one query
    on spot 0 whose truth is ``q_label`` (0 empty, 1 or 2 an owner)."""
    return E.Episode(
        patches=np.zeros((5, 48, 48, 3), np.uint8), n_empty=2, n_pieces=2,
        empty_spot=np.array([0, 1]), piece_label=np.array([1, 2]),
        q_spot=np.array([0]), q_label=np.array([q_label]), q_covered=np.array([False]),
        allowed=np.ones((1, 3), bool), occupied=np.array([0, 0, 1, 1, float(q_label > 0)], np.float32))


def _out(query: list[float]) -> torch.Tensor:
    """Network outputs: unit embeddings (empty looks on axes 0 and 1, owner 1 on axis 2, owner 2
    on axis 3) and the query's, then two head logits."""
    emb = torch.tensor([[1, 0, 0, 0], [1, 0, 0, 0], [0, 0, 1, 0], [0, 0, 0, 1], query], dtype=torch.float32)
    emb = torch.nn.functional.normalize(emb, dim=1)
    return torch.cat([emb, torch.zeros(5, 2)], dim=1)


def _loss(out, ep, owner):
    return float(E.loss(out, [ep], [2], torch.tensor(10.0), D, owner=owner)[0])


def test_an_owner_confused_within_a_shape_costs_more_with_the_owner_term():
    confused = _out([0, 0, 1.0, 0.3])  # nearer owner 1, truth owner 2
    right = _out([0, 0, 0.3, 1.0])
    ep = _episode(2)
    added_confused = _loss(confused, ep, 1.0) - _loss(confused, ep, 0.0)
    added_right = _loss(right, ep, 1.0) - _loss(right, ep, 0.0)
    assert added_confused > 1.0  # about the cross-entropy of 10 * (1.0 - 0.3) against it
    assert 0 <= added_right < 0.01
    assert _loss(confused, ep, 2.0) - _loss(confused, ep, 0.0) == pytest.approx(2 * added_confused, rel=1e-4)


def test_the_owner_term_leaves_empty_spots_alone():
    """An empty query has no owner: its loss is the same with or without the term, even when it
    looks like a piece."""
    ep = _episode(0)
    for q in ([1, 0, 0, 0], [0, 0, 1, 0.2]):
        out = _out(q)
        assert _loss(out, ep, 1.0) == pytest.approx(_loss(out, ep, 0.0), abs=1e-6)


def test_a_lamps_highlight_lands_near_a_pieces_middle_each_where_its_lamp_puts_it():
    rng = np.random.default_rng(5)
    peaks = []
    for _ in range(30):
        patch = np.full((48, 48, 3), 90, np.float32)
        E.add_highlight(patch, rng)
        assert patch.max() >= 90 + 100 * 0.99 and np.allclose(patch[..., 0], patch[..., 2])  # white, bright
        assert (patch[0, 0] < 95).all()  # the corners, where the neighbours are, barely touched
        peaks.append(np.unravel_index(np.argmax(patch[..., 0]), (48, 48)))
    peaks = np.array(peaks)
    assert len({tuple(p) for p in peaks}) > 20  # not one place for all
    assert (np.abs(peaks - 23.5) < 16).all()


def test_highlights_go_to_pieces_only_and_to_calibration_less_often(monkeypatch):
    """``--highlight P``: each occupied query with probability P, each calibration piece with
    P / 2, never an empty spot; 0 leaves every patch alone."""
    got = []
    monkeypatch.setattr(E, "add_highlight", lambda patch, rng: got.append(int(patch[0, 0, 0]) * 256 + int(patch[0, 0, 1])))
    n = 4000
    patches = np.zeros((n, 48, 48, 3), np.uint8)
    patches[:, 0, 0, 0], patches[:, 0, 0, 1] = np.divmod(np.arange(n), 256)  # each patch's index
    shiny = np.zeros(n, bool)
    shiny[1000:2000] = shiny[3000:] = True  # support 0..1999, queries 2000..: half of each pieces
    E.augment_episode(patches, np.random.default_rng(2), n_support=2000, shiny=shiny, highlight=0.4)
    got = np.array(got)
    assert shiny[got].all()
    assert 150 <= (got < 2000).sum() <= 250  # calibration's pieces: 0.2 of 1000
    assert 330 <= (got >= 2000).sum() <= 470  # the frames': 0.4 of 1000
    got = []
    E.augment_episode(patches, np.random.default_rng(2), n_support=2000, shiny=shiny, highlight=0.0)
    assert got == []
