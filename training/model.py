"""The spot network: a small CNN that turns a 48x48 spot patch into an embedding and two logits.

Training only (PyTorch); the play-time side is ``vision.spotnet``, which runs the exported ONNX
file through ``cv2.dnn`` and never imports torch.

Shape. Four 3x3 convolutions, each halving the patch (48 -> 24 -> 12 -> 6 -> 3), then the 3x3
map kept whole (not averaged: where a thing lies in the patch matters, a piece in the middle is
this spot's, one at an edge is a neighbour's) into one linear layer. Channels are few because the
read of a frame is budgeted: Brain Hanky has 373 spots and the whole read must take under 30 ms
on one core, so the net is held near a million multiply-adds a patch (``macs``).

Outputs, one row per patch, in one tensor (``D + 2`` columns, so ``cv2.dnn`` gives everything in
one forward pass):

* columns ``0..D-1``: the embedding, L2-normalised. Patches of one thing under one light lie
  close; the reader compares them with prototypes made at calibration from the players' own
  pieces and the empty board, so no colour or owner is learnt into the weights.
* column ``D``: the *occupied* logit: something stands on the spot (any piece), whatever the
  board. A prior, chesscog's occupancy stage, that needs no calibration.
* column ``D + 1``: the *foreign* logit: the spot is covered by something that is not a piece of
  the game (a hand, an arm, an object): the referee must not read it.
"""

from __future__ import annotations

import torch
import torch.nn as nn
import torch.nn.functional as F

PATCH = 48
EMBED = 32
CHANNELS = (8, 16, 24, 32)


class SpotNet(nn.Module):
    """See the module's docstring. Input: (N, 3, 48, 48) float, BGR scaled to 0..1."""

    def __init__(self, channels=CHANNELS, embed: int = EMBED):
        super().__init__()
        layers, c_in = [], 3
        for c in channels:
            layers += [nn.Conv2d(c_in, c, 3, stride=2, padding=1, bias=False), nn.BatchNorm2d(c), nn.ReLU(inplace=True)]
            c_in = c
        self.features = nn.Sequential(*layers)
        side = PATCH // 2 ** len(channels)
        self.hidden = nn.Linear(c_in * side * side, 64)
        self.embed = nn.Linear(64, embed)
        self.heads = nn.Linear(64, 2)
        self.embed_size = embed

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        x = self.features(x)
        h = F.relu(self.hidden(torch.flatten(x, 1)))
        e = self.embed(h)
        e = e / torch.sqrt((e * e).sum(dim=1, keepdim=True) + 1e-12)
        return torch.cat([e, self.heads(h)], dim=1)


def macs(model: SpotNet) -> int:
    """Multiply-adds per patch (convolutions and linear layers)."""
    total, side = 0, PATCH
    for m in model.modules():
        if isinstance(m, nn.Conv2d):
            side = (side + 2 * m.padding[0] - m.kernel_size[0]) // m.stride[0] + 1
            total += side * side * m.out_channels * m.in_channels * m.kernel_size[0] * m.kernel_size[1]
        elif isinstance(m, nn.Linear):
            total += m.in_features * m.out_features
    return total


def export_onnx(model: SpotNet, path) -> None:
    """Write ``model`` (eval mode, batch norm folded by the exporter) as ONNX for ``cv2.dnn``:
    input ``patches`` (N, 3, 48, 48), output ``spot`` (N, D + 2), N free."""
    model = model.eval()
    with torch.no_grad():
        torch.onnx.export(model, (torch.zeros(2, 3, PATCH, PATCH),), str(path), dynamo=False,
                          input_names=["patches"], output_names=["spot"],
                          dynamic_axes={"patches": {0: "n"}, "spot": {0: "n"}}, opset_version=13,
                          do_constant_folding=True)
