"""DrQ-v2-style training from pixels on CartpoleSwingup-v1 with envpool_x (docs/pixels.md).

The frames are observations drawn by MuJoCo's renderer in the engine's worker
threads (``from_pixels=True``, 84 x 84, 3 stacked frames, channels first); the
agent is DrQ-v2's (Yarats et al., 2021): a convolutional encoder trained by the
critic, random-shift augmentation, a deterministic actor with scheduled
exploration noise, twin critics on n-step returns. Every ``--action-repeat``
env steps make one agent step, as the DMC-from-pixels papers do.

With a GPU (EGL rendering, ``MUJOCO_GL=egl``, and torch on CUDA) the return
rises within minutes; on a CPU machine OSMesa draws each frame in software and
the same run takes far longer. Each finished episode prints a line:

    python examples/drq_cartpole_swingup.py --total-frames 200000
"""

from __future__ import annotations

import argparse
import time

import numpy as np
import torch
import torch.nn.functional as F
from drq_replay import FrameReplay
from torch import nn

import envpool_x


def parse_args(argv: list[str] | None = None) -> argparse.Namespace:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--env-id", default="CartpoleSwingup-v1")
    p.add_argument("--seed", type=int, default=1)
    p.add_argument("--num-envs", type=int, default=8)
    p.add_argument("--num-threads", type=int, default=0)
    p.add_argument("--render-size", type=int, default=84)
    p.add_argument("--action-repeat", type=int, default=8, help="must divide the episode")
    p.add_argument("--total-frames", type=int, default=500_000, help="env steps, all envs")
    p.add_argument("--seed-frames", type=int, default=4000, help="uniform actions first")
    p.add_argument("--replay-size", type=int, default=100_000, help="agent steps kept")
    p.add_argument("--batch-size", type=int, default=256)
    p.add_argument("--n-step", type=int, default=3)
    p.add_argument("--gamma", type=float, default=0.99)
    p.add_argument("--lr", type=float, default=1e-4)
    p.add_argument("--tau", type=float, default=0.01, help="critic target update rate")
    p.add_argument("--feature-dim", type=int, default=50)
    p.add_argument("--hidden-dim", type=int, default=1024)
    p.add_argument("--std-start", type=float, default=1.0)
    p.add_argument("--std-end", type=float, default=0.1)
    p.add_argument("--std-frames", type=int, default=100_000, help="frames to reach std-end")
    p.add_argument("--updates-per-step", type=int, default=1, help="per batch step")
    p.add_argument("--device", default="cuda" if torch.cuda.is_available() else "cpu")
    return p.parse_args(argv)


class Encoder(nn.Module):
    """DrQ-v2's torso: four 3x3 convolutions, the first with stride 2."""

    def __init__(self, channels: int, size: int) -> None:
        super().__init__()
        self.net = nn.Sequential(
            nn.Conv2d(channels, 32, 3, stride=2),
            nn.ReLU(),
            nn.Conv2d(32, 32, 3),
            nn.ReLU(),
            nn.Conv2d(32, 32, 3),
            nn.ReLU(),
            nn.Conv2d(32, 32, 3),
            nn.ReLU(),
            nn.Flatten(),
        )
        with torch.no_grad():
            self.repr_dim = self.net(torch.zeros(1, channels, size, size)).shape[1]

    def forward(self, obs: torch.Tensor) -> torch.Tensor:
        return self.net(obs / 255.0 - 0.5)


def trunk(repr_dim: int, feature_dim: int) -> nn.Module:
    return nn.Sequential(nn.Linear(repr_dim, feature_dim), nn.LayerNorm(feature_dim), nn.Tanh())


def mlp(n_in: int, hidden: int, n_out: int) -> nn.Module:
    return nn.Sequential(
        nn.Linear(n_in, hidden),
        nn.ReLU(),
        nn.Linear(hidden, hidden),
        nn.ReLU(),
        nn.Linear(hidden, n_out),
    )


class Actor(nn.Module):
    def __init__(self, repr_dim: int, n_act: int, feature_dim: int, hidden: int) -> None:
        super().__init__()
        self.trunk = trunk(repr_dim, feature_dim)
        self.policy = mlp(feature_dim, hidden, n_act)

    def forward(self, h: torch.Tensor, std: float, clip: float | None = None) -> torch.Tensor:
        """An action: the tanh mean plus Gaussian noise (clipped for the targets)."""
        mu = torch.tanh(self.policy(self.trunk(h)))
        noise = torch.randn_like(mu) * std
        if clip is not None:
            noise = noise.clamp(-clip, clip)
        return (mu + noise).clamp(-1.0, 1.0)


class Critic(nn.Module):
    def __init__(self, repr_dim: int, n_act: int, feature_dim: int, hidden: int) -> None:
        super().__init__()
        self.trunk = trunk(repr_dim, feature_dim)
        self.q1 = mlp(feature_dim + n_act, hidden, 1)
        self.q2 = mlp(feature_dim + n_act, hidden, 1)

    def forward(self, h: torch.Tensor, act: torch.Tensor) -> tuple[torch.Tensor, torch.Tensor]:
        x = torch.cat([self.trunk(h), act], dim=-1)
        return self.q1(x), self.q2(x)


def random_shift(obs: torch.Tensor, pad: int = 4) -> torch.Tensor:
    """DrQ's augmentation: pad by repeating the border, then crop back at a random
    integer offset per sample."""
    b, _, h, w = obs.shape
    padded = F.pad(obs, (pad, pad, pad, pad), mode="replicate")
    dy = torch.randint(0, 2 * pad + 1, (b, 1, 1), device=obs.device)
    dx = torch.randint(0, 2 * pad + 1, (b, 1, 1), device=obs.device)
    rows = dy + torch.arange(h, device=obs.device).view(1, h, 1)
    cols = dx + torch.arange(w, device=obs.device).view(1, 1, w)
    batch = torch.arange(b, device=obs.device).view(b, 1, 1)
    return padded.permute(0, 2, 3, 1)[batch, rows, cols].permute(0, 3, 1, 2)


