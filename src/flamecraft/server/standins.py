"""A bot that plays a person's seat (BGA's "zombie"): when the other people at the table vote
it (the person has left, or stopped playing), when the person concedes, or when the seat has
been out of time for a grace period (``clocks.py``). The person takes a
voted seat back through their link at any later decision; a conceded seat is played out by
the bot to the end. Each stretch a bot played is kept on the seat's row (``SeatRow.spans``)
and shown with the final scores.

Each function here is a lobby change (``Games._change``): it checks the request against the
row and the state, raises ``GameError`` (changing nothing) or changes the row copy it is
given. The row's version check makes each happen once, whichever process serves it.
"""

from __future__ import annotations

from ..ai.roster import BOTS
from ..core.engine import to_act
from ..core.state import GameState
from ..core.tr import N_
from . import clocks
from .gameerror import GameError
from .store import FINISHED, HUMAN, RUNNING, GameRow, SeatRow
from .tokens import check_token

STAND_IN = "greedy"  # the default bot for a person's seat (a quick one: nobody waits on it)


def stand_in_bot(row: GameRow) -> str:
    """The bot a seat of this game is played by when its person is away: the host's choice,
    else ``STAND_IN``."""
    for name in (row.stand_in, STAND_IN):
        if name is not None and name in BOTS:
            return name
    return next(iter(BOTS))


def _running(row: GameRow, s: GameState | None) -> GameState:
    if row.status != RUNNING or s is None or s.over:
        raise GameError("illegal", N_("only a game in play has seats a bot can play"))
    return s


def _person(row: GameRow, seat: int) -> SeatRow:
    seat_row = row.seats[seat]
    if seat_row.kind != HUMAN:
        raise GameError("illegal", N_("{name} is a bot already"), name=seat_row.name)
    return seat_row


def _begin(seat_row: SeatRow, row: GameRow, s: GameState, actions: int, why: str) -> None:
    seat_row.stand_in = stand_in_bot(row)
    seat_row.votes = []
    seat_row.spans.append({"why": why, "from": actions, "turn": s.turn, "to": None,
                           "until": None})


def voters(row: GameRow, target: int) -> list[int]:
    """The seats whose votes put a bot in ``target``'s place: every other person still
    playing their own seat."""
    return [i for i, seat in enumerate(row.seats)
            if i != target and seat.person_plays]


def vote(row: GameRow, s: GameState | None, actions: int, seat: int, token: str,
         target: int) -> GameRow | None:
    """``seat`` asks that a bot play ``target``'s seat now; once every other person still
    playing has asked, it does."""
    check_token(row, seat, token)
    state = _running(row, s)
    if not 0 <= target < len(row.seats) or target == seat:
        raise GameError("malformed", N_("a vote names another seat of the game (0 to {last}), "
                                        "not {target}"), 400, last=len(row.seats) - 1,
                        target=target)
    if row.seats[seat].stand_in is not None:
        raise GameError("illegal", N_("a bot is playing for you: take your seat back to vote"))
    wanted = _person(row, target)
    if wanted.stand_in is not None:
        raise GameError("illegal", N_("a bot already plays for {name}"), name=wanted.name)
    if seat in wanted.votes:
        return None
    wanted.votes = sorted({*wanted.votes, seat})
    if set(voters(row, target)) <= set(wanted.votes):
        _begin(wanted, row, state, actions, "voted")
    return row


def concede(row: GameRow, s: GameState | None, actions: int, seat: int,
            token: str) -> GameRow | None:
    """``seat`` gives up, on its own turn: a bot plays the seat out (its score counts, so the
    game stays a game for the others; the scores say from which turn the bot played)."""
    check_token(row, seat, token)
    state = _running(row, s)
    seat_row = _person(row, seat)
    if seat_row.conceded:
        return None
    if to_act(state) != seat and seat_row.stand_in is None:
        raise GameError("out_of_turn", N_("you may concede on your turn (it is {name}'s)"),
                        name=row.seats[to_act(state)].name)
    seat_row.conceded = True
    if seat_row.stand_in is None:
        _begin(seat_row, row, state, actions, "conceded")
    else:
        seat_row.spans[-1]["why"] = "conceded"
    return row


def reclaim(row: GameRow, s: GameState | None, actions: int, seat: int,
            token: str, now: float = 0.0) -> GameRow | None:
    """The person takes their seat back from the bot (not after conceding)."""
    check_token(row, seat, token)
    state = _running(row, s)
    seat_row = row.seats[seat]
    if seat_row.conceded:
        raise GameError("illegal", N_("you conceded this game: the bot plays your seat to "
                                      "the end"))
    if seat_row.stand_in is None:
        return None
    seat_row.stand_in = None
    seat_row.spans[-1].update({"to": actions, "until": state.turn})
    clocks.handed_back(row.clock, seat, to_act(state), now)
    return row


def time_out(row: GameRow, s: GameState | None, actions: int, grace: float,
             now: float) -> GameRow | None:
    """The seat to act has been out of time for ``grace`` seconds (its real-time bank spent,
    or its turn-based deadline passed): a bot plays it from now on, until the person takes
    it back. None when that no longer holds (the person moved, another process was first):
    the row's clock decides, so it happens once."""
    if row.status != RUNNING or s is None or s.over:
        return None
    seat = to_act(s)
    seat_row = row.seats[seat]
    due = clocks.runs_out(row.clock)
    if (not seat_row.person_plays or due is None
            or row.clock is None or row.clock.get("seat") != seat or now < due + grace):
        return None
    clocks.charge(row.clock, True, now)
    _begin(seat_row, row, s, actions, "timeout")
    return row


def walked_away(row: GameRow, s: GameState | None, actions: int) -> GameRow | None:
    """The person to act has been away for the host's grace during their turn (a game
    without a clock; the caller has seen it): a bot plays for them until they take the seat
    back. None when the seat is not a person's own any more."""
    if row.status != RUNNING or s is None or s.over or row.clock is not None:
        return None
    seat_row = row.seats[to_act(s)]
    if not seat_row.person_plays:
        return None
    _begin(seat_row, row, s, actions, "away")
    return row


def abandon(row: GameRow, s: GameState | None, seat: int, token: str, now: float) -> GameRow:
    """The one person of a game against bots leaves it for good: the game ends where it
    stands, with no winner (``result["abandoned"]``: the seat), and has no review. A game
    with other people is conceded instead (they are still playing)."""
    check_token(row, seat, token)
    state = _running(row, s)
    if any(i != seat and other.kind == HUMAN for i, other in enumerate(row.seats)):
        raise GameError("illegal", N_("only a game of one person against bots can be "
                                      "abandoned; with other people at the table, concede"))
    row.status = FINISHED
    row.result = {"reputation": state.rep[:], "winners": [], "turns": state.turn,
                  "abandoned": seat}
    clocks.start(row.clock, None, now)
    return row
