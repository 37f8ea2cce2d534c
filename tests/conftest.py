"""Tests, in folders by layer: ``rules/`` (the engine and its modules: every rule, worked
example, invariant, the public API and its boundary), ``i18n/``, ``bots/``, ``sim/``, ``cli/``,
``server/`` (the browser game, in a real browser too), ``envs/``, ``compiled/`` (the mypyc
build against the pure one, docs/compiled.md).  Helpers shared across layers
sit here: ``positions.py`` (positions built from the public JSON format), ``server_support.py``,
``bot_games.py`` (the recorded bot games); data in ``data/``.

This directory is on ``sys.path`` for the tests (pytest puts a root ``conftest.py``'s directory
there), so a test imports a helper as ``from positions import ...``.
"""
