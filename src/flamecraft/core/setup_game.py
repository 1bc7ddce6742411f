"""Setting up a game by player count (rules "Preparation", rulings 1–5).

Two steps: the deal (every shuffle of the game), then the first player, drawn from the same
generator unless the options fix it (``draw_first_player``, ``seat_first_player``). The first
player is a separate step so that a fixed one leaves the deal of a seed unchanged, and so
that an adapter which supplies the deal itself (a chance model) can supply it too.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from functools import cache
from typing import Any, Final

from .board import CATALOG
from .errors import FlamecraftError
from .frames import D_COMPANION_PICK, D_START_GOOD, NOWHERE, P_DEAL_FANCY, P_SETUP_DONE
from .goods import GOOD_NAMES
from .rng import below, seed_state, shuffle
from .state import EMPTY, NUM_COUNTERS, NUM_SOURCES, RULES, GameState, Options
from .tr import N_
from .variant import check_variant

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


# --- what a research variant keeps of each deck (``state.Variant``; the rules keep all) -----

def removed_per_type(options: Options) -> int:
    """The Artisan Dragons of each type left out: the rules' (ruling 3), or none in a
    variant that deals fewer Artisan Dragons (it has chosen its own)."""
    if options.variant.artisans < RULES.artisans:
        return 0
    return artisans_removed_per_type(options.players)


def pile_takes(options: Options) -> list[int]:
    """How many Shops the deal takes from each pile (the six Good piles, then the others):
    the rules' 1 of each Good pile and 4 others; a variant's ``shop_deck`` Shops, the Good
    piles first."""
    k = options.variant.shop_deck
    if k == RULES.shop_deck:
        return [GOOD_PILE_DRAW] * 6 + [OTHER_PILE_DRAW]
    return [1 if i < k else 0 for i in range(6)] + [max(0, k - 6)]


def starter_shops(options: Options) -> list[int]:
    """The starter Shops in Town: the first ``variant.starters`` of the deal order."""
    starters = [i for i in CATALOG.deal_shops if CATALOG.shops[i].starter]
    return starters[:options.variant.starters]


def artisan_pool(options: Options) -> list[list[int]]:
    """The non-starter Artisan Dragons in the game, by type (fresh lists): all of them, or a
    variant's ``artisans``, taken one of each type in turn (type order, then deal order)."""
    by_type = artisans_by_type()
    k = options.variant.artisans
    if k >= RULES.artisans:
        return by_type
    out: list[list[int]] = [[] for _ in by_type]
    depth = 0
    while k > 0:
        for t, cards in enumerate(by_type):
            if k > 0 and depth < len(cards):
                out[t].append(cards[depth])
                k -= 1
        depth += 1
    return out


def fancy_pool(options: Options) -> list[int]:
    """The Fancy Dragons in the game: the first ``variant.fancies`` of the deal order."""
    return list(CATALOG.deal_fancies[:options.variant.fancies])


def starter_dragons(options: Options) -> list[int]:
    """The Artisan Dragons the starter Shops in Town begin with."""
    return [CATALOG.artisan_by_id[CATALOG.shops[shop].starter_dragon]
            for shop in starter_shops(options)]


def turn_order(n: int, first: int) -> list[int]:
    """The seats in turn order (clockwise) from the first player."""
    return [(first + k) % n for k in range(n)]


def draw_first_player(options: Options, rng: int) -> tuple[int, int]:
    """The first player and the generator's new state: the fixed ``options.first_player``
    (nothing is drawn), or a seat drawn uniformly, as the rules reveal a Reputation marker
    at random (rules "Player Setup")."""
    if options.first_player is not None:
        return options.first_player, rng
    return below(rng, options.players)


def seat_first_player(s: GameState, first: int) -> None:
    """Gives a dealt game its first player and its setup decisions, in turn order from that
    player: with Companions, the draft (the last player picks first, design §6); then the
    Fancy deal, each player keeping 1 of 2, the first player first; then the 4th and 5th
    players each take 1 Good (rules "Player Setup")."""
    if not 0 <= first < s.n:
        raise FlamecraftError(FIRST_PLAYER_RANGE, {"last": str(s.n - 1), "first": str(first)})
    order = turn_order(s.n, first)
    s.first_player = first
    s.current = first
    s.stack = [(P_SETUP_DONE,)]
    for p in reversed(order[3:]):
        s.stack.append((D_START_GOOD, p, NOWHERE))
    s.stack.append((P_DEAL_FANCY,))
    if s.options.companions:
        for p in order:  # the last player in turn order picks first: it is on top
            s.stack.append((D_COMPANION_PICK, p, NOWHERE))


