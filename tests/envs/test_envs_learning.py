"""The learning example's pieces work together: MaskablePPO reads the Gymnasium env's masks
and never plays an illegal action (skipped without sb3-contrib, i.e. without the rl-train
extra, which CI does not install: torch is large)."""
import importlib.util
from pathlib import Path

import pytest

pytest.importorskip("sb3_contrib")


@pytest.mark.slow
@pytest.mark.filterwarnings("error:The given NumPy array is not writable:UserWarning")   # masks handed to PyTorch
def test_maskable_ppo_trains_and_plays_legal_actions():
    import torch
    from sb3_contrib import MaskablePPO

    path = Path(__file__).resolve().parents[2] / "examples" / "maskable_ppo.py"
    spec = importlib.util.spec_from_file_location("maskable_ppo", path)
    maskable_ppo = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(maskable_ppo)
    from affresco.envs.gymnasium import FrescoEnv

    torch.set_num_threads(1)
    env = FrescoEnv(players=2, opponents="random", reward="margin")  # illegal="raise"
    model = MaskablePPO("MlpPolicy", env, n_steps=128, batch_size=64, n_epochs=1, seed=0,
                        policy_kwargs={"net_arch": [32]})
    model.learn(total_timesteps=256)
    rate = maskable_ppo.win_rate(lambda o, m: int(model.predict(o, action_masks=m, deterministic=True)[0]),
                                 games=2, seed=1)
    assert 0.0 <= rate <= 1.0
