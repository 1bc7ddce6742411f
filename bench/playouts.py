"""Random 4-player playouts with ``apply_in_place``, for counting instructions under callgrind
(load-independent, unlike seconds): the cost of an engine change is the difference of two
trees' counts, each minus the count of zero games (interpreter start and imports).

    valgrind --tool=callgrind --callgrind-out-file=/dev/null python bench/playouts.py 30
    valgrind --tool=callgrind --callgrind-out-file=/dev/null python bench/playouts.py 0
    PYTHONPATH=/path/to/other/tree/src valgrind ... python bench/playouts.py 30   # and 0
"""

from __future__ import annotations

import random
import sys

from flamecraft import apply_in_place, legal_actions, start


def main() -> None:
    games = int(sys.argv[1]) if len(sys.argv) > 1 else 30
    decisions = 0
    for seed in range(games):
        s = start(4, seed)
        rng = random.Random(seed)
        while not s.over:
            actions = legal_actions(s)  # a lone action (an `end turn`) needs no draw
            apply_in_place(s, actions[0] if len(actions) == 1 else rng.choice(actions))
            decisions += 1
    print(f"{games} games, {decisions} decisions")


if __name__ == "__main__":
    main()
