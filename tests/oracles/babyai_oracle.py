"""minigrid 3.2.0's BabyAI levels as the oracle of ours: a level's world and
instruction read into our state layout (cpp/envs/minigrid/babyai/state_hook.h),
and episodes stepped in both with the same actions."""

from __future__ import annotations

from collections.abc import Sequence

import gymnasium as gym
import numpy as np
import pytest

import envpool_x
from envpool_x.families.minigrid import decode_mission

minigrid = pytest.importorskip("minigrid")
from minigrid.core.constants import COLOR_TO_IDX, OBJECT_TO_IDX  # noqa: E402
from minigrid.envs.babyai.core import verifier as V  # noqa: E402
from minigrid_oracle import cell_codes  # noqa: E402

MAX_NODES, NODE_VALUES = 7, 10
KINDS = {
    V.GoToInstr: 1,
    V.PickupInstr: 2,
    V.OpenInstr: 3,
    V.PutNextInstr: 4,
    V.AndInstr: 5,
    V.BeforeInstr: 6,
    V.AfterInstr: 7,
}


def _desc(d: V.ObjDesc | None) -> list[int]:
    if d is None:
        return [-1, -1, -1]
    return [
        -1 if d.type is None else OBJECT_TO_IDX[d.type],
        -1 if d.color is None else COLOR_TO_IDX[d.color],
        -1 if d.loc is None else V.LOC_NAMES.index(d.loc),
    ]


def instruction_values(instr: V.Instr) -> list[float]:
    """The instruction tree as our nodes (root first, children after it)."""
    nodes: list[list[int]] = []

    def add(node: V.Instr) -> int:
        k = len(nodes)
        nodes.append([])
        a = b = -1
        if isinstance(node, V.SeqInstr):
            a, b = add(node.instr_a), add(node.instr_b)
        first = getattr(node, "desc", None) or getattr(node, "desc_move", None)
        nodes[k] = [KINDS[type(node)], int(bool(getattr(node, "strict", False))), a, b]
        nodes[k] += _desc(first) + _desc(getattr(node, "desc_fixed", None))
        return k

    add(instr)
    assert len(nodes) <= MAX_NODES
    nodes += [[0] * NODE_VALUES] * (MAX_NODES - len(nodes))
    return [float(v) for n in nodes for v in n]


def babyai_state(env: gym.Env) -> np.ndarray:
    """minigrid's BabyAI world after a reset as our state vector."""
    u = env.unwrapped
    head = [u.width, u.height, *u.agent_pos, u.agent_dir, u.step_count, -1]
    head += cell_codes(u.carrying)
    cells = [
        v for y in range(u.height) for x in range(u.width) for v in cell_codes(u.grid.get(x, y))
    ]
    carry = [-1, -1]
    if getattr(u, "start_carrying", False):
        carry = [int(v) for v in u.obj_a.init_pos]
    values = head + cells + carry + instruction_values(u.instrs)
    return np.array(values, dtype=np.float64)


def run_episodes(
    task: str,
    num_episodes: int,
    action_probs: Sequence[float],
    max_steps: int = 400,
    seed: int = 0,
) -> dict[str, int]:
    """Steps ours (from minigrid's layout and instruction) and minigrid's env
    with the same random actions for ``num_episodes`` episodes (each cut
    after ``max_steps`` steps) and asserts that every observation, mission,
    reward, termination and truncation agree. Returns how episodes ended."""
    ours = envpool_x.make_gymnasium(task, num_envs=1, autoreset_mode="disabled")
    theirs = gym.make(task)
    rng = np.random.default_rng(seed)
    ends = {"terminated": 0, "truncated": 0, "rewarded": 0, "cut": 0}
    for episode in range(num_episodes):
        ours.reset()
        g_obs, _ = theirs.reset(seed=seed * 1000 + episode)
        state = babyai_state(theirs)
        ours._pool.set_state(0, state)
        np.testing.assert_array_equal(ours._pool.get_state(0), state)
        for t in range(1, max_steps + 1):
            where = f"{task} episode {episode} step {t} ({g_obs['mission']})"
            action = int(rng.choice(7, p=action_probs))
            g_obs, g_rew, g_term, g_trunc, _ = theirs.step(action)
            obs, rew, term, trunc, info = ours.step(np.array([action]))
            np.testing.assert_array_equal(obs["image"][0], g_obs["image"], err_msg=where)
            assert int(obs["direction"][0]) == g_obs["direction"], where
            assert decode_mission(obs["mission"][0]) == g_obs["mission"], where
            assert rew[0] == np.float32(g_rew), where
            assert bool(term[0]) == g_term and bool(trunc[0]) == g_trunc, where
            assert tuple(info["agent_pos"][0]) == tuple(theirs.unwrapped.agent_pos), where
            if g_term or g_trunc:
                ends["terminated"] += g_term
                ends["truncated"] += g_trunc
                ends["rewarded"] += g_rew > 0
                break
        else:
            ends["cut"] += 1
    ours.close()
    theirs.close()
    return ends
