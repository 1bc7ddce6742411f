"""The documentation stays true to the code: the generated card list is current, and the
vocabularies the docs promise to list (primitives, measures, frames, modules, Sun reveal points)
are all there."""

from __future__ import annotations

import importlib.util
import json
import re
import shlex
import tomllib
from importlib import resources
from pathlib import Path
from typing import Any

import pytest

from flamecraft.core import cardtext, frames
from flamecraft.core.board import CATALOG
from flamecraft.core.cards import (
    COMPANION_HOOKS,
    DATA_FILES,
    MEASURES,
    OP_SCHEMA,
    ArtisanCard,
    EnchantmentCard,
    FancyCard,
    Op,
    ShopCard,
)
from flamecraft.core.kinds import FRAME_KINDS
from flamecraft.core.serialize import (
    RECORD_VERSION,
    STATE_VERSION,
    load_record,
    replay,
    state_to_json,
)
from flamecraft.display import carddocs
from helpers import A, do, fresh, give_fancy, set_goods, texts, to_hand, to_row

ROOT = Path(__file__).resolve().parents[1]
DOCS = ROOT / "docs"
SHIPPED_DATA = {name: tomllib.loads(resources.files("flamecraft.data").joinpath(
    file).read_text(encoding="utf-8")) for name, file in DATA_FILES.items()}


def _read(name: str) -> str:
    return (DOCS / name).read_text(encoding="utf-8")


# --- docs/cards.md ------------------------------------------------------------------------------

def test_cards_md_is_current() -> None:
    """docs/cards.md is exactly what `python -m flamecraft.display.carddocs` writes from the
    data."""
    assert _read("cards.md") == carddocs.render(), (
        "docs/cards.md is out of date: run `python -m flamecraft.display.carddocs`")
    assert carddocs.main(["--check"]) == 0


def test_carddocs_check_fails_on_a_stale_or_missing_file(tmp_path: Path) -> None:
    """`--check` exits 1 when the file is missing or differs, 0 once it has been written."""
    target, rules = tmp_path / "cards.md", tmp_path / "rules.md"
    rules.write_text(_read("rules.md"), "utf-8")
    args = ["--output", str(target), "--rules", str(rules)]
    assert carddocs.main(["--check", *args]) == 1
    target.write_text(carddocs.render().replace("Fogo de Char", "Fogo de Chair"), "utf-8")
    assert carddocs.main(["--check", *args]) == 1
    assert carddocs.main(args) == 0
    assert carddocs.main(["--check", *args]) == 0


def test_rules_md_companion_list_is_generated_from_the_data() -> None:
    """docs/rules.md's list of the Companions is what carddocs generates from the data (issue
    17: the hand-written one had fallen behind the balance changes), and it names each
    Companion's limits as the data sets them."""
    text = _read("rules.md")
    assert text == carddocs.render_rules(text)
    listed = text.split(carddocs.RULES_BEGIN, 1)[1].split(carddocs.RULES_END, 1)[0]
    for card in CATALOG.companions:
        line = next(x for x in listed.splitlines() if x.startswith(f"- **{card.name}**"))
        assert f"(`{card.hook}`, {carddocs._limit_words(card)})" in line
    assert "three times per game, at most once per turn" in listed  # Hardhat Hattie
    assert "twice per game" in listed and "twice per turn" in listed  # Old Bellows, Knick Knack


def test_carddocs_check_fails_on_a_stale_rules_page(tmp_path: Path) -> None:
    """`--check` exits 1 when the rules page's Companion list differs from the data or its
    markers are gone, 0 once it has been written."""
    cards, rules = tmp_path / "cards.md", tmp_path / "rules.md"
    cards.write_text(carddocs.render(), "utf-8")
    args = ["--output", str(cards), "--rules", str(rules)]
    stale = _read("rules.md").replace("three times per game", "twice per game")
    rules.write_text(stale, "utf-8")
    assert carddocs.main(["--check", *args]) == 1
    assert carddocs.main(args) == 0 and carddocs.main(["--check", *args]) == 0
    assert rules.read_text("utf-8") == _read("rules.md")
    rules.write_text(stale.replace(carddocs.RULES_END, ""), "utf-8")
    assert carddocs.main(["--check", *args]) == 1
    with pytest.raises(ValueError, match="markers"):
        carddocs.render_rules("no list here")


