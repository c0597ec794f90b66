"""The goal-conditioned API of gymnasium's ``GoalEnv`` on a pool whose family
declares goal functions (``Family.goal_functions``: gymnasium-robotics' tasks).

``compute_reward(achieved_goal, desired_goal, info)`` and the terminated /
truncated functions take one goal or a batch of goals (the last axis is the
goal), as Hindsight Experience Replay relabels a batch of transitions. On a
pool of another family the three names are absent (``hasattr`` is False).
"""

from __future__ import annotations

from typing import Any


class GoalMethods:
    """Mixed into the gymnasium front end; reads the family from ``self.spec``."""

    spec: Any

    def _goal_functions(self, name: str) -> Any:
        make = self.spec.entry.declaration.goal_functions
        if make is None:
            raise AttributeError(
                f"{name}: {self.spec.id} is not a goal-conditioned task (its observation has "
                "no achieved_goal / desired_goal)"
            )
        return make(self.spec)

    @property
    def compute_reward(self) -> Any:
        """``compute_reward(achieved_goal, desired_goal, info)``: the reward the
        task would give for these goals (an array for a batch)."""
        return self._goal_functions("compute_reward").compute_reward

    @property
    def compute_terminated(self) -> Any:
        """``compute_terminated(achieved_goal, desired_goal, info)``."""
        return self._goal_functions("compute_terminated").compute_terminated

    @property
    def compute_truncated(self) -> Any:
        """``compute_truncated(achieved_goal, desired_goal, info)``."""
        return self._goal_functions("compute_truncated").compute_truncated
