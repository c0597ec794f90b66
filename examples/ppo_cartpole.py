"""PPO on CartPole-v1 with envpool_x, in CleanRL's single-file style.

The pool runs with ``autoreset_mode="same_step"``: when an episode ends, the
returned observation is already the next episode's first one, so every stored
transition is a real one. Episodes cut by the time limit (``truncated`` and not
``terminated``) are bootstrapped from the value of ``info["final_obs"]``.

    python examples/ppo_cartpole.py --total-timesteps 100000
"""

from __future__ import annotations

import argparse
import time
from collections.abc import Callable
from typing import Any

import numpy as np
import torch
from torch import nn
from torch.distributions import Categorical

import envpool_x


def parse_args(
    extra: Callable[[argparse.ArgumentParser], None] | None = None,
) -> argparse.Namespace:
    """The PPO options, plus those ``extra`` adds (examples/ppo_cartpole_curriculum.py)."""
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--env-id", default="CartPole-v1")
    p.add_argument("--seed", type=int, default=1)
    p.add_argument("--num-envs", type=int, default=8)
    p.add_argument("--num-threads", type=int, default=0)
    p.add_argument("--num-steps", type=int, default=128, help="steps per env per rollout")
    p.add_argument("--total-timesteps", type=int, default=100_000)
    p.add_argument("--learning-rate", type=float, default=2.5e-4)
    p.add_argument("--gamma", type=float, default=0.99)
    p.add_argument("--gae-lambda", type=float, default=0.95)
    p.add_argument("--num-minibatches", type=int, default=4)
    p.add_argument("--update-epochs", type=int, default=4)
    p.add_argument("--clip-coef", type=float, default=0.2)
    p.add_argument("--ent-coef", type=float, default=0.01)
    p.add_argument("--vf-coef", type=float, default=0.5)
    p.add_argument("--max-grad-norm", type=float, default=0.5)
    if extra is not None:
        extra(p)
    return p.parse_args()


def layer(n_in: int, n_out: int, std: float = float(np.sqrt(2))) -> nn.Linear:
    lin = nn.Linear(n_in, n_out)
    nn.init.orthogonal_(lin.weight, std)
    nn.init.constant_(lin.bias, 0.0)
    return lin


class Agent(nn.Module):
    def __init__(self, obs_dim: int, n_actions: int) -> None:
        super().__init__()
        self.critic = nn.Sequential(
            layer(obs_dim, 64), nn.Tanh(), layer(64, 64), nn.Tanh(), layer(64, 1, std=1.0)
        )
        self.actor = nn.Sequential(
            layer(obs_dim, 64), nn.Tanh(), layer(64, 64), nn.Tanh(), layer(64, n_actions, 0.01)
        )

    def value(self, x: torch.Tensor) -> torch.Tensor:
        return self.critic(x).squeeze(-1)

    def act(self, x: torch.Tensor, action: torch.Tensor | None = None) -> tuple[torch.Tensor, ...]:
        dist = Categorical(logits=self.actor(x))
        if action is None:
            action = dist.sample()
        return action, dist.log_prob(action), dist.entropy(), self.value(x)


#: Called after each update with (args, envs, update, finished episode returns);
#: what it returns is appended to the update's line.
UpdateHook = Callable[[argparse.Namespace, Any, int, list[float]], str]