def test_cards_md_lists_every_card_with_its_provenance() -> None:
    """Every card id of the catalog appears in docs/cards.md, with its provenance level."""
    text = _read("cards.md")
    cards: list[ShopCard | ArtisanCard | EnchantmentCard | FancyCard] = [
        *CATALOG.shops, *CATALOG.artisans, *CATALOG.enchantments, *CATALOG.fancies]
    missing = [c.id for c in cards if f"`{c.id}`" not in text]
    assert not missing
    assert "Generated" in text.splitlines()[2] and "python -m flamecraft.display.carddocs" in text
    for shop in CATALOG.shops:
        section = text.split(f"#### {shop.name}\n", 1)[1].split("####", 1)[0]
        assert f"Provenance: **{shop.provenance.level}**" in section
        if shop.provenance.reason:
            assert shop.provenance.reason in section


def test_cards_md_lists_every_companion_achievement_and_rating() -> None:
    """docs/cards.md has a section for each Companion (its hook, text and provenance), a row for
    each solo achievement (its requirement and reward) and every title of the rating table."""
    text = _read("cards.md")
    companions = text.split("## Companions", 1)[1].split("\n## ", 1)[0]
    for card in CATALOG.companions:
        section = companions.split(f"#### {card.name}\n", 1)[1].split("####", 1)[0]
        assert f"`{card.id}`" in section and f"hook `{card.hook}`" in section
        assert card.text in section
        assert f"Provenance: **{card.provenance.level}**" in section
        assert card.provenance.reason in section
    solo = text.split("## Solo mode", 1)[1]
    for a in CATALOG.achievements:
        row = next(line for line in solo.splitlines() if f"`{a.id}`" in line)
        assert f"{a.measure}" in row and f"≥ {a.at_least}`" in row and f"{a.rep} Reputation" in row
    for lowest, title in CATALOG.ratings:
        assert re.search(rf"\| {lowest}(–\d+|\+) \| {re.escape(title)} \|", solo), title


def test_every_primitive_has_words() -> None:
    """The card texts (core/cardtext.py, which carddocs uses) can word every primitive of
    OP_SCHEMA (a new one must be given words)."""
    for name in OP_SCHEMA:
        params = {"cond": "lowest_rep"} if name == "if" else {}
        assert cardtext.op_words(CATALOG, Op(name, params))


# --- docs/adding-a-card.md and docs/card-data-format.md ------------------------------------------

def _table_rows(text: str) -> list[str]:
    return [line for line in text.splitlines() if line.startswith("|")]


def test_every_primitive_and_parameter_is_documented() -> None:
    """docs/adding-a-card.md has a table row for every primitive in cards.OP_SCHEMA, naming
    each of its parameters."""
    rows = {}
    for row in _table_rows(_read("adding-a-card.md")):
        match = re.match(r"\| `([a-z_]+)` \|", row)
        if match:
            rows[match.group(1)] = row
    for name, params in OP_SCHEMA.items():
        assert name in rows, f"primitive {name!r} is not documented in docs/adding-a-card.md"
        for param in params:
            assert f"`{param}`" in rows[name], f"{name}: parameter {param!r} is not documented"


