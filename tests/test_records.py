"""Saved games do not depend on the card files (issue 20, part 4; docs/state-format.md, "The
game record" and "When the card data changes"): a record of version 3 carries its deal by card
ids and the card names its texts use, a seed deals over ``data/deal_order.toml``, and a web
game keeps its deal in the store. The card data is tried the way an owner of the box would
change it, in a copy that ``FLAMECRAFT_DATA`` names, replayed in a fresh interpreter
(tests/other_cards.py): every card file reordered, a card renamed, a reward corrected, a slot
corrected so that a recorded action is no longer legal, a Shop moved to another pile."""

from __future__ import annotations

import contextlib
import hashlib
import io
import json
import os
import random
import re
import shutil
import sqlite3
import subprocess
import sys
import tomllib
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

import fuzz
from flamecraft import legal_actions, start
from flamecraft.cli import main as cli_main
from flamecraft.core.board import CATALOG
from flamecraft.core.cards import DATA_FILES, build_catalog
from flamecraft.core.engine import apply_in_place, parse_action, text, to_act, winners
from flamecraft.core.errors import CardDataError, FlamecraftError, StateFormatError
from flamecraft.core.rng import below, seed_state
from flamecraft.core.serialize import (
    CARD_NAMES,
    RECORD_VERSION,
    GameRecord,
    dump_record,
    load_record,
    replay,
    state_to_json,
)
from flamecraft.core.setup_game import (
    Deal,
    DealBuilder,
    GameStart,
    outcomes_of,
    seeded_start,
    started_game,
)
from flamecraft.core.state import Options
from other_cards import outcome

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent
DATA = ROOT / "src" / "flamecraft" / "data"
# Every card file and the kind of its entries ("[[shop]]"); solo.toml's ratings must rise,
# so only its achievements are reordered.
CARD_FILES = {"artisans.toml": "artisan", "shops.toml": "shop",
              "enchantments.toml": "enchantment", "fancy.toml": "fancy",
              "companions.toml": "companion", "solo.toml": "achievement"}
KINDS = {"artisan": "artisans", "shop": "shops", "enchantment": "enchantments",
         "fancy": "fancy", "companion": "companions", "achievement": "achievements"}


# --- card data as an owner of the box would change it --------------------------------------

def _blocks(text: str) -> tuple[str, list[str]]:
    """A card file's head (comments, top-level keys) and its ``[[…]]`` entries, as text."""
    parts = re.split(r"(?m)^(?=\[\[)", text)
    return parts[0], [b if b.endswith("\n\n") else b + "\n" for b in parts[1:]]


def _kind(block: str) -> str:
    found = re.match(r"\[\[(\w+)\]\]", block)
    assert found
    return found.group(1)


def reverse_entries(text: str, kind: str) -> str:
    """The file with its entries of ``kind`` in reverse order, nothing else changed."""
    head, blocks = _blocks(text)
    mine = [b for b in blocks if _kind(b) == kind][::-1]
    return head + "".join(mine.pop(0) if _kind(b) == kind else b for b in blocks)


def data_copy(tmp_path: Path, name: str = "data") -> Path:
    folder = tmp_path / name
    shutil.copytree(DATA, folder)
    return folder


def reordered(tmp_path: Path) -> Path:
    """A copy of the package's data with the entries of every card file reversed."""
    folder = data_copy(tmp_path, "reordered")
    for file, kind in CARD_FILES.items():
        path = folder / file
        path.write_text(reverse_entries(path.read_text("utf-8"), kind), "utf-8")
    return folder


def edit_card(folder: Path, file: str, card_id: str, change: Callable[[str], str]) -> None:
    """Changes one entry of a card file (its text, through ``change``) in a data copy."""
    path = folder / file
    head, blocks = _blocks(path.read_text("utf-8"))
    found = [k for k, b in enumerate(blocks) if re.search(rf'(?m)^id = "{card_id}"$', b)]
    assert len(found) == 1, card_id
    before = blocks[found[0]]
    blocks[found[0]] = change(before)
    assert blocks[found[0]] != before, f"the change to {card_id} changed nothing"
    path.write_text(head + "".join(blocks), "utf-8")


def rename(folder: Path, file: str, card_id: str, name: str) -> None:
    edit_card(folder, file, card_id,
              lambda b: re.sub(r'(?m)^name = ".*"$', f'name = "{name}"', b, count=1))


# --- running with other card data ----------------------------------------------------------

def with_cards(data: Path, records: list[str], games: list[tuple[str, str]] | None = None,
               tmp: Path | None = None) -> dict[str, Any]:
    """What tests/other_cards.py prints when the catalog is read from ``data``."""
    job = (tmp or data.parent) / "job.json"
    job.write_text(json.dumps({"records": records, "games": games or []}), "utf-8")
    done = subprocess.run([sys.executable, str(HERE / "other_cards.py"), str(job)],
                          capture_output=True, text=True, cwd=HERE, timeout=600,
                          env={**os.environ, "FLAMECRAFT_DATA": str(data)})
    assert done.returncode == 0, done.stderr
    result: dict[str, Any] = json.loads(done.stdout)
    return result


