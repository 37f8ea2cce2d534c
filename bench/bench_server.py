"""Load benchmark of ``affresco serve``: many concurrent games on loopback.

Starts the real server (uvicorn; ``--processes N`` processes on one PostgreSQL database, each
client game created on the next process and each seat's socket opened on the next, so that
moves, pushes and bots cross processes) on a fresh database, then keeps ``--games`` games
running at once whose every seat is a WebSocket client that plays random legal actions as soon
as its state arrives, plus ``--bot-games`` games of server-side random bots watched by a
spectator socket.  Finished games are replaced by new ones.  It reports:

- moves/s acknowledged by the server (every seat's and bot's move, all games),
- latency of a client's move: from sending ``act`` to receiving the state that contains it
  (p50, p90, p99, max),
- the server's resident memory (VmRSS/VmHWM) at the end,
- the server processes' CPU, the load generator's, and the machine's (busy % of all cores over
  the measured time, and the 1-minute load average).

``--compare 1,2`` measures 1 and then 2 processes (alternating, ``--rounds`` times each, a fresh
PostgreSQL schema per measurement) in one run and gives the medians and the scaling ratio.

    python bench/bench_server.py                          # SQLite file, 60 client games, 20 s
    python bench/bench_server.py --db postgresql://affresco:affresco@localhost/affresco_bench
    python bench/bench_server.py --games 100 --bot-games 20 --seconds 30
    python bench/bench_server.py --db postgresql://... --compare 1,2 --rounds 2

The client runs in this process (asyncio + websockets) and shares the machine with the server:
on 2 cores the numbers are a lower bound of what the server alone can do.
"""
from __future__ import annotations

import argparse
import asyncio
import json
import os
import random
import socket
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import httpx
import websockets


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def cpu_seconds(pid: int | None) -> float:
    """User + system CPU time of a process so far (Linux /proc)."""
    if pid is None:
        return float("nan")
    try:
        fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
        return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")
    except (OSError, IndexError, ValueError):
        return float("nan")


def rss(pid: int) -> dict[str, float]:
    out = {}
    try:
        for line in Path(f"/proc/{pid}/status").read_text().splitlines():
            if line.startswith(("VmRSS", "VmHWM")):
                key, value = line.split(":")
                out[key] = int(value.split()[0]) / 1024
    except OSError:
        pass
    return out


def machine_busy() -> tuple[float, float]:
    """(busy, total) CPU jiffies of the whole machine so far (/proc/stat)."""
    parts = [float(x) for x in Path("/proc/stat").read_text().split("\n", 1)[0].split()[1:]]
    idle = parts[3] + (parts[4] if len(parts) > 4 else 0.0)
    return sum(parts) - idle, sum(parts)


def load_average() -> float:
    return float(Path("/proc/loadavg").read_text().split()[0])


def fresh_schema(db: str) -> tuple[str, str]:
    """A new schema on the PostgreSQL database ``db``: (its URL for the server, its name)."""
    import secrets

    import psycopg
    name = "bench_" + secrets.token_hex(5)
    with psycopg.connect(db, autocommit=True) as conn:
        conn.execute(f"CREATE SCHEMA {name}")
    sep = "&" if "?" in db else "?"
    return f"{db}{sep}options=-csearch_path%3D{name}", name


def drop_schema(db: str, name: str) -> None:
    import psycopg
    with psycopg.connect(db, autocommit=True) as conn:
        conn.execute(f"DROP SCHEMA {name} CASCADE")


class Stats:
    def __init__(self):
        self.latencies: list[float] = []
        self.client_moves = 0
        self.errors: dict[str, int] = {}
        self.games_done = 0


async def seat_client(url: str, token: str, stats: Stats, rng: random.Random, stop: asyncio.Event,
                      done: asyncio.Event, think: float = 0.0) -> None:
    """Play random legal actions: one act in flight at a time; its latency runs from sending
    the act to receiving the server's ack (sent once the move is stored)."""
    async with websockets.connect(url, max_size=2**22) as ws:
        await ws.send(json.dumps({"type": "hello", "token": token}))
        sent_at: float | None = None
        latest: dict | None = None
        while not stop.is_set():
            try:
                msg = json.loads(await asyncio.wait_for(ws.recv(), timeout=1.0))
            except asyncio.TimeoutError:
                continue
            kind = msg["type"]
            if kind == "error":
                stats.errors[msg["code"]] = stats.errors.get(msg["code"], 0) + 1
                sent_at = None
            elif kind == "ack":
                stats.latencies.append(time.perf_counter() - sent_at)
                stats.client_moves += 1
                sent_at = None
                if latest is not None and latest["version"] < msg["version"]:
                    latest = None             # wait for the state that contains the move
            elif kind == "state":
                latest = msg
                if msg["is_over"]:
                    done.set()
                    return
            if sent_at is None and latest is not None and latest["legal"]:
                if think:
                    await asyncio.sleep(think * rng.uniform(0.5, 1.5))
                sent_at = time.perf_counter()
                await ws.send(json.dumps({"type": "act", "action": rng.choice(latest["legal"]),
                                          "version": latest["version"]}))
                latest = None


