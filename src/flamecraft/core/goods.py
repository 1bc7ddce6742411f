"""The six Goods, in the starter-Shop cycle order Bread → Meat → Iron → Potion → Crystal → Plant.

Goods are plain ints (0–5) everywhere in the engine so that states copy fast; this module owns
their names. Coins are not Goods: where an item may be a Good or a Coin, ``COIN`` (6) stands for
the Coin.
"""

from __future__ import annotations

from typing import Final

from .tr import N_, Translate, same

BREAD: Final = 0
MEAT: Final = 1
IRON: Final = 2
POTION: Final = 3
CRYSTAL: Final = 4
PLANT: Final = 5
COIN: Final = 6
NUM_GOODS: Final = 6
GOODS: Final = (BREAD, MEAT, IRON, POTION, CRYSTAL, PLANT)

GOOD_KEYS: Final = ("BREAD", "MEAT", "IRON", "POTION", "CRYSTAL", "PLANT")
GOOD_NAMES: Final = (N_("Bread"), N_("Meat"), N_("Iron"), N_("Potion"), N_("Crystal"),
                     N_("Plant"))
ITEM_NAMES: Final = (*GOOD_NAMES, N_("Coin"))

GOOD_BY_KEY: Final = {key: index for index, key in enumerate(GOOD_KEYS)}


def item_name(item: int, tr: Translate = same) -> str:
    """The display name of a Good (0–5) or of the Coin (6), in ``tr``'s language."""
    return tr(ITEM_NAMES[item])