def cli_with_cards(data: Path, *args: str) -> subprocess.CompletedProcess[str]:
    """``flamecraft ARGS`` run with the catalog read from ``data``."""
    return subprocess.run([sys.executable, "-m", "flamecraft", *args], capture_output=True,
                          text=True, timeout=600,
                          env={**os.environ, "FLAMECRAFT_DATA": str(data), "LC_ALL": "C"})


# --- the records replayed ------------------------------------------------------------------

def docs_record() -> str:
    """The example record of docs/state-format.md (the repository's only record: there are
    no record files under docs/ or examples/)."""
    text = (ROOT / "docs" / "state-format.md").read_text("utf-8")
    blocks = [b for b in re.findall(r"```json\n(.*?)```", text, re.S)
              if '"flamecraft-record"' in b]
    assert len(blocks) == 1
    return str(blocks[0])


def demo_record(tmp_path: Path, *args: str) -> str:
    """The record ``flamecraft demo ARGS --record`` writes."""
    path = tmp_path / f"demo{len(list(tmp_path.glob('demo*')))}.json"
    with contextlib.redirect_stdout(io.StringIO()):
        assert cli_main(["demo", *args, "--record", str(path)]) == 0
    return path.read_text("utf-8")


DEMOS = [("--players", "2", "--seed", "5"), ("--players", "3", "--seed", "11", "--companions"),
         ("--players", "1", "--seed", "3", "--enchantments", "golden"),
         ("--players", "5", "--seed", "8", "--enchantments", "golden", "--companions")]
# Fuzz games at 1–5 players, both Enchantment decks, Companions on and off.
FUZZ = [(n, deck, companions) for n in range(1, 6) for deck in ("purple", "golden")
        for companions in (False, True)]


def fuzz_record(players: int, deck: str, companions: bool) -> GameRecord:
    seed = 40 + 10 * players + (deck == "golden") * 2 + companions
    return fuzz.play_checked(players, seed, deck, round_trip_every=0, companions=companions)


def older(record: GameRecord) -> str:
    """The record as version 2 wrote it: no deal, no names (its seed deals it)."""
    obj = record.to_json()
    del obj["deal"], obj["names"]
    return json.dumps({**obj, "version": 2})


# --- a record's deal -----------------------------------------------------------------------

def test_a_record_carries_its_deal_and_the_names_its_texts_use() -> None:
    """A record of version 3 writes the deal its seed dealt by card ids (the decks top last,
    the Park and the hands still on the Artisan deck, the row on the Enchantment deck), the
    first player and the generator, and the card names found in its texts; it reads back
    equal (``load(dump(r)) == r``, and writes the same again), and deals the game its seed
    starts."""
    for players, deck, companions in FUZZ[::3]:
        record = fuzz_record(players, deck, companions)
        obj = record.to_json()
        assert obj["version"] == RECORD_VERSION == 4
        start_ = seeded_start(record.options, record.seed)
        deal = obj["deal"]
        assert deal["shop_deck"] == [CATALOG.shops[c].id for c in start_.deal.shop_deck]
        assert deal["artisan_deck"] == [CATALOG.artisans[c].id for c in start_.deal.artisan_deck]
        assert deal["first_player"] == start_.first_player
        assert int(deal["rng"], 16) == start_.rng
        s = start(players, record.seed, deck, companions=companions)
        assert state_to_json(record.first_state()) == state_to_json(s)
        assert s.park == [CATALOG.artisan_by_id[a] for a in deal["artisan_deck"][-5:][::-1]]
        visited = {m.group(1) for a in record.actions if (m := re.match(r"visit (.*)", a))}
        assert visited and visited <= set(obj["names"]["shops"].values())
        said = " ".join(" ".join(record.actions).lower().split())
        written = [n for table in obj["names"].values() for n in table.values()]
        assert all(n.lower() in said for n in written)  # only the names the texts use
        assert len(written) < sum(len(table) for table in CARD_NAMES.values())
        loaded = load_record(dump_record(record))
        assert loaded == record
        assert dump_record(loaded) == dump_record(record)
        assert replay(loaded) == replay(record)