async def watch_client(url: str, game_id: str, stop: asyncio.Event, done: asyncio.Event) -> None:
    async with websockets.connect(url, max_size=2**22) as ws:
        await ws.send(json.dumps({"type": "watch", "game_id": game_id}))
        while not stop.is_set():
            try:
                text = await asyncio.wait_for(ws.recv(), timeout=1.0)
            except asyncio.TimeoutError:
                continue
            if '"is_over":true' in text:       # cheap: the client's CPU is the server's too
                done.set()
                return


async def game_slot(https: list[httpx.AsyncClient], ws_urls: list[str], bots: bool, stats: Stats,
                    rng: random.Random, stop: asyncio.Event, created: list[str], think: float = 0.0,
                    together: bool = False) -> None:
    turn = rng.randrange(len(https))
    if True:
        while not stop.is_set():
            turn += 1
            http = https[turn % len(https)]
            n = rng.choice((2, 3, 4))
            if bots:
                players = [{"name": f"B{i}", "kind": "bot", "bot": "random"} for i in range(n)]
            else:
                players = [{"name": f"P{i}", "kind": "human"} for i in range(n)]
            r = await http.post("/api/games", json={"players": players, "seed": rng.randrange(10**9)})
            if r.status_code == 429:            # the server's burst of new games: wait for the next one
                await asyncio.sleep(0.1)
                continue
            r.raise_for_status()
            game = r.json()
            created.append(game["game_id"])
            done = asyncio.Event()
            if bots:
                tasks = [asyncio.create_task(watch_client(ws_urls[(turn + 1) % len(ws_urls)], game["game_id"],
                                                          stop, done))]
            else:      # each seat's socket on the next process (moves cross processes), or all on one
                tasks = [asyncio.create_task(seat_client(ws_urls[(turn + (0 if together else i)) % len(ws_urls)],
                                                         s["token"], stats,
                                                         random.Random(rng.random()), stop, done, think))
                         for i, s in enumerate(game["seats"])]
            await asyncio.wait(tasks)
            for t in tasks:
                if t.exception() is not None and not stop.is_set():
                    raise t.exception()
            if not stop.is_set():
                stats.games_done += 1


async def total_versions(base: str, ids: list[str]) -> int:
    async with httpx.AsyncClient(base_url=base, timeout=60) as http:
        total = 0
        for gid in ids:
            r = await http.get(f"/api/games/{gid}")
            if r.status_code != 200:
                raise SystemExit(f"GET /api/games/{gid}: {r.status_code} {r.text[:300]}")
            total += r.json()["version"]
        return total