def test_card_data_format_examples_are_the_shipped_entries() -> None:
    """Each card shown in docs/card-data-format.md's TOML examples is its entry in the data:
    every field shown has the shipped value (a text may stop at "...")."""
    shipped = {(key, card["id"]): card for data in SHIPPED_DATA.values()
               for key, cards in data.items() if isinstance(cards, list)
               for card in cards if isinstance(card, dict) and "id" in card}
    shown = 0
    for block in re.findall(r"```toml\n(.*?)```", _read("card-data-format.md"), re.S):
        try:
            example = tomllib.loads(block)
        except tomllib.TOMLDecodeError:
            continue  # a list of alternative lines, not an entry
        for key, cards in example.items():
            for card in cards if isinstance(cards, list) else []:
                if "id" not in card:
                    continue
                real = shipped[key, card["id"]]
                for field, value in card.items():
                    if isinstance(value, str) and value.endswith("..."):
                        assert str(real.get(field, "")).startswith(value[:-3].rstrip(" ;")), (
                            card["id"], field)
                    elif value != "...":
                        assert real.get(field) == value, (card["id"], field)
                shown += 1
    assert shown >= 6


def test_every_companion_hook_is_documented() -> None:
    """docs/card-data-format.md's hook table names every hook in cards.COMPANION_HOOKS, and
    carddocs words each one."""
    rows = "\n".join(_table_rows(_read("card-data-format.md")))
    missing = [h for h in COMPANION_HOOKS if f"| `{h}` |" not in rows]
    assert not missing, f"hooks missing from docs/card-data-format.md: {missing}"
    assert set(carddocs.HOOK_WORDS) == set(COMPANION_HOOKS)


def test_every_measure_is_documented() -> None:
    """docs/card-data-format.md's measure table names every measure in cards.MEASURES."""
    rows = "\n".join(_table_rows(_read("card-data-format.md")))
    missing = [m for m in MEASURES if f"`{m}`" not in rows]
    assert not missing, f"measures missing from docs/card-data-format.md: {missing}"


# --- docs/state-format.md and docs/architecture.md -----------------------------------------------

def test_state_format_names_every_frame_kind() -> None:
    """docs/state-format.md lists every stack frame name that serialize.py writes."""
    text = _read("state-format.md")
    missing = [kind.name for kind in FRAME_KINDS.values() if f"`{kind.name}`" not in text]
    assert not missing


def test_architecture_maps_every_module() -> None:
    """docs/architecture.md's module map has a row for every module in src/flamecraft and in
    its rules core, src/flamecraft/core (named ``core/engine.py`` there)."""
    rows = "\n".join(_table_rows(_read("architecture.md")))
    package = ROOT / "src" / "flamecraft"
    modules = sorted([p.name for p in package.glob("*.py")]
                     + [f"core/{p.name}" for p in (package / "core").glob("*.py")])
    missing = [m for m in modules if f"`{m}`" not in rows]
    assert not missing, f"modules missing from the map in docs/architecture.md: {missing}"


def _matches(shown: Any, real: Any, where: str = "state") -> None:
    """The doc's example agrees with the real value: a list ending in "…" is a prefix of the
    real one, a dict with the key "…" shows some of the real keys, anything else is equal."""
    if isinstance(shown, list):
        assert isinstance(real, list), where
        cut = bool(shown) and shown[-1] == "…"
        items = shown[:-1] if cut else shown
        assert len(real) >= len(items) if cut else len(real) == len(items), where
        for k, item in enumerate(items):
            _matches(item, real[k], f"{where}[{k}]")
    elif isinstance(shown, dict):
        assert isinstance(real, dict), where
        keys = [k for k in shown if k != "…"]
        if "…" not in shown:
            assert list(shown) == list(real), f"{where}: the example's keys differ"
        for k in keys:
            assert k in real, f"{where}.{k}"
            _matches(shown[k], real[k], f"{where}.{k}")
    else:
        assert shown == real, f"{where}: {shown!r} != {real!r}"


def test_state_format_example_is_real_output() -> None:
    """docs/state-format.md's example state is what its example record replays to (every
    field present, the shown parts equal), and both are of the current versions."""
    blocks = re.findall(r"```json\n(.*?)```", _read("state-format.md"), re.S)
    examples = [json.loads(b) for b in blocks if b.lstrip().startswith('{\n "format"')]
    records = [b for b in blocks if '"flamecraft-record"' in b]
    assert len(examples) == 1 and len(records) == 1
    record = load_record(records[0])
    assert json.loads(records[0])["version"] == RECORD_VERSION
    assert examples[0]["version"] == STATE_VERSION
    _matches(examples[0], state_to_json(replay(record)))


