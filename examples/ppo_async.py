"""Asynchronous PPO with envpool_x: ``recv()`` / ``send(action, env_id)``.

With ``batch_size < num_envs`` the pool hands back whichever ``batch_size``
envs finished first, with their ids in ``info["env_id"]``; the policy acts on
those and sends the actions back by id while the other envs keep stepping.
Each env's transitions are chained by id: a transition is complete when the
env comes back with its reward, and GAE runs along each env's own chain. A
transition still in flight when an update starts is finished in the next
rollout (its stored log-probability keeps the ratio exact).

Works for vector observations (CartPole-v1: an MLP) and Atari frames
(Pong-v5: CleanRL's Nature CNN).

    python examples/ppo_async.py --env-id CartPole-v1 --num-envs 16 --batch-size 8
    python examples/ppo_async.py --env-id Pong-v5 --num-envs 16 --batch-size 8
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
    p.add_argument("--env-id", default="CartPole-v1")
    p.add_argument("--seed", type=int, default=1)
    p.add_argument("--num-envs", type=int, default=16)
    p.add_argument("--batch-size", type=int, default=8, help="envs per recv (< num-envs)")
    p.add_argument("--num-threads", type=int, default=0)
    p.add_argument("--num-steps", type=int, default=128, help="mean steps per env per rollout")
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
    return p.parse_args()


def init(module: nn.Module, std: float = float(np.sqrt(2))) -> nn.Module:
    nn.init.orthogonal_(module.weight, std)  # type: ignore[arg-type]
    nn.init.constant_(module.bias, 0.0)  # type: ignore[arg-type]
    return module


class Agent(nn.Module):
    """An MLP for vector observations, CleanRL's Nature CNN for frame stacks."""

    def __init__(self, obs_shape: tuple[int, ...], n_actions: int) -> None:
        super().__init__()
        self.pixels = len(obs_shape) == 3
        if self.pixels:
            self.body: nn.Module = nn.Sequential(
                init(nn.Conv2d(obs_shape[0], 32, 8, stride=4)),
                nn.ReLU(),
                init(nn.Conv2d(32, 64, 4, stride=2)),
                nn.ReLU(),
                init(nn.Conv2d(64, 64, 3, stride=1)),
                nn.ReLU(),
                nn.Flatten(),
                init(nn.Linear(64 * 7 * 7, 512)),
                nn.ReLU(),
            )
            width = 512
        else:
            self.body = nn.Sequential(
                init(nn.Linear(int(np.prod(obs_shape)), 64)),
                nn.Tanh(),
                init(nn.Linear(64, 64)),
                nn.Tanh(),
            )
            width = 64
        self.actor = init(nn.Linear(width, n_actions), std=0.01)
        self.critic = init(nn.Linear(width, 1), std=1.0)

    def features(self, x: torch.Tensor) -> torch.Tensor:
        return self.body(x.float() / 255.0 if self.pixels else x)  # type: ignore[no-any-return]

    def value(self, x: torch.Tensor) -> torch.Tensor:
        return self.critic(self.features(x)).squeeze(-1)  # type: ignore[no-any-return]

    def act(self, x: torch.Tensor, action: torch.Tensor | None = None) -> tuple[torch.Tensor, ...]:
        h = self.features(x)
        dist = Categorical(logits=self.actor(h))
        if action is None:
            action = dist.sample()
        return action, dist.log_prob(action), dist.entropy(), self.critic(h).squeeze(-1)


