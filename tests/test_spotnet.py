"""The learned spot network at play time (``vision.spotnet``), with the committed model.

What the reader relies on: the committed file loads with OpenCV alone and gives one embedding of
length 1 per patch, plus the two logits; a missing or damaged file, or patches of the wrong
shape, are refused with a message that says what to do; an exported network gives in ``cv2.dnn``
what it gave in PyTorch (only where the train extra is installed: CI never installs it); and
calibration's prototypes read a small committed sample of photoreal patches right.
"""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pytest

from vision import spotnet
from vision.spotnet import SpotNet, SpotNetError, prototype, probabilities, similarities

FIXTURE = Path(__file__).resolve().parent / "data" / "spotnet_fixture.npz"


@pytest.fixture(scope="module")
def net() -> SpotNet:
    return SpotNet.load(backend="cv2")


def test_the_committed_model_loads_and_gives_unit_embeddings(net):
    patches = np.random.default_rng(0).integers(0, 256, (5, 48, 48, 3), np.uint8)
    out = net.read(patches)
    assert out.embedding.shape == (5, net.dim) and out.embedding.dtype == np.float32
    assert net.dim >= 8
    assert np.allclose(np.linalg.norm(out.embedding, axis=1), 1.0, atol=1e-5)
    assert out.occupied.shape == out.foreign.shape == (5,)
    assert np.array_equal(net.embed(patches), out.embedding)
    assert net.read(np.zeros((0, 48, 48, 3), np.uint8)).embedding.shape == (0, net.dim)
    # the recipe beside the model says how it was made and the scale its cosines were trained with
    assert net.recipe["model"] == "spotnet.onnx" and net.scale == pytest.approx(net.recipe["scale"])
    assert spotnet.MODEL.stat().st_size < 2 * 2**20


def test_a_batch_reads_as_its_patches_read_one_by_one(net):
    patches = np.random.default_rng(1).integers(0, 256, (7, 48, 48, 3), np.uint8)
    whole = net.embed(patches)
    alone = np.concatenate([net.embed(patches[i:i + 1]) for i in range(7)])
    assert np.allclose(whole, alone, atol=1e-5)
    small_batches = net.read(patches, batch=3).embedding
    assert np.allclose(whole, small_batches, atol=1e-5)


def test_a_missing_or_damaged_model_is_refused_with_advice(tmp_path):
    with pytest.raises(SpotNetError, match="missing.*make train-reader"):
        SpotNet.load(tmp_path / "nothing.onnx")
    # the pieces network's advice names its own target and file
    with pytest.raises(SpotNetError, match="make train-reader-pieces.*vision/models/spotnet-pieces.onnx"):
        SpotNet.load(tmp_path / "spotnet-pieces.onnx")
    bad = tmp_path / "spotnet.onnx"
    bad.write_bytes(b"this is not an onnx file" * 20)
    for backend in ("cv2", "auto"):
        with pytest.raises(SpotNetError, match="make train-reader"):
            SpotNet.load(bad, backend=backend)
    half = tmp_path / "half.onnx"
    half.write_bytes(spotnet.MODEL.read_bytes()[:5000])
    with pytest.raises(SpotNetError, match="make train-reader"):
        SpotNet.load(half, backend="cv2")
    (tmp_path / "good.onnx").write_bytes(spotnet.MODEL.read_bytes())
    (tmp_path / "good.json").write_text("{ not json")
    with pytest.raises(SpotNetError, match="recipe"):
        SpotNet.load(tmp_path / "good.onnx", backend="cv2")
    with pytest.raises(SpotNetError, match="backend"):
        SpotNet.load(backend="tensorflow")


def test_patches_of_the_wrong_shape_or_type_are_refused(net):
    with pytest.raises(SpotNetError, match="batch"):
        net.embed(np.zeros((48, 48, 3), np.uint8))
    with pytest.raises(SpotNetError, match="48, 48, 3"):
        net.embed(np.zeros((2, 64, 64, 3), np.uint8))
    with pytest.raises(SpotNetError, match="uint8"):
        net.embed(np.zeros((2, 48, 48, 3), np.float32))
    with pytest.raises(SpotNetError, match="numpy"):
        net.embed([[0]])


def test_onnxruntime_gives_what_cv2_gives(net):
    pytest.importorskip("onnxruntime")
    fast = SpotNet.load(backend="onnxruntime")
    patches = np.random.default_rng(2).integers(0, 256, (9, 48, 48, 3), np.uint8)
    a, b = net.read(patches), fast.read(patches)
    assert fast.backend == "onnxruntime"
    assert np.allclose(a.embedding, b.embedding, atol=1e-4)
    assert np.allclose(a.foreign, b.foreign, atol=1e-3) and np.allclose(a.occupied, b.occupied, atol=1e-3)


def test_where_onnxruntime_has_wheels_it_is_installed_and_runs_the_network():
    """onnxruntime is a dependency on the machines it has wheels for (pyproject.toml): there the
    network runs through it by default, three times faster than cv2.dnn; elsewhere cv2.dnn."""
    import importlib.util
    import platform

    wheels = platform.machine() in ("x86_64", "aarch64", "AMD64", "arm64")
    if wheels:
        assert importlib.util.find_spec("onnxruntime") is not None, "pip install -e . (onnxruntime is a dependency)"
    want = "onnxruntime" if importlib.util.find_spec("onnxruntime") is not None else "cv2"
    assert SpotNet.load().backend == want


