"""Random-game fuzzing: plays random legal games and checks the engine's invariants after
every action (shared by the quick default run and the long ``slow`` run)."""

from __future__ import annotations

import random

from flamecraft import GameRecord, apply, apply_in_place, legal_actions, replay, start, text
from flamecraft.core.board import GOODS_LIMIT, HAND_LIMIT
from flamecraft.core.engine import to_act
from flamecraft.core.invariants import problems
from flamecraft.core.serialize import dump_state, load_state

MAX_DECISIONS = 3000  # far above the longest random game seen (about 700)


def play_checked(players: int, seed: int, deck: str, *, every_action: bool = False,
                 round_trip_every: int = 1, companions: bool = False) -> GameRecord:
    """Plays one random game, asserting the invariants after each action; returns its record.

    ``every_action``: also apply every listed action to a copy at each decision.
    ``round_trip_every``: dump/load the state every that many decisions (0: never).
    """
    rng = random.Random(seed * 7919 + players)
    s = start(players, seed, deck, companions=companions)
    record = GameRecord(s.options, seed)
    turn, current = s.turn, s.current
    for decision in range(MAX_DECISIONS):
        if s.over:
            break
        actions = legal_actions(s)
        assert actions, "a live game must offer an action"
        assert len(set(actions)) == len(actions), "duplicate actions"
        texts = [text(s, a) for a in actions]
        assert len(set(texts)) == len(texts), f"two actions read the same: {texts}"
        assert 0 <= to_act(s) < players
        if every_action:
            for a in actions:
                after = apply(s, a)
                assert problems(after) == [], (text(s, a), problems(after))
        action = rng.choice(actions)
        record.actions.append(text(s, action))
        apply_in_place(s, action)
        found = problems(s)
        assert found == [], f"after {record.actions[-1]!r}: {found}"
        if s.turn != turn and turn > 0:
            # The player whose turn just ended is within the limits (ruling 16).
            assert len(s.hand[current]) <= HAND_LIMIT
            assert max(s.goods[current]) <= GOODS_LIMIT
        turn, current = s.turn, s.current
        if round_trip_every and decision % round_trip_every == 0:
            loaded = load_state(dump_state(s))
            assert loaded == s
            assert legal_actions(loaded) == legal_actions(s)
    assert s.over, f"game not over after {MAX_DECISIONS} decisions"
    assert legal_actions(s) == []
    assert min(s.rep) >= 0
    assert replay(record) == s, "replaying the record must reproduce the game"
    return record