@pytest.mark.parametrize("version", [1, 2])
def test_older_records_read_as_before(version: int) -> None:
    """Versions 1 and 2 carry no deal: their seed deals them exactly as it always did (the
    game ``start`` plays from that seed), and written again they become the current version
    with that deal."""
    options = Options(2, "purple", (), False, 0 if version == 1 else None)
    s = start(2, 6, first_player=options.first_player)
    rng = random.Random(6)
    actions = []
    while not s.over:
        a = rng.choice(legal_actions(s))
        actions.append(text(s, a))
        apply_in_place(s, a)
    obj: dict[str, Any] = {"format": "flamecraft-record", "version": version, "seed": 6,
                           "actions": actions}
    obj["options"] = ({"players": 2} if version == 1
                      else {"players": 2, "deck": "purple", "names": [], "first_player": None})
    record = load_record(json.dumps(obj))
    assert record.start == seeded_start(options, 6)
    assert replay(record) == s
    again = json.loads(dump_record(record))
    assert again["version"] == RECORD_VERSION and replay(load_record(json.dumps(again))) == s


LEGACY = json.loads((Path(__file__).parent / "data" / "records_before_ruling_20.json")
                    .read_text(encoding="utf-8"))["games"]


@pytest.mark.parametrize("k", range(len(LEGACY)))
def test_a_record_made_before_ruling_20_plays_on_as_it_was(k: int) -> None:
    """Issue 21: a record of version 3 chosen under the old decision points (no `end turn`
    asked when nothing could be revealed, a placement skipped when nothing fitted, a reveal
    offered beside a lone action) reads as today's engine asks it, to the very state the old
    engine reached (its SHA-256, kept with the record) — or, when a reveal made beside a lone
    action no longer plays out the same, is refused in one sentence naming the action."""
    game = LEGACY[k]
    old = game["record"]
    assert old["version"] == 3
    if game["record"]["seed"] == 957:  # a reveal before a forced Gather, whose reward drew
        with pytest.raises(StateFormatError, match=r"action 206 \('place Cookie"):
            load_record(json.dumps(old))  # the dragon then placed: no longer the same turn
        return
    record = load_record(json.dumps(old))
    assert len(record.actions) >= len(old["actions"])  # the decisions asked alone answered
    final = json.dumps(state_to_json(replay(record)), sort_keys=True)
    assert hashlib.sha256(final.encode()).hexdigest() == game["final_state_sha256"]
    again = load_record(dump_record(record))  # written again: version 4, read as it is
    assert json.loads(dump_record(record))["version"] == RECORD_VERSION == 4
    assert again.actions == record.actions


def test_the_deal_decides_not_the_seed() -> None:
    """A record of version 3 is dealt from its deal: with another seed written in it, it
    replays the same game (the seed still seeds what derives from it: bots, hints,
    reviews)."""
    record = fuzz_record(3, "purple", True)
    obj = record.to_json()
    other = load_record(json.dumps({**obj, "seed": record.seed + 1}))
    assert other.start == record.start and replay(other) == replay(record)


def _start_of(obj: dict[str, Any]) -> GameStart:
    """A record's deal by ids as a start, unchecked (to give the chance model the same)."""
    def ids(table: dict[str, int], key: str) -> tuple[int, ...]:
        return tuple(table[i] for i in obj[key])
    deal = Deal(ids(CATALOG.shop_by_id, "shop_deck"),
                ids(CATALOG.artisan_by_id, "artisans_removed"),
                ids(CATALOG.artisan_by_id, "artisan_deck"), ids(CATALOG.fancy_by_id, "fancy_deck"),
                ids(CATALOG.enchantment_by_id, "enchantment_deck"),
                ids(CATALOG.companion_by_id, "companion_offer"))
    return GameStart(deal, obj["first_player"], int(obj["rng"], 16))


def chance_model_builds(options: Options, start_: GameStart) -> bool:
    """Whether OpenSpiel's chance nodes (``DealBuilder``) can draw exactly this start."""
    builder = DealBuilder(options)
    try:
        for draw in outcomes_of(options, start_.deal, start_.first_player):
            builder.draw(draw)
    except FlamecraftError:
        return False
    if not builder.done:
        return False
    built = builder.start()
    return (built.deal, built.first_player) == (start_.deal, start_.first_player)


CHANCE_CASES = [Options(1, "golden", (), False, None), Options(2, "purple", (), True, None),
                Options(3, "golden", (), True, 2), Options(5, "purple", (), False, None)]


@pytest.mark.parametrize("options", CHANCE_CASES)
def test_record_deals_and_chance_deals_are_the_same_deals(options: Options) -> None:
    """A record's deal is a deal of the chance model: drawing it through ``DealBuilder``
    sets up the game the record starts from; and a deal the chance nodes draw at random can
    be written in a record, which reads back and starts that game."""
    for seed in range(3):
        record = GameRecord(options, seed)
        assert chance_model_builds(options, record.start)
        built = DealBuilder(options)
        for draw in outcomes_of(options, record.start.deal, record.start.first_player):
            built.draw(draw)
        game = built.game()
        game.rng = record.start.rng
        assert state_to_json(game) == state_to_json(started_game(options, record.start))
    rng = seed_state(99)
    for _ in range(3):
        builder = DealBuilder(options)
        while not builder.done:
            outcomes = builder.outcomes()
            k, rng = below(rng, len(outcomes))
            builder.draw(outcomes[k])
        record = GameRecord(options, 0, deal=builder.start())
        loaded = load_record(dump_record(record))
        assert loaded == record
        assert state_to_json(loaded.first_state()) == state_to_json(
            start_from_builder(builder))


