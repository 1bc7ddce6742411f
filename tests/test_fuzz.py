"""Random-game fuzzing over every player count (solo included), both Enchantment decks, with
and without Companions. The quick run is in the default suite; ``pytest -m slow`` plays
10,000+ games."""

from __future__ import annotations

import pytest

from fuzz import play_checked

COUNTS = (1, 2, 3, 4, 5)
DECKS = ("purple", "golden")


@pytest.mark.parametrize("companions", [False, True])
@pytest.mark.parametrize("deck", DECKS)
@pytest.mark.parametrize("players", COUNTS)
@pytest.mark.parametrize("seed", range(2))
def test_random_games_keep_invariants(players: int, seed: int, deck: str,
                                      companions: bool) -> None:
    """Every card in one place, no negative counts, limits after each turn, every game ends,
    dump/load round trip at every decision, replay reproduces the final state."""
    play_checked(players, seed, deck, companions=companions)


@pytest.mark.parametrize("players", COUNTS)
def test_every_listed_action_applies(players: int) -> None:
    """At every decision of a whole game, each listed action applies and keeps invariants."""
    play_checked(players, 100 + players, "golden" if players % 2 else "purple",
                 every_action=True, round_trip_every=0, companions=players % 2 == 1)


@pytest.mark.slow
@pytest.mark.parametrize("chunk", range(40))
def test_long_fuzz(chunk: int) -> None:
    """10,400 random games: 260 per chunk, every player count, deck and Companion option."""
    for i in range(260):
        seed = 10_000 + chunk * 260 + i
        play_checked(COUNTS[i % 5], seed, DECKS[(i // 5) % 2], round_trip_every=25,
                     companions=(i // 10) % 2 == 1)