def test_rules_md_covers_solo_and_companions() -> None:
    """docs/rules.md has its solo and Companion sections, names every Companion, and no longer
    says that either is missing."""
    text = _read("rules.md")
    assert "\n## Solo mode\n" in text and "\n## Companions\n" in text
    assert "Not implemented" not in text and "not implemented" not in text
    for card in CATALOG.companions:
        assert card.name in text.split("\n## Companions\n", 1)[1], card.name
    for name in ("Town Bustle", "achievements", "rating"):
        assert name in text.split("\n## Solo mode\n", 1)[1].split("\n## Companions\n")[0]


# --- docs/rules.md, further ruling 5: the Sun Dragon reveal points --------------------------------

def test_reveal_points_are_the_documented_ones() -> None:
    """docs/rules.md further ruling 5: Sun Dragons may be revealed (and Knick Knack used) at
    the visit, the gather/enchant choice, the placement, Hardhat Hattie's use decision, the
    fire-up steps, the ability choice, end turn and the discards — and at no other decision."""
    documented = {frames.D_VISIT, frames.D_ACTION, frames.D_PLACE, frames.D_COMPANION_USE,
                  frames.D_FIRE_ONE, frames.D_FIRE_ALL, frames.D_ABILITY, frames.D_END_TURN,
                  frames.D_DISCARD}
    actual = {kind for kind, d in frames.DECISIONS.items() if d.sun_reveals}
    assert actual == documented


def test_no_reveal_at_the_cast_so_enchant_always_casts() -> None:
    """docs/rules.md further ruling 5 (ruling 21, ruling 11): a Sun Dragon cannot be revealed
    at the cast choice, where spending its Goods could leave an Enchant turn without a cast; it
    can be revealed just before, at the gather/enchant choice."""
    s = fresh(2, 0)
    to_row(s, "displacer-beef", "smelting-pot")          # Meat: 2 Bread + 3 Iron; Iron Shop
    set_goods(s, 0, coins=0, BREAD=3, IRON=3, MEAT=3, PLANT=1, CRYSTAL=2)
    give_fancy(s, 0, "scone-ranger")                      # spend 3 Bread + 2 Meat
    do(s, "visit Draco Bell")
    assert "reveal Scone Ranger" in texts(s)              # the gather/enchant choice
    do(s, "enchant")
    # Displacer Beef is the only cast here; it is taken automatically, with no reveal between.
    assert s.shop_ench[CATALOG.shop_by_id["draco-bell"]] == (CATALOG.enchantment_by_id[
        "displacer-beef"],)


def test_reveal_at_the_placement() -> None:
    """docs/rules.md further ruling 5: a Sun Dragon may be revealed at the Gather placement,
    e.g. Clutch Player (7 dragons in hand) before placing brings the hand back to 6."""
    s = fresh(2, 0)
    give_fancy(s, 0, "clutch-player")
    to_hand(s, 0, "cookie", "loaf", "honey", "fondue")
    assert len(s.hand[0]) == 7
    do(s, "visit Critical Rolls")  # no Enchantment affordable: Gather is taken by itself
    assert any(t.startswith("place ") for t in texts(s))
    assert "reveal Clutch Player" in texts(s)
    do(s, "reveal Clutch Player")
    assert s.rep[0] == 5 and A["cookie"] in s.hand[0]
    assert "place Cookie on Critical Rolls slot 2" in texts(s)  # the placement is asked again


@pytest.mark.parametrize("name", ["architecture.md", "rules.md", "state-format.md",
                                  "adding-a-card.md"])