def test_cv2_runs_an_exported_network_as_torch_does(tmp_path):
    """The whole export path (layout NCHW, BGR kept, 0..255, the normalisation inside the net):
    a freshly made network, exported, read back through ``SpotNet``."""
    torch = pytest.importorskip("torch")
    pytest.importorskip("onnx")
    from training.model import SpotNet as TorchNet, export_onnx

    torch.manual_seed(0)
    model = TorchNet().eval()
    with torch.no_grad():  # batch norm with statistics of its own, so folding it is tested too
        for m in model.modules():
            if isinstance(m, torch.nn.BatchNorm2d):
                m.running_mean.uniform_(-20, 20)
                m.running_var.uniform_(50, 500)
    path = tmp_path / "spotnet.onnx"
    export_onnx(model, path)
    patches = np.random.default_rng(3).integers(0, 256, (6, 48, 48, 3), np.uint8)
    with torch.no_grad():
        want = model(torch.from_numpy(patches.transpose(0, 3, 1, 2).astype(np.float32))).numpy()
    got = SpotNet.load(path, backend="cv2").read(patches)
    assert np.allclose(got.embedding, want[:, :-2], atol=1e-4)
    assert np.allclose(got.occupied, want[:, -2], atol=1e-3) and np.allclose(got.foreign, want[:, -1], atol=1e-3)


def test_prototypes_and_probabilities():
    e = np.array([[1, 0], [0.6, 0.8], [0, 1]], np.float32)
    p = prototype(e[:2])
    assert np.isclose(np.linalg.norm(p), 1.0) and p[0] > p[1] > 0
    sims = similarities(e, np.stack([e[0], e[2]]))
    assert sims.shape == (3, 2) and sims[0, 0] == pytest.approx(1.0) and sims[2, 0] == pytest.approx(0.0)
    per_spot = similarities(e, np.stack([np.stack([e[i], e[2]]) for i in range(3)]))
    assert per_spot.shape == (3, 2) and np.allclose(per_spot[:, 0], 1.0)
    prob = probabilities(np.array([[0.9, 0.1, -np.inf]]), scale=10.0)
    assert prob.shape == (1, 3) and prob[0, 2] == 0.0 and prob[0].sum() == pytest.approx(1.0)
    assert prob[0, 0] == pytest.approx(1 / (1 + np.exp(-8.0)), rel=1e-5)
    with pytest.raises(SpotNetError):
        prototype(np.zeros((0, 4), np.float32))


def test_calibration_prototypes_read_a_photoreal_sample_right(net):
    """A few patches of two photoreal dev setups (``training/fixture.py`` cut them, as play cuts
    them): each setup's empty spots and its pieces picture give the prototypes, and every frame
    patch is read as its nearest: its own spot's empty prototype or a class that may stand there."""
    data = np.load(FIXTURE)
    meta = json.loads(str(data["meta"]))
    # How many of a group's ten frame patches may be misread: none on the mills board. On Brain
    # Hanky's blue cloth the committed network is still far from its target (1.6% of spots wrong
    # on the dev set, 2.1% on this setup, most of them rings: docs/learned-reader.md) and reads
    # one of these ten wrong (a white ring as the yellow one, under a lamp changed since
    # calibration); a broken network or pipeline reads at chance, about two in three wrong. This
    # guards the pipeline; the figures are in the docs.
    may_miss = {"nine-mens-morris": 0, "brain-hanky": 1}
    for g, group in enumerate(meta["groups"]):
        take = data["group"] == g
        kind = data["kind"][take]
        emb = net.embed(data["patches"][take])
        spot, label, spot_kind = data["spot"][take], data["label"][take], data["spot_kind"][take]
        empty = {int(s): emb[i] for i, s in enumerate(spot) if kind[i] == 0}
        classes = group["classes"]
        protos = np.stack([prototype(emb[(kind == 1) & (label == c + 1)]) for c in range(len(classes))])
        queries = np.flatnonzero(kind == 2)
        assert len(queries) >= 8 and (label[queries] == 0).any() and (label[queries] > 0).any()
        wrong = []
        for i in queries:
            allowed = [c for c in range(len(classes)) if group["kinds"].index(classes[c][1]) == spot_kind[i]]
            cands = np.stack([empty[int(spot[i])]] + [protos[c] for c in allowed])
            best = int(np.argmax(similarities(emb[i:i + 1], cands)[0]))
            read = 0 if best == 0 else allowed[best - 1] + 1
            if read != label[i]:
                wrong.append(f"{group['files'][i]}: label {label[i]} read as {read}")
        assert len(wrong) <= may_miss[group["game"]], f"{group['setup']}: {wrong}"


def test_a_frame_read_again_with_its_own_pieces_names_the_doubtful_one():
    """The lamp changed colour after calibration: every piece drifted towards class 1. The sure
    pieces of each class pull its prototype along, and the doubtful one is then read right."""
    from vision.spotnet import frame_adapted

    at = lambda deg: np.array([np.cos(np.radians(deg)), np.sin(np.radians(deg))], np.float32)  # noqa: E731
    protos = np.stack([at(0), at(90)])
    frame = np.stack([at(20), at(55), at(60), at(44)])  # class 1, class 2, class 2, class 2 (doubtful)
    sims = np.concatenate([np.full((4, 1), -1.0, np.float32), frame @ protos.T], axis=1)
    allowed = np.ones((4, 3), bool)
    assert list(sims.argmax(1)) == [1, 2, 2, 1]  # calibration's prototypes alone misread the last
    again = frame_adapted(frame, sims, protos, allowed)
    assert list(again.argmax(1)) == [1, 2, 2, 2]
    assert np.array_equal(again[:, 0], sims[:, 0])  # the empty column is the spot's own: kept
    nowhere = allowed.copy()
    nowhere[:, 2] = False  # a class that may not stand on these spots stays out
    assert np.all(np.isneginf(frame_adapted(frame, np.where(nowhere, sims, -np.inf), protos, nowhere)[:, 2]))