def main(args: argparse.Namespace | None = None, after_update: UpdateHook | None = None) -> None:
    args = args if args is not None else parse_args()
    torch.manual_seed(args.seed)
    np.random.seed(args.seed)
    envs = envpool_x.make_gymnasium(
        args.env_id,
        num_envs=args.num_envs,
        num_threads=args.num_threads,
        seed=args.seed,
        autoreset_mode="same_step",
    )
    n, t_max = args.num_envs, args.num_steps
    obs_shape = envs.single_observation_space.shape
    agent = Agent(int(np.prod(obs_shape)), int(envs.single_action_space.n))
    optimizer = torch.optim.Adam(agent.parameters(), lr=args.learning_rate, eps=1e-5)

    obs_buf = torch.zeros((t_max, n, *obs_shape))
    act_buf = torch.zeros((t_max, n), dtype=torch.long)
    logp_buf = torch.zeros((t_max, n))
    rew_buf = torch.zeros((t_max, n))
    done_buf = torch.zeros((t_max, n))
    val_buf = torch.zeros((t_max, n))

    next_obs = torch.as_tensor(envs.reset()[0])
    ep_return = np.zeros(n)
    finished: list[float] = []
    num_updates = args.total_timesteps // (n * t_max)
    batch = n * t_max
    minibatch = batch // args.num_minibatches
    start = time.time()
    for update in range(1, num_updates + 1):
        for t in range(t_max):
            obs_buf[t] = next_obs
            with torch.no_grad():
                action, logp, _, value = agent.act(next_obs)
            obs, reward, terminated, truncated, info = envs.step(action.numpy())
            done = terminated | truncated
            ep_return += reward
            reward = reward.astype(np.float32)
            cut = truncated & ~terminated
            if cut.any():  # time limit: the episode would have gone on
                with torch.no_grad():
                    final = torch.as_tensor(info["final_obs"][cut])
                    reward[cut] += args.gamma * agent.value(final).numpy()
            for i in np.flatnonzero(done):
                finished.append(float(ep_return[i]))
                ep_return[i] = 0.0
            act_buf[t], logp_buf[t], val_buf[t] = action, logp, value
            rew_buf[t] = torch.as_tensor(reward)
            done_buf[t] = torch.as_tensor(done, dtype=torch.float32)
            next_obs = torch.as_tensor(obs)

        # GAE; done_buf[t] ends the chain after step t (same-step auto-reset).
        with torch.no_grad():
            next_value = agent.value(next_obs)
            adv = torch.zeros_like(rew_buf)
            last = torch.zeros(n)
            for t in reversed(range(t_max)):
                nv = next_value if t == t_max - 1 else val_buf[t + 1]
                live = 1.0 - done_buf[t]
                delta = rew_buf[t] + args.gamma * nv * live - val_buf[t]
                last = delta + args.gamma * args.gae_lambda * live * last
                adv[t] = last
            ret = adv + val_buf

        b_obs, b_act = obs_buf.reshape(batch, *obs_shape), act_buf.reshape(batch)
        b_logp, b_adv, b_ret = logp_buf.reshape(batch), adv.reshape(batch), ret.reshape(batch)
        for _ in range(args.update_epochs):
            for idx in torch.randperm(batch).split(minibatch):
                _, logp, entropy, value = agent.act(b_obs[idx], b_act[idx])
                ratio = (logp - b_logp[idx]).exp()
                a = b_adv[idx]
                a = (a - a.mean()) / (a.std() + 1e-8)
                pg_loss = torch.max(
                    -a * ratio, -a * ratio.clamp(1 - args.clip_coef, 1 + args.clip_coef)
                ).mean()
                v_loss = 0.5 * ((value - b_ret[idx]) ** 2).mean()
                loss = pg_loss - args.ent_coef * entropy.mean() + args.vf_coef * v_loss
                optimizer.zero_grad()
                loss.backward()
                nn.utils.clip_grad_norm_(agent.parameters(), args.max_grad_norm)
                optimizer.step()

        recent = finished[-20:]
        mean = f"{np.mean(recent):.1f}" if recent else "n/a"
        sps = int(update * batch / (time.time() - start))
        note = after_update(args, envs, update, finished) if after_update else ""
        print(
            f"update {update}/{num_updates} steps={update * batch} "
            f"episodes={len(finished)} mean_return_last20={mean} sps={sps}{note}",
            flush=True,
        )
    envs.close()


if __name__ == "__main__":
    main()