async def run(args) -> dict:
    n = 1 if args.port else args.processes
    ports = [args.port] if args.port else [free_port() for _ in range(n)]
    tmp = tempfile.mkdtemp(prefix="affresco-bench-")
    db, schema = args.db or f"sqlite:///{tmp}/bench.db", None
    if n > 1 and not db.startswith("postgres"):
        raise SystemExit("several processes need PostgreSQL: --db postgresql://...")
    if db.startswith("postgres") and not args.port:
        db, schema = fresh_schema(args.db)
    servers = [] if args.port else [subprocess.Popen(
        [sys.executable, "-m", "affresco.cli", "serve", "--port", str(port), "--db", db, "--bot-delay", str(args.bot_delay), "--fixed-seeds", "--games-per-minute", "100000",
         "--rate", "100000", "--max-connections-per-client", "100000", "--log-level", "warning"], stdout=subprocess.DEVNULL,
        stderr=open(f"{tmp}/server-{port}.log", "wb"))       # a file: a full pipe would stop the server
        for port in ports]
    bases = [f"http://127.0.0.1:{port}" for port in ports]
    ws_urls = [f"ws://127.0.0.1:{port}/ws" for port in ports]
    try:
        for i, base in enumerate(bases):
            async with httpx.AsyncClient(base_url=base) as http:
                for _ in range(300):
                    try:
                        if (await http.get("/healthz")).status_code == 200:
                            break
                    except httpx.TransportError:
                        await asyncio.sleep(0.1)
                else:
                    raise SystemExit("the server did not start: "
                                     + Path(f"{tmp}/server-{ports[i]}.log").read_text()[-2000:])
        stats, stop, created = Stats(), asyncio.Event(), []
        rng = random.Random(args.seed)
        https = [httpx.AsyncClient(base_url=base, timeout=30) for base in bases]   # one client each
        slots = [asyncio.create_task(game_slot(https, ws_urls, False, stats, random.Random(rng.random()), stop,
                                               created, args.think, args.together))
                 for _ in range(args.games)]
        slots += [asyncio.create_task(game_slot(https, ws_urls, True, stats, random.Random(rng.random()), stop,
                                                created))
                  for _ in range(args.bot_games)]
        await asyncio.sleep(args.warmup)
        v0 = await total_versions(bases[0], list(created))
        ids0 = list(created)
        stats.latencies.clear()
        pids = [s.pid for s in servers]
        cpu0, mine0 = sum(cpu_seconds(p) for p in pids) if pids else float("nan"), time.process_time()
        busy0, load0 = machine_busy(), load_average()
        t0 = time.perf_counter()
        await asyncio.sleep(args.seconds)
        elapsed = time.perf_counter() - t0
        cpu1, mine1 = sum(cpu_seconds(p) for p in pids) if pids else float("nan"), time.process_time()
        busy1, load1 = machine_busy(), load_average()
        v1 = await total_versions(bases[0], list(created))
        stop.set()
        await asyncio.gather(*slots, return_exceptions=True)
        for http in https:
            await http.aclose()
        mems = [rss(p) for p in pids]
        mem = {k: sum(m.get(k, 0.0) for m in mems) for k in ("VmRSS", "VmHWM")} if mems else {}
        lat = sorted(stats.latencies)

        def pct(p: float) -> float:
            return lat[min(len(lat) - 1, int(p * len(lat)))] * 1000 if lat else float("nan")

        return {
            "db": "postgresql" if db.startswith("postgres") else "sqlite",
            "processes": n,
            "client_games": args.games, "bot_games": args.bot_games, "seconds": round(elapsed, 1),
            "moves_per_s": round((v1 - v0) / elapsed, 1),
            "games_finished": stats.games_done, "games_created": len(created) - len(ids0) + len(ids0),
            "latency_ms": {"p50": round(pct(0.50), 2), "p90": round(pct(0.90), 2), "p99": round(pct(0.99), 2),
                           "max": round(lat[-1] * 1000, 2) if lat else None,
                           "mean": round(statistics.fmean(lat) * 1000, 2) if lat else None},
            "client_moves_timed": len(lat),
            "server_cpu_percent": round((cpu1 - cpu0) / elapsed * 100, 1),
            "server_cpu_ms_per_move": round((cpu1 - cpu0) / max(1, v1 - v0) * 1000, 3),
            "load_generator_cpu_percent": round((mine1 - mine0) / elapsed * 100, 1),
            "machine_busy_percent": round((busy1[0] - busy0[0]) / max(1.0, busy1[1] - busy0[1]) * 100, 1),
            "cores": os.cpu_count(),
            "load_average_1min": [load0, load1],
            "errors": stats.errors,
            "server_memory_mb": {k: round(v, 1) for k, v in mem.items()},
        }
    finally:
        for server in servers:      # an external server (--port) is left running
            server.terminate()
        for server in servers:
            try:
                server.wait(10)
            except subprocess.TimeoutExpired:
                server.kill()
                server.wait(10)
        if schema is not None:
            drop_schema(args.db, schema)