@dataclass(frozen=True, slots=True)
class Deal:
    """Where every shuffled card lies before anything is dealt from a deck: what a seed
    decides (``draw_deal``), or what a chance model draws one card at a time
    (``DealBuilder``). Decks are listed bottom first: cards are drawn from the end."""

    shop_deck: tuple[int, ...]
    removed: tuple[int, ...]  # the Artisan Dragons left out at 1–3 players
    artisan_deck: tuple[int, ...]  # the Park and the hands come off its end
    fancy_deck: tuple[int, ...]
    ench_deck: tuple[int, ...]  # the Enchantment row comes off its end
    companion_offer: tuple[int, ...]  # the Companions revealed for the draft, in order

    def __reduce__(self) -> tuple[type[Deal], tuple[tuple[int, ...], ...]]:
        # Compiled by mypyc, a frozen dataclass does not unpickle by its fields (a review
        # sends a record's start to a worker process): rebuilt through its constructor.
        return (Deal, (self.shop_deck, self.removed, self.artisan_deck, self.fancy_deck,
                       self.ench_deck, self.companion_offer))


FIRST_PLAYER_RANGE: Final = N_("the first player must be a seat from 0 to {last}, not {first}")


def _check_options(options: Options) -> None:
    n = options.players
    if not MIN_PLAYERS <= n <= MAX_PLAYERS:
        raise FlamecraftError(N_("players must be {low}–{high}, not {n}"),
                              {"low": str(MIN_PLAYERS), "high": str(MAX_PLAYERS), "n": str(n)})
    if options.deck not in ("purple", "golden"):
        raise FlamecraftError(N_("deck must be 'purple' or 'golden', not {deck}"),
                              {"deck": repr(options.deck)})
    if options.names and len(options.names) != n:
        raise FlamecraftError(N_("{names} names given for {n} players"),
                              {"names": str(len(options.names)), "n": str(n)})
    if options.first_player is not None and not 0 <= options.first_player < n:
        raise FlamecraftError(FIRST_PLAYER_RANGE,
                              {"last": str(n - 1), "first": str(options.first_player)})
    if options.variant is not RULES:
        check_variant(options.variant, n)


def _non_starters(cards: Any, group: Callable[[Any], int], groups: int
                  ) -> tuple[tuple[int, ...], ...]:
    """The indices of the cards that are not starters, grouped by ``group(card)``."""
    out: list[list[int]] = [[] for _ in range(groups)]
    for card in cards:
        if not card.starter:
            out[group(card)].append(card.index)
    return tuple(tuple(g) for g in out)


# Every list a seed shuffles starts in the catalog's deal order (``cards._deal_order``), never
# in the order of the card files: a seed deals the same game however the files are ordered.


@cache
def _shop_piles() -> tuple[tuple[int, ...], ...]:
    return _non_starters([CATALOG.shops[i] for i in CATALOG.deal_shops],
                         lambda shop: shop.pile, 7)


def shop_piles() -> list[list[int]]:
    """The Shops that are not starters, by pile: the six Good piles, then the other icons
    (fresh lists: the deal shuffles them)."""
    return [list(pile) for pile in _shop_piles()]


@cache
def _artisans_by_type() -> tuple[tuple[int, ...], ...]:
    return _non_starters([CATALOG.artisans[i] for i in CATALOG.deal_artisans],
                         lambda artisan: artisan.type, 6)


def artisans_by_type() -> list[list[int]]:
    """The Artisan Dragons that are not starters, by type (fresh lists: the deal shuffles
    them)."""
    return [list(cards) for cards in _artisans_by_type()]


