"""affresco: the complete digital edition of the board game Fresco (Queen Games, 2010).

    >>> import affresco
    >>> g = affresco.new_game(players=3, seed=1)
    >>> seat = g.to_act[0]
    >>> g.apply(seat, g.legal_actions(seat)[0])
"""
from .errors import ComponentError, ConfigError, FrescoError, IllegalAction, NotationError, StateError
from .rules import MODULES, Action, Components, Game, load_components, new_game, parse, replay

__version__ = "0.1.0"
__all__ = ["Action", "ComponentError", "Components", "ConfigError", "FrescoError", "Game", "IllegalAction",
           "MODULES", "NotationError", "StateError", "load_components", "new_game", "parse", "replay"]