def compare(args) -> dict:
    """1 and N processes alternately, ``--rounds`` times each, in one run: medians and ratios."""
    counts = [int(x) for x in args.compare.split(",")]
    runs: dict[int, list[dict]] = {c: [] for c in counts}
    for _ in range(args.rounds):
        for c in counts:
            args.processes = c
            runs[c].append(asyncio.run(run(args)))

    def med(c: int, f) -> float:
        return statistics.median(f(r) for r in runs[c])
    base = counts[0]
    return {"runs": runs, "summary": {c: {
        "moves_per_s": med(c, lambda r: r["moves_per_s"]),
        "p50_ms": med(c, lambda r: r["latency_ms"]["p50"]), "p99_ms": med(c, lambda r: r["latency_ms"]["p99"]),
        "server_cpu_percent": med(c, lambda r: r["server_cpu_percent"]),
        "server_cpu_ms_per_move": med(c, lambda r: r["server_cpu_ms_per_move"]),
        "load_generator_cpu_percent": med(c, lambda r: r["load_generator_cpu_percent"]),
        "machine_busy_percent": med(c, lambda r: r["machine_busy_percent"]),
        "scaling": round(med(c, lambda r: r["moves_per_s"]) / med(base, lambda r: r["moves_per_s"]), 2),
    } for c in counts}}


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--games", type=int, default=60, help="concurrent games played by WebSocket clients")
    ap.add_argument("--bot-games", type=int, default=10, help="concurrent games of server-side random bots")
    ap.add_argument("--seconds", type=float, default=20.0, help="measured time")
    ap.add_argument("--think", type=float, default=0.0,
                    help="mean seconds a client seat waits before each move (0: at once); sets their offered load")
    ap.add_argument("--bot-delay", type=float, default=0.0,
                    help="seconds each server-side bot waits before moving (0: as fast as possible); "
                         "sets the offered load of the bot games")
    ap.add_argument("--warmup", type=float, default=3.0)
    ap.add_argument("--db", default=None, help="database URL (default: a fresh SQLite file)")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--port", type=int, default=None, help="use a server already running on this port")
    ap.add_argument("--processes", type=int, default=1, help="server processes on one PostgreSQL database")
    ap.add_argument("--compare", default=None, help="e.g. 1,2: measure these process counts in one run")
    ap.add_argument("--rounds", type=int, default=1, help="with --compare: measurements per process count")
    ap.add_argument("--together", action="store_true",
                    help="several processes: a game's sockets all on the process it was created on "
                         "(a proxy with game affinity); default: spread over the processes (any proxy)")
    ap.add_argument("--json", action="store_true", help="print JSON only")
    args = ap.parse_args()
    if args.compare:
        out = compare(args)
        if args.json:
            print(json.dumps(out))
            return
        print(f"affresco serve on PostgreSQL, {'sockets of a game together' if args.together else 'sockets spread'}, "
              f"{args.games} client games + {args.bot_games} bot games, "
              f"{args.seconds} s per measurement, {args.rounds} per process count, {os.cpu_count()} cores")
        print("processes  moves/s  p50 ms  p99 ms  servers CPU%  CPU ms/move  load gen CPU%  machine busy%  scaling")
        for c, m in out["summary"].items():
            print(f"{c:>9}  {m['moves_per_s']:>7}  {m['p50_ms']:>6}  {m['p99_ms']:>6}  {m['server_cpu_percent']:>12}"
                  f"  {m['server_cpu_ms_per_move']:>11}  {m['load_generator_cpu_percent']:>13}"
                  f"  {m['machine_busy_percent']:>13}  {m['scaling']:>7}")
        print("load average (1 min) before/after each run:",
              [r["load_average_1min"] for rs in out["runs"].values() for r in rs])
        return
    result = asyncio.run(run(args))
    if args.json:
        print(json.dumps(result))
        return
    print(f"affresco serve load ({result['db']}, {result['processes']} process(es)): {result['client_games']} client games + "
          f"{result['bot_games']} bot games, {result['seconds']} s")
    print(f"  moves/s           {result['moves_per_s']}")
    lat = result["latency_ms"]
    print(f"  move latency ms   p50 {lat['p50']}  p90 {lat['p90']}  p99 {lat['p99']}  max {lat['max']}"
          f"  ({result['client_moves_timed']} client moves)")
    print(f"  server CPU        {result['server_cpu_percent']}% of a core, "
          f"{result['server_cpu_ms_per_move']} ms per move; load generator {result['load_generator_cpu_percent']}%")
    print(f"  machine           {result['machine_busy_percent']}% of {result['cores']} cores busy, "
          f"load average {result['load_average_1min']}")
    print(f"  server memory MB  {result['server_memory_mb']}")
    print(f"  games finished    {result['games_finished']}; refusals {result['errors']}")


if __name__ == "__main__":
    main()