def test_docs_name_no_missing_doc(name: str) -> None:
    """Every `X.md` a hand-written doc mentions exists in docs/ (or is a shared reference)."""
    text = _read(name)
    for ref in re.findall(r"`([a-z-]+\.md)`", text):
        if ref not in ("design.md", "rulings.md"):  # in shared/reference, outside the repo
            assert (DOCS / ref).exists(), f"{name} mentions {ref}, which is not in docs/"


# --- every command the docs show runs (issue 17) -----------------------------------------------

DOC_FILES = ("README.md", *sorted(p.name for p in DOCS.glob("*.md") if p.name != "cards.md"))
NOT_RUN = {"play": "needs a terminal: tests/test_play.py plays it through a pty",
           "serve": "runs a server until stopped: tests/test_server_*.py and "
                    "tests/test_browser.py run it",
           "account": "needs an account in a server's store: tests/test_server_accounts.py "
                      "runs it"}
SLOW_BOTS = ("planner", "ismcts", "cheater")  # 50 ms to 1 s a decision
FRESH_STATE = ["new", "--players", "4", "--seed", "1"]  # the README's own new game
FRESH_RECORD = ["demo", "--players", "3", "--seed", "5", "--record"]


def _doc_path(name: str) -> Path:
    return ROOT / name if name == "README.md" else DOCS / name


def doc_commands() -> list[tuple[str, str]]:
    """Every `flamecraft …` command the README and docs/*.md show — each line of a code block
    and each inline code span that starts with `flamecraft` or `.venv/bin/flamecraft` and has
    an argument — as (where, command line), once each, in order. A bare subcommand name in
    the text (`flamecraft replay`, `flamecraft new/apply/show`) names a command and is not
    one to run; `cards.md` is generated from the data and shows none."""
    found: dict[str, str] = {}
    command = re.compile(r"^(?:\$ )?(?:[A-Z_]+=\S+ )*(?:\.venv/bin/)?flamecraft (\S.*)$")
    for name in DOC_FILES:
        text = _doc_path(name).read_text(encoding="utf-8")
        lines: list[tuple[int, str]] = []
        in_block = False
        for number, line in enumerate(text.splitlines(), 1):
            if line.startswith("```"):
                in_block = not in_block
            elif in_block and lines and lines[-1][1].endswith("\\"):
                # a command continued on the next line (a shell's trailing backslash)
                lines[-1] = (lines[-1][0], lines[-1][1][:-1].rstrip() + " " + line.strip())
            elif in_block:
                lines.append((number, line.strip()))
            else:
                for span in re.findall(r"`([^`]+)`", line):
                    lines.append((number, span.strip()))
        for number, line in lines:
            match = command.match(line)
            if match is None or len(match.group(1).split("#")[0].split()) < 2:
                continue
            found.setdefault(match.group(1).strip(), f"{name}:{number}")
    return [(where, cmd) for cmd, where in found.items()]


def _fast_bot(spec: str) -> str:
    """A bot spec of the docs, checked (the bot is built from it), as the test plays it."""
    from flamecraft.ai import make_bot, parse_bot_spec

    name, options = parse_bot_spec(spec)
    make_bot(name, **options)
    return "greedy" if name in SLOW_BOTS else spec


def _adapted(words: list[str]) -> list[str]:
    """The command as the test runs it: placeholders filled, short runs, fast bots."""
    out = [{"N": "2", "STATE": "game.json", "RECORD": "game.record.json"}.get(w, w)
           for w in words]
    sub = out[0]
    if sub in ("hint", "review"):  # hints plan every action's turn: one sample, one seat
        if "--samples" in out:
            out[out.index("--samples") + 1] = "1"
        else:
            out += ["--samples", "1"]
        if sub == "review" and "--seat" not in out:
            out += ["--seat", "1"]
    plays = sub in ("tournament", "balance") and "--from" not in out
    if "--games" in out:
        k = out.index("--games") + 1
        out[k] = str(min(int(out[k]), 2 if sub == "simulate" else 1))
    elif plays:
        out += ["--games", "1"]
    if "--bots" in out:
        k = out.index("--bots") + 1
        out[k] = ",".join(_fast_bot(spec) for spec in out[k].split(","))
    elif plays:
        out += ["--bots", "greedy"]  # the defaults name the planner
    if plays and "--workers" not in out:
        out += ["--workers", "1"]
    return out