def start_from_builder(builder: DealBuilder) -> Any:
    from flamecraft.core.engine import advance

    s = builder.game()
    advance(s)
    return s


def _deal_change(name: str, obj: dict[str, Any]) -> dict[str, Any]:
    """One way a deal can fail to fit the cards (``name``), applied to a copy of ``obj``."""
    d: dict[str, Any] = json.loads(json.dumps(obj))
    deal = d["deal"]
    if name == "twice":
        deal["fancy_deck"][0] = deal["fancy_deck"][-1]
    elif name == "lacks":
        deal["fancy_deck"].pop()
    elif name == "starter":
        deal["shop_deck"][0] = "critical-rolls"
    elif name == "pile":  # a Good-pile Shop swapped for an undealt one of another Good pile
        first = next(s for s in deal["shop_deck"] if CATALOG.shops[CATALOG.shop_by_id[s]].pile < 6)
        pile = CATALOG.shops[CATALOG.shop_by_id[first]].pile
        other = next(c.id for c in CATALOG.shops if not c.starter and c.pile not in (pile, 6)
                     and c.id not in deal["shop_deck"])
        deal["shop_deck"][deal["shop_deck"].index(first)] = other
    elif name == "deck":
        golden = next(c.id for c in CATALOG.enchantments if c.deck == 1)
        deal["enchantment_deck"][0] = golden
    elif name == "removed":  # a removed Meat dragon swapped for a dealt dragon of another type
        removed = deal["artisans_removed"]

        def kind(dragon: str) -> int:
            return CATALOG.artisans[CATALOG.artisan_by_id[dragon]].type
        kept = next(a for a in deal["artisan_deck"] if kind(a) != kind(removed[0]))
        deal["artisan_deck"][deal["artisan_deck"].index(kept)] = removed[0]
        removed[0] = kept
    elif name == "companions":
        deal["companion_offer"].pop()
    elif name == "seat":
        deal["first_player"] = 7
    elif name == "fixed":
        d["options"]["first_player"] = 1 - deal["first_player"]
    return d


DEAL_CHANGES = {"twice": "the Fancy Dragon '", "lacks": "the Fancy deck lacks the Fancy Dragon '",
                "starter": "the Shop 'critical-rolls' cannot be in the Shop deck",
                "pile": "the Shop deck holds ", "deck": "cannot be in the Enchantment deck",
                "removed": "the Artisan Dragons left out hold ",
                "companions": "it offers 2 Companions, not 3",
                "seat": "the deal's first player must be a seat from 0 to 1, not 7",
                "fixed": "but the options fix seat"}


@pytest.mark.parametrize("change", list(DEAL_CHANGES))
def test_a_deal_that_does_not_fit_the_cards_is_refused_as_the_chance_model_refuses_it(
        change: str) -> None:
    """A deal the cards cannot have (a card twice or missing, a starter Shop or a Golden
    Enchantment in a deck, two Shops of one pile, the wrong dragons left out or Companions
    offered, a first player who is not a seat or not the fixed one) is refused when the
    record is read, in one sentence naming the first card out of place; the chance nodes
    cannot draw it either, and the good one they can."""
    record = GameRecord(Options(2, "purple", (), True, None), 12)
    obj = record.to_json()
    assert chance_model_builds(record.options, record.start)
    bad = _deal_change(change, obj)
    with pytest.raises(StateFormatError) as info:
        load_record(json.dumps(bad))
    message = str(info.value)
    assert DEAL_CHANGES[change] in message and "\n" not in message
    assert message.startswith(("the deal does not fit the card data: ", "the deal's first"))
    options = Options(2, "purple", (), True, bad["options"]["first_player"])
    assert not chance_model_builds(options, _start_of(bad["deal"]))


# --- the deal order and the data folder ---------------------------------------------------

def _files(folder: Path = DATA) -> dict[str, tuple[str, dict[str, Any]]]:
    return {key: (name, tomllib.loads((folder / name).read_text("utf-8")))
            for key, name in DATA_FILES.items()}


