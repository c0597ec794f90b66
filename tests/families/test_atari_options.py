"""Atari ids, spaces and options: the registry lists every ROM of ale-py, the
spaces and info fields, bad options and unknown games refused with clear
errors (and a missing ale-py named), valid modes and difficulties."""

from __future__ import annotations

import sys

import numpy as np
import pytest
from atari_helpers import make

import envpool_x
from envpool_x import _core, registration
from envpool_x.families import atari

if not atari.has_atari():
    pytest.skip(
        "envpool_x was built without the Atari family (ENVPOOL_X_ATARI=OFF)",
        allow_module_level=True,
    )
ale_py = pytest.importorskip("ale_py", reason="the Atari oracle needs ale-py (the [test] extra)")
pytest.importorskip("cv2", reason="the resize oracle needs opencv-python-headless")


def test_registry_lists_every_rom_of_ale_py() -> None:
    ids = envpool_x.list_all_envs()
    for name in ("Pong-v5", "Breakout-v5", "MontezumaRevenge-v5", "SpaceInvaders-v5"):
        assert name in ids
    ours = set(registration.envs_by_family()["atari"])
    # ale-py's own gymnasium ids (ALE/<Game>-v5): every game its ALE can run.
    import gymnasium

    gymnasium.register_envs(ale_py)
    theirs = {i[4:] for i in gymnasium.registry if i.startswith("ALE/") and i.endswith("-v5")}
    assert ours == theirs
    assert _core.ale_version == atari.ALE_VERSION == ale_py.__version__


def test_spaces_and_info_fields() -> None:
    env = make("Pong-v5", num_envs=2)
    assert env.single_observation_space.shape == (4, 84, 84)
    assert env.single_observation_space.dtype == np.uint8
    assert env.single_action_space.n == 6
    obs, info = env.reset()
    assert obs.shape == (2, 4, 84, 84)
    assert set(info) >= {"env_id", "elapsed_step", "lives", "reward", "terminated", "ram"}
    assert info["ram"].shape == (2, 128) and info["ram"].dtype == np.uint8
    full = envpool_x.make_spec("Pong-v5", full_action_space=True, gray_scale=False, stack_num=2)
    assert full.action_space.n == 18
    assert full.observation_space.shape == (6, 84, 84)
    env.close()


@pytest.mark.parametrize(
    "key, value, message",
    [
        # The declared ranges answer first (envpool_x.families.atari.ATARI_OPTIONS) ...
        ("stack_num", 0, "Pong-v5: stack_num must be an int in [1, 1024]"),
        ("frame_skip", 0, "Pong-v5: frame_skip must be an int in [1, 1000]"),
        ("img_height", 0, "Pong-v5: img_height must be an int in [1, 1024], got 0"),
        ("img_width", -3, "Pong-v5: img_width must be an int in [1, 1024], got -3"),
        ("noop_max", -1, "Pong-v5: noop_max must be an int in [0, "),
        ("repeat_action_probability", 1.5, "repeat_action_probability must be a finite number in"),
        # ... then C++, with the ROM's own modes and difficulties.
        ("mode", 12345, "mode 12345 is not a mode of 'pong'"),
        ("difficulty", 99, "difficulty 99 is not a difficulty of 'pong'"),
        ("rom_path", "/nonexistent/pong.bin", "does not exist"),
    ],
)
def test_bad_options(key: str, value: object, message: str) -> None:
    with pytest.raises(ValueError, match=message.replace("[", r"\[").replace("]", r"\]")):
        envpool_x.make_gymnasium("Pong-v5", **{key: value})


def test_unknown_game_and_missing_ale_py(monkeypatch: pytest.MonkeyPatch) -> None:
    with pytest.raises(KeyError, match="Pong-v5"):
        envpool_x.make_spec("Pongg-v5")
    atari.rom_path.cache_clear()
    monkeypatch.setitem(sys.modules, "ale_py", None)
    monkeypatch.setitem(sys.modules, "ale_py.roms", None)
    with pytest.raises(ImportError, match=r"envpool-x\[atari\]"):
        envpool_x.make_spec("Pong-v5")
    atari.rom_path.cache_clear()


def test_valid_mode_and_difficulty() -> None:
    env = make("Breakout-v5", mode=4, difficulty=1)
    obs, _ = env.reset()
    env.step(np.array([1]))
    env.close()
