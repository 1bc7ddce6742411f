"""Benchmark: what a state message costs the server in English and in Japanese.

Why: after every move the server builds each seat's state message (``connections.seat_message``:
the view, the legal actions with their facts, what is being chosen, the log) once per seat
*and language* (issue 16). Japanese words come through gettext catalogues and the log's
lines are translated on first demand, so the question is what a table of readers in two
languages costs per move against one in English alone. Whole random games are played; at
every move each seat's message is built fresh (the caches emptied, as a move empties them).

    python bench/state_message_languages.py                # 2 and 4 players, 3 games each
    python bench/state_message_languages.py --players 5 --games 5
"""

from __future__ import annotations

import argparse
import platform
import random
import statistics
import sys
import time

from flamecraft import apply, legal_actions, start, text, to_act
from flamecraft.core.events import Event
from flamecraft.server.connections import common_of, seat_message
from flamecraft.server.store import ActionRow, GameRow, SeatRow
from flamecraft.server.table import Table
from flamecraft.session.history import Played


def per_move(players: int, games: int, seed: int) -> dict[str, list[float]]:
    """Milliseconds to build every seat's message after a move, per language."""
    out: dict[str, list[float]] = {"en": [], "ja": []}
    for game in range(games):
        rng = random.Random(seed + game)
        s = start(players, seed + game)
        row = GameRow("g", "bench", s.options, 0,
                      [SeatRow(f"P{p + 1}", "human") for p in range(players)],
                      status="running")
        table = Table(row)
        table.state = s
        while not s.over:
            action = rng.choice(legal_actions(s))
            events: list[Event] = []
            after = apply(s, action, events)
            table.commit(Played(to_act(s), s, after, text(s, action), events),
                         ActionRow(len(table.actions), to_act(s), text(s, action), 1))
            s = after
            order = ("en", "ja") if len(table.actions) % 2 else ("ja", "en")  # no favourite
            for lang in order:
                table._log_joined.clear()  # as after a move: every seat's log is joined anew
                began = time.perf_counter()
                common = common_of(table)
                for seat in range(players):
                    seat_message(table, seat, common, lang)
                out[lang].append(1000 * (time.perf_counter() - began))
    return out


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--players", default="2,4")
    parser.add_argument("--games", type=int, default=3)
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    print(f"Python {sys.version.split()[0]} on {platform.machine()}, "
          f"{args.games} random games per player count")
    print(f"{'players':>7} {'moves':>6} {'en ms/move':>11} {'ja ms/move':>11} {'ja/en':>6}")
    for players in (int(p) for p in args.players.split(",")):
        got = per_move(players, args.games, args.seed)
        en, ja = statistics.mean(got["en"]), statistics.mean(got["ja"])
        print(f"{players:>7} {len(got['en']):>6} {en:>11.3f} {ja:>11.3f} {ja / en:>6.2f}")


if __name__ == "__main__":
    main()
