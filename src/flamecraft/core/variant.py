"""Research variants: named sets of parameters that shrink the game (``state.Variant``).

Why: tabular methods (CFR, exact exploitability) walk every history, and the real game has
about 10^100 deals before its first decision (docs/rl.md). A variant keeps the rules' turn —
visit a Shop, Gather or Enchant, place, fire up, use the Shop's ability — and shrinks what
multiplies the tree: the cards in each deck, the Shops, the hands and rows, the number of
turns. **A variant is not the rules**: ``RULES`` (every default) is the normal game, whose
options, saved games and behaviour are exactly as without variants. Bad parameters are
refused by name with a ``FlamecraftError``.
"""

from __future__ import annotations

from typing import Any, Final

from .errors import FlamecraftError
from .state import RULES, Variant
from .tr import N_

# Each parameter's smallest and largest value; the largest is the rules' own number (but
# ``turns``, whose rules' value 0 means "no turn limit").
RANGES: Final[dict[str, tuple[int, int]]] = {
    "turns": (0, 200),
    "starters": (1, 6),
    "shop_deck": (0, 10),
    "artisans": (1, 36),
    "hand": (0, 3),
    "park": (0, 5),
    "row": (0, 5),
    "fancies": (0, 36),
    "enchantments": (0, 18),
}
PARAMETERS: Final[tuple[str, ...]] = tuple(RANGES)

# Named variants. "tiny" is small enough for OpenSpiel's full-tree CFR and exploitability at
# 2 players with a fixed first player (docs/rl.md, "Small variants"): two starter Shops, four
# Artisan Dragons (one in each hand, one in the Park, one in the deck), two Enchantments in
# the row, no Fancy Dragons, and one turn each.
VARIANTS: Final[dict[str, Variant]] = {
    "rules": RULES,
    "tiny": Variant(turns=2, starters=2, shop_deck=0, artisans=4, hand=1, park=1, row=2,
                    fancies=0, enchantments=2),
    "small": Variant(turns=4, starters=3, shop_deck=0, artisans=6, hand=1, park=1, row=2,
                     fancies=0, enchantments=3),
}


def _bad(msgid: str, **params: object) -> FlamecraftError:
    return FlamecraftError(msgid, {k: str(v) for k, v in params.items()})


def variant_of(spec: Any) -> Variant:
    """A variant from a ``Variant``, a name of ``VARIANTS`` ("" is the rules), a spec string
    ``"tiny"`` / ``"turns=2,hand=1"`` / ``"tiny,turns=4"`` (a name first, then changes), or a
    mapping of parameters; unknown names, unknown parameters and values out of range are
    refused by name."""
    if isinstance(spec, Variant):
        check_variant(spec)
        return spec
    if spec is None:
        return RULES
    if isinstance(spec, str):
        base, changes = RULES, {}
        for number, part in enumerate(p.strip() for p in spec.split(",")):
            if not part:
                continue
            if "=" not in part:
                if number:
                    raise _bad(N_("a variant's name comes first: {part} after changes"),
                               part=repr(part))
                base = _named(part)
                continue
            key, _, value = part.partition("=")
            try:
                changes[key.strip()] = int(value)
            except ValueError:
                raise _bad(N_("variant parameter {name} must be a whole number, not {value}"),
                           name=key.strip(), value=repr(value.strip())) from None
        return _changed(base, changes)
    if isinstance(spec, dict):
        return _changed(RULES, spec)
    raise _bad(N_("a variant is a name, a spec string or a mapping, not {spec}"),
               spec=repr(spec))


def _named(name: str) -> Variant:
    variant = VARIANTS.get(name)
    if variant is None:
        raise _bad(N_("unknown variant {name} (known: {known})"), name=repr(name),
                   known=", ".join(VARIANTS))
    return variant


def _changed(base: Variant, changes: dict[str, Any]) -> Variant:
    values = {name: getattr(base, name) for name in PARAMETERS}
    for key, value in changes.items():
        if key not in RANGES:
            raise _bad(N_("unknown variant parameter {name} (known: {known})"),
                       name=repr(key), known=", ".join(PARAMETERS))
        if isinstance(value, bool) or not isinstance(value, int):
            raise _bad(N_("variant parameter {name} must be a whole number, not {value}"),
                       name=key, value=repr(value))
        values[key] = value
    variant = Variant(**values)
    check_variant(variant)
    return variant


def check_variant(variant: Variant, players: int | None = None) -> None:
    """Raises a ``FlamecraftError`` naming the first parameter out of its range, or (with
    ``players``) a variant that cannot deal its hands and Park."""
    for name, (low, high) in RANGES.items():
        value = getattr(variant, name)
        if isinstance(value, bool) or not isinstance(value, int) or not low <= value <= high:
            raise _bad(N_("variant parameter {name} must be {low}–{high}, not {value}"),
                       name=name, low=low, high=high, value=repr(value))
    if players is not None and variant.artisans < RANGES["artisans"][1]:
        needed = players * variant.hand + variant.park
        if variant.artisans < needed:
            raise _bad(N_("variant: {artisans} Artisan Dragons cannot deal {players} hands of "
                          "{hand} and a Park of {park}"), artisans=variant.artisans,
                       players=players, hand=variant.hand, park=variant.park)


def variant_to_json(variant: Variant) -> dict[str, int]:
    """The parameters that differ from the rules (empty for the normal game)."""
    return {name: getattr(variant, name) for name in PARAMETERS
            if getattr(variant, name) != getattr(RULES, name)}


def variant_name(variant: Variant) -> str:
    """The variant as a spec string ``variant_of`` reads back: its name, or its changes."""
    for name, known in VARIANTS.items():
        if known == variant:
            return "" if name == "rules" else name
    return ",".join(f"{k}={v}" for k, v in variant_to_json(variant).items())
