"""Issue #15.3: a bot's answer time must not depend on what it alone knows.

A search bot used to answer a forced ``scroll none`` in milliseconds and think a full second
when it held a matching scroll, so anyone watching the pushes learnt its scroll.  The bot
runner now answers every decision of a seat at the end of a budget fixed per seat.  Measured
here on decisions whose legal set depends on secrets (scrolls held, paints for a restoration
or a blend, altar offers, portraits and requests), forced or not, for a timed and a quick bot.
"""
from __future__ import annotations

import asyncio
import copy
import statistics
import time

import pytest

from affresco.server.bots import BotRunner
from affresco.server.store import SeatInfo

from server_support import answer_times as _time, decision_points  # noqa: E402

@pytest.mark.slow
@pytest.mark.parametrize("bot,seconds,delay", [("search", 0.05, 0.0), ("heuristic", None, 0.4)])
def test_answer_time_does_not_depend_on_secrets(bot, seconds, delay):
    # three decisions a label: a label's median is then the time of most of its answers, and
    # one rare overrun under load (logged, below) cannot move it by half its size
    points = copy.deepcopy(decision_points(3))
    labels = {"scroll:forced", "scroll:choice", "restore:choice", "blend:choice", "no-restore", "altar:choice",
              "portrait:choice", "request:choice"}
    assert {"scroll:forced", "scroll:choice", "restore:choice", "blend:choice", "no-restore"} <= set(points)
    points = {k: v for k, v in points.items() if k in labels}
    # the budget must cover the bot's slowest decision on this machine, its thinking time and
    # the work around it (an overrun is logged, and is the one case the padding cannot hide):
    # measure it, then pad above it, enough for the CPU to be shared with three times as many
    # other processes again (CI's other test worker, its browsers and servers, and the compile
    # beside them, which runs at the tests' priority: with 2.5x, a loaded CI run overran every
    # altar answer by 30-50 ms)
    from affresco.server.bots import decide
    slowest = 0.0
    for label, pts in points.items():
        for i, (view, legal, seat) in enumerate(pts):
            t0 = time.perf_counter()
            decide(bot, f"t:{label}:{i}", seconds, copy.deepcopy(view), legal, seat)
            slowest = max(slowest, time.perf_counter() - t0)
    delay = max(delay, 4 * slowest + 0.05)
    runner = BotRunner(processes=1, delay=delay)
    info = SeatInfo(1, "B", "bot", bot, seconds)
    budget = runner.budget(info)

    def spread(times):
        medians = {label: statistics.median(ts) for label, ts in times.items()}
        return max(medians.values()) - min(medians.values()), medians

    async def main():
        if seconds is not None:                      # the pool starts (and warms) before we measure
            await asyncio.get_running_loop().run_in_executor(runner.pool(), sum, [1])
            await asyncio.sleep(1.5)
        # one untimed answer first: the runner's first decision of a process starts what it
        # needs (a pool, imports, tables), the same whatever the secrets; measured, it would be
        # the one answer past the budget under load
        view, legal, seat = next(iter(points.values()))[0]
        await runner.decide(info, "t:warm-up", copy.deepcopy(view), legal, seat)
        first = await _time(runner, info, points)
        if spread(first)[0] < 0.03:
            return [first]
        # a spread is measured again: an answer time that depends on a secret is late every
        # time its label is asked, while a spell of load on the machine (CI's other worker, its
        # browsers and the compile share 2 cores) falls on whichever labels were being asked
        return [first, await _time(runner, info, points)]
    try:
        runs = asyncio.run(main())
    finally:
        runner.close()
    every = [t for times in runs for ts in times.values() for t in ts]
    # every answer at the end of the same budget: never sooner, and later only by scheduling jitter
    # (or, on a machine loaded far beyond its cores, a rare overrun, which is logged)
    assert min(every) >= budget - 0.002, runs
    assert sum(t <= budget + 0.1 for t in every) >= 0.85 * len(every), runs
    # forced and chosen, holding a scroll or not, able to restore or not: the same distribution
    assert spread(runs[-1])[0] < 0.03, [spread(times)[1] for times in runs]
