"""The research adapter: the fixed action catalogue and observation vector (``encoding``), the
PettingZoo environment (``flamecraft_v2``), one seat as a Gymnasium environment
(``gym_single``), the privileged state vector (``state_vector``) and the OpenSpiel game
(``openspiel_game``, which registers ``python_flamecraft``). The optional ``rl`` extra
(numpy, PettingZoo, Gymnasium, OpenSpiel) is imported by those modules, not here.

Research never imports the terminal, the web server or the command line
(``tests/test_layers.py``); ``flamecraft.envs`` is the PettingZoo-style public name of the
environments.
"""

from __future__ import annotations

from ..core import COMPILED, NATIVE_DIR

if COMPILED:  # the encoding, compiled with the core (see flamecraft/core/__init__)
    __path__.insert(0, str(NATIVE_DIR / "research"))