def main() -> None:
    args = parse_args()
    if not 0 < args.batch_size < args.num_envs:
        raise SystemExit("--batch-size must be between 1 and --num-envs - 1 (async mode)")
    torch.manual_seed(args.seed)
    config = {"episodic_life": True, "reward_clip": True} if args.env_id.endswith("-v5") else {}
    envs = envpool_x.make_gymnasium(
        args.env_id,
        num_envs=args.num_envs,
        batch_size=args.batch_size,
        num_threads=args.num_threads,
        seed=args.seed,
        autoreset_mode="same_step",
        **config,
    )
    obs_shape = envs.single_observation_space.shape
    agent = Agent(obs_shape, int(envs.single_action_space.n))
    optimizer = torch.optim.Adam(agent.parameters(), lr=args.learning_rate, eps=1e-5)

    # pending[e]: env e's last (obs, action, logp, value), awaiting its result.
    pending: dict[int, tuple[np.ndarray, int, float, float]] = {}
    ep_return = np.zeros(args.num_envs)
    finished: list[float] = []
    recvs_per_rollout = max(1, args.num_steps * args.num_envs // args.batch_size)
    num_updates = args.total_timesteps // (recvs_per_rollout * args.batch_size)
    steps, start = 0, time.time()
    envs.async_reset()
    for update in range(1, num_updates + 1):
        # chains[e]: env e's completed transitions, oldest first.
        chains: list[list[tuple[np.ndarray, int, float, float, float, bool]]] = [
            [] for _ in range(args.num_envs)
        ]
        for _ in range(recvs_per_rollout):
            obs, reward, terminated, truncated, info = envs.recv()
            ids = info["env_id"]
            with torch.no_grad():
                action, logp, _, value = agent.act(torch.as_tensor(obs))
            envs.send(action.numpy(), ids)  # the envs step while we book-keep
            done = terminated | truncated
            # Returns as the game scores them: Atari's raw score is info["reward"]
            # (the reward is clipped), an ended step's info is in final_info.
            last = info["final_info"] if done.any() else info
            if "reward" in info:
                score = np.where(done, last.get("reward", info["reward"]), info["reward"])
                game_over = done & (last.get("terminated", done) | truncated)
            else:
                score, game_over = reward.copy(), done
            reward = reward.astype(np.float32)
            cut = truncated & ~terminated
            if cut.any():  # time limit: bootstrap from the state it stopped in
                with torch.no_grad():
                    final = agent.value(torch.as_tensor(info["final_obs"][cut])).numpy()
                reward[cut] += args.gamma * final
            for j, e in enumerate(ids.tolist()):
                if e in pending:
                    o, a, lp, v = pending[e]
                    chains[e].append((o, a, lp, v, float(reward[j]), bool(done[j])))
                    ep_return[e] += score[j]
                    if game_over[j]:
                        finished.append(float(ep_return[e]))
                        ep_return[e] = 0.0
                pending[e] = (
                    np.array(obs[j]),
                    int(action[j]),
                    float(logp[j]),
                    float(value[j]),
                )
            steps += len(ids)

        # GAE along each env's chain, bootstrapped by its pending obs' value.
        b_obs, b_act, b_logp, b_adv, b_ret = [], [], [], [], []
        for e, chain in enumerate(chains):
            if not chain:
                continue
            gae, next_value = 0.0, pending[e][3]
            for o, a, lp, v, r, d in reversed(chain):
                live = 0.0 if d else 1.0
                delta = r + args.gamma * next_value * live - v
                gae = delta + args.gamma * args.gae_lambda * live * gae
                b_obs.append(o)
                b_act.append(a)
                b_logp.append(lp)
                b_adv.append(gae)
                b_ret.append(gae + v)
                next_value = v
        obs_t = torch.as_tensor(np.stack(b_obs))
        act_t, logp_t = torch.as_tensor(b_act), torch.as_tensor(b_logp)
        adv_t = torch.as_tensor(b_adv, dtype=torch.float32)
        ret_t = torch.as_tensor(b_ret, dtype=torch.float32)
        batch = len(b_obs)
        minibatch = max(1, batch // args.num_minibatches)
        for _ in range(args.update_epochs):
            for idx in torch.randperm(batch).split(minibatch):
                _, logp, entropy, value = agent.act(obs_t[idx], act_t[idx])
                ratio = (logp - logp_t[idx]).exp()
                a = adv_t[idx]
                a = (a - a.mean()) / (a.std() + 1e-8) if len(idx) > 1 else a
                pg_loss = torch.max(
                    -a * ratio, -a * ratio.clamp(1 - args.clip_coef, 1 + args.clip_coef)
                ).mean()
                v_loss = 0.5 * ((value - ret_t[idx]) ** 2).mean()
                loss = pg_loss - args.ent_coef * entropy.mean() + args.vf_coef * v_loss
                optimizer.zero_grad()
                loss.backward()
                nn.utils.clip_grad_norm_(agent.parameters(), args.max_grad_norm)
                optimizer.step()

        recent = finished[-20:]
        mean = f"{np.mean(recent):.1f}" if recent else "n/a"
        print(
            f"update {update}/{num_updates} steps={steps} transitions={batch} "
            f"episodes={len(finished)} mean_return_last20={mean} "
            f"sps={int(steps / (time.time() - start))}",
            flush=True,
        )
    envs.close()


if __name__ == "__main__":
    main()