def enchantment_deck(options: Options) -> list[int]:
    """The chosen Enchantment deck (a variant's first ``enchantments`` of it)."""
    deck_index = 0 if options.deck == "purple" else 1
    deck = [e for e in CATALOG.deal_enchantments if CATALOG.enchantments[e].deck == deck_index]
    return deck[:options.variant.enchantments]


def draw_deal(options: Options, rng: int) -> tuple[Deal, int]:
    """The deal of a generator state (every shuffle of setup), and the generator after it."""
    shop_deck: list[int] = []
    takes = pile_takes(options)
    for pile_index, pile in enumerate(shop_piles()):
        rng = shuffle(pile, rng)
        shop_deck.extend(pile[:takes[pile_index]])
    rng = shuffle(shop_deck, rng)

    per_type = removed_per_type(options)
    removed: list[int] = []
    artisan_deck: list[int] = []
    for cards in artisan_pool(options):
        rng = shuffle(cards, rng)
        removed.extend(cards[:per_type])
        artisan_deck.extend(cards[per_type:])
    rng = shuffle(artisan_deck, rng)

    fancy_deck = fancy_pool(options)
    rng = shuffle(fancy_deck, rng)
    ench_deck = enchantment_deck(options)
    rng = shuffle(ench_deck, rng)
    offer: list[int] = []
    if options.companions:
        pool = list(CATALOG.deal_companions)
        rng = shuffle(pool, rng)
        offer = pool[:companions_revealed(options.players)]
    deal = Deal(tuple(shop_deck), tuple(removed), tuple(artisan_deck), tuple(fancy_deck),
                tuple(ench_deck), tuple(offer))
    return deal, rng


def companions_revealed(players: int) -> int:
    """One Companion more than the players (solo: 2, keep 1; design §6)."""
    return players + 1


@dataclass(frozen=True, slots=True)
class GameStart:
    """How a game begins: its deal, the seat that plays first, and the generator after both
    were drawn. A seed decides it (``seeded_start``); a game record carries it by card ids
    (``serialize``), so that a saved game is dealt the same cards whatever the card files
    hold around them (``started_game`` checks that the deal still fits them)."""

    deal: Deal
    first_player: int
    rng: int

    def __reduce__(self) -> tuple[type[GameStart], tuple[Deal, int, int]]:
        return (GameStart, (self.deal, self.first_player, self.rng))  # as ``Deal``'s


def seeded_start(options: Options, seed: int) -> GameStart:
    """The start a seed decides: the deal (every shuffle of setup), then the first player
    (drawn after the deal, unless the options fix it)."""
    _check_options(options)
    deal, rng = draw_deal(options, seed_state(seed))
    first, rng = draw_first_player(options, rng)
    return GameStart(deal, first, rng)


def new_game(options: Options, seed: int) -> GameState:
    """A new game, waiting for its first setup decision: the deal, then the first player
    (``seat_first_player`` lists the setup decisions)."""
    return _started(options, seeded_start(options, seed))


def started_game(options: Options, start: GameStart) -> GameState:
    """The game of a given start (a saved game's), waiting for its first setup decision; a
    ``FlamecraftError`` naming the first card out of place if the deal does not fit the
    cards (``check_start``)."""
    check_start(options, start)
    return _started(options, start)


def _started(options: Options, start: GameStart) -> GameState:
    s = dealt_game(options, start.deal)
    seat_first_player(s, start.first_player)
    s.rng = start.rng
    return s


# The parts of a deal, as its errors name them (msgids).
PLACES: Final = (N_("the Shop deck"), N_("the Artisan Dragons left out"), N_("the Artisan deck"),
                 N_("the Fancy deck"), N_("the Enchantment deck"), N_("the Companions offered"))
_MISFIT: Final = N_("the deal does not fit the card data: the {card_kind} {card} cannot be in "
                    "{place}")
_TWICE: Final = N_("the deal does not fit the card data: the {card_kind} {card} is dealt twice")
_LACKS: Final = N_("the deal does not fit the card data: {place} lacks the {card_kind} {card}")


def _misfit(msgid: str, **params: object) -> FlamecraftError:
    return FlamecraftError(msgid, {k: str(v) for k, v in params.items()})


