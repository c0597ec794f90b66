"""The caller's side of a round, made cheap for many threads (issue 33): result
arrays reused only once the caller let go of them, a send to every env marked
in flight at once, wide integer actions narrowed in bulk, and the opt-in round
profile that says where a round's time goes."""

from __future__ import annotations

import numpy as np
import pytest

import envpool_x


def _data_ptr(a: np.ndarray) -> int:
    return a.__array_interface__["data"][0]


@pytest.fixture
def cartpole():
    env = envpool_x.make_gymnasium("CartPole-v1", num_envs=300, num_threads=2, seed=3)
    env.reset()
    yield env
    env.close()


def _acts(env, k: int) -> np.ndarray:
    return np.random.default_rng(k).integers(0, 2, env.num_envs).astype(np.int32)


def test_a_held_result_never_changes(cartpole):
    held = cartpole.step(_acts(cartpole, 0))
    snapshot = [np.array(held[0]), np.array(held[1]), np.array(held[4]["elapsed_step"])]
    view = cartpole.step(_acts(cartpole, 1))[0][10:20]  # a view keeps its base alive
    view_before = view.copy()
    for k in range(2, 8):
        cartpole.step(_acts(cartpole, k))
    np.testing.assert_array_equal(held[0], snapshot[0])
    np.testing.assert_array_equal(held[1], snapshot[1])
    np.testing.assert_array_equal(held[4]["elapsed_step"], snapshot[2])
    np.testing.assert_array_equal(view, view_before)
    assert (held[4]["elapsed_step"] == 1).all()


def test_a_dropped_result_is_written_again(cartpole):
    # A loop that drops each result (a benchmark) gets the same memory back;
    # one that keeps the last result alternates between two sets.
    first = _data_ptr(cartpole.step(_acts(cartpole, 0))[0])
    assert _data_ptr(cartpole.step(_acts(cartpole, 1))[0]) == first
    obs_a = cartpole.step(_acts(cartpole, 2))[0]
    obs_b = cartpole.step(_acts(cartpole, 3))[0]
    assert _data_ptr(obs_a) != _data_ptr(obs_b)
    del obs_a
    obs_c = cartpole.step(_acts(cartpole, 4))[0]
    assert _data_ptr(obs_c) not in (_data_ptr(obs_b),)
    # The values are this step's, not a stale copy.
    ref = envpool_x.make_gymnasium("CartPole-v1", num_envs=300, num_threads=1, seed=3)
    ref.reset()
    for k in range(4):
        ref.step(_acts(ref, k))
    np.testing.assert_array_equal(ref.step(_acts(ref, 4))[0], obs_c)
    ref.close()


def test_async_results_do_not_alias_held_ones():
    env = envpool_x.make_gymnasium("CartPole-v1", num_envs=8, batch_size=4, seed=1)
    env.async_reset()
    held = []
    for _ in range(12):
        obs, _, _, _, info = env.recv()
        held.append((obs, np.array(obs), info["env_id"], np.array(info["env_id"])))
        env.send(np.ones(4, dtype=np.int32), info["env_id"])
    for obs, obs_copy, ids, ids_copy in held:
        np.testing.assert_array_equal(obs, obs_copy)
        np.testing.assert_array_equal(ids, ids_copy)
    env.close()


def test_a_full_send_marks_every_env_in_flight():
    env = envpool_x.make_gymnasium("CartPole-v1", num_envs=6)
    env.reset()
    env.send(np.zeros(6, dtype=np.int32))
    for ids in ([0], [5], [2, 3]):
        with pytest.raises(RuntimeError, match="already has work in flight"):
            env.send(np.zeros(len(ids), dtype=np.int32), env_id=ids)
    with pytest.raises(RuntimeError, match="has work in flight"):
        env._pool.get_state(4)
    _, _, _, _, info = env.recv()
    np.testing.assert_array_equal(info["env_id"], np.arange(6))
    env.send(np.zeros(2, dtype=np.int32), env_id=[1, 4])  # free again, one by one
    with pytest.raises(RuntimeError, match="env 4 already has work in flight"):
        env.send(np.zeros(1, dtype=np.int32), env_id=[4])
    env.recv()
    env.step(np.zeros(6, dtype=np.int32))
    env.close()


def test_wide_actions_out_of_int32_range_are_refused(cartpole):
    act = np.zeros(cartpole.num_envs, dtype=np.int64)
    act[7] = 2**32  # would narrow to a valid 0
    with pytest.raises(ValueError, match=r"action 4294967296 for env 7 is out of range"):
        cartpole.step(act)
    act[7] = 1
    _, _, _, _, info = cartpole.step(act.astype(np.uint16))
    assert (info["elapsed_step"] == 1).all()


def test_wide_multi_discrete_actions_check_each_element():
    env = envpool_x.make_gymnasium(
        "TagGridworld-v0", num_envs=3, num_taggers=2, grid_length=4, episode_length=9
    )
    env.reset()
    nvec = env.action_space.nvec  # one env's agents
    act = np.zeros((3, *env.action_space.shape), dtype=np.int64)
    env.step(act)
    act[2, 1] = nvec[1]
    with pytest.raises(ValueError, match=r"action 5 for env 2, agent 1"):
        env.step(act)
    env.close()