def test_a_seed_deals_over_deal_order_and_a_card_it_does_not_list_after_it() -> None:
    """The deal order is ``deal_order.toml``'s (today the files' own order, so every seed
    deals as it always did); a card it does not list, added later, comes after the listed ones
    (by id), and a listed id that is no longer a card is skipped; a kind it does not know or
    an id listed twice is refused, naming the file and the list."""
    assert list(CATALOG.deal_shops) == list(range(len(CATALOG.shops)))
    assert list(CATALOG.deal_fancies) == list(range(len(CATALOG.fancies)))
    files = _files()
    order = files["deal_order"][1]
    order["fancy"] = [i for i in order["fancy"] if i != "no-vacancy"] + ["not-a-card"]
    built = build_catalog(files)
    assert [built.fancies[i].id for i in built.deal_fancies] == [
        i for i in order["fancy"] if i != "not-a-card"] + ["no-vacancy"]
    for key, value, words in (("fancies", [], "unknown kind"),
                              ("shops", ["fogo-de-char", "fogo-de-char"], "twice")):
        files = _files()
        files["deal_order"][1][key] = value
        with pytest.raises(CardDataError) as info:
            build_catalog(files)
        assert "deal_order.toml" in str(info.value) and words in str(info.value)


def test_the_catalog_reads_the_folder_flamecraft_data_names(tmp_path: Path) -> None:
    """``FLAMECRAFT_DATA`` names the folder the catalog is read from (it is read once, when
    the catalog loads); a folder without the card files is refused naming the missing file."""
    folder = data_copy(tmp_path)
    rename(folder, "shops.toml", "fogo-de-char", "Fogo de Chão")
    env = {**os.environ, "FLAMECRAFT_DATA": str(folder)}
    code = ("from flamecraft.core.board import CATALOG; "
            "print(CATALOG.shops[CATALOG.shop_by_id['fogo-de-char']].name)")
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                          env=env, timeout=120)
    assert done.returncode == 0 and done.stdout.strip() == "Fogo de Chão", done.stderr
    empty = tmp_path / "empty"
    empty.mkdir()
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                          env={**env, "FLAMECRAFT_DATA": str(empty)}, timeout=120)
    assert done.returncode != 0
    assert f"{empty / 'artisans.toml'}: card '-': field '-': file not found" in done.stderr


# --- the card files reordered --------------------------------------------------------------

def test_the_reordered_copy_reverses_every_card_file_and_changes_no_card(
        tmp_path: Path) -> None:
    """The harness is sound: in the copy every card file lists its entries in reverse, and
    each entry is the same table as before."""
    folder = reordered(tmp_path)
    for file, kind in CARD_FILES.items():
        before = tomllib.loads((DATA / file).read_text("utf-8"))
        after = tomllib.loads((folder / file).read_text("utf-8"))
        assert after[kind] == before[kind][::-1]
        assert {k: v for k, v in after.items() if k != kind} == {
            k: v for k, v in before.items() if k != kind}


def test_reordered_card_files_change_no_saved_game(tmp_path: Path) -> None:
    """Issue 20, part 4: with every card file reversed, every record replays to the same
    game: the docs' example record, ``demo --record`` records, fuzz games at 1–5 players
    with both decks and Companions on and off (and, for each, the same game written by
    version 2, without its deal, which its seed deals over deal_order.toml), and a record
    whose seed was edited (its deal decides)."""
    records = [docs_record(), *(demo_record(tmp_path, *args) for args in DEMOS)]
    games = [fuzz_record(*case) for case in FUZZ]
    records += [dump_record(r) for r in games] + [older(r) for r in games]
    obj = games[7].to_json()
    records.append(json.dumps({**obj, "seed": obj["seed"] + 1000}))
    expected = [outcome(r) for r in records]
    assert all("state" in e for e in expected)
    got = with_cards(reordered(tmp_path), records)
    assert got["catalog"]["shops"] == [c.id for c in CATALOG.shops][::-1]
    assert got["catalog"]["fancy"] == [c.id for c in CATALOG.fancies][::-1]
    assert got["catalog"]["achievements"] == [c.id for c in CATALOG.achievements][::-1]
    for k, (want, found) in enumerate(zip(expected, got["records"], strict=True)):
        assert found == want, f"record {k} replays differently with the files reordered"


def test_flamecraft_replay_of_a_demo_record_with_the_files_reordered(tmp_path: Path) -> None:
    """The issue's own steps: ``demo --record``, reverse the card files, ``flamecraft
    replay``: it replays (it used to fail at action 1) and prints what it printed before."""
    path = tmp_path / "game.record.json"
    path.write_text(demo_record(tmp_path, "--players", "3", "--seed", "11", "--companions"),
                    "utf-8")
    same = cli_with_cards(DATA, "replay", "--verbose", str(path))
    moved = cli_with_cards(reordered(tmp_path), "replay", "--verbose", str(path))
    assert same.returncode == moved.returncode == 0, moved.stderr
    assert moved.stdout == same.stdout and "Winner" in moved.stdout


# --- a stored web game ---------------------------------------------------------------------

def _server() -> Any:
    if not os.environ.get("CI"):  # in CI the web extra is installed: a missing one fails
        pytest.importorskip("fastapi", reason="the web extra is not installed")
    import test_server_api

    return test_server_api


