"""The game state: plain, flat data (ints and lists of ints) so that copies are cheap.

Cards are referred to by their catalog index. The pending-decision stack (``stack``) holds
tuples of ints: the turn structure and every half-resolved effect live there, so a state alone
says who acts next and what they may choose (see ``engine.py``).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Final

# Indices into GameState.counters[player]: what a player has done over the whole game.
CASTS: Final = 0
PLACED: Final = 1
COMPLETED: Final = 2
GIFTS: Final = 3
SUN_SCORED: Final = 4
FANCY_SCORED: Final = 5
VISITED: Final = 6
CAST_ICONS: Final = 7
MAX_SETS: Final = 8
NUM_COUNTERS: Final = 9
COUNTER_NAMES: Final = ("casts", "placed", "completed", "gifts", "sun_scored", "fancy_scored",
                        "visited_mask", "cast_icons_mask", "max_variable_sets")

# Indices into GameState.rep_sources[player]: where Reputation came from (score breakdown).
SRC_SLOT: Final = 0
SRC_ENCHANT: Final = 1
SRC_SUN: Final = 2
SRC_MOON: Final = 3
SRC_GIFT: Final = 4
SRC_ABILITY: Final = 5
SRC_COINS: Final = 6
SRC_COMPANION: Final = 7
SRC_ACHIEVEMENT: Final = 8
NUM_SOURCES: Final = 9
SOURCE_NAMES: Final = ("slots", "enchantments", "sun_dragons", "moon_dragons", "gifts",
                       "abilities", "coins", "companions", "achievements")

EMPTY: Final = -1


@dataclass(frozen=True, slots=True)
class Variant:
    """A research variant that shrinks the game for tabular methods (CFR, exact
    exploitability): fewer cards, fewer Shops, fewer turns. **Not the rules**: the defaults
    are the rules' own numbers, and a game with the default variant is the normal game,
    played and saved exactly as before (``core/variant.py`` parses, checks and names them;
    docs/rl.md, "Small variants")."""

    turns: int = 0  # the game ends after this many turns in all; 0: the rules' end only
    starters: int = 6  # starter Shops in Town (the first ones of the deal order)
    shop_deck: int = 10  # Shops in the Shop deck (the rules: 1 of each Good pile + 4 others)
    artisans: int = 36  # non-starter Artisan Dragons in the game (36: all, less those left out)
    hand: int = 3  # Artisan Dragons dealt to each hand
    park: int = 5  # the Park's size
    row: int = 5  # the Enchantment row's size
    fancies: int = 36  # Fancy Dragons in the deck
    enchantments: int = 18  # Enchantments in the deck

    def __reduce__(self) -> tuple[type[Variant], tuple[int, ...]]:
        """Pickled by its fields (compiled by mypyc, as ``Options``)."""
        return (Variant, (self.turns, self.starters, self.shop_deck, self.artisans, self.hand,
                          self.park, self.row, self.fancies, self.enchantments))


RULES: Final = Variant()


@dataclass(frozen=True, slots=True)
class Options:
    """What a game is set up with; part of every state and every game record."""

    players: int  # 1 (solo) to 5
    deck: str = "purple"  # "purple" or "golden"
    names: tuple[str, ...] = ()
    companions: bool = False  # the optional Companion module
    first_player: int | None = None  # the seat that plays first; None: drawn from the seed
    variant: Variant = RULES  # a research variant (not the rules); RULES: the normal game

    def player_names(self) -> tuple[str, ...]:
        if self.names:
            return self.names
        return tuple(f"P{i + 1}" for i in range(self.players))

    def __reduce__(self) -> tuple[type[Options], tuple[int, str, tuple[str, ...], bool,
                                                         int | None, Variant]]:
        """Pickled by its fields, rebuilt by the constructor: compiled by mypyc, a frozen
        dataclass refuses the attribute assignments pickle's default makes (a bot in its own
        process receives Options in what it is sent)."""
        return (Options, (self.players, self.deck, self.names, self.companions,
                          self.first_player, self.variant))


# Every field of a GameState (its slots). A module constant, not only ``__slots__``: a class
# compiled by mypyc has no ``__slots__`` attribute to read at run time.
FIELDS: Final[tuple[str, ...]] = (
    "achievements",
    "artisan_deck",
    "cache",
    "coins",
    "companion",
    "companion_box",
    "companion_offer",
    "companion_turn",
    "companion_uses",
    "counters",
    "current",
    "ench_deck",
    "ench_removed",
    "ench_row",
    "end_triggered",
    "facedown",
    "fancy",
    "fancy_deck",
    "final_turns",
    "fired",
    "first_player",
    "goods",
    "hand",
    "n",
    "options",
    "over",
    "park",
    "pos",
    "removed",
    "rep",
    "rep_sources",
    "reserved",
    "rng",
    "scored",
    "shop_deck",
    "shop_ench",
    "shops_unused",
    "slots",
    "stack",
    "town",
    "turn",
)


class GameState:
    """Everything about one game at one moment. Use ``copy()``, never ``copy.deepcopy``."""

    __slots__ = FIELDS

    options: Options
    n: int
    rng: int
    town: list[int]  # Town spaces: a Shop index or EMPTY
    facedown: list[int]  # Shops drawn this turn, in Town but face down until the turn ends
    slots: list[int]  # 3 per Shop index: the Artisan Dragon there, or EMPTY
    shop_ench: list[tuple[int, ...]]  # per Shop index: Enchantments tucked behind it
    shop_deck: list[int]  # top is the last element
    artisan_deck: list[int]
    removed: list[int]  # Artisan Dragons out of the game (2–3 players)
    park: list[int]  # in order of arrival
    fancy_deck: list[int]
    ench_deck: list[int]
    ench_row: list[int]  # in order of arrival
    goods: list[list[int]]
    coins: list[int]
    rep: list[int]
    rep_sources: list[list[int]]
    hand: list[list[int]]
    fancy: list[list[int]]  # unscored Fancy Dragons (hidden)
    scored: list[list[int]]  # scored Fancy Dragons (face up)
    reserved: list[int]
    pos: list[int]  # the Shop each Flamekeeper's token stands on, or EMPTY
    counters: list[list[int]]
    first_player: int  # the seat that played the first turn (chosen at setup)
    current: int  # the player whose turn it is
    turn: int  # turns started so far
    fired: int  # bit mask of Artisan Dragons fired up this turn
    end_triggered: bool
    final_turns: int  # turns left after the triggering turn; -1 before the end is triggered
    over: bool
    stack: list[tuple[int, ...]]
    shops_unused: list[int]  # Shops not in this game (out of the box)
    companion: list[int]  # per player: their Companion, or EMPTY
    companion_offer: list[int]  # Companions revealed for the draft, not yet taken
    companion_box: list[int]  # Companions out of the game
    companion_uses: list[int]  # per player: uses of their Companion this game
    companion_turn: list[int]  # per player: uses of their Companion this turn
    achievements: list[list[int]]  # per player: solo achievements claimed
    ench_removed: list[int]  # Enchantments removed from the game (solo Town Bustle)
    cache: list[tuple[int, int, int, int]] | None  # legal actions now (not part of the state)

    def copy(self) -> GameState:
        other = GameState.__new__(GameState)
        other.options = self.options
        other.n = self.n
        other.rng = self.rng
        other.town = self.town[:]
        other.facedown = self.facedown[:]
        other.slots = self.slots[:]
        other.shop_ench = self.shop_ench[:]
        other.shop_deck = self.shop_deck[:]
        other.artisan_deck = self.artisan_deck[:]
        other.removed = self.removed[:]
        other.park = self.park[:]
        other.fancy_deck = self.fancy_deck[:]
        other.ench_deck = self.ench_deck[:]
        other.ench_row = self.ench_row[:]
        other.goods = [g[:] for g in self.goods]
        other.coins = self.coins[:]
        other.rep = self.rep[:]
        other.rep_sources = [r[:] for r in self.rep_sources]
        other.hand = [h[:] for h in self.hand]
        other.fancy = [f[:] for f in self.fancy]
        other.scored = [s[:] for s in self.scored]
        other.reserved = self.reserved[:]
        other.pos = self.pos[:]
        other.counters = [c[:] for c in self.counters]
        other.first_player = self.first_player
        other.current = self.current
        other.turn = self.turn
        other.fired = self.fired
        other.end_triggered = self.end_triggered
        other.final_turns = self.final_turns
        other.over = self.over
        other.stack = self.stack[:]
        other.shops_unused = self.shops_unused[:]
        other.companion = self.companion[:]
        other.companion_offer = self.companion_offer[:]
        other.companion_box = self.companion_box[:]
        other.companion_uses = self.companion_uses[:]
        other.companion_turn = self.companion_turn[:]
        other.achievements = [a[:] for a in self.achievements]
        other.ench_removed = self.ench_removed[:]
        other.cache = self.cache
        return other

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, GameState):
            return NotImplemented
        return all(getattr(self, name) == getattr(other, name)
                   for name in FIELDS if name != "cache")

    __hash__ = None  # type: ignore[assignment]

    def town_shops(self) -> list[int]:
        """Face-up Shops in Town, in space order."""
        facedown = self.facedown
        if not facedown:  # Shops are face down only from a fill to the end of that turn
            return [s for s in self.town if s != EMPTY]
        return [s for s in self.town if s != EMPTY and s not in facedown]
