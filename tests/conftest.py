"""Tests, in folders by layer: ``rules/`` (the engine and its modules: every rule, worked
example, invariant, the public API and its boundary), ``i18n/``, ``bots/``, ``sim/``, ``cli/``,
``server/`` (the browser game, in a real browser too), ``envs/``, ``compiled/`` (the mypyc
build against the pure one, docs/compiled.md).  Helpers shared across layers
sit here: ``positions.py`` (positions built from the public JSON format), ``server_support.py``,
``bot_games.py`` (the recorded bot games); data in ``data/``.

This directory is on ``sys.path`` for the tests (pytest puts a root ``conftest.py``'s directory
there), so a test imports a helper as ``from positions import ...``.
"""
from __future__ import annotations

import gc

import pytest

# Python's cyclic garbage collector, with its default thresholds (700, 10, 10), took a third of
# the CPU of the engine's tests (tests/rules/test_modules_bells.py and test_modules_combinations.py:
# 36 of 105 CPU-s, 27,000 collections of the young generations, each walking the games' young
# containers; bench/README.md "### Measured: session 21, ci24").  The engine's states are freed by
# reference counting; the collector only finds cycles, and finds them as well less often.  This
# sets the test processes only (pytest and its xdist workers), not the servers, CLIs and bots they
# start, and no test depends on when a cycle is collected (issue #12's CI time).
gc.set_threshold(50_000, 20, 100)


@pytest.hookimpl(trylast=True)      # after ``-k``/``-m`` deselection: the slices are of the tests that run
def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    """Each xdist worker's share starts with its files holding a test marked ``slow`` (several
    seconds: whole games, browsers, servers), each file's tests together and in their order (a
    file's module-scoped browser or server is started once a worker), and ends with the others.

    CI runs ``pytest -n auto --dist worksteal`` (.ci/run).  worksteal gives each worker one
    contiguous slice of this order (the first ``len // workers`` tests to the first worker...),
    and an idle worker takes the second half of the longest remaining queue.  So the slow files
    are dealt round-robin, one group at the head of each worker's slice, and the short tests
    fill the rest: every worker starts on long tests and every queue ends with short ones, so
    whatever is stolen at the end is short and no core idles behind one long test.  (With all
    the slow files at the head of the first slice, the second worker stole the tail of the
    slow files, the browser games, and both workers ended on them; with xdist's default
    ``--dist load`` a worker kept a queue of browser and server tests to itself while the
    other idled: 10 minutes of one idle core in a loaded run.)"""
    workers = getattr(config, "workerinput", {}).get("workercount", 1)
    slow_files = list(dict.fromkeys(item.path for item in items if item.get_closest_marker("slow")))
    group = {path: i % workers for i, path in enumerate(slow_files)}
    heads: list[list[pytest.Item]] = [[] for _ in range(workers)]
    rest = []
    for item in items:
        (heads[group[item.path]] if item.path in group else rest).append(item)
    order: list[pytest.Item] = []
    for i, head in enumerate(heads):
        share = (len(items) - len(order)) // (workers - i)     # worksteal's slice for worker i
        order += head
        fill = max(0, share - len(head)) if i < workers - 1 else len(rest)
        order += rest[:fill]
        del rest[:fill]
    items[:] = order
