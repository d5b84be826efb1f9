"""The training loss's owner term (``training.episodes.loss``, ``owner=``): an owner confused
within one shape must cost more with it, and nothing else may change. Needs the training extra."""

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
