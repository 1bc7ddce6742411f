"""A game to create, as one value checked in one place: ``NewGame`` (its seats, options and,
for a rematch, the old game's keys) refuses anything wrong when it is made, naming the
problem, so ``Games.create`` only ever sees a game it can set up (``POST /api/games`` and a
rematch both make one)."""

from __future__ import annotations

from dataclasses import dataclass, field

from ..ai.roster import BOTS, DEFAULT_OPPONENT
from ..core.tr import N_
from ..session.seats import BOT_NAMES, SetupError
from .clocks import ClockSpec
from .gameerror import GameError
from .names import check_seat_names, clean
from .store import BOT, HUMAN, GameRow

MAX_SEATS = 5
NO_CLOCK = ClockSpec()
DECKS = ("purple", "golden")


@dataclass(frozen=True)
class NewSeat:
    """A seat as asked for: a person or a bot (``bot``: its name; the default opponent if
    None), and a name (one is made up if None or blank)."""

    kind: str = HUMAN
    bot: str | None = None
    name: str | None = None


@dataclass(frozen=True)
class NewGame:
    """A game to create. ``begin``: running at once (a game without people always is);
    ``first_player``: a seat, or None for one drawn from the seed; ``seed``: None for the
    server's secret randomness (a chosen one only with at most one person). A rematch carries
    ``rematch_of``, each old seat's token digests (they stay valid in the new game), and
    ``asker``, the one seat that gets a new key.

    Checked when made (``GameError`` "malformed", 400, naming the first problem); then
    ``bots``, ``names`` and ``game_name`` hold the seats' bots, the seats' names and the
    game's name as they will be stored."""

    seats: tuple[NewSeat, ...]
    name: str | None = None
    deck: str = "purple"
    companions: bool = False
    seed: int | None = None
    first_player: int | None = None
    begin: bool = False
    hints: bool = True
    clock: ClockSpec = NO_CLOCK
    stand_in: str | None = None  # the bot for a person's seat when they leave (None: greedy)
    spectator_chat: bool = False  # whether spectators may write in the table chat (chat.py)
    rematch_of: tuple[tuple[str, ...], ...] | None = None
    asker: int | None = None
    bots: tuple[str | None, ...] = field(init=False)
    names: tuple[str, ...] = field(init=False)
    game_name: str = field(init=False)

    def __post_init__(self) -> None:
        seats = self.seats
        if not 1 <= len(seats) <= MAX_SEATS:
            raise GameError("malformed", N_("a game has 1 to {most} seats, not {n}"), 400,
                            most=MAX_SEATS, n=len(seats))
        if self.first_player is not None and not 0 <= self.first_player < len(seats):
            raise GameError("malformed", N_("first_player must be a seat from 0 to {last}, "
                                            "not {first}"), 400,
                            last=len(seats) - 1, first=self.first_player)
        bots, names = [], []
        made_up = iter(BOT_NAMES)
        humans = self.kinds.count(HUMAN)
        for i, seat in enumerate(seats):
            if seat.kind not in (HUMAN, BOT):
                raise GameError("malformed", N_("seat {seat}: kind must be 'human' or 'bot'"),
                                400, seat=i)
            bot = (seat.bot or DEFAULT_OPPONENT) if seat.kind == BOT else None
            if bot is not None and bot not in BOTS:
                raise GameError("malformed", N_("seat {seat}: unknown bot {bot} (there are "
                                                "{bots})"), 400,
                                seat=i, bot=repr(bot), bots=", ".join(sorted(BOTS)))
            given = (seat.name or "").strip()
            if not given:
                given = next(made_up) if seat.kind == BOT else f"Player {i + 1}"
            bots.append(bot)
            names.append(given)
        try:
            tidy = check_seat_names(names)
            game_name = clean(self.name or "", game_name=True)
        except SetupError as exc:
            raise GameError("malformed", str(exc), 400, error=exc) from None
        if self.stand_in is not None and self.stand_in not in BOTS:
            raise GameError("malformed", N_("stand_in: unknown bot {bot} (there are {bots})"),
                            400, bot=repr(self.stand_in), bots=", ".join(sorted(BOTS)))
        if self.deck not in DECKS:
            raise GameError("malformed", N_("deck must be 'purple' or 'golden'"), 400)
        if self.seed is not None and humans > 1:
            raise GameError("malformed", N_("seed: a chosen seed is only for games with at "
                                            "most one person (with two or more, whoever "
                                            "knows it could work out everyone's cards); leave "
                                            "it out for a fair deal"), 400)
        object.__setattr__(self, "bots", tuple(bots))
        object.__setattr__(self, "names", tidy)
        object.__setattr__(self, "game_name", game_name or f"{tidy[0]}'s game")

    @property
    def kinds(self) -> list[str]:
        return [seat.kind for seat in self.seats]

    @staticmethod
    def rematch(row: GameRow, asker: int) -> NewGame:
        """A game like the finished ``row``: the same seats, names, bots and options (a first
        player drawn from the seed stays drawn), a new seed; running at once when one person
        plays against bots (nobody to wait for)."""
        o = row.options
        alone = sum(1 for s in row.seats if s.kind == HUMAN) == 1
        return NewGame(tuple(NewSeat(s.kind, s.bot, s.name) for s in row.seats), row.name,
                       o.deck, o.companions, None, o.first_player, begin=alone,
                       hints=row.hints, clock=ClockSpec.of(row.clock), stand_in=row.stand_in,
                       spectator_chat=row.spectator_chat,
                       rematch_of=tuple(tuple(s.token_hashes) for s in row.seats),
                       asker=asker)

    def fresh_key(self, seat: int) -> bool:
        """Whether ``seat`` gets a new key: every person's seat, or in a rematch the asker's."""
        return self.seats[seat].kind == HUMAN and (self.rematch_of is None
                                                   or seat == self.asker)

    def carried(self, seat: int) -> tuple[str, ...]:
        """The token digests ``seat`` keeps from the game this is a rematch of (a person's)."""
        if (self.seats[seat].kind != HUMAN or self.rematch_of is None
                or seat >= len(self.rematch_of)):
            return ()
        return self.rematch_of[seat]