def _finished_games(tmp_path: Path) -> tuple[str, list[str]]:
    """Two bot games played to the end by a server with the package's cards; its database
    URL and the games' ids."""
    api = _server()
    ids = []
    with api.client_for(api.settings(tmp_path)) as c:
        for kinds, body in (("random,random,random", {"seed": 2}),
                            (",".join(["random"] * 5), {"seed": 7, "deck": "golden",
                                                        "companions": True})):
            game = api.new_game(c, kinds, **body)
            with c.websocket_connect(api.ws_url(game)) as ws:
                msg = api.next_state(ws)
                while msg.get("status") != "finished":
                    msg = api.next_state(ws)
            ids.append(game["game_id"])
    return f"sqlite:///{tmp_path / 'games.sqlite3'}", ids


def test_a_stored_game_reads_back_with_the_card_files_reordered(tmp_path: Path) -> None:
    """A web game stored by a server with the package's cards is read back, by the server's
    own loading, as the same game with every card file reversed; its record has the same
    deal. So does a game stored before the store kept deals (its row without one: its seed
    deals it)."""
    url, ids = _finished_games(tmp_path)
    legacy = tmp_path / "legacy.sqlite3"
    with sqlite3.connect(tmp_path / "games.sqlite3") as conn:
        conn.execute("PRAGMA wal_checkpoint(TRUNCATE)")
    shutil.copy(tmp_path / "games.sqlite3", legacy)
    with sqlite3.connect(legacy) as conn:
        conn.execute("UPDATE flamecraft_games SET setup = NULL")
    from other_cards import stored

    expected = [stored(url, i) for i in ids]
    assert all("state" in e for e in expected)
    assert expected[0]["state"]["over"] and expected[1]["state"]["options"]["companions"]
    games = [(url, i) for i in ids] + [(f"sqlite:///{legacy}", i) for i in ids]
    got = with_cards(reordered(tmp_path), [], games)["games"]
    for want, found in zip(expected + expected, got, strict=True):
        assert found["state"] == want["state"]
        assert found["record"]["deal"] == want["record"]["deal"]
        assert found["record"]["actions"] == want["record"]["actions"]


def test_a_database_of_schema_1_gains_the_setup_column(tmp_path: Path) -> None:
    """A database written before deals were stored (schema 1) is brought to today's schema
    (2 added the setup column, 3 the table chat) when it opens; its games keep no deal and
    are dealt from their seed, as they were."""
    _server()
    from flamecraft.server.store import SCHEMA, SCHEMA_VERSION, open_store
    from flamecraft.server.table import Table

    db = tmp_path / "old.sqlite3"
    s = start(2, 31)
    texts = []
    rng = random.Random(31)
    for _ in range(30):
        a = rng.choice(legal_actions(s))
        texts.append((to_act(s), text(s, a)))
        apply_in_place(s, a)
    with sqlite3.connect(db) as conn:
        for statement in SCHEMA:  # the schema-1 tables: the games' table without setup
            conn.execute(statement.replace(",\n        setup TEXT)", ")"))
        conn.execute("INSERT INTO flamecraft_meta VALUES ('schema_version', '1')")
        conn.execute("INSERT INTO flamecraft_games VALUES ('g', 'old', ?, 31, ?, 'running', ?, "
                     "0, 0, NULL, NULL)",
                     ('{"players":2,"deck":"purple","names":[],"companions":false,'
                      '"first_player":null}',
                      '[{"name":"P1","kind":"human"},{"name":"P2","kind":"human"}]', len(texts)))
        for seq, (seat, said) in enumerate(texts):
            conn.execute("INSERT INTO flamecraft_actions VALUES ('g', ?, ?, ?, ?, 0)",
                         (seq, seat, said, seq + 1))
    store = open_store(f"sqlite:///{db}")
    try:
        row, actions = store.load_with_actions("g")
    finally:
        store.close()
    assert row is not None and row.setup is None
    with sqlite3.connect(db) as conn:
        assert conn.execute("SELECT value FROM flamecraft_meta").fetchone() == (
            str(SCHEMA_VERSION),)
        assert "setup" in [r[1] for r in conn.execute("PRAGMA table_info(flamecraft_games)")]
    assert Table(row, actions).state == s


# --- the card data corrected ---------------------------------------------------------------

def test_a_renamed_card_still_reads_in_the_name_its_record_used(tmp_path: Path) -> None:
    """A corrected name (the id unchanged): a record of version 3 reads its texts in the
    names it was written with and replays the same game; written by version 2 (no names),
    the same game is refused at the first action that names a renamed card."""
    record = fuzz_record(3, "purple", True)
    shop = next(a[len("visit "):] for a in record.actions if a.startswith("visit "))
    companion = next(a[len("take "):] for a in record.actions if a.startswith("take "))
    folder = data_copy(tmp_path)
    shop_id = next(c.id for c in CATALOG.shops if c.name == shop)
    companion_id = next(c.id for c in CATALOG.companions if c.name == companion)
    rename(folder, "shops.toml", shop_id, "Corrected Shop")
    rename(folder, "companions.toml", companion_id, "Corrected Companion")
    got = with_cards(folder, [dump_record(record), older(record)])["records"]
    assert got[0] == outcome(dump_record(record))
    first = next(k for k, a in enumerate(record.actions, 1) if shop in a or companion in a)
    assert got[1]["error"].startswith(
        f"action {first} ({record.actions[first - 1]!r}) is not legal at its point of the "
        "game: ")


