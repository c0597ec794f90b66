"""Pickling: an env refuses it (TypeError, both front ends) and stays usable;
its spec pickles, as the error message advises."""

from __future__ import annotations

import copy
import pickle

import pytest

import envpool_x


@pytest.mark.parametrize("factory", [envpool_x.make_gymnasium, envpool_x.make_dm])
def test_pickling_an_env_raises_type_error(factory):
    env = factory("CartPole-v1", num_envs=2)
    try:
        with pytest.raises(TypeError, match="pickle"):
            pickle.dumps(env)
        with pytest.raises(TypeError):
            copy.deepcopy(env)
        env.reset()  # still usable
    finally:
        env.close()


def test_spec_can_be_pickled_as_the_error_message_advises():
    env = envpool_x.make_gymnasium("CartPole-v1", num_envs=2)
    try:
        with pytest.raises(TypeError, match="pickle the spec"):
            pickle.dumps(env)
        spec = pickle.loads(pickle.dumps(env.spec))
        assert spec.config == env.spec.config
        again = envpool_x.make_gymnasium(spec.id, **spec.config_dict())
        again.close()
    finally:
        env.close()
