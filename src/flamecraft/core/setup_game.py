"""Setting up a game by player count (rules "Preparation", rulings 1–5)."""

from __future__ import annotations

from typing import Final

from .board import CATALOG
from .errors import FlamecraftError
from .frames import D_COMPANION_PICK, D_START_GOOD, NOWHERE, P_DEAL_FANCY, P_SETUP_DONE
from .rng import seed_state, shuffle
from .state import EMPTY, NUM_COUNTERS, NUM_SOURCES, GameState, Options

MIN_PLAYERS: Final = 1
MAX_PLAYERS: Final = 5
HAND_SIZE: Final = 3
PARK_SIZE: Final = 5
ROW_SIZE: Final = 5
GOOD_PILE_DRAW: Final = 1
OTHER_PILE_DRAW: Final = 4


def town_spaces(players: int) -> int:
    """14 Shop spaces at 3–5 players, 12 at 1–2 (ruling 4)."""
    return 12 if players <= 2 else 14


def artisans_removed_per_type(players: int) -> int:
    """2 of each type at 1–2 players, 1 at 3, none at 4–5 (ruling 3, design §7)."""
    return {1: 2, 2: 2, 3: 1}.get(players, 0)


def new_game(options: Options, seed: int) -> GameState:
    """A new game, waiting for the first setup decision: with Companions, the draft (the last
    seat picks first); then each player keeps 1 of 2 Fancy Dragons; then seats 4 and 5 each
    take 1 Good."""
    n = options.players
    if not MIN_PLAYERS <= n <= MAX_PLAYERS:
        raise FlamecraftError(f"players must be {MIN_PLAYERS}–{MAX_PLAYERS}, not {n}")
    if options.deck not in ("purple", "golden"):
        raise FlamecraftError(f"deck must be 'purple' or 'golden', not {options.deck!r}")
    if options.names and len(options.names) != n:
        raise FlamecraftError(f"{len(options.names)} names given for {n} players")
    rng = seed_state(seed)
    s = GameState.__new__(GameState)
    s.options = options
    s.n = n

    # Town and starter Shops, each with its starter dragon on slot 1.
    s.town = [EMPTY] * town_spaces(n)
    s.slots = [EMPTY] * (3 * len(CATALOG.shops))
    s.shop_ench = [()] * len(CATALOG.shops)
    s.facedown = []
    starters = [shop for shop in CATALOG.shops if shop.starter]
    for space, shop in enumerate(starters):
        s.town[space] = shop.index
        s.slots[shop.index * 3] = CATALOG.artisan_by_id[shop.starter_dragon]

    # The Shop deck: 1 from each Good pile and 4 from the other icons, shuffled.
    piles: list[list[int]] = [[] for _ in range(7)]
    for shop in CATALOG.shops:
        if not shop.starter:
            piles[shop.pile].append(shop.index)
    s.shop_deck, s.shops_unused = [], []
    for pile_index, pile in enumerate(piles):
        rng = shuffle(pile, rng)
        take = GOOD_PILE_DRAW if pile_index < 6 else OTHER_PILE_DRAW
        s.shop_deck.extend(pile[:take])
        s.shops_unused.extend(pile[take:])
    rng = shuffle(s.shop_deck, rng)
    s.shops_unused.sort()

    # The Artisan deck, less the dragons removed at 2–3 players, and the Park.
    by_type: list[list[int]] = [[] for _ in range(6)]
    for artisan in CATALOG.artisans:
        if not artisan.starter:
            by_type[artisan.type].append(artisan.index)
    per_type = artisans_removed_per_type(n)
    s.removed, s.artisan_deck = [], []
    for cards in by_type:
        rng = shuffle(cards, rng)
        s.removed.extend(cards[:per_type])
        s.artisan_deck.extend(cards[per_type:])
    rng = shuffle(s.artisan_deck, rng)
    s.park = [s.artisan_deck.pop() for _ in range(PARK_SIZE)]

    s.fancy_deck = [f.index for f in CATALOG.fancies]
    rng = shuffle(s.fancy_deck, rng)
    deck_index = 0 if options.deck == "purple" else 1
    s.ench_deck = [e.index for e in CATALOG.enchantments if e.deck == deck_index]
    rng = shuffle(s.ench_deck, rng)
    s.ench_row = [s.ench_deck.pop() for _ in range(ROW_SIZE)]

    s.goods = [[0] * 6 for _ in range(n)]
    s.coins = [0] * n
    s.rep = [0] * n
    s.rep_sources = [[0] * NUM_SOURCES for _ in range(n)]
    s.hand = [[s.artisan_deck.pop() for _ in range(HAND_SIZE)] for _ in range(n)]
    s.fancy = [[] for _ in range(n)]  # dealt by P_DEAL_FANCY, after the Companion draft
    s.scored = [[] for _ in range(n)]
    s.reserved = [EMPTY] * n
    s.pos = [EMPTY] * n
    s.counters = [[0] * NUM_COUNTERS for _ in range(n)]
    s.current = 0
    s.turn = 0
    s.fired = 0
    s.end_triggered = False
    s.final_turns = -1
    s.over = False
    s.companion = [EMPTY] * n
    s.companion_uses = [0] * n
    s.companion_turn = [0] * n
    s.companion_offer, s.companion_box = [], []
    if options.companions:
        pool = list(range(len(CATALOG.companions)))
        rng = shuffle(pool, rng)
        revealed = n + 1  # one more than the players (solo: 2, keep 1)
        s.companion_offer, s.companion_box = pool[:revealed], sorted(pool[revealed:])
    s.achievements = [[] for _ in range(n)]
    s.ench_removed = []
    s.rng = rng
    s.cache = None

    s.stack = [(P_SETUP_DONE,)]
    for p in reversed(range(3, n)):
        s.stack.append((D_START_GOOD, p, NOWHERE))
    s.stack.append((P_DEAL_FANCY,))
    if options.companions:
        for p in range(n):  # the last seat picks first: it is on top of the stack
            s.stack.append((D_COMPANION_PICK, p, NOWHERE))
    return s
