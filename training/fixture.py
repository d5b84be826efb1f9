"""Cut the small test sample ``tests/data/spotnet_fixture.npz`` from the photoreal dev set.

    python -m training.fixture /path/to/photoreal/dev

Two setups (a nine men's morris one and a Brain Hanky one on the blue cloth), cut as play cuts
them (``patchsets``, ``homography="play"``): a few spots' empty patches, every piece of the
pieces picture, and frame patches at those spots chosen by a fixed seed among clear frames (not
picked by whether any model reads them right), about half of them occupied. Under 200 KB.
``tests/test_spotnet.py`` reads them by nearest prototype with the committed model.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path

import numpy as np

from .patchsets import read_set, setup_patches

OUT = Path(__file__).resolve().parents[1] / "tests" / "data" / "spotnet_fixture.npz"
SETUPS = (("ninemm-0", 4, 10), ("bhblue-0", 4, 10))  # (setup, spots, queries)


def main(argv=None) -> int:
    argv = sys.argv[1:] if argv is None else argv
    if len(argv) != 1:
        raise SystemExit(__doc__)
    dev = Path(argv[0])
    sets = read_set(dev)
    rng = np.random.default_rng(31)
    parts = {k: [] for k in ("patches", "group", "kind", "spot", "label", "spot_kind")}
    groups = []
    for g, (name, n_spots, n_queries) in enumerate(SETUPS):
        sp = setup_patches(dev, name, sets[name], homography="play", keep="all", frames="plain")
        clear = ~sp.frame_hand[sp.frame] & ~sp.covered
        occ_spots = np.unique(sp.spot[clear & (sp.label > 0)])
        spots = rng.choice(occ_spots, n_spots, replace=False)
        at = clear & np.isin(sp.spot, spots)
        occ, emp = np.flatnonzero(at & (sp.label > 0)), np.flatnonzero(at & (sp.label == 0))
        q = np.concatenate([rng.choice(occ, n_queries // 2, replace=False),
                            rng.choice(emp, n_queries - n_queries // 2, replace=False)])
        pieces = np.flatnonzero(sp.pieces_label > 0)
        rows = [(sp.empty[s], 0, s, 0) for s in spots] + [(sp.pieces[i], 1, i, sp.pieces_label[i]) for i in pieces] \
            + [(sp.query[i], 2, sp.spot[i], sp.label[i]) for i in q]
        files = ["empty"] * len(spots) + ["pieces"] * len(pieces) + [sp.frame_files[sp.frame[i]] for i in q]
        for patch, kind, spot, label in rows:
            parts["patches"].append(patch)
            parts["group"].append(g)
            parts["kind"].append(kind)
            parts["spot"].append(spot)
            parts["label"].append(label)
            parts["spot_kind"].append(sp.spot_kind[spot])
        groups.append({"setup": name, "game": sp.game, "classes": sp.classes, "kinds": sp.kinds, "files": files})
    OUT.parent.mkdir(parents=True, exist_ok=True)
    np.savez_compressed(OUT, meta=json.dumps({"source": f"photoreal {dev.name}", "groups": groups}),
                        patches=np.stack(parts["patches"]),
                        **{k: np.array(v, np.int16) for k, v in parts.items() if k != "patches"})
    print(f"{OUT}: {len(parts['patches'])} patches, {OUT.stat().st_size // 1024} KB")
    return 0


if __name__ == "__main__":
    sys.exit(main())
