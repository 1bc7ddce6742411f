"""Tournaments: many games between bots, with seats rotated, in parallel, reproducibly.

Each game is seeded from (tournament seed, game index) only, and each seat's bot gets its own
generator seeded the same way, so a tournament gives the same results in one process, in many,
or on a Ray cluster (with an iteration budget; a budget in seconds depends on the machine).
Work is sent out in batches of whole games. Results: win rates with 95% Wilson intervals
(ties share the win), the mean and spread of scores, each seat's advantage, and for two
players the head-to-head table; written as JSON, CSV and a score-distribution plot (PNG).

``play_game`` is also what ``balance.py`` runs: with ``events`` it keeps a light log of which
cards each player placed, cast and scored.
"""

from __future__ import annotations

import argparse
import csv
import hashlib
import itertools
import json
import math
import multiprocessing
import os
import random
import statistics
import sys
import time
from collections.abc import Callable, Iterable, Sequence
from concurrent.futures import ProcessPoolExecutor, as_completed
from dataclasses import asdict, dataclass, field
from typing import Any, TypeVar

from ..core.board import CATALOG
from ..core.engine import apply_in_place, start, to_act, winners
from ..core.engine import text as action_text
from ..core.serialize import GameRecord, dump_record
from ..core.state import EMPTY, SOURCE_NAMES, GameState, Options
from . import make_bot, parse_bot_spec
from .interface import Seat, TrueStateBot

# A game that has not ended after this many choices is stalling: the decks that end the game
# are not being drawn (bots that only gather can do that). Bot games take a few hundred.
MAX_DECISIONS = 20_000

_Job = TypeVar("_Job")
_Result = TypeVar("_Result")

_A, _E, _F, _C = CATALOG.artisans, CATALOG.enchantments, CATALOG.fancies, CATALOG.companions


# --- one game -----------------------------------------------------------------------------

@dataclass(frozen=True)
class GameSpec:
    """Everything one game needs: who sits where, the options, and its seed."""

    index: int
    seed: int
    lineup: tuple[str, ...]  # a bot spec per seat ("ismcts:seconds=1")
    deck: str = "purple"
    companions: bool = False
    events: bool = False
    record: bool = False  # keep the chosen actions' texts (a game record: ``GameResult.actions``)


@dataclass
class GameResult:
    """What one game produced (all plain data: it crosses process boundaries)."""

    index: int
    seed: int
    lineup: list[str]
    scores: list[int]
    winners: list[int]
    turns: int
    decisions: list[int]  # per seat
    think: list[float]  # seconds spent choosing, per seat
    iterations: list[int]  # search iterations, per seat (0 for bots that do not search)
    sources: list[list[int]]  # Reputation by source (state.SOURCE_NAMES), per seat
    companions: list[str | None] = field(default_factory=list)
    placed: list[list[str]] = field(default_factory=list)  # card ids, per seat (events)
    cast: list[list[str]] = field(default_factory=list)
    scored: list[list[str]] = field(default_factory=list)
    held: list[list[str]] = field(default_factory=list)  # Fancy Dragons held at the end
    visited: list[list[str]] = field(default_factory=list)  # Shop ids, per visit
    # The texts of the actions chosen, in order (``GameSpec.record``; else empty): with the
    # seed and the options, a game record (``game_record``) that replays the game.
    actions: list[str] = field(default_factory=list)

    def deterministic(self) -> dict[str, Any]:
        """The result without the timings (what reproducibility is about)."""
        out = asdict(self)
        del out["think"]
        return out


def game_seed(seed: int, index: int) -> int:
    """A game's seed from the tournament seed and the game's index only."""
    digest = hashlib.sha256(f"flamecraft-game:{seed}:{index}".encode()).digest()
    return int.from_bytes(digest[:8], "big") >> 1


def seat_rng(game: int, seat: int) -> random.Random:
    """Each seat's own generator, seeded from the game's seed and the seat."""
    return random.Random(f"flamecraft-seat:{game}:{seat}")


