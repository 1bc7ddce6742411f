"""The research environments under their PettingZoo-style public names, as in
``from pettingzoo.classic import connect_four_v3``::

    from flamecraft.envs import flamecraft_v0
    env = flamecraft_v0.env(players=3)

The code lives in ``flamecraft.research``; these names are the same module objects (so
``import flamecraft.envs.flamecraft_v0`` works too). Needs the ``rl`` extra.
"""

from __future__ import annotations

import sys

from ..research import flamecraft_v0, gym_single, state_vector
from ..research.observation import DEFAULT_MAX_CYCLES, check_max_cycles, observation_array

for _module in (flamecraft_v0, gym_single, state_vector):
    sys.modules[f"{__name__}.{_module.__name__.rsplit('.', 1)[1]}"] = _module

__all__ = ["DEFAULT_MAX_CYCLES", "check_max_cycles", "flamecraft_v0", "gym_single",
           "observation_array", "state_vector"]
