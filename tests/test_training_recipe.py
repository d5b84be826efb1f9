"""A committed network is remade from one full render with exactly the setups its recipe names
(``training.train --setups-of``): the recipe's setups read back in order, a cached set keeps only
those, and a file that is no recipe says so."""

import json
from pathlib import Path

import pytest

from training.patchsets import keep_setups, recipe_setups

ROOT = Path(__file__).resolve().parent.parent


def test_the_committed_recipes_name_their_setups_in_the_order_they_were_trained():
    names = recipe_setups(ROOT / "vision" / "models" / "spotnet.json")
    assert len(names) == len(set(names)) and names[0] == "s0000-tapatan"
    # run 15: every setup of seed 40040 (0-127), in order, and the 24 pegs-and-tokens setups
    numbers = [int(n[1:5]) for n in names if not n.endswith(("brainmaste", "thinkingin"))]
    assert numbers == list(range(128))
    assert len(names) == 152
    assert recipe_setups(ROOT / "vision" / "models" / "spotnet-pieces.json")


def test_a_cached_set_keeps_only_the_named_setups_in_its_own_order(tmp_path):
    got = [tmp_path / f"s{k:04d}-bh.npz" for k in range(6)]
    assert keep_setups(got, ["s0004-bh", "s0001-bh", "s0009-bh"]) == [got[1], got[4]]
    assert keep_setups(got, []) == []


def test_a_file_that_is_no_recipe_is_refused_with_what_it_should_be(tmp_path):
    bad = tmp_path / "spotnet.json"
    bad.write_text(json.dumps({"model": "spotnet.onnx"}))
    with pytest.raises(ValueError, match="not a network's recipe"):
        recipe_setups(bad)
    with pytest.raises(ValueError, match="not a network's recipe"):
        recipe_setups(tmp_path / "missing.json")


def test_training_refuses_to_start_without_every_setup_its_recipe_names(tmp_path):
    pytest.importorskip("torch")  # the train extra
    from training import train

    with pytest.raises(SystemExit, match="render them first"):
        train.main(["--train", str(tmp_path), "--setups-of", str(ROOT / "vision" / "models" / "spotnet.json"),
                    "--cache", str(tmp_path / "cache"), "--synth", "0", "--steps", "40"])
    bad = tmp_path / "bad.json"
    bad.write_text("{}")
    with pytest.raises(SystemExit):  # argparse's error: the message names the file
        train.main(["--train", str(tmp_path), "--setups-of", str(bad), "--cache", str(tmp_path / "cache")])


def test_a_count_of_setups_and_a_recipes_setups_are_not_given_together(tmp_path):
    pytest.importorskip("torch")  # the train extra
    from training import train

    with pytest.raises(SystemExit):  # argparse: not allowed with --setups-of
        train.main(["--train", str(tmp_path), "--setups", "64",
                    "--setups-of", str(ROOT / "vision" / "models" / "spotnet.json")])