class _Events:
    """The light event log: which cards each player placed, cast and scored, and the Shops
    they visited, from differences of the state around each action."""

    def __init__(self, s: GameState) -> None:
        n = s.n
        self.placed: list[list[str]] = [[] for _ in range(n)]
        self.cast: list[list[str]] = [[] for _ in range(n)]
        self.scored: list[list[str]] = [[] for _ in range(n)]
        self.visited: list[list[str]] = [[] for _ in range(n)]
        self._snap(s)

    def _snap(self, s: GameState) -> None:
        self.in_town = {d for d in s.slots if d != EMPTY}
        self.enchanted = {e for es in s.shop_ench for e in es}
        self.scored_n = [len(x) for x in s.scored]
        self.pos = s.pos[:]

    def after(self, s: GameState, actor: int) -> None:
        """Records what changed since the last snapshot; ``actor`` is whose turn it was."""
        town = {d for d in s.slots if d != EMPTY}
        for d in town - self.in_town:
            self.placed[actor].append(_A[d].id)
        enchanted = {e for es in s.shop_ench for e in es}
        for e in enchanted - self.enchanted:
            self.cast[actor].append(_E[e].id)
        for p in range(s.n):
            for f in s.scored[p][self.scored_n[p]:]:
                self.scored[p].append(_F[f].id)
            if s.pos[p] != self.pos[p] and s.pos[p] != EMPTY:
                self.visited[p].append(CATALOG.shops[s.pos[p]].id)
        self.in_town, self.enchanted = town, enchanted
        self.scored_n = [len(x) for x in s.scored]
        self.pos = s.pos[:]


def play_game(spec: GameSpec, final: list[GameState] | None = None) -> GameResult:
    """Plays one game to the end; each bot chooses from its Seat (the cheater from the true
    state). ``final`` receives the final state (for tests)."""
    n = len(spec.lineup)
    # Seat 1 plays first: the lineups rotate through the seats, and seat statistics read
    # seats as places in turn order.
    s = start(n, spec.seed, spec.deck, (), spec.companions, first_player=0)
    bots = []
    for text in spec.lineup:
        name, options = parse_bot_spec(text)
        bots.append(make_bot(name, **options))
    rngs = [seat_rng(spec.seed, p) for p in range(n)]
    decisions, think, iterations = [0] * n, [0.0] * n, [0] * n
    events = _Events(s) if spec.events else None
    chosen: list[str] = []
    count = 0
    while not s.over:
        count += 1
        if count > MAX_DECISIONS:
            raise RuntimeError(
                f"game {spec.index} ({', '.join(spec.lineup)}; seed {spec.seed}, {spec.deck} "
                f"Enchantments) did not end after {MAX_DECISIONS} decisions: the bots are "
                "stalling (no one draws from the decks that end the game)")
        p = to_act(s)
        bot = bots[p]
        began = time.perf_counter()
        if isinstance(bot, TrueStateBot):
            action = bot.choose_true(s, rngs[p])
        else:
            action = bot.choose(Seat(s, p), rngs[p])
        think[p] += time.perf_counter() - began
        decisions[p] += 1
        iterations[p] += int(getattr(bot, "last_iterations", 0))
        actor = s.current
        if spec.record:
            chosen.append(action_text(s, action))
        apply_in_place(s, action)
        if events is not None:
            events.after(s, actor)
    result = GameResult(
        index=spec.index, seed=spec.seed, lineup=list(spec.lineup), scores=s.rep[:],
        winners=winners(s), turns=s.turn, decisions=decisions, think=think,
        iterations=iterations, sources=[r[:] for r in s.rep_sources],
        companions=[_C[c].id if c != EMPTY else None for c in s.companion],
        actions=chosen)
    if events is not None:
        result.placed, result.cast, result.scored = events.placed, events.cast, events.scored
        result.visited = events.visited
        result.held = [[_F[f].id for f in s.scored[p] + s.fancy[p]] for p in range(n)]
    if final is not None:
        final.append(s)
    return result


def play_batch(specs: Sequence[GameSpec]) -> list[GameResult]:
    """Plays a batch of whole games (the unit of work sent to a process or a Ray task)."""
    return [play_game(spec) for spec in specs]


# --- many games ---------------------------------------------------------------------------

