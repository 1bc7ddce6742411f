"""The research environments under their PettingZoo-style public names, as in
``from pettingzoo.classic import connect_four_v3``::

    from flamecraft.envs import flamecraft_v2
    env = flamecraft_v2.env(players=3)

The code lives in ``flamecraft.research``; these names are the same module objects (so
``import flamecraft.envs.flamecraft_v2`` works too). Needs the ``rl`` extra.
"""

from __future__ import annotations

import sys

from ..research import flamecraft_v2, gym_single, state_vector, vector
from ..research.cut import DEFAULT_MAX_CYCLES, DEFAULT_MAX_DECISIONS, check_max_cycles
from ..research.observation import observation_array

for _module in (flamecraft_v2, gym_single, state_vector, vector):
    sys.modules[f"{__name__}.{_module.__name__.rsplit('.', 1)[1]}"] = _module



class DeprecatedEnv(ImportError):
    """An environment whose version is gone, as PettingZoo's ``DeprecatedModule``: its
    dynamics changed, and a policy trained on it does not fit the new one."""


# The versions that are gone, and what changed since each (docs/rl.md, "Versions").
GONE: dict[str, str] = {
    "flamecraft_v0": "version 1 asks every seat the same decisions whatever its hidden cards, "
                     "and version 2 changed the truncation",
    "flamecraft_v1": "version 2 changed the truncation: an explicit max_cycles counts cycles, "
                     "not decisions (max_decisions is the old cut), and OpenSpiel's cut game "
                     "returns 0 for every seat",
}


def __getattr__(name: str) -> object:
    if name in GONE:
        raise DeprecatedEnv(f"{name} is gone: use flamecraft_v2; {GONE[name]} (docs/rl.md, "
                            "\"Versions\")")
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


__all__ = ["DEFAULT_MAX_CYCLES", "DEFAULT_MAX_DECISIONS", "check_max_cycles", "flamecraft_v2",
           "gym_single", "observation_array", "state_vector", "vector"]
