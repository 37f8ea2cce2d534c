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

import pytest


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    """The files holding a test marked ``slow`` (several seconds: whole games, browsers,
    servers) run first, each file's tests together and in their order (a file's module-scoped
    browser or server is started once a worker), then the others.  CI runs ``pytest -n auto
    --dist worksteal`` (.ci/run): each worker starts on half of this order and an idle worker
    takes half of the other's queue, so the long tests start early and the run ends with short
    tests on both cores.  (With xdist's default ``--dist load`` a worker kept a queue of browser
    and server tests to itself while the other idled: 10 minutes of one idle core in a loaded run.)"""
    slow_files = {item.path for item in items if item.get_closest_marker("slow")}
    items.sort(key=lambda item: item.path not in slow_files)