def test_round_profile_adds_up():
    env = envpool_x.make_gymnasium("CartPole-v1", num_envs=4096, num_threads=2)
    env.reset()
    env._pool.profile_rounds(True)
    for k in range(50):
        env.step(_acts(env, k))
    p = env._pool.round_profile()
    assert p["rounds"] == 50
    parts = p["prologue_us"] + p["span_us"] + p["epilogue_us"]
    assert p["wall_us"] == pytest.approx(parts, rel=1e-6)
    assert 1 <= p["lanes_per_round"] <= 3  # two workers and the caller at most
    assert p["chunks_per_round"] >= p["lanes_per_round"]
    assert 0 < p["busy_per_lane_us"] <= p["span_us"] + 1e-6
    assert p["busy_total_us"] == pytest.approx(p["busy_per_lane_us"] * p["lanes_per_round"])
    # first_start is a mean over lane-rounds, latest_start a mean over rounds of
    # each round's latest lane: each round's latest is at least the mean of its
    # (at most 3) lanes' starts, so latest_start >= first_start * lanes / 3
    # (not >= first_start: rounds with more lanes weigh more in first_start).
    assert p["first_start_us"] >= 0
    bound = p["first_start_us"] * p["lanes_per_round"] / 3
    assert p["latest_start_us"] >= bound - 1e-3, (p["latest_start_us"], bound)  # ns rounding
    env._pool.profile_rounds(False)
    env.step(_acts(env, 0))
    assert env._pool.round_profile()["rounds"] == 0
    env.close()


def test_round_profile_counts_inline_and_reset_rounds():
    env = envpool_x.make_gymnasium("CartPole-v1", num_envs=8, num_threads=2)
    env.reset()
    env._pool.profile_rounds(True)
    env.step(np.zeros(8, dtype=np.int32))  # small: runs on the caller alone
    p = env._pool.round_profile()
    assert (p["rounds"], p["lanes_per_round"], p["chunks_per_round"]) == (1, 1, 1)
    env.reset()
    assert env._pool.round_profile()["rounds"] == 2
    env.close()


def test_round_profile_refuses_async_pools_and_rounds_in_flight():
    env = envpool_x.make_gymnasium("CartPole-v1", num_envs=4, batch_size=2)
    with pytest.raises(ValueError, match="sync pools only"):
        env._pool.profile_rounds(True)
    env.close()
    env = envpool_x.make_gymnasium("CartPole-v1", num_envs=4)
    env.reset()
    env.send(np.zeros(4, dtype=np.int32))
    with pytest.raises(RuntimeError, match="work in flight"):
        env._pool.profile_rounds(True)
    env.recv()
    env.close()


@pytest.mark.parametrize(
    ("num_envs", "chunks"),
    [
        (64, 64),  # 32 envs a thread: one env a chunk
        (1024, 128),  # 8 envs a chunk: 64 chunks a thread
        (8192, 256),  # capped at 32 envs a chunk
    ],
)
def test_expensive_envs_go_one_a_chunk_until_threads_have_many(num_envs, chunks):
    """An expensive env goes alone in its chunk while each thread has few; with
    many, chunks take several (a microsecond's step would otherwise pay about
    as much again in queue traffic), at most 32 envs each."""
    env = envpool_x.make_gymnasium("FaultInjection-v0", num_envs=num_envs, num_threads=2)
    env.reset()
    env._pool.profile_rounds(True)
    for _ in range(3):
        env.step(np.zeros(num_envs, dtype=np.int32))
    assert env._pool.round_profile()["chunks_per_round"] == chunks
    env.close()


def test_envs_stepped_in_parts_keep_one_env_a_chunk():
    """MuJoCo envs are stepped in parts: their sync rounds end in pair chunks,
    which need one env a chunk, however many envs a thread has."""
    env = envpool_x.make_gymnasium("Hopper-v5", num_envs=512, num_threads=2)
    env.reset()
    env._pool.profile_rounds(True)
    for _ in range(3):
        env.step(np.zeros((512, 3), dtype=np.float32))
    # 512 envs, less one for each pair chunk (two envs) a round may end in.
    assert env._pool.round_profile()["chunks_per_round"] >= 512 - 3
    env.close()


def test_chunked_expensive_envs_in_first_finished_mode_all_come_back():
    """Batches of 512 expensive envs go 4 to a chunk in first-finished mode:
    every env sent comes back exactly once per send, none starved, the
    elapsed steps count each env's own steps."""
    num_envs, batch = 1024, 512
    env = envpool_x.make_gymnasium(
        "FaultInjection-v0", num_envs=num_envs, batch_size=batch, num_threads=2
    )
    env.async_reset()
    steps = np.zeros(num_envs, dtype=np.int64)
    for _ in range(12):
        _, _, _, _, info = env.recv()
        ids = info["env_id"]
        assert len(ids) == batch and len(set(ids.tolist())) == batch
        assert (info["elapsed_step"] == steps[ids]).all()
        steps[ids] += 1
        env.send(np.zeros(batch, dtype=np.int32), ids)
    assert steps.min() >= 1  # 6,144 results over 1,024 envs: each came back
    env.close()