def test_two_cards_that_swap_names_still_read_as_their_record_meant(tmp_path: Path) -> None:
    """Two Shops whose names are swapped by a correction: a record's "visit A" still means
    the Shop that was called A when it was written (it reads its texts in its own names
    first), so it replays the same game."""
    record = fuzz_record(4, "golden", False)
    visited = list(dict.fromkeys(a[len("visit "):] for a in record.actions
                                 if a.startswith("visit ")))
    first, second = (next(c for c in CATALOG.shops if c.name == name) for name in visited[:2])
    folder = data_copy(tmp_path)
    rename(folder, "shops.toml", first.id, second.name)
    rename(folder, "shops.toml", second.id, first.name)
    got = with_cards(folder, [dump_record(record)])["records"]
    assert got == [outcome(dump_record(record))]


def _caster(record: GameRecord, said: str) -> tuple[int, int]:
    """The seat that chose the action ``said`` and how many times it was chosen."""
    s = record.first_state()
    seat, count = -1, 0
    for typed in record.actions:
        if typed == said:
            seat, count = to_act(s), count + 1
        apply_in_place(s, parse_action(s, typed))
    return seat, count


def test_a_corrected_card_replays_with_the_correction(tmp_path: Path) -> None:
    """A corrected reward (an Enchantment's Reputation, its id unchanged): the record
    replays with the corrected card — the caster has 3 Reputation more from Enchantments
    per cast — and ``flamecraft replay`` says that the result differs from the recorded one
    rather than passing it silently."""
    record = fuzz_record(2, "purple", False)
    final = replay(record)
    record.result = {"reputation": final.rep, "winners": winners(final), "turns": final.turn}
    cast = next(a for a in record.actions
                if a.startswith("cast ") and " with " not in a)
    card = next(c for c in CATALOG.enchantments if c.name == cast[len("cast "):])
    seat, times = _caster(record, cast)
    folder = data_copy(tmp_path)
    edit_card(folder, "enchantments.toml", card.id,
              lambda b: re.sub(r"reward = \{ rep = (\d+)",
                               lambda m: f"reward = {{ rep = {int(m.group(1)) + 3}", b))
    before = outcome(dump_record(record))["state"]["players"][seat]
    after = with_cards(folder, [dump_record(record)])["records"][0]["state"]["players"][seat]
    assert times >= 1
    assert (after["reputation_sources"]["enchantments"]
            == before["reputation_sources"]["enchantments"] + 3 * times)
    path = tmp_path / "game.record.json"
    path.write_text(dump_record(record), "utf-8")
    done = cli_with_cards(folder, "replay", str(path))
    assert done.returncode == 1
    assert "the replayed result differs from the recorded one" in done.stderr


def test_an_action_no_longer_legal_is_refused_in_one_sentence_and_nothing_is_written(
        tmp_path: Path) -> None:
    """A corrected slot (it no longer takes the dragon a recorded action placed there):
    ``flamecraft replay`` refuses the record in one sentence naming the first action that
    fails — its number and text — and why (who was choosing what, and what was legal);
    it prints nothing else and changes no file. The actions before it replay."""
    record = fuzz_record(3, "golden", False)
    placed = next(a for a in record.actions if re.match(r"place .* on .* slot \d$", a))
    found = re.match(r"place (.*) on (.*) slot (\d)$", placed)
    assert found
    dragon = next(c for c in CATALOG.artisans if c.name == found.group(1))
    shop = next(c for c in CATALOG.shops if c.name == found.group(2))
    slot = int(found.group(3)) - 1
    other = next(g for g in ("BREAD", "MEAT", "IRON", "POTION", "CRYSTAL", "PLANT")
                 if g != ("BREAD", "MEAT", "IRON", "POTION", "CRYSTAL", "PLANT")[dragon.type])
    folder = data_copy(tmp_path)
    out = tmp_path / "out"
    out.mkdir()

    def narrow(block: str) -> str:
        spans = list(re.finditer(r"accepts = \[[^\]]*\]", block))
        m = spans[slot]
        return block[:m.start()] + f'accepts = ["{other}"]' + block[m.end():]
    edit_card(folder, "shops.toml", shop.id, narrow)
    path = out / "game.record.json"
    path.write_text(dump_record(record), "utf-8")
    before = path.read_bytes()
    done = cli_with_cards(folder, "replay", "--verbose", str(path))
    assert done.returncode == 1 and done.stdout == ""
    lines = done.stderr.splitlines()
    assert len(lines) == 1
    m = re.match(rf"flamecraft: {re.escape(str(path))}: action (\d+) \('(.*?)'\) is not legal "
                 r"at its point of the game: P\d is choosing .+; legal: .+$", lines[0])
    assert m, lines[0]
    number = int(m.group(1))
    assert number <= record.actions.index(placed) + 1
    assert m.group(2) == record.actions[number - 1]
    assert path.read_bytes() == before
    assert [p.name for p in out.iterdir()] == ["game.record.json"]
    head = GameRecord(record.options, record.seed, record.actions[:number - 1])
    got = with_cards(folder, [dump_record(record), dump_record(head)])["records"]
    assert got[0]["error"] == lines[0].split(f"{path}: ", 1)[1]
    assert "state" in got[1]


