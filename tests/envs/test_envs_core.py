"""The shared encodings of affresco.envs: index <-> Action both ways, the legal mask, the
observation layout (contiguous, documented sizes), seat-relative figures, versioned ids."""
import random

import numpy as np
import pytest

import affresco
from affresco.envs import ActionCodec, Config, ObservationEncoder
from envs_support import ALL


@pytest.mark.parametrize("n,mods", [(2, ()), (3, ALL), (4, ("portraits", "scrolls"))])
def test_index_and_action_both_ways_and_the_mask(n, mods):
    codec = ActionCodec(Config.of(n, mods))
    g = affresco.new_game(n, mods, seed=3)
    rng = random.Random(3)
    while not g.is_over:
        seat = rng.choice(g.to_act)
        legal = g.legal_actions(seat)
        idx = [codec.encode(a) for a in legal]
        assert [codec.decode(i) for i in idx] == legal
        some = rng.sample(range(len(legal)), min(len(legal), 40))   # notation text too (a sample: plans run to 20,000)
        assert [codec.encode(str(legal[i])) for i in some] == [idx[i] for i in some]
        mask = codec.mask(legal)
        assert set(np.flatnonzero(mask)) == set(idx) and mask.sum() == len(set(legal))
        g.apply(seat, rng.choice(legal))
    with pytest.raises(affresco.IllegalAction):
        codec.decode(codec.size)
    with pytest.raises(affresco.IllegalAction):
        ActionCodec(Config.of(2)).encode("portrait muse")   # a module action outside the base space


def test_layout_is_contiguous_and_sized_as_documented():
    sizes = {(2, ()): 480, (4, ()): 510, (2, ALL): 480 + 64 * len(ALL)}   # 64 per module (docs/envs.md)
    for (n, mods), size in sizes.items():
        enc = ObservationEncoder(Config.of(n, mods))
        assert enc.size == size
        pos = 0
        for name, start, length in enc.layout:
            assert start == pos
            pos += length
        assert pos == enc.size
        g = affresco.new_game(n, mods, seed=1)
        x = enc.encode(g.view(0, log=False), 0)
        assert x.shape == (size,) and x.dtype == np.float32 and np.isfinite(x).all()


def test_figures_are_relative_to_the_observer():
    enc = ObservationEncoder(Config.of(3))
    g = affresco.new_game(3, seed=2)
    start, per = enc.offsets["figures"], enc.per_figure
    for seat in range(3):
        x = enc.encode(g.view(seat, log=False), seat)
        me = x[start:start + per]
        # the observer's own block comes first: its start space is the observer's
        track = g.view(seat, log=False)["figures"][seat]["track"]
        assert me[2] == pytest.approx(int(track[1:]) / 5)
        assert x[enc.offsets["seat"] + seat] == 1


def test_versioned_ids():
    assert Config.of(4).env_id == "Fresco-4p-v1"
    assert Config.of(2, "scrolls+portraits").env_id == "Fresco-2p+portraits+scrolls-v1"
    assert Config.of(2, ("special_colours",), {"special_colours_on_fresco": True}).env_id == \
        "Fresco-2p+special_colours+special_colours_on_fresco-v1"
    with pytest.raises(affresco.ConfigError):
        Config.of(5)
    with pytest.raises(affresco.ConfigError):
        Config.of(2, ("no_such_module",))
