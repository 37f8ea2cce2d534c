"""affresco: the complete digital edition of the board game Fresco (Queen Games, 2010).

    >>> import affresco
    >>> g = affresco.new_game(players=3, seed=1)
    >>> seat = g.to_act[0]
    >>> g.apply(seat, g.legal_actions(seat)[0])

``affresco.COMPILED`` tells whether the mypyc-compiled build is running (docs/compiled.md);
``AFFRESCO_PURE=1`` in the environment forces the pure-Python build of a compiled install.
"""
import os as _os

if _os.environ.get("AFFRESCO_PURE", "") not in ("", "0"):
    from .build import force_pure as _force_pure
    _force_pure()

from .errors import ComponentError, ConfigError, FrescoError, IllegalAction, NotationError, StateError
from .rules import MODULES, Action, Components, Game, load_components, new_game, parse, replay

from .build import compiled_modules as _compiled_modules

__version__ = "0.1.0"
# True when the engine runs as mypyc-compiled extension modules (an install built with a C
# compiler, see docs/compiled.md), False for the pure-Python build.
COMPILED = bool(_compiled_modules())
__all__ = ["COMPILED", "Action", "ComponentError", "Components", "ConfigError", "FrescoError", "Game", "IllegalAction",
           "MODULES", "NotationError", "StateError", "load_components", "new_game", "parse", "replay"]