def _check_cards(cards: tuple[int, ...], allowed: set[int], ids: list[str], kind: str,
                 place: str, whole: bool) -> None:
    """Each card once and allowed in ``place``; with ``whole``, every allowed card there."""
    seen: set[int] = set()
    for card in cards:
        name = repr(ids[card]) if 0 <= card < len(ids) else str(card)
        if card in seen:
            raise _misfit(_TWICE, card_kind=kind, card=name)
        if card not in allowed:
            raise _misfit(_MISFIT, card_kind=kind, card=name, place=place)
        seen.add(card)
    if whole and seen != allowed:
        missing = min(allowed - seen, key=lambda c: ids[c])
        raise _misfit(_LACKS, place=place, card_kind=kind, card=repr(ids[missing]))


def check_start(options: Options, start: GameStart) -> None:
    """Raises a ``FlamecraftError`` (one sentence naming the first card out of place) unless
    ``start`` is a start these cards and options can have: exactly the draws ``DealBuilder``
    can make (one Shop of each Good pile and four of the others, the Artisan Dragons left out
    by type, every other non-starter Artisan Dragon, every Fancy Dragon, the chosen
    Enchantment deck, one Companion more than the players) and a first player that is a
    seat, the fixed one if the options fix it."""
    _check_options(options)
    deal, n = start.deal, options.players
    shops = [c.id for c in CATALOG.shops]
    piles = shop_piles()
    takes = pile_takes(options)
    _check_cards(deal.shop_deck, {c for pile in piles for c in pile}, shops, N_("Shop"),
                 PLACES[0], False)
    for index, pile in enumerate(piles):
        take = takes[index]
        found = sum(1 for c in deal.shop_deck if c in pile)
        if found != take and index < 6:
            raise _misfit(N_("the deal does not fit the card data: {place} holds {found} Shops of "
                             "the {good} pile, not {count}"), place=PLACES[0], found=found,
                          good=GOOD_NAMES[index], count=take)
        if found != take:
            raise _misfit(N_("the deal does not fit the card data: {place} holds {found} Shops "
                             "without a Good icon, not {count}"), place=PLACES[0],
                          found=found, count=take)
    artisans = [c.id for c in CATALOG.artisans]
    by_type = artisan_pool(options)
    dealt = {c for cards in by_type for c in cards}
    _check_cards(deal.removed, dealt, artisans, N_("Artisan Dragon"), PLACES[1], False)
    per_type = removed_per_type(options)
    for good, cards in enumerate(by_type):
        found = sum(1 for c in deal.removed if c in cards)
        if found != per_type:
            raise _misfit(N_("the deal does not fit the card data: {place} hold {found} {good} "
                             "dragons, not {count}"), place=PLACES[1], found=found,
                          good=GOOD_NAMES[good], count=per_type)
    _check_cards(deal.artisan_deck, dealt - set(deal.removed), artisans, N_("Artisan Dragon"),
                 PLACES[2], True)
    _check_cards(deal.fancy_deck, set(fancy_pool(options)),
                 [c.id for c in CATALOG.fancies], N_("Fancy Dragon"), PLACES[3], True)
    _check_cards(deal.ench_deck, set(enchantment_deck(options)),
                 [c.id for c in CATALOG.enchantments], N_("Enchantment"), PLACES[4], True)
    _check_cards(deal.companion_offer, set(range(len(CATALOG.companions))),
                 [c.id for c in CATALOG.companions], N_("Companion"), PLACES[5], False)
    offered = companions_revealed(n) if options.companions else 0
    if len(deal.companion_offer) != offered:
        raise _misfit(N_("the deal does not fit the card data: it offers {found} Companions, not "
                         "{count}"), found=len(deal.companion_offer), count=offered)
    first = start.first_player
    if not 0 <= first < n:
        raise _misfit(N_("the deal's first player must be a seat from 0 to {last}, not "
                         "{first}"), last=n - 1, first=first)
    if options.first_player is not None and first != options.first_player:
        raise _misfit(N_("the deal's first player is seat {first}, but the options fix seat "
                         "{fixed}"), first=first, fixed=options.first_player)