class DrQ:
    """The agent: encoder, actor, critic and its target, their optimizers."""

    def __init__(self, channels: int, size: int, n_act: int, args: argparse.Namespace) -> None:
        dev = args.device
        self.args = args
        self.encoder = Encoder(channels, size).to(dev)
        dims = (self.encoder.repr_dim, n_act, args.feature_dim, args.hidden_dim)
        self.actor = Actor(*dims).to(dev)
        self.critic = Critic(*dims).to(dev)
        self.critic_target = Critic(*dims).to(dev)
        self.critic_target.load_state_dict(self.critic.state_dict())
        self.opt_encoder = torch.optim.Adam(self.encoder.parameters(), lr=args.lr)
        self.opt_actor = torch.optim.Adam(self.actor.parameters(), lr=args.lr)
        self.opt_critic = torch.optim.Adam(self.critic.parameters(), lr=args.lr)

    def std(self, frames: int) -> float:
        a = self.args
        mix = min(frames / a.std_frames, 1.0)
        return a.std_start + mix * (a.std_end - a.std_start)

    @torch.no_grad()
    def act(self, obs: np.ndarray, frames: int) -> np.ndarray:
        h = self.encoder(torch.as_tensor(obs, device=self.args.device).float())
        return self.actor(h, self.std(frames)).cpu().numpy().astype(np.float32)

    def update(self, batch: dict[str, np.ndarray], frames: int) -> dict[str, float]:
        a, dev = self.args, self.args.device
        obs = random_shift(torch.as_tensor(batch["obs"], device=dev).float())
        nxt = random_shift(torch.as_tensor(batch["next_obs"], device=dev).float())
        act = torch.as_tensor(batch["action"], device=dev)
        ret = torch.as_tensor(batch["return"], device=dev).unsqueeze(1)
        std = self.std(frames)
        h = self.encoder(obs)
        with torch.no_grad():
            h_next = self.encoder(nxt)
            q1_t, q2_t = self.critic_target(h_next, self.actor(h_next, std, clip=0.3))
            target = ret + a.gamma**a.n_step * torch.min(q1_t, q2_t)
        q1, q2 = self.critic(h, act)
        critic_loss = F.mse_loss(q1, target) + F.mse_loss(q2, target)
        self.opt_encoder.zero_grad(set_to_none=True)
        self.opt_critic.zero_grad(set_to_none=True)
        critic_loss.backward()
        self.opt_critic.step()
        self.opt_encoder.step()
        # The actor learns on the encoder's features without moving it.
        h = h.detach()
        actor_loss = -torch.min(*self.critic(h, self.actor(h, std, clip=0.3))).mean()
        self.opt_actor.zero_grad(set_to_none=True)
        actor_loss.backward()
        self.opt_actor.step()
        with torch.no_grad():
            for p, p_t in zip(
                self.critic.parameters(), self.critic_target.parameters(), strict=True
            ):
                p_t.lerp_(p, a.tau)
        return {"critic_loss": critic_loss.item(), "actor_loss": actor_loss.item()}


def main(argv: list[str] | None = None) -> list[float]:
    """Train; returns the mean return of each round of finished episodes."""
    args = parse_args(argv)
    torch.manual_seed(args.seed)
    rng = np.random.default_rng(args.seed)
    env = envpool_x.make_gymnasium(
        args.env_id,
        num_envs=args.num_envs,
        num_threads=args.num_threads,
        seed=args.seed,
        from_pixels=True,
        render_width=args.render_size,
        render_height=args.render_size,
        frame_stack=3,
        autoreset_mode="same_step",
    )
    n, n_act = args.num_envs, env.single_action_space.shape[0]
    obs, _ = env.reset(seed=args.seed)
    agent = DrQ(obs.shape[1], args.render_size, n_act, args)
    replay = FrameReplay(args.replay_size, n, obs.shape[1:], n_act, args.n_step, args.gamma)
    replay.add_first(obs)
    frames, episode_return, history = 0, np.zeros(n), []
    losses: dict[str, float] = {}
    start = time.perf_counter()
    while frames < args.total_frames:
        if frames < args.seed_frames:
            action = rng.uniform(-1.0, 1.0, (n, n_act)).astype(np.float32)
        else:
            action = agent.act(obs, frames)
        reward, ended = np.zeros(n), np.zeros(n, bool)
        for k in range(args.action_repeat):
            obs, r, term, trunc, _ = env.step(action)
            reward += r
            done = term | trunc
            if done.any() and k < args.action_repeat - 1:
                raise ValueError(
                    f"--action-repeat {args.action_repeat} does not divide the episode"
                )
            ended |= done
        frames += n * args.action_repeat
        episode_return += reward
        replay.add(action, reward, ended, obs)
        if frames >= args.seed_frames and replay.can_sample():
            for _ in range(args.updates_per_step):
                losses = agent.update(replay.sample(args.batch_size, rng), frames)
        if ended.any():
            history.append(float(episode_return[ended].mean()))
            fps = frames / (time.perf_counter() - start)
            shown = " ".join(f"{k}={v:.3f}" for k, v in losses.items())
            print(f"frames={frames} return={history[-1]:.1f} fps={fps:.0f} {shown}", flush=True)
            episode_return[ended] = 0.0
    if losses:
        print("last update: " + " ".join(f"{k}={v:.4f}" for k, v in losses.items()), flush=True)
    env.close()
    return history


if __name__ == "__main__":
    main()
