"""The six Goods, in the starter-Shop cycle order Bread → Meat → Iron → Potion → Crystal → Plant.

Goods are plain ints (0–5) everywhere in the engine so that states copy fast; this module owns
their names. Coins are not Goods: where an item may be a Good or a Coin, ``COIN`` (6) stands for
the Coin.
"""

from __future__ import annotations

BREAD, MEAT, IRON, POTION, CRYSTAL, PLANT = range(6)
COIN = 6
NUM_GOODS = 6
GOODS = (BREAD, MEAT, IRON, POTION, CRYSTAL, PLANT)

GOOD_KEYS = ("BREAD", "MEAT", "IRON", "POTION", "CRYSTAL", "PLANT")
GOOD_NAMES = ("Bread", "Meat", "Iron", "Potion", "Crystal", "Plant")
ITEM_NAMES = (*GOOD_NAMES, "Coin")

GOOD_BY_KEY = {key: index for index, key in enumerate(GOOD_KEYS)}


def item_name(item: int) -> str:
    """The display name of a Good (0–5) or of the Coin (6)."""
    return ITEM_NAMES[item]
