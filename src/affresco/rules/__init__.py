"""The rules engine of Fresco: pure Python, no I/O, deterministic for a seed and actions."""
from .actions import KINDS, Action, parse
from .components import Components, load_components, reference
from .game import RECORD_FORMAT, Game, new_game, replay
from .serialize import FORMAT as STATE_FORMAT, OLD_FORMATS as OLD_STATE_FORMATS
from .tiles import parse_tile_text, tile_text
from .observation import MODULE_FEATURES, PLAN_SCALE, hash_part, module_block
from .hooks import MODULES, Module
from .planning import PlanVariants, read as read_plan
from . import modules  # noqa: F401,E402  (registers the modules in MODULES)

__all__ = ["KINDS", "MODULE_FEATURES", "OLD_STATE_FORMATS", "PLAN_SCALE", "RECORD_FORMAT", "STATE_FORMAT", "Action", "Components", "Game", "MODULES", "Module",
           "PlanVariants", "hash_part", "load_components", "module_block", "new_game", "parse", "parse_tile_text", "read_plan", "reference", "replay",
           "tile_text"]