def _prepare_inputs(words: list[str], tmp: Path) -> None:
    """The files a command reads, made fresh where the docs made them earlier: a new game's
    state, a demo game's record, the games of a small balance run."""
    from flamecraft.cli.main import main as cli

    for i, word in enumerate(words[1:], 1):
        path = tmp / word
        if words[i - 1].startswith("--") and words[i - 1] not in ("--from", "--load"):
            continue  # an option's value that is written, not read
        if word.endswith("results.json") and not path.exists():  # a tournament's results
            assert cli(["tournament", "--games", "1", "--bots", "greedy,random", "--workers",
                        "1", "--out", str(path.parent)]) == 0
        elif word.endswith("games.jsonl") and not path.exists():
            assert cli(["balance", "--games", "1", "--players", "2", "--bots", "random",
                        "--workers", "1", "--out", str(path.parent)]) == 0
        elif word.endswith(".record.json") and not path.exists():
            assert cli([*FRESH_RECORD, str(path)]) == 0
        elif word.endswith(".json") and not path.exists():
            assert cli([*FRESH_STATE, "--out", str(path)]) == 0


@pytest.mark.parametrize(("where", "line"), doc_commands(), ids=lambda v: v.split(" --")[0])
def test_every_command_in_the_docs_runs(where: str, line: str, tmp_path: Path,
                                        monkeypatch: pytest.MonkeyPatch,
                                        capsys: pytest.CaptureFixture[str]) -> None:
    """Issue 17: each `flamecraft` command the README and docs/*.md show exits 0 (unless the
    doc shows another status, as `# exits N`), run in a fresh directory, against a fresh game
    file where it reads one. Long runs are shortened: at most 1 game a tournament or balance
    run (2 for simulate), one worker unless the command asks for more, and the slow bots
    (planner, ismcts, cheater: 50 ms to 1 s a decision) are built from the doc's spec, which
    checks it, then played by `greedy` (their play has its own tests: tests/test_bots.py,
    tests/test_tournament.py). `play` and `serve` are not run here (they need a terminal or run
    until stopped; their own tests run them), nor `--backend ray` without Ray installed."""
    from flamecraft.cli.main import main as cli

    words = shlex.split(line, comments=True)
    if words[0] in NOT_RUN:
        pytest.skip(f"`flamecraft {words[0]}` {NOT_RUN[words[0]]}")
    if "ray" in words and importlib.util.find_spec("ray") is None:
        pytest.skip("--backend ray needs the optional ray extra, which is not installed")
    expected = re.search(r"#.*\bexits? (\d+)", line)
    monkeypatch.chdir(tmp_path)
    words = _adapted(words)
    _prepare_inputs(words, tmp_path)
    capsys.readouterr()
    status = cli(words)
    err = capsys.readouterr().err
    assert status == (int(expected.group(1)) if expected else 0), (
        f"{where}: `flamecraft {line}` exited {status}: {err.strip()[-500:]}")


def test_the_doc_commands_are_found() -> None:
    """The extraction above finds the commands of the README's command-line section, with
    their comments, and the inline ones of the strength table; it skips mere names."""
    commands = {line for _, line in doc_commands()}
    assert 'apply game.json 0 1 0 0 "take Bread" "visit Draco Bell" --out game.json' in commands
    assert "simulate --players 4 --games 200 --seed 1    # random games, score summary" in (
        commands)
    assert "tournament --bots ismcts,cheater --games 6 --seed 1" in commands
    assert not {"replay", "tournament", "new/apply/show"} & commands
    # a command continued over two lines is one command
    assert any(c.startswith("tournament --backend ray --bots ismcts:iterations=2000,planner")
               for c in commands)
