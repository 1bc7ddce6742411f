"""Writes (or regenerates) the OpenSpiel playthroughs of python_flamecraft in
``tests/data/playthroughs/``, with OpenSpiel's own ``generate_playthrough``.

Why: a playthrough is OpenSpiel's record of one game through every part of its API (types,
strings, tensors of every observer, legal actions, returns); OpenSpiel keeps one per game
and its playthrough test regenerates it and compares. ``tests/test_openspiel_api.py`` does
the same here, so any change to what the game shows fails until this script is run and the
new file is reviewed and committed (a change that could affect learning also raises the
environment's version: docs/rl.md, "Versions").

    python scripts/update_playthroughs.py     # regenerate the files whose game changed
"""

from __future__ import annotations

import sys
from pathlib import Path

from absl import flags
from open_spiel.python.algorithms import generate_playthrough

import flamecraft.research.openspiel_game  # noqa: F401  (registers python_flamecraft)

FOLDER = Path(__file__).resolve().parent.parent / "tests" / "data" / "playthroughs"
# file name -> (game string, seed of the random choices). Solo (one seat, about 60 decisions)
# keeps the file to about 300 KB: a 2-player game is about 2 MB, most of it tensors.
PLAYTHROUGHS = {"python_flamecraft.txt": ("python_flamecraft(players=1)", 1)}


def main() -> int:
    if not flags.FLAGS.is_parsed():  # generate_playthrough reads an absl flag
        flags.FLAGS.mark_as_parsed()
    FOLDER.mkdir(parents=True, exist_ok=True)
    for name, (game, seed) in PLAYTHROUGHS.items():
        path = FOLDER / name
        if path.exists():
            generate_playthrough.update_path(str(path))
        else:
            path.write_text(generate_playthrough.playthrough(game, [], seed=seed),
                            encoding="utf-8")
            print(f"Wrote {path}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