def lineups(bots: Sequence[str], players: int, games: int) -> list[tuple[str, ...]]:
    """Who sits where in each game. With as many bots as seats (or fewer, repeated to fill
    the table) the seats rotate every game; with more bots than seats every combination of
    bots gets a table in turn, its seats rotated; solo games cycle through the bots."""
    if players == 1:
        return [(bots[i % len(bots)],) for i in range(games)]
    if len(bots) <= players:
        tables = [tuple(bots[k % len(bots)] for k in range(players))]
    else:
        tables = list(itertools.combinations(bots, players))
    out = []
    for i in range(games):
        table = tables[(i // players) % len(tables)]
        r = i % players
        out.append(table[r:] + table[:r])
    return out


def make_specs(bots: Sequence[str], games: int, seed: int, players: int, deck: str = "purple",
               companions: bool = False, events: bool = False,
               first_index: int = 0, record: bool = False) -> list[GameSpec]:
    """The games of a tournament, each seeded from (seed, index)."""
    tables = lineups(bots, players, games)
    return [GameSpec(first_index + i, game_seed(seed, first_index + i), tables[i], deck,
                     companions, events, record) for i in range(games)]


def game_record(result: GameResult, deck: str = "purple",
                companions: bool = False) -> GameRecord:
    """The game record of a game played with ``GameSpec.record`` (``flamecraft replay`` and
    ``flamecraft review`` read it); ``result["bots"]`` names each seat's bot (the seats keep
    their names P1, P2 …: action texts name them)."""
    if not result.actions and result.turns:
        raise ValueError(f"game {result.index} was played without keeping its actions")
    options = Options(len(result.lineup), deck, (), companions, first_player=0)
    outcome = {"reputation": result.scores, "winners": result.winners, "turns": result.turns,
               "bots": list(result.lineup)}
    return GameRecord(options, result.seed, list(result.actions), outcome)


class _Progress:
    """A progress bar on stderr: tqdm when it is installed, else a plain one."""

    def __init__(self, total: int, label: str, show: bool) -> None:
        self.total, self.done, self.show, self.label = total, 0, show, label
        self.bar: Any = None
        self.began = time.perf_counter()
        if show:
            try:
                from tqdm import tqdm
                self.bar = tqdm(total=total, desc=label, unit="game", file=sys.stderr)
            except ImportError:
                self._draw()

    def update(self, k: int) -> None:
        self.done += k
        if self.bar is not None:
            self.bar.update(k)
        elif self.show:
            self._draw()

    def _draw(self) -> None:
        width = 30
        filled = width * self.done // max(1, self.total)
        elapsed = time.perf_counter() - self.began
        print(f"\r{self.label} [{'#' * filled}{'.' * (width - filled)}] {self.done}/"
              f"{self.total} games {elapsed:.0f}s", end="", file=sys.stderr, flush=True)

    def close(self) -> None:
        if self.bar is not None:
            self.bar.close()
        elif self.show:
            print(file=sys.stderr)


def _batches(specs: Sequence[GameSpec], size: int) -> list[list[GameSpec]]:
    return [list(specs[i:i + size]) for i in range(0, len(specs), size)]


def run_specs(specs: Sequence[GameSpec], workers: int | None = None, backend: str = "local",
              progress: bool = False, batch: int | None = None,
              label: str = "games") -> list[GameResult]:
    """Plays the games: in this process (1 worker), on local processes (the default: every
    core), or on Ray (``backend="ray"``). Results come back in game order."""
    workers = workers or os.cpu_count() or 1
    if batch is None:
        batch = max(1, min(8, math.ceil(len(specs) / (4 * workers))))
    bar = _Progress(len(specs), label, progress)
    try:
        if backend == "ray":
            results = _run_ray(specs, workers, batch, bar.update)
        elif backend != "local":
            raise ValueError(f"unknown backend {backend!r} (local or ray)")
        elif workers <= 1 or len(specs) <= 1:
            results = []
            for spec in specs:
                results.append(play_game(spec))
                bar.update(1)
        else:
            results = []
            # Workers come from a fork server, a clean process: forking this one is unsafe
            # when it runs threads (a web server's, or Ray's after it ran here).
            context = multiprocessing.get_context("forkserver")
            with ProcessPoolExecutor(max_workers=min(workers, len(specs)),
                                     mp_context=context) as pool:
                futures = [pool.submit(play_batch, b) for b in _batches(specs, batch)]
                for future in as_completed(futures):
                    done = future.result()
                    results.extend(done)
                    bar.update(len(done))
    finally:
        bar.close()
    return sorted(results, key=lambda r: r.index)


def ray_available() -> str | None:
    """None if Ray can be imported, else why not (the ``ray`` extra is not installed)."""
    try:
        import ray  # noqa: F401
    except ImportError as exc:
        return f"Ray is not installed (pip install 'flamecraft[ray]'): {exc}"
    return None


def _run_ray(specs: Sequence[GameSpec], workers: int, batch: int,
             update: Callable[[int], None]) -> list[GameResult]:
    """Batches of whole games as Ray tasks (``ray_map``)."""
    results: list[GameResult] = []
    for part in ray_map(play_batch, list(_batches(specs, batch)), workers,
                        lambda part: update(len(part))):
        results.extend(part)
    return results


def ray_map(fn: Callable[[_Job], _Result], jobs: Sequence[_Job], workers: int,
            done: Callable[[_Result], None] | None = None) -> list[_Result]:
    """``fn`` of every job as Ray tasks, the results in the order they finish (``done`` is
    told of each). If Ray is already initialized (a caller's ``ray.init``), its cluster is
    used and left running. Else ``RAY_ADDRESS`` names a cluster to join (``auto``: one
    ``ray start`` began on this machine; ``ray://host:10001``: a remote one); without it a
    private local instance starts on ``workers`` CPUs (``address="local"``, so a cluster some
    other program left running here is never joined by accident) and is shut down
    afterwards. Tournaments and the learned evaluation's self-play
    (``scripts/train_value.py --backend ray``) both send their games this way."""
    why = ray_available()
    if why:
        raise RuntimeError(why)
    import ray

    started = False
    if not ray.is_initialized():
        kwargs: dict[str, Any] = {"include_dashboard": False, "log_to_driver": False}
        if not os.environ.get("RAY_ADDRESS"):
            kwargs.update(address="local", num_cpus=workers)
        ray.init(**kwargs)
        started = True
    try:
        task = ray.remote(fn)
        pending = [task.remote(job) for job in jobs]
        results: list[_Result] = []
        while pending:
            finished, pending = ray.wait(pending, num_returns=1)
            for ref in finished:
                result = ray.get(ref)
                results.append(result)
                if done is not None:
                    done(result)
        return results
    finally:
        if started:
            ray.shutdown()


# --- statistics ---------------------------------------------------------------------------

def wilson(wins: float, n: int, z: float = 1.96) -> tuple[float, float]:
    """The 95% Wilson score interval of a win rate (``wins`` may be fractional: shared
    wins)."""
    if n <= 0:
        return (0.0, 1.0)
    phat = wins / n
    denom = 1 + z * z / n
    centre = (phat + z * z / (2 * n)) / denom
    half = z * math.sqrt(phat * (1 - phat) / n + z * z / (4 * n * n)) / denom
    # At no wins (all wins) the bound is exactly 0 (1); rounding would leave it just inside.
    low = 0.0 if wins <= 0 else max(0.0, centre - half)
    high = 1.0 if wins >= n else min(1.0, centre + half)
    return (low, high)


def _spread(xs: list[float]) -> dict[str, float]:
    if not xs:
        return {"mean": 0.0, "sd": 0.0, "min": 0.0, "median": 0.0, "max": 0.0}
    return {"mean": statistics.fmean(xs), "sd": statistics.pstdev(xs) if len(xs) > 1 else 0.0,
            "min": min(xs), "median": statistics.median(xs), "max": max(xs)}


def win_share(result: GameResult, seat: int) -> float:
    """A seat's share of the win: 1, 1/k for a k-way shared win, else 0."""
    return 1.0 / len(result.winners) if seat in result.winners else 0.0


def beats(result: GameResult, p: int, q: int) -> float:
    """Seat ``p`` against seat ``q``: 1 if it finished ahead, 0 if behind, 0.5 if level. A
    winner is ahead of a non-winner (the tie-breakers decided between equal scores), else the
    higher score is ahead."""
    won_p, won_q = p in result.winners, q in result.winners
    if won_p != won_q:
        return 1.0 if won_p else 0.0
    if result.scores[p] != result.scores[q]:
        return 1.0 if result.scores[p] > result.scores[q] else 0.0
    return 0.5


def summarize(results: Sequence[GameResult]) -> dict[str, Any]:
    """Win rates with Wilson intervals, scores, seat advantage and head-to-head records."""
    by_bot: dict[str, dict[str, Any]] = {}
    players = len(results[0].lineup) if results else 0
    seats: list[dict[str, Any]] = [{"games": 0, "wins": 0.0, "scores": []}
                                   for _ in range(players)]
    pairs: dict[str, dict[str, list[float]]] = {}
    for r in results:
        for p, bot in enumerate(r.lineup):
            entry = by_bot.setdefault(bot, {"seats": 0, "wins": 0.0, "scores": [],
                                            "decisions": 0, "think": 0.0, "iterations": 0})
            share = win_share(r, p)
            entry["seats"] += 1
            entry["wins"] += share
            entry["scores"].append(r.scores[p])
            entry["decisions"] += r.decisions[p]
            entry["think"] += r.think[p]
            entry["iterations"] += r.iterations[p]
            seat = seats[p]
            seat["games"] += 1
            seat["wins"] += share
            seat["scores"].append(r.scores[p])
            for q, other in enumerate(r.lineup):
                if q != p and other != bot:
                    rec = pairs.setdefault(bot, {}).setdefault(other, [0.0, 0.0])
                    rec[0] += beats(r, p, q)
                    rec[1] += 1
    bots_out = {}
    for bot, e in by_bot.items():
        low, high = wilson(e["wins"], e["seats"])
        bots_out[bot] = {
            "games": e["seats"], "wins": e["wins"], "win_rate": e["wins"] / e["seats"],
            "ci95": [low, high], "score": _spread(e["scores"]),
            "ms_per_decision": 1000 * e["think"] / max(1, e["decisions"]),
            "iterations_per_decision": e["iterations"] / max(1, e["decisions"]),
        }
    seats_out = []
    for p, seat in enumerate(seats):
        low, high = wilson(seat["wins"], seat["games"])
        seats_out.append({"seat": p + 1, "games": seat["games"],
                          "win_rate": seat["wins"] / max(1, seat["games"]), "ci95": [low, high],
                          "advantage": seat["wins"] / max(1, seat["games"]) - 1 / max(1, players),
                          "score": _spread(seat["scores"])})
    head = {bot: {other: {"beat": rec[0], "games": rec[1], "rate": rec[0] / rec[1],
                          "ci95": list(wilson(rec[0], int(rec[1])))}
                  for other, rec in row.items()} for bot, row in pairs.items()}
    turns = [r.turns for r in results]
    return {"games": len(results), "players": players, "bots": bots_out, "seats": seats_out,
            "head_to_head": head, "turns": _spread([float(t) for t in turns])}


def format_summary(summary: dict[str, Any], title: str) -> str:
    """The summary as a plain-text report."""
    lines = [title, ""]
    solo = summary["players"] == 1
    lines.append(f"{'bot':<28} {'games':>5} {'win rate':>9} {'95% CI':>15} {'score mean':>10} "
                 f"{'sd':>6} {'min':>5} {'max':>5} {'ms/dec':>8}")
    for bot, b in sorted(summary["bots"].items(), key=lambda kv: -kv[1]["score"]["mean"]):
        low, high = b["ci95"]
        rate = "" if solo else f"{100 * b['win_rate']:>8.1f}%"
        ci = "" if solo else f"{100 * low:>6.1f}–{100 * high:<5.1f}%"
        sc = b["score"]
        lines.append(f"{bot:<28} {b['games']:>5} {rate:>9} {ci:>15} {sc['mean']:>10.1f} "
                     f"{sc['sd']:>6.1f} {sc['min']:>5.0f} {sc['max']:>5.0f} "
                     f"{b['ms_per_decision']:>8.1f}")
    if not solo:
        lines += ["", "seat  win rate  advantage  score mean"]
        for seat in summary["seats"]:
            lines.append(f"{seat['seat']:>4}  {100 * seat['win_rate']:>7.1f}%  "
                         f"{100 * seat['advantage']:>+8.1f}%  {seat['score']['mean']:>10.1f}")
        if summary["head_to_head"]:
            lines += ["", "head to head (row finished ahead of column: the winner, else the "
                          "higher score):"]
            for bot, row in sorted(summary["head_to_head"].items()):
                cells = ", ".join(f"{other} {100 * rec['rate']:.0f}% of {rec['games']:.0f}"
                                  for other, rec in sorted(row.items()))
                lines.append(f"  {bot}: {cells}")
    t = summary["turns"]
    lines += ["", f"turns per game: mean {t['mean']:.1f}, min {t['min']:.0f}, "
                  f"max {t['max']:.0f}"]
    return "\n".join(lines) + "\n"


# --- files --------------------------------------------------------------------------------

def write_json(path: str, obj: Any) -> None:
    with open(path, "w", encoding="utf-8") as fh:
        json.dump(obj, fh, indent=1)
        fh.write("\n")


def write_csv(path: str, results: Iterable[GameResult]) -> None:
    """One row per seat of each game."""
    with open(path, "w", encoding="utf-8", newline="") as fh:
        out = csv.writer(fh)
        out.writerow(["game", "seed", "seat", "bot", "score", "win_share", "turns", "decisions",
                      "think_seconds", "iterations", "companion",
                      *(f"rep_{name}" for name in SOURCE_NAMES)])
        for r in results:
            for p, bot in enumerate(r.lineup):
                out.writerow([r.index, r.seed, p + 1, bot, r.scores[p], win_share(r, p), r.turns,
                              r.decisions[p], f"{r.think[p]:.3f}", r.iterations[p],
                              (r.companions[p] if r.companions else None) or "",
                              *r.sources[p]])


def horizontal_boxplot(ax: Any, data: list[list[int]] | list[list[float]]) -> None:
    """A horizontal box plot (``orientation`` since Matplotlib 3.10, ``vert`` before)."""
    try:
        ax.boxplot(data, orientation="horizontal")
    except TypeError:
        ax.boxplot(data, vert=False)


def plot_scores(path: str, results: Sequence[GameResult], title: str) -> bool:
    """A score-distribution plot per bot (PNG); False when matplotlib is not installed."""
    try:
        import matplotlib
        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
    except ImportError:
        return False
    scores: dict[str, list[int]] = {}
    for r in results:
        for p, bot in enumerate(r.lineup):
            scores.setdefault(bot, []).append(r.scores[p])
    names = sorted(scores, key=lambda b: -statistics.fmean(scores[b]))
    fig, (box, hist) = plt.subplots(1, 2, figsize=(11, 4.2))
    horizontal_boxplot(box, [scores[b] for b in names])
    box.set_yticks(range(1, len(names) + 1), names)
    box.set_xlabel("final Reputation")
    box.set_title("scores by bot")
    low = min(min(v) for v in scores.values())
    high = max(max(v) for v in scores.values())
    bins = list(range(low, high + 6, max(1, (high - low) // 25 + 1)))
    for b in names:
        hist.hist(scores[b], bins=bins, alpha=0.5, label=b)
    hist.set_xlabel("final Reputation")
    hist.set_ylabel("seats")
    hist.legend(fontsize=8)
    hist.set_title("distribution")
    fig.suptitle(title)
    fig.tight_layout()
    fig.savefig(path, dpi=110)
    plt.close(fig)
    return True


# --- the command --------------------------------------------------------------------------

def add_arguments(p: argparse.ArgumentParser) -> None:
    """The ``flamecraft tournament`` options."""
    p.add_argument("--bots", default="planner,greedy",
                   help="comma-separated bot specs, each NAME[:key=value…] "
                        "(e.g. ismcts:seconds=1,planner,greedy,random); bots: random, greedy, "
                        "planner, ismcts, cheater")
    p.add_argument("--games", type=int, default=100, help="number of games (default 100)")
    p.add_argument("--seed", type=int, default=1, help="tournament seed (default 1)")
    p.add_argument("--players", type=int, default=None,
                   help="players per game (default: the number of bots, at least 2, at most 5)")
    p.add_argument("--records", action="store_true",
                   help="also write each game's record to OUT/records/ (for `flamecraft "
                        "replay` and `flamecraft review`)")
    add_run_arguments(p, "tournament-results", "results.json, results.csv, scores.png")


def add_run_arguments(p: argparse.ArgumentParser, out: str, writes: str) -> None:
    """The options every command that plays many bot games shares (tournament, balance):
    where the games run, which cards, and where the results go."""
    p.add_argument("--workers", type=int, default=None,
                   help="processes (default: every core); 1 plays in this process")
    p.add_argument("--backend", choices=("local", "ray"), default="local",
                   help="local processes (default) or a Ray cluster (RAY_ADDRESS)")
    p.add_argument("--enchantments", choices=("purple", "golden"), default="purple")
    p.add_argument("--companions", action="store_true", help="play with the Companion module")
    p.add_argument("--out", default=out, help=f"folder for {writes} (default: {out})")
    p.add_argument("--quiet", action="store_true", help="no progress bar")


def command_line(name: str, args: argparse.Namespace) -> str:
    """The command that reproduces a run, from its parsed options (for the files written)."""
    parts = [f"flamecraft {name}"]
    for key, val in sorted(vars(args).items()):
        if key in ("func", "command", "quiet") or val is None or val is False:
            continue
        flag = "--" + key.replace("_", "-")
        parts.append(flag if val is True else f"{flag} {val}")
    return " ".join(parts)


def default_players(bots: Sequence[str]) -> int:
    return max(2, min(5, len(bots)))


def check_bots(text: str) -> list[str]:
    """The bot specs of a ``--bots`` value, each checked (ValueError names a bad one)."""
    bots = [b.strip() for b in text.split(",") if b.strip()]
    if not bots:
        raise ValueError("--bots: give at least one bot")
    for b in bots:
        name, options = parse_bot_spec(b)
        make_bot(name, **options)
    return bots


def run_tournament(bots: Sequence[str], games: int, seed: int, players: int | None = None,
                   workers: int | None = None, backend: str = "local", deck: str = "purple",
                   companions: bool = False, progress: bool = False, record: bool = False
                   ) -> tuple[list[GameResult], dict[str, Any]]:
    """Plays a tournament; returns the per-game results and the summary (``record``: each
    result keeps its actions, for ``game_record``)."""
    n = players or default_players(bots)
    specs = make_specs(bots, games, seed, n, deck, companions, record=record)
    results = run_specs(specs, workers, backend, progress, label="tournament")
    return results, summarize(results)


def write_results(out: str, results: Sequence[GameResult], summary: dict[str, Any],
                  config: dict[str, Any], title: str) -> list[str]:
    """Writes results.json, results.csv and scores.png; returns the paths written."""
    os.makedirs(out, exist_ok=True)
    paths = [os.path.join(out, "results.json"), os.path.join(out, "results.csv")]
    rows = []
    for r in results:
        row = asdict(r)
        del row["actions"]  # the records are files of their own (``write_records``)
        rows.append(row)
    write_json(paths[0], {"config": config, "summary": summary, "games": rows})
    write_csv(paths[1], results)
    png = os.path.join(out, "scores.png")
    if plot_scores(png, results, title):
        paths.append(png)
    return paths


def write_records(folder: str, results: Sequence[GameResult], deck: str,
                  companions: bool) -> str:
    """One game record per game (``game-0001.json`` …, by game index); returns the folder."""
    os.makedirs(folder, exist_ok=True)
    for r in results:
        path = os.path.join(folder, f"game-{r.index + 1:04d}.json")
        with open(path, "w", encoding="utf-8") as fh:
            fh.write(dump_record(game_record(r, deck, companions)))
    return folder + "/"


def cmd_tournament(args: argparse.Namespace) -> int:
    """``flamecraft tournament``: plays the games, prints the summary, writes the files."""
    bots = check_bots(args.bots)
    if args.games < 1:
        raise ValueError("--games must be at least 1")
    n = args.players or default_players(bots)
    if not 1 <= n <= 5:
        raise ValueError(f"--players must be 1–5, not {n}")
    if args.backend == "ray" and ray_available():
        raise ValueError(str(ray_available()))
    began = time.perf_counter()
    results, summary = run_tournament(bots, args.games, args.seed, n, args.workers,
                                      args.backend, args.enchantments, args.companions,
                                      progress=not args.quiet, record=args.records)
    elapsed = time.perf_counter() - began
    title = (f"tournament: {', '.join(bots)} — {args.games} games, {n} players, seed "
             f"{args.seed}, {args.enchantments} Enchantments"
             + (", Companions" if args.companions else ""))
    print(format_summary(summary, title), end="")
    config = {"bots": bots, "games": args.games, "seed": args.seed, "players": n,
              "enchantments": args.enchantments, "companions": args.companions,
              "workers": args.workers, "backend": args.backend, "seconds": elapsed,
              "command": command_line("tournament", args)}
    paths = write_results(args.out, results, summary, config, title)
    if args.records:
        paths.append(write_records(os.path.join(args.out, "records"), results,
                                   args.enchantments, args.companions))
    print(f"elapsed {elapsed:.1f} s; wrote {', '.join(paths)}")
    return 0
