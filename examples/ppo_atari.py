"""PPO on Atari (Pong-v5 by default) with envpool_x, in CleanRL's single-file style.

EnvPool's Atari preprocessing runs in the engine (84x84 grayscale, 4 stacked
frames, frame skip 4, no-op starts, fire reset); ``episodic_life`` ends an
episode on a lost life and ``reward_clip`` gives the reward's sign, while
``info["reward"]`` keeps the game score for the returns printed here. The
pool uses ``autoreset_mode="same_step"``, so the observation after an end is
already the next episode's first one and the terminal step's info is in
``info["final_info"]``.

    python examples/ppo_atari.py --env-id Breakout-v5 --total-timesteps 10000000
"""

from __future__ import annotations

import argparse
import time

import numpy as np
import torch
from torch import nn
from torch.distributions import Categorical

import envpool_x


def parse_args() -> argparse.Namespace:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--env-id", default="Pong-v5")
    p.add_argument("--seed", type=int, default=1)
    p.add_argument("--num-envs", type=int, default=8)
    p.add_argument("--num-threads", type=int, default=0)
    p.add_argument("--num-steps", type=int, default=128, help="steps per env per rollout")
    p.add_argument("--total-timesteps", type=int, default=10_000_000)
    p.add_argument("--learning-rate", type=float, default=2.5e-4)
    p.add_argument("--gamma", type=float, default=0.99)
    p.add_argument("--gae-lambda", type=float, default=0.95)
    p.add_argument("--num-minibatches", type=int, default=4)
    p.add_argument("--update-epochs", type=int, default=4)
    p.add_argument("--clip-coef", type=float, default=0.1)
    p.add_argument("--ent-coef", type=float, default=0.01)
    p.add_argument("--vf-coef", type=float, default=0.5)
    p.add_argument("--max-grad-norm", type=float, default=0.5)
    return p.parse_args()


def init(module: nn.Module, std: float = float(np.sqrt(2))) -> nn.Module:
    nn.init.orthogonal_(module.weight, std)  # type: ignore[arg-type]
    nn.init.constant_(module.bias, 0.0)  # type: ignore[arg-type]
    return module


class Agent(nn.Module):
    """The Nature DQN torso with a policy head and a value head."""

    def __init__(self, channels: int, n_actions: int) -> None:
        super().__init__()
        self.body = nn.Sequential(
            init(nn.Conv2d(channels, 32, 8, stride=4)),
            nn.ReLU(),
            init(nn.Conv2d(32, 64, 4, stride=2)),
            nn.ReLU(),
            init(nn.Conv2d(64, 64, 3, stride=1)),
            nn.ReLU(),
            nn.Flatten(),
            init(nn.Linear(64 * 7 * 7, 512)),
            nn.ReLU(),
        )
        self.actor = init(nn.Linear(512, n_actions), std=0.01)
        self.critic = init(nn.Linear(512, 1), std=1.0)

    def value(self, x: torch.Tensor) -> torch.Tensor:
        return self.critic(self.body(x.float() / 255.0)).squeeze(-1)  # type: ignore[no-any-return]

    def act(self, x: torch.Tensor, action: torch.Tensor | None = None) -> tuple[torch.Tensor, ...]:
        h = self.body(x.float() / 255.0)
        dist = Categorical(logits=self.actor(h))
        if action is None:
            action = dist.sample()
        return action, dist.log_prob(action), dist.entropy(), self.critic(h).squeeze(-1)