def dealt_game(options: Options, deal: Deal) -> GameState:
    """The game a deal sets up, before its first player is seated (``seat_first_player``):
    Town and starter Shops, the Park, the Enchantment row and the hands dealt."""
    _check_options(options)
    n = options.players
    s = GameState.__new__(GameState)
    s.options = options
    s.n = n

    # Town and starter Shops, each with its starter dragon on slot 1.
    s.town = [EMPTY] * town_spaces(n)
    s.slots = [EMPTY] * (3 * len(CATALOG.shops))
    s.shop_ench = [()] * len(CATALOG.shops)
    s.facedown = []
    variant = options.variant
    starters = starter_shops(options)
    for space, shop in enumerate(starters):
        s.town[space] = shop
        s.slots[shop * 3] = CATALOG.artisan_by_id[CATALOG.shops[shop].starter_dragon]

    s.shop_deck = list(deal.shop_deck)
    chosen = set(deal.shop_deck)
    s.shops_unused = sorted([*(shop for pile in shop_piles() for shop in pile
                               if shop not in chosen),
                             *(shop.index for shop in CATALOG.shops
                               if shop.starter and shop.index not in starters)])
    s.removed = list(deal.removed)
    s.artisan_deck = list(deal.artisan_deck)
    s.park = [s.artisan_deck.pop() for _ in range(variant.park)]
    s.fancy_deck = list(deal.fancy_deck)
    s.ench_deck = list(deal.ench_deck)
    s.ench_row = [s.ench_deck.pop() for _ in range(min(variant.row, len(s.ench_deck)))]

    s.goods = [[0] * 6 for _ in range(n)]
    s.coins = [0] * n
    s.rep = [0] * n
    s.rep_sources = [[0] * NUM_SOURCES for _ in range(n)]
    s.hand = [[s.artisan_deck.pop() for _ in range(variant.hand)] for _ in range(n)]
    s.fancy = [[] for _ in range(n)]  # dealt by P_DEAL_FANCY, after the Companion draft
    s.scored = [[] for _ in range(n)]
    s.reserved = [EMPTY] * n
    s.pos = [EMPTY] * n
    s.counters = [[0] * NUM_COUNTERS for _ in range(n)]
    s.turn = 0
    s.fired = 0
    s.end_triggered = False
    s.final_turns = -1
    s.over = False
    s.companion = [EMPTY] * n
    s.companion_uses = [0] * n
    s.companion_turn = [0] * n
    s.companion_offer = list(deal.companion_offer)
    offered = set(deal.companion_offer)
    s.companion_box = ([c for c in range(len(CATALOG.companions)) if c not in offered]
                       if options.companions else [])
    s.achievements = [[] for _ in range(n)]
    s.ench_removed = []
    s.rng = seed_state(0)
    s.cache = None
    s.first_player = 0
    s.current = 0
    s.stack = []
    return s


# ---------------------------------------------------------------- the deal as chance draws

SHOP, ARTISAN, FANCY, ENCHANTMENT, COMPANION, SEAT = range(6)
DRAW_KINDS = ("Shop", "Artisan Dragon", "Fancy Dragon", "Enchantment", "Companion", "seat")


