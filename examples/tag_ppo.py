"""PPO (torch, CPU) for the taggers of WarpDrive's grid Tag, one shared policy.

Every tagger of every env is one row of a flat batch (``num_envs *
num_taggers`` rows; docs/multi_agent.md, "One shared policy"): the pool's
``(num_envs, num_agents, obs)`` arrays are reshaped without a copy, the
policy's actions reshaped back. The runner moves at random. Each iteration
prints the share of finished episodes that ended in a tag, which rises as
the taggers learn to chase.

    python examples/tag_ppo.py                  # about 15 seconds on 2 cores
    python examples/tag_ppo.py --iterations 10  # a quick look
"""

from __future__ import annotations

import argparse
import time

import numpy as np
import torch
from torch import nn

import envpool_x


def make_policy(obs_size: int, num_actions: int) -> nn.Module:
    class Policy(nn.Module):
        def __init__(self) -> None:
            super().__init__()
            self.body = nn.Sequential(
                nn.Linear(obs_size, 64), nn.Tanh(), nn.Linear(64, 64), nn.Tanh()
            )
            self.logits = nn.Linear(64, num_actions)
            self.value = nn.Linear(64, 1)

        def forward(self, x: torch.Tensor) -> tuple[torch.distributions.Categorical, torch.Tensor]:
            h = self.body(x)
            return torch.distributions.Categorical(logits=self.logits(h)), self.value(h)[:, 0]

    return Policy()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--iterations", type=int, default=60)
    parser.add_argument("--num-envs", type=int, default=64)
    parser.add_argument("--rollout", type=int, default=64, help="steps per iteration")
    parser.add_argument("--seed", type=int, default=0)
    args = parser.parse_args()
    torch.manual_seed(args.seed)
    torch.set_num_threads(1)
    taggers, gamma, lam = 3, 0.98, 0.95
    env = envpool_x.make_gymnasium(
        "TagGridworld-v0",
        num_envs=args.num_envs,
        seed=args.seed,
        autoreset_mode="same_step",  # every step is a real transition
        num_taggers=taggers,
        grid_length=20,
        episode_length=60,
        use_full_observation=False,
    )
    n, agents = args.num_envs, env.num_agents
    obs_size = env.agent_observation_space.shape[0]
    policy = make_policy(obs_size, int(env.agent_action_space.n))
    optimizer = torch.optim.Adam(policy.parameters(), lr=2.5e-3)
    rng = np.random.default_rng(args.seed)
    obs, _ = env.reset()
    rows = n * taggers  # the flat batch: every tagger of every env
    start = time.perf_counter()
    for it in range(args.iterations):
        buf_obs = torch.zeros(args.rollout, rows, obs_size)
        buf_act = torch.zeros(args.rollout, rows, dtype=torch.long)
        buf_logp, buf_val, buf_rew, buf_done = (torch.zeros(args.rollout, rows) for _ in range(4))
        tags = episodes = 0
        for t in range(args.rollout):
            flat = torch.as_tensor(obs[:, :taggers].reshape(rows, obs_size))
            with torch.no_grad():
                dist, value = policy(flat)
                action = dist.sample()
            actions = np.empty((n, agents), np.int32)
            actions[:, :taggers] = action.numpy().reshape(n, taggers)
            actions[:, taggers:] = rng.integers(0, 5, size=(n, agents - taggers))  # the runner
            obs, reward, term, trunc, _ = env.step(actions)
            done = term | trunc
            tags += int(term.sum())
            episodes += int(done.sum())
            buf_obs[t], buf_act[t] = flat, action
            buf_logp[t], buf_val[t] = dist.log_prob(action), value
            buf_rew[t] = torch.as_tensor(reward[:, :taggers].reshape(rows))
            buf_done[t] = torch.as_tensor(np.repeat(done, taggers).astype(np.float32))
        with torch.no_grad():
            _, next_value = policy(torch.as_tensor(obs[:, :taggers].reshape(rows, obs_size)))
        advantages = torch.zeros_like(buf_rew)
        last = torch.zeros(rows)
        for t in reversed(range(args.rollout)):
            following = next_value if t == args.rollout - 1 else buf_val[t + 1]
            alive = 1.0 - buf_done[t]
            delta = buf_rew[t] + gamma * following * alive - buf_val[t]
            last = delta + gamma * lam * alive * last
            advantages[t] = last
        returns = advantages + buf_val
        b_obs, b_act = buf_obs.reshape(-1, obs_size), buf_act.reshape(-1)
        b_logp, b_adv, b_ret = buf_logp.reshape(-1), advantages.reshape(-1), returns.reshape(-1)
        for _ in range(4):
            for idx in torch.randperm(len(b_obs)).split(2048):
                dist, value = policy(b_obs[idx])
                ratio = (dist.log_prob(b_act[idx]) - b_logp[idx]).exp()
                adv = (b_adv[idx] - b_adv[idx].mean()) / (b_adv[idx].std() + 1e-8)
                pg = -torch.min(ratio * adv, ratio.clamp(0.8, 1.2) * adv).mean()
                loss = pg + 0.5 * (value - b_ret[idx]).pow(2).mean() - 0.01 * dist.entropy().mean()
                optimizer.zero_grad()
                loss.backward()
                nn.utils.clip_grad_norm_(policy.parameters(), 0.5)
                optimizer.step()
        rate = tags / max(episodes, 1)
        elapsed = time.perf_counter() - start
        print(f"iteration {it + 1:3d}: tag rate {rate:.2f} ({episodes} episodes), {elapsed:.0f}s")


if __name__ == "__main__":
    main()
