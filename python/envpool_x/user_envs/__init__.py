"""Users' own envs, run by the engine without rebuilding envpool_x: C++ classes
compiled at run time (:func:`register_cpp_env`) and numba functions
(:func:`register_numba_env`). See docs/user_envs.md."""

from envpool_x.user_envs.cache import UntrustedCacheError
from envpool_x.user_envs.cpp_env import (
    CompilerNotFoundError,
    CppEnvCompileError,
    CppEnvError,
    register_cpp_env,
)
from envpool_x.user_envs.numba_env import register_numba_env

__all__ = [
    "CompilerNotFoundError",
    "CppEnvCompileError",
    "CppEnvError",
    "UntrustedCacheError",
    "register_cpp_env",
    "register_numba_env",
]