class DealBuilder:
    """The deal drawn one card at a time, each uniformly from the cards still possible —
    the same distribution as ``draw_deal``'s shuffles: one Shop of each Good pile and four
    of the others, then the Shop deck's order; the Artisan Dragons left out, then the Artisan
    deck's order; the Fancy deck's; the Enchantment deck's; the Companions offered; and the
    first player, unless the options fix it. Decks are drawn from the top down. Why: a
    chance model (OpenSpiel) needs each random event as an explicit choice with its
    probability; ``outcomes_of`` gives the draws that build a given deal."""

    def __init__(self, options: Options) -> None:
        _check_options(options)
        self.options = options
        n = options.players
        self.plan: list[tuple[int, int, str]] = []  # (kind, how many, where they go)
        takes = pile_takes(options)
        for index, take in enumerate(takes):
            self.plan.append((SHOP, take, f"pile{index}"))
        self.plan.append((SHOP, sum(takes), "shop_deck"))
        per_type = removed_per_type(options)
        self.pool = artisan_pool(options)
        for index in range(6):
            self.plan.append((ARTISAN, per_type, f"type{index}"))
        self.plan.append((ARTISAN, sum(len(c) for c in self.pool) - 6 * per_type,
                          "artisan_deck"))
        self.plan.append((FANCY, len(fancy_pool(options)), "fancy_deck"))
        self.plan.append((ENCHANTMENT, len(enchantment_deck(options)), "ench_deck"))
        if options.companions:
            self.plan.append((COMPANION, companions_revealed(n), "companion_offer"))
        if options.first_player is None:
            self.plan.append((SEAT, 1, "first_player"))
        self.plan = [step for step in self.plan if step[1] > 0]
        self.drawn: dict[str, list[int]] = {target: [] for _, _, target in self.plan}
        self.step = 0

    @property
    def done(self) -> bool:
        return self.step >= len(self.plan)

    @property
    def kind(self) -> int:
        """What the next draw picks (``SHOP`` … ``SEAT``)."""
        return self.plan[self.step][0]

    def outcomes(self) -> list[int]:
        """The cards (catalog indices of the kind) or seats the next draw may pick, each as
        likely as the others."""
        target = self.plan[self.step][2]
        drawn = self.drawn[target]
        if target.startswith("pile"):
            pool = shop_piles()[int(target[4:])]
        elif target == "shop_deck":
            pool = [c for t, cards in self.drawn.items() if t.startswith("pile")
                    for c in cards]
        elif target.startswith("type"):
            pool = self.pool[int(target[4:])]
        elif target == "artisan_deck":
            out = {c for t, cards in self.drawn.items() if t.startswith("type") for c in cards}
            pool = [c for cards in self.pool for c in cards if c not in out]
        elif target == "fancy_deck":
            pool = fancy_pool(self.options)
        elif target == "ench_deck":
            pool = enchantment_deck(self.options)
        elif target == "companion_offer":
            pool = list(range(len(CATALOG.companions)))
        else:
            pool = list(range(self.options.players))
        taken = set(drawn)
        return sorted(c for c in pool if c not in taken)

    def draw(self, outcome: int) -> None:
        """Takes one outcome of the next draw (an error if it is not one of ``outcomes``)."""
        if self.done:
            raise FlamecraftError("the deal is complete: nothing more to draw")
        if outcome not in self.outcomes():
            raise FlamecraftError(f"{outcome} is not a possible {DRAW_KINDS[self.kind]} "
                                  f"for this draw")
        _, count, target = self.plan[self.step]
        self.drawn[target].append(outcome)
        if len(self.drawn[target]) == count:
            self.step += 1

    def start(self) -> GameStart:
        """The complete deal and first player as a game's start (what a record carries; the
        generator is a fresh one, as nothing after setup draws from it)."""
        if not self.done:
            raise FlamecraftError("the deal is not complete")
        d = self.drawn
        get = d.get
        deal = Deal(tuple(reversed(get("shop_deck", []))), tuple(
            c for i in range(6) for c in get(f"type{i}", [])),
            tuple(reversed(get("artisan_deck", []))), tuple(reversed(get("fancy_deck", []))),
            tuple(reversed(get("ench_deck", []))), tuple(get("companion_offer", [])))
        first = self.options.first_player
        return GameStart(deal, first if first is not None else d["first_player"][0],
                         seed_state(0))

    def game(self) -> GameState:
        """The game the complete deal sets up, waiting for its first setup decision."""
        return _started(self.options, self.start())

    def copy(self) -> DealBuilder:
        other = DealBuilder(self.options)
        other.step = self.step
        other.drawn = {t: cards[:] for t, cards in self.drawn.items()}
        return other


def outcomes_of(options: Options, deal: Deal, first_player: int) -> list[int]:
    """The draws that make ``DealBuilder`` build this deal and first player (say, the deal
    of a seed), in order: a seeded game as a chance history."""
    piles = shop_piles()
    out: list[int] = []
    for pile in piles:
        out.extend(c for c in deal.shop_deck if c in pile)
    out.extend(reversed(deal.shop_deck))
    for cards in artisan_pool(options):
        out.extend(c for c in deal.removed if c in cards)
    out.extend(reversed(deal.artisan_deck))
    out.extend(reversed(deal.fancy_deck))
    out.extend(reversed(deal.ench_deck))
    out.extend(deal.companion_offer)
    if options.first_player is None:
        out.append(first_player)
    return out
