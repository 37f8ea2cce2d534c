"""The exceptions affresco raises: every one is a :class:`FrescoError`."""


class FrescoError(Exception):
    """Base class of every error affresco raises on purpose."""


class IllegalAction(FrescoError):
    """An action that is malformed, not legal now, or sent by a seat that is not to act.

    The game state is unchanged when this is raised.
    """


class NotationError(IllegalAction):
    """A text that is not an action in affresco notation (see docs/notation.md)."""


class ComponentError(FrescoError):
    """A component file that is unreadable or breaks a constraint of components.md."""


class StateError(FrescoError):
    """A saved game or hand-written position that is unreadable or inconsistent."""


class ConfigError(FrescoError):
    """Bad arguments to :func:`affresco.new_game` (player count, module, option)."""