def main() -> None:
    args = parse_args()
    torch.manual_seed(args.seed)
    envs = envpool_x.make_gymnasium(
        args.env_id,
        num_envs=args.num_envs,
        num_threads=args.num_threads,
        seed=args.seed,
        episodic_life=True,
        reward_clip=True,
        autoreset_mode="same_step",
    )
    n, t_max = args.num_envs, args.num_steps
    obs_shape = envs.single_observation_space.shape
    agent = Agent(obs_shape[0], int(envs.single_action_space.n))
    optimizer = torch.optim.Adam(agent.parameters(), lr=args.learning_rate, eps=1e-5)

    obs_buf = torch.zeros((t_max, n, *obs_shape), dtype=torch.uint8)
    act_buf = torch.zeros((t_max, n), dtype=torch.long)
    logp_buf = torch.zeros((t_max, n))
    rew_buf = torch.zeros((t_max, n))
    done_buf = torch.zeros((t_max, n))
    val_buf = torch.zeros((t_max, n))

    next_obs = torch.as_tensor(envs.reset()[0])
    game_score = np.zeros(n)
    finished: list[float] = []
    num_updates = args.total_timesteps // (n * t_max)
    batch = n * t_max
    minibatch = batch // args.num_minibatches
    start = time.time()
    for update in range(1, num_updates + 1):
        frac = 1.0 - (update - 1.0) / num_updates
        optimizer.param_groups[0]["lr"] = frac * args.learning_rate
        for t in range(t_max):
            obs_buf[t] = next_obs
            with torch.no_grad():
                action, logp, _, value = agent.act(next_obs)
            obs, reward, terminated, truncated, info = envs.step(action.numpy())
            done = terminated | truncated
            # The game score and game over of an ended step are in final_info.
            last = info["final_info"] if done.any() else info
            score = np.where(done, last.get("reward", info["reward"]), info["reward"])
            game_over = done & (last.get("terminated", done) | truncated)
            game_score += score
            for i in np.flatnonzero(game_over):
                finished.append(float(game_score[i]))
                game_score[i] = 0.0
            act_buf[t], logp_buf[t], val_buf[t] = action, logp, value
            rew_buf[t] = torch.as_tensor(reward)
            done_buf[t] = torch.as_tensor(done, dtype=torch.float32)
            next_obs = torch.as_tensor(obs)

        with torch.no_grad():
            next_value = agent.value(next_obs)
            adv = torch.zeros_like(rew_buf)
            gae = torch.zeros(n)
            for t in reversed(range(t_max)):
                nv = next_value if t == t_max - 1 else val_buf[t + 1]
                live = 1.0 - done_buf[t]
                delta = rew_buf[t] + args.gamma * nv * live - val_buf[t]
                gae = delta + args.gamma * args.gae_lambda * live * gae
                adv[t] = gae
            ret = adv + val_buf

        b_obs, b_act = obs_buf.reshape(batch, *obs_shape), act_buf.reshape(batch)
        b_logp, b_adv, b_ret = logp_buf.reshape(batch), adv.reshape(batch), ret.reshape(batch)
        b_val = val_buf.reshape(batch)
        for _ in range(args.update_epochs):
            for idx in torch.randperm(batch).split(minibatch):
                _, logp, entropy, value = agent.act(b_obs[idx], b_act[idx])
                ratio = (logp - b_logp[idx]).exp()
                a = b_adv[idx]
                a = (a - a.mean()) / (a.std() + 1e-8)
                c = args.clip_coef
                pg_loss = torch.max(-a * ratio, -a * ratio.clamp(1 - c, 1 + c)).mean()
                # Clipped value loss, as CleanRL's Atari PPO.
                v_clip = b_val[idx] + (value - b_val[idx]).clamp(-c, c)
                v_loss = (
                    0.5 * torch.max((value - b_ret[idx]) ** 2, (v_clip - b_ret[idx]) ** 2).mean()
                )
                loss = pg_loss - args.ent_coef * entropy.mean() + args.vf_coef * v_loss
                optimizer.zero_grad()
                loss.backward()
                nn.utils.clip_grad_norm_(agent.parameters(), args.max_grad_norm)
                optimizer.step()

        recent = finished[-20:]
        mean = f"{np.mean(recent):.1f}" if recent else "n/a"
        sps = int(update * batch / (time.time() - start))
        print(
            f"update {update}/{num_updates} steps={update * batch} "
            f"games={len(finished)} mean_score_last20={mean} sps={sps}",
            flush=True,
        )
    envs.close()


if __name__ == "__main__":
    main()
