"""The expansion modules, one file each, plugged into the round through ``rules.hooks``.

Each module's components live in ``rules/data/<name>.toml`` (reference edition, provenance
per value).  A user component file may replace them with a table named after the module.
"""
from __future__ import annotations

import tomllib
from functools import lru_cache
from importlib import resources
from typing import Any

from ...errors import ComponentError
from ..components import Components
from ..hooks import MODULES


@lru_cache(maxsize=None)
def _reference_raw(name: str) -> dict | None:
    path = resources.files("affresco.rules").joinpath(f"data/{name}.toml")
    if not path.is_file():
        return None  # a module without components
    return tomllib.loads(path.read_text(encoding="utf-8"))


from . import bells, bishops_favour, medico, portraits, requests, scrolls, special_colours, wall_fresco  # noqa: E402,F401  (registration)

_BUILT: dict[tuple[str, str], Any] = {}


def module_data(name: str, comp: Components) -> Any:
    """The validated component data of a module: the user's table if the component file has
    one named after the module, else the reference edition."""
    raw = comp.raw.get(name)
    key = (name, comp.digest if raw is not None else "reference")
    if key not in _BUILT:
        table = raw if raw is not None else _reference_raw(name)
        if table is None:
            return None
        if not isinstance(table, dict):
            raise ComponentError(f"component file: {name}: must be a table")
        try:
            _BUILT[key] = MODULES[name].build_data(table)
        except (TypeError, AttributeError, KeyError, ValueError, IndexError) as e:   # a shape no check names
            raise ComponentError(f"component file: {name}: malformed ({type(e).__name__}: {e})") from None
    return _BUILT[key]