def test_a_deal_that_no_longer_fits_is_refused_in_one_sentence(tmp_path: Path) -> None:
    """A Shop of the record's Shop deck moved to another pile (its icon corrected): its deal
    no longer fits the cards, and ``flamecraft replay`` says so in one sentence, printing
    nothing."""
    record = fuzz_record(2, "golden", True)
    dealt = next(CATALOG.shops[c] for c in record.start.deal.shop_deck
                 if CATALOG.shops[c].pile < 6)
    goods = ("BREAD", "MEAT", "IRON", "POTION", "CRYSTAL", "PLANT")
    other = goods[(dealt.pile + 1) % 6]
    folder = data_copy(tmp_path)
    edit_card(folder, "shops.toml", dealt.id,
              lambda b: re.sub(r'(?m)^icon = "\w+"$', f'icon = "{other}"', b, count=1))
    path = tmp_path / "game.record.json"
    path.write_text(dump_record(record), "utf-8")
    done = cli_with_cards(folder, "replay", str(path))
    assert done.returncode == 1 and done.stdout == ""
    lines = done.stderr.splitlines()
    assert len(lines) == 1
    assert lines[0].startswith(f"flamecraft: {path}: the deal does not fit the card data: "
                               "the Shop deck holds ")


def test_a_web_game_stored_before_ruling_20_is_stored_again_as_it_is_asked_now(
        tmp_path: Path) -> None:
    """Issue 21: a running web game stored under the old decision points (its setup without
    ``rules``; here, a schema-1 row, without a deal either) is read as today's engine asks
    it when the server first loads it — to the state the old engine reached — and stored
    again so: its rows numbered anew, ``rules`` 2 in its setup, its version bumped. A second
    load reads it as it is."""
    api = _server()
    from flamecraft.server.store import SCHEMA, open_store

    game = next(g for g in LEGACY if g["record"]["options"]["players"] > 1
                and "result" not in g["record"] and len(g["record"]["actions"]) > 60)
    old = game["record"]
    db = tmp_path / "games.sqlite3"
    with sqlite3.connect(db) as conn:
        for statement in SCHEMA:
            conn.execute(statement)
        conn.execute("INSERT INTO flamecraft_meta VALUES ('schema_version', '2')")
        seats = json.dumps([{"name": f"P{p + 1}", "kind": "human"}
                            for p in range(old["options"]["players"])])
        conn.execute("INSERT INTO flamecraft_games VALUES ('g0000000000000000000000a', 'old', "
                     "?, ?, ?, 'running', ?, 0, 0, NULL, NULL, NULL)",
                     (json.dumps(old["options"]), old["seed"], seats, len(old["actions"])))
        for seq, said in enumerate(old["actions"], 1):
            conn.execute("INSERT INTO flamecraft_actions VALUES ('g0000000000000000000000a', ?, "
                         "0, ?, ?, 0)", (seq, said, seq))
    gid = "g0000000000000000000000a"
    with api.client_for(api.settings(tmp_path)) as c:
        first = c.get(f"/api/games/{gid}")
        assert first.status_code == 200, first.text
    store = open_store(f"sqlite:///{db}")
    try:
        row, actions = store.load_with_actions(gid)
    finally:
        store.close()
    assert row is not None and row.setup is not None and row.setup["rules"] == 2
    assert row.version == len(old["actions"]) + 1
    record = load_record(json.dumps(old))
    assert [a.text for a in actions] == record.actions
    assert [a.seq for a in actions] == list(range(1, len(actions) + 1))
    from flamecraft.server.table import Table

    final = json.dumps(state_to_json(Table(row, actions).state), sort_keys=True)  # type: ignore[arg-type]
    assert hashlib.sha256(final.encode()).hexdigest() == game["final_state_sha256"]
    with api.client_for(api.settings(tmp_path)) as c:
        assert c.get(f"/api/games/{gid}").status_code == 200
    store = open_store(f"sqlite:///{db}")
    try:
        again, _ = store.load_with_actions(gid)
    finally:
        store.close()
    assert again is not None and again.version == row.version  # not stored a second time
