"""Loading MuJoCo Warp and one model per pool; the physics of one env step.

MuJoCo Warp (``mujoco-warp``, on NVIDIA's ``warp-lang``) is an optional
dependency: the ``mujoco-gpu`` extra. Its kernels run on a CUDA GPU and, for
tests, on warp's ``cpu`` device (the same kernel code compiled for the host).
"""

from __future__ import annotations

import warnings
from collections.abc import Callable
from typing import Any

INSTALL_HINT = (
    "MuJoCo tasks on device='cuda' need MuJoCo Warp: pip install \"envpool-x[mujoco-gpu]\" "
    "(mujoco-warp==3.17.0 and warp-lang)"
)


def import_engine() -> tuple[Any, Any, Any]:
    """``(mujoco, warp, mujoco_warp)``, quiet.

    Raises:
        ImportError: MuJoCo Warp is not installed (the message says what to install).
    """
    try:
        import mujoco
        import mujoco_warp
        import warp
    except ImportError as e:
        raise ImportError(f"{INSTALL_HINT} ({e})") from e
    warp.config.quiet = True  # type: ignore[attr-defined]  # no compile messages
    return mujoco, warp, mujoco_warp


def warp_device(kind: str, index: int) -> str:
    """The warp device of an envpool_x device kind: ``"cuda"`` runs on the GPU
    ``cuda:index``; ``"cpu-reference"`` runs the same kernels on warp's CPU device.

    Raises:
        RuntimeError: ``cuda`` without a usable GPU (warp's reason).
        ValueError: no GPU of that index.
    """
    _, wp, _ = import_engine()
    if kind == "cpu-reference":
        return "cpu"
    wp.init()
    count = wp.get_cuda_device_count()
    if count == 0:
        raise RuntimeError(
            "device='cuda' needs a usable NVIDIA GPU, but warp found none (MuJoCo Warp runs "
            "on CUDA; device='cpu-reference' runs the same kernels on the CPU, slowly)"
        )
    if index >= count:
        raise ValueError(f"device 'cuda:{index}' does not exist: {count} GPU(s) visible")
    return f"cuda:{index}"


def load_model(xml_file: str) -> Any:
    """The host ``MjModel`` of ``xml_file``, with the solver MuJoCo Warp needs.

    gymnasium's humanoid.xml asks for the PGS solver, which MuJoCo Warp does
    not have: it is replaced by Newton. Both solve the same convex constraint
    problem, so converged solutions agree; see docs/mujoco_gpu.md.
    """
    mujoco, _, _ = import_engine()
    model = mujoco.MjModel.from_xml_path(xml_file)
    if model.opt.solver == mujoco.mjtSolver.mjSOL_PGS:
        model.opt.solver = mujoco.mjtSolver.mjSOL_NEWTON
    return model


class Physics:
    """One model and ``num_envs`` worlds on a warp device."""

    def __init__(self, model: Any, num_envs: int, device: str, frame_skip: int, rne: bool):
        _, wp, mjw = import_engine()
        self.wp, self.mjw = wp, mjw
        self.mj_model = model
        self.device = device
        self.frame_skip = frame_skip
        self.rne = rne
        with wp.ScopedDevice(device), warnings.catch_warnings():
            warnings.simplefilter("ignore")  # MuJoCo Warp's notes on defaults it picks
            self.model = mjw.put_model(model)
            self.data = mjw.make_data(model, nworld=num_envs)
        # On a GPU each stage is captured once as a CUDA graph (MuJoCo Warp
        # launches hundreds of small kernels a step; a graph launch replays
        # them without Python's per-launch cost), as mjwarp-testspeed does.
        self._graphs: dict[str, Any] = {}
        self._conditional = device == "cpu" or bool(wp.is_conditional_graph_supported())

    def run(self, name: str, body: Callable[[], None]) -> None:
        """``body()`` (kernel launches on arrays made once per pool): on a GPU
        captured as the CUDA graph ``name`` at its first call, replayed after."""
        if self.device == "cpu":
            body()
            return
        graph = self._graphs.get(name)
        if graph is None:
            # Captured on warp's own stream (the caller's may be the legacy
            # default stream, where CUDA cannot capture); launched on the caller's.
            own = self.wp.get_device(self.device).stream
            with self.wp.ScopedStream(own), self.wp.ScopedCapture() as capture:
                body()
            graph = self._graphs[name] = capture.graph
        self.wp.capture_launch(graph)

    def forget_graphs(self) -> None:
        """Drop the captured stages (they hold the arrays they were captured
        with): the next call captures them again with the current ones."""
        self._graphs.clear()

    def when(self, flag: Any, body: Callable[[], None]) -> None:
        """``body()`` only where the device flag ``flag[0]`` is set, without
        reading it on the host: in a graph, a conditional node (CUDA 12.4+;
        with an older driver the body always runs, which is also correct:
        every body here acts on flagged worlds only). On warp's CPU device the
        flag is read directly."""
        if self._conditional:
            self.wp.capture_if(flag, on_true=body)
        else:
            body()

    def step_body(self) -> None:
        """``frame_skip`` MuJoCo steps of every world, then the contact forces
        (cfrc_ext) gymnasium reads after ``mj_step`` (``mj_rnePostConstraint``)."""
        for _ in range(self.frame_skip):
            self.mjw.step(self.model, self.data)
        if self.rne:
            self.mjw.rne_postconstraint(self.model, self.data)

    def forward(self) -> None:
        """``mj_forward`` of every world (after a reset sets qpos / qvel)."""
        self.run("forward", lambda: self.mjw.forward(self.model, self.data))

    def reset_body(self, mask: Any) -> None:
        """``mj_resetData`` of the worlds whose ``mask`` entry is set."""
        self.mjw.reset_data(self.model, self.data, reset=mask)
