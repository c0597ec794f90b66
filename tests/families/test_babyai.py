"""BabyAI (cpp/envs/minigrid/babyai/): every step of random episodes agrees
with minigrid 3.2.0 from its layout and instruction, for every id EnvPool
1.2.5 registers; the ids, spaces and errors."""

from __future__ import annotations

import numpy as np
import pytest

import envpool_x
from envpool_x.registration import envs_by_family

pytest.importorskip("minigrid")

from babyai_oracle import run_episodes  # noqa: E402

ENVPOOL_BABYAI_IDS = """ActionObjDoor-v0 BlockedUnlockPickup-v0 BossLevel-v0 BossLevelNoUnlock-v0
FindObjS5-v0 FindObjS6-v0 FindObjS7-v0 GoTo-v0 GoToOpen-v0 GoToObjMaze-v0 GoToObjMazeOpen-v0
GoToObjMazeS4-v0 GoToObjMazeS4R2-v0 GoToObjMazeS5-v0 GoToObjMazeS6-v0 GoToObjMazeS7-v0
GoToDoor-v0 GoToImpUnlock-v0 GoToLocal-v0 GoToLocalS5N2-v0 GoToLocalS6N2-v0 GoToLocalS6N3-v0
GoToLocalS6N4-v0 GoToLocalS7N4-v0 GoToLocalS7N5-v0 GoToLocalS8N2-v0 GoToLocalS8N3-v0
GoToLocalS8N4-v0 GoToLocalS8N5-v0 GoToLocalS8N6-v0 GoToLocalS8N7-v0 GoToObj-v0 GoToObjS4-v0
GoToObjS6-v1 GoToObjDoor-v0 GoToRedBall-v0 GoToRedBallGrey-v0 GoToRedBallNoDists-v0
GoToRedBlueBall-v0 GoToSeq-v0 GoToSeqS5R2-v0 KeyCorridor-v0 KeyCorridorS3R1-v0
KeyCorridorS3R2-v0 KeyCorridorS3R3-v0 KeyCorridorS4R3-v0 KeyCorridorS5R3-v0 KeyCorridorS6R3-v0
KeyInBox-v0 MiniBossLevel-v0 MoveTwoAcrossS5N2-v0 MoveTwoAcrossS8N9-v0 OneRoomS8-v0
OneRoomS12-v0 OneRoomS16-v0 OneRoomS20-v0 Open-v0 OpenDoor-v0 OpenDoorColor-v0
OpenDoorDebug-v0 OpenDoorLoc-v0 OpenDoorsOrderN2-v0 OpenDoorsOrderN2Debug-v0
OpenDoorsOrderN4-v0 OpenDoorsOrderN4Debug-v0 OpenRedBlueDoors-v0 OpenRedBlueDoorsDebug-v0
OpenRedDoor-v0 OpenTwoDoors-v0 Pickup-v0 PickupAbove-v0 PickupDist-v0 PickupDistDebug-v0
PickupLoc-v0 PutNextLocal-v0 PutNextLocalS5N3-v0 PutNextLocalS6N4-v0 PutNextS4N1-v0
PutNextS5N1-v0 PutNextS5N2-v0 PutNextS5N2Carrying-v0 PutNextS6N3-v0 PutNextS6N3Carrying-v0
PutNextS7N4-v0 PutNextS7N4Carrying-v0 Synth-v0 SynthLoc-v0 SynthS5R2-v0 SynthSeq-v0
UnblockPickup-v0 Unlock-v0 UnlockLocal-v0 UnlockLocalDist-v0 UnlockPickup-v0
UnlockPickupDist-v0 UnlockToUnlock-v0""".split()
IDS = sorted(f"BabyAI-{name}" for name in ENVPOOL_BABYAI_IDS)

# Turns, moves and the object actions often enough to finish instructions.
ACTIONS = [0.15, 0.15, 0.3, 0.15, 0.1, 0.1, 0.05]


def test_every_envpool_babyai_id_is_registered():
    assert len(IDS) == 96
    ours = set(envs_by_family()["babyai"])
    assert ours == set(IDS)


@pytest.mark.parametrize("task", IDS)
def test_steps_match_minigrid_from_its_layout(task):
    run_episodes(task, 3, ACTIONS, max_steps=150)


# Levels whose random episodes end in success or failure often enough to
# check the verifier's ends (reward, termination) many times over.
ENDING = [
    "BabyAI-GoToRedBallNoDists-v0",
    "BabyAI-GoToLocalS8N7-v0",
    "BabyAI-GoToDoor-v0",
    "BabyAI-ActionObjDoor-v0",
    "BabyAI-PickupDistDebug-v0",
    "BabyAI-OpenDoorDebug-v0",
    "BabyAI-OpenDoorsOrderN4Debug-v0",
    "BabyAI-OpenRedBlueDoorsDebug-v0",
    "BabyAI-PutNextLocalS5N3-v0",
    "BabyAI-PutNextS4N1-v0",
    "BabyAI-PutNextS5N2Carrying-v0",
    "BabyAI-MiniBossLevel-v0",
]


@pytest.mark.parametrize("task", ENDING)
def test_instructions_end_as_in_minigrid(task):
    ends = run_episodes(task, 25, ACTIONS, max_steps=400, seed=1)
    assert ends["terminated"] + ends["truncated"] + ends["cut"] == 25
    if task != "BabyAI-MiniBossLevel-v0":
        assert ends["terminated"] > 0, ends


def test_spaces_mission_and_info():
    env = envpool_x.make_gymnasium("BabyAI-GoToRedBall-v0", num_envs=3, seed=0)
    assert env.single_observation_space["mission"].shape == (512,)
    assert env.single_observation_space["image"].shape == (7, 7, 3)
    obs, info = env.reset()
    texts = envpool_x.families.minigrid.decode_mission(obs["mission"])
    # "a red ball" when a distractor is a red ball too (minigrid's surface()).
    assert set(texts) <= {"go to the red ball", "go to a red ball"}
    assert (info["mission_id"] == -1).all()
    env.close()


def test_bad_actions_and_config_are_refused():
    env = envpool_x.make_gymnasium("BabyAI-GoToLocal-v0", num_envs=2)
    env.reset()
    with pytest.raises(ValueError):
        env.step(np.array([7, 0]))
    with pytest.raises(ValueError):
        env.step(np.array([-1, 0]))
    env.close()
    with pytest.raises(ValueError, match=r"level must be one of \[.*'GoToLocal'.*\], got 'Nope'"):
        envpool_x.make_gymnasium("BabyAI-GoToLocal-v0", num_envs=1, level="Nope")
    with pytest.raises(ValueError, match="select_by"):
        envpool_x.make_gymnasium("BabyAI-OpenDoor-v0", num_envs=1, select_by="size")
    with pytest.raises(ValueError, match="mission_bytes"):
        envpool_x.make_gymnasium("BabyAI-BossLevel-v0", num_envs=1, mission_bytes=8)


def test_cli_lists_and_describes_them():
    import subprocess
    import sys

    run = [sys.executable, "-m", "envpool_x.cli"]
    listed = subprocess.run([*run, "list"], capture_output=True, text=True, check=True).stdout
    assert all(task in listed for task in IDS)
    info = subprocess.run(
        [*run, "info", "BabyAI-PutNextS5N2Carrying-v0"], capture_output=True, text=True, check=True
    ).stdout
    assert "'mission': Box(0, 255, (512,), uint8)" in info
    assert "level = 'PutNext'" in info and "start_carrying = True" in info
