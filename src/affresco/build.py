"""Which build of affresco is running: the pure-Python one or the mypyc-compiled one.

An install made with a C compiler present (``AFFRESCO_COMPILE=1 pip install .``, see
``setup.py`` and docs/compiled.md) holds a compiled extension module next to the source of each
module in :data:`COMPILED_MODULES`; Python's import system prefers the extension.  Setting
``AFFRESCO_PURE=1`` in the environment before ``affresco`` is first imported makes every
``affresco`` module load from its ``.py`` source instead (the same install then runs the pure
build: how the compiled and pure builds are compared move for move).
"""
from __future__ import annotations

import importlib.abc
import importlib.machinery
import importlib.util
import os
import sys
from types import ModuleType
from typing import Sequence

# The modules compiled by ``setup.py`` (mypyc).  Left out, with the reason:
#  * every ``__init__.py`` (import glue, not hot);
#  * rules.explain, rules.action_space: run once per refusal or set-up, not per decision (not hot);
#  * bots.parallel, bots.specs: process pools and parsing, not hot.
# bots.greedy is compiled only because its class subclasses HeuristicBot (a native class).
COMPILED_MODULES: tuple[str, ...] = (
    "affresco.rules.actions", "affresco.rules.board", "affresco.rules.cathedral", "affresco.rules.chance",
    "affresco.rules.components", "affresco.rules.flow",
    "affresco.rules.hooks", "affresco.rules.hostel", "affresco.rules.house",
    "affresco.rules.leonardo", "affresco.rules.market", "affresco.rules.memo", "affresco.rules.paints",
    "affresco.rules.planning", "affresco.rules.preparation",
    "affresco.rules.scoring", "affresco.rules.serialize", "affresco.rules.determinized", "affresco.rules.game",
    "affresco.rules.setup", "affresco.rules.state", "affresco.rules.studio",
    "affresco.rules.thalers", "affresco.rules.theater", "affresco.rules.tiles",
    "affresco.rules.track", "affresco.rules.view", "affresco.rules.workshop", "affresco.rules.observation",
    "affresco.rules.modules.bishops_favour", "affresco.rules.modules.portraits",
    "affresco.rules.modules.requests", "affresco.rules.modules.scrolls",
    "affresco.rules.modules.special_colours", "affresco.rules.modules.bells",
    "affresco.rules.modules.wall_fresco", "affresco.rules.modules.medico",
    "affresco.bots.base", "affresco.bots.random_bot", "affresco.bots.search",
    "affresco.bots.determinize", "affresco.bots.model", "affresco.bots.greedy",
    "affresco.bots.heuristic.weights", "affresco.bots.heuristic.valuation",
    "affresco.bots.heuristic.modules", "affresco.bots.heuristic.bells", "affresco.bots.heuristic.wall",
    "affresco.bots.heuristic.round", "affresco.bots.heuristic.leonardo", "affresco.bots.heuristic.bot",
    "affresco.bots.heuristic.medico",
)

PURE_ENV = "AFFRESCO_PURE"


class _SourceFirst(importlib.abc.MetaPathFinder):
    """Finds ``affresco`` modules as usual, but loads a module from its ``.py`` source when the
    usual finder would load a compiled extension module beside it."""

    def find_spec(self, fullname: str, path: Sequence[str] | None,
                  target: ModuleType | None = None) -> importlib.machinery.ModuleSpec | None:
        if not fullname.startswith("affresco."):
            return None
        spec = importlib.machinery.PathFinder.find_spec(fullname, path)
        if spec is None or not isinstance(spec.loader, importlib.machinery.ExtensionFileLoader):
            return spec
        origin = spec.origin or ""
        for suffix in importlib.machinery.EXTENSION_SUFFIXES:
            if origin.endswith(suffix):
                source = origin[: -len(suffix)] + ".py"
                if os.path.exists(source):
                    return importlib.util.spec_from_file_location(fullname, source)
        return spec


def force_pure() -> None:
    """Load every ``affresco`` module imported from now on from its source (``AFFRESCO_PURE``)."""
    if not any(isinstance(f, _SourceFirst) for f in sys.meta_path):
        sys.meta_path.insert(0, _SourceFirst())


def compiled_modules() -> list[str]:
    """The ``affresco`` modules loaded so far that run compiled (mypyc extension modules)."""
    return sorted(name for name, module in list(sys.modules.items())
                  if name.startswith("affresco.") and isinstance(
                      getattr(module, "__loader__", None), importlib.machinery.ExtensionFileLoader))


def describe() -> str:
    """'compiled with mypyc (N modules)' or 'pure Python', for ``affresco --version``."""
    import affresco.rules.game  # noqa: F401  (a module of the compiled set, loaded)
    names = compiled_modules()
    return f"compiled with mypyc ({len(names)} modules)" if names else "pure Python"
