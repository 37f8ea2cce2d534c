"""Components as data: loading and validating the printed tiles and tables.

The reference edition lives in ``data/<module>.toml`` with a provenance on every entry
(``printed: <source>`` or ``reconstructed: <why>``).  A user may pass their own file of the
same shape; :func:`load_components` checks it against the constraints of components.md and
raises :class:`~affresco.errors.ComponentError` naming the bad value.
"""
from __future__ import annotations

import hashlib
import json
import tomllib
from dataclasses import dataclass, field
from importlib import resources
from os import PathLike
from pathlib import Path
from typing import Any, Callable, Mapping

from ..errors import ComponentError
from .paints import BASIC, BLENDED, PAINTS, canonical, paint_vector

__all__ = ["Components", "FrescoTile", "HostelSpace", "MarketTile", "load_components", "reference"]


@dataclass(frozen=True, slots=True)
class HostelSpace:
    time: str
    mood: int
    price: int


@dataclass(frozen=True, slots=True)
class MarketTile:
    paints: str
    vector: tuple[int, ...]


@dataclass(frozen=True, slots=True)
class FrescoTile:
    vp: int
    paints: str
    vector: tuple[int, ...]
    splashes: str  # the blended colours shown on the back (R15: the tile counts as any one)


@dataclass(frozen=True)
class Components:
    """An immutable, validated edition of the components (shared by every game using it)."""

    raw: Mapping[str, Any]
    digest: str
    thalers: int
    start_paints: tuple[int, ...]
    apprentices: int
    hostel: tuple[HostelSpace, ...]
    mood_spaces: tuple[int, ...]
    mood_start: int
    market_tiles: tuple[MarketTile, ...]
    removed_for_3: tuple[int, ...]  # indices into market_tiles
    booths: Mapping[int, tuple[int, ...]]  # player count -> tiles per booth
    fresco_tiles: tuple[FrescoTile, ...]
    centre_value: int
    blends: Mapping[str, tuple[int, int]]  # output paint -> the two input paint indices
    rules: Mapping[str, Mapping[str, int]]  # cathedral, altar, studio, ... numbers
    # tables derived from these components (see derived()), filled on first use
    _derived: dict[str, Any] = field(default_factory=dict, init=False, compare=False, repr=False)

    def __reduce__(self) -> tuple:
        """Pickled as its table: the reference edition comes back as the receiving process's
        own (shared, and saved as "reference"), any other edition is built from its table again."""
        return (reference, ()) if self is reference() else (build, (self.raw,))

    def rule(self, section: str, key: str) -> int:
        return self.rules[section][key]

    def derived(self, name: str, build: Callable[["Components"], Any]) -> Any:
        """A table the engine derives from these components (e.g. the get-up actions), built
        by ``build(self)`` once per edition and kept with it."""
        tables = self._derived
        table = tables.get(name)
        if table is None:
            table = tables[name] = build(self)
        return table

    def module(self, name: str) -> Any:
        """The validated component data of module ``name`` in this edition (the user's table
        if the component file has one, else the reference edition's)."""
        from .modules import module_data
        return module_data(name, self)


_RULE_SECTIONS = {
    "cathedral": ("bishop_on_segment", "bishop_adjacent", "bishop_move_cost"),
    "altar": ("basic_vp", "basic_substitute_bonus", "blend_vp"),
    "studio": ("thalers_per_apprentice",),
    "workshop": ("blends_per_apprentice",),
    "theater": ("mood_per_apprentice",),
    "action_sheet": ("columns", "spaces_per_column"),
    "income": ("thalers_per_tile",),
    "end": ("final_round_tiles_left", "thalers_per_vp"),
}

# Values printed in the rulebooks: a component file must keep them (components.md, constraints).
_PRINTED_HOSTEL = {"6:00": (-2, (3, 5)), "7:00": (-1, (2,)), "8:00": (0, (2,))}
_PRINTED_RULES = {
    ("cathedral", "bishop_on_segment"): 3, ("cathedral", "bishop_adjacent"): 2,
    ("cathedral", "bishop_move_cost"): 1, ("altar", "basic_vp"): 2,
    ("altar", "basic_substitute_bonus"): 1, ("altar", "blend_vp"): 6,
    ("studio", "thalers_per_apprentice"): 3, ("workshop", "blends_per_apprentice"): 2,
    ("theater", "mood_per_apprentice"): 2, ("action_sheet", "columns"): 5,
    ("action_sheet", "spaces_per_column"): 3, ("income", "thalers_per_tile"): 1,
    ("end", "final_round_tiles_left"): 6, ("end", "thalers_per_vp"): 2,
}
_PRINTED_BLENDS = {"O": "YR", "P": "RB", "G": "YB"}


def _fail(where: str, msg: str) -> ComponentError:
    return ComponentError(f"component file: {where}: {msg}")


def check_provenance(entry: Mapping[str, Any], where: str) -> None:
    """Every data entry is a table and says where it comes from: 'printed: ...' or
    'reconstructed: ...'."""
    if not isinstance(entry, Mapping):
        raise _fail(where, f"{entry!r}: expected a table (with its provenance)")
    prov = entry.get("provenance")
    texts = list(prov.values()) if isinstance(prov, Mapping) else [prov]
    for t in texts:
        if not isinstance(t, str) or not t.startswith(("printed", "reconstructed")):
            raise _fail(where, f"provenance {t!r} must start with 'printed' or 'reconstructed'")


def _int(entry: Mapping[str, Any], key: str, where: str, lo: int | None = None, hi: int | None = None) -> int:
    v = entry.get(key)
    if not isinstance(v, int) or isinstance(v, bool):
        raise _fail(f"{where}.{key}", f"expected a whole number, got {v!r}")
    if (lo is not None and v < lo) or (hi is not None and v > hi):
        raise _fail(f"{where}.{key}", f"{v} is outside {lo}..{hi}")
    return v


def _paints(entry: Mapping[str, Any], key: str, where: str, allowed: str) -> str:
    v = entry.get(key)
    if not isinstance(v, str) or not v or any(c not in allowed for c in v):
        raise _fail(f"{where}.{key}", f"{v!r} must be paint letters from {allowed!r}")
    return v


def build(raw: Mapping[str, Any]) -> Components:
    """Validate a parsed base component table and build :class:`Components`; ComponentError
    naming the first bad entry."""
    try:
        return _build(raw)
    except ComponentError:
        raise
    except (TypeError, AttributeError, KeyError, ValueError, IndexError) as e:   # a value of a shape no check names
        raise _fail("file", f"malformed ({type(e).__name__}: {e})") from None


def _build(raw: Mapping[str, Any]) -> Components:
    if not isinstance(raw, Mapping):
        raise _fail("file", "the top level must be a table")
    for section in ("player_start", "hostel", "mood_display", "market", "fresco", "blending", *_RULE_SECTIONS):
        if section not in raw:
            raise _fail(section, "section missing")

    ps = raw["player_start"]
    check_provenance(ps, "player_start")
    thalers = _int(ps, "thalers", "player_start", 0)
    if thalers != 12:
        raise _fail("player_start.thalers", f"{thalers}: the printed start is 12 Thalers")
    sp = ps.get("paints")
    if sp != {"R": 1, "Y": 1, "B": 1}:
        raise _fail("player_start.paints", f"{sp!r}: the printed start is one R, one Y and one B")
    apprentices = _int(ps, "apprentices", "player_start", 1)
    if apprentices != 5:
        raise _fail("player_start.apprentices", f"{apprentices}: the printed start is 5 apprentices")

    hostel = []
    if not isinstance(raw["hostel"], list) or len(raw["hostel"]) != 5:
        raise _fail("hostel", "expected 5 get-up spaces")
    for i, h in enumerate(raw["hostel"]):
        w = f"hostel[{i}]"
        check_provenance(h, w)
        t = h.get("time")
        if not isinstance(t, str):
            raise _fail(f"{w}.time", f"{t!r} is not a time like '7:00'")
        space = HostelSpace(t, _int(h, "mood", w, -10, 10), _int(h, "price", w, 0))
        if t in _PRINTED_HOSTEL:
            mood, prices = _PRINTED_HOSTEL[t]
            if space.mood != mood or space.price not in prices:
                raise _fail(w, f"{t} must have the printed mood {mood} and price {' or '.join(map(str, prices))}")
        hostel.append(space)
    if [h.time for h in hostel if h.time in _PRINTED_HOSTEL] != list(_PRINTED_HOSTEL):
        raise _fail("hostel", "the printed rows 6:00, 7:00 and 8:00 must be present, earliest first")

    md = raw["mood_display"]
    check_provenance(md, "mood_display")
    spaces = md.get("spaces")
    if (not isinstance(spaces, list) or len(spaces) < 5 or any(s not in (-1, 0, 1) for s in spaces)
            or spaces[:2] != [1, 1] or spaces[-2:] != [-1, -1] or spaces.count(1) != 2 or spaces.count(-1) != 2):
        raise _fail("mood_display.spaces", f"{spaces!r}: the top two spaces are +1, the bottom two -1, the rest 0")
    start = _int(md, "start", "mood_display", 0, len(spaces) - 1)

    mk = raw["market"]
    check_provenance(mk, "market")
    tiles = []
    for i, t in enumerate(mk.get("tiles", [])):
        w = f"market.tiles[{i}]"
        check_provenance(t, w)
        p = canonical(_paints(t, "paints", w, "RYBOG"))  # notation names tiles in paint order
        if not 1 <= len(p) <= 3:
            raise _fail(f"{w}.paints", f"{p!r}: a market tile shows 1 to 3 paints")
        tiles.append(MarketTile(p, paint_vector(p)))
    if len(tiles) != 14:
        raise _fail("market.tiles", f"{len(tiles)} tiles: the printed market has 14")
    blended = [t.paints for t in tiles if any(c in "OG" for c in t.paints)]
    if len(blended) != 2 or not any("O" in b for b in blended) or not any("G" in b for b in blended):
        raise _fail("market.tiles", f"tiles with blended paint {blended!r}: exactly one with orange and one with green")
    removed = mk.get("removed_for_3")
    names = [t.paints for t in tiles]
    if not isinstance(removed, list) or len(removed) != 3:
        raise _fail("market.removed_for_3", f"{removed!r}: 3 tiles are removed for 3 players")
    removed_idx: list[int] = []
    for r in removed:
        r = canonical(r) if isinstance(r, str) and all(c in PAINTS for c in r) else r
        cand = [i for i, n in enumerate(names) if n == r and i not in removed_idx]
        if not cand:
            raise _fail("market.removed_for_3", f"{r!r} is not a market tile")
        removed_idx.append(cand[0])
    booths_raw = mk.get("booths", {})
    if not isinstance(booths_raw, Mapping):
        raise _fail("market.booths", f"{booths_raw!r}: a table of booth sizes per player count")
    booths = {}
    for n, total, count in ((4, 13, 4), (3, 9, 3), (2, 9, 3)):
        b = booths_raw.get(str(n))
        if not isinstance(b, list) or len(b) != count or any(not isinstance(x, int) or x < 1 for x in b) or sum(b) != total:
            raise _fail(f"market.booths.{n}", f"{b!r}: {count} booths showing {total} tiles in all")
        booths[n] = tuple(b)

    fr = raw["fresco"]
    check_provenance(fr, "fresco")
    ftiles = []
    for i, t in enumerate(fr.get("tiles", [])):
        w = f"fresco.tiles[{i}]"
        check_provenance(t, w)
        p = _paints(t, "paints", w, "RYBOGP")
        splashes = t.get("splashes", "".join(sorted(set(c for c in p if c in BLENDED), key=PAINTS.index)))
        if not isinstance(splashes, str) or len(splashes) > 3 or any(c not in BLENDED for c in splashes):
            raise _fail(f"{w}.splashes", f"{splashes!r}: zero to three splashes of O, G or P")
        ftiles.append(FrescoTile(_int(t, "vp", w, 3, 11), p, paint_vector(p), splashes))
    if len(ftiles) != 25:
        raise _fail("fresco.tiles", f"{len(ftiles)} tiles: the base fresco has 25")
    centre = _int(fr, "centre_value", "fresco", 11, 11)
    if sum(t.vp == 11 for t in ftiles) < 2:
        raise _fail("fresco.tiles", "at least two tiles must be valued 11")
    if not any(t.vp == 3 for t in ftiles):
        raise _fail("fresco.tiles", "a tile valued 3 must exist (rulebook example)")

    blends: dict[str, tuple[int, int]] = {}
    for i, b in enumerate(raw["blending"]):
        w = f"blending[{i}]"
        check_provenance(b, w)
        ins = _paints(b, "inputs", w, PAINTS)
        out = _paints(b, "output", w, PAINTS)
        if len(ins) != 2 or len(out) != 1:
            raise _fail(w, "a blend turns two paints into one")
        blends[out] = (PAINTS.index(ins[0]), PAINTS.index(ins[1]))
    for out, ins in _PRINTED_BLENDS.items():
        if out not in blends or sorted(blends[out]) != sorted(PAINTS.index(c) for c in ins):
            raise _fail("blending", f"{ins[0]}+{ins[1]}={out} is printed and must be kept")

    rules: dict[str, dict[str, int]] = {}
    for section, keys in _RULE_SECTIONS.items():
        sec = raw[section]
        check_provenance(sec, section)
        rules[section] = {k: _int(sec, k, section, 0) for k in keys}
    for (section, key), value in _PRINTED_RULES.items():
        if rules[section][key] != value:
            raise _fail(f"{section}.{key}", f"{rules[section][key]}: the rulebook prints {value}")

    digest = hashlib.sha256(json.dumps(raw, sort_keys=True).encode()).hexdigest()[:16]
    return Components(
        raw=raw, digest=digest, thalers=thalers, start_paints=paint_vector(BASIC), apprentices=apprentices,
        hostel=tuple(hostel), mood_spaces=tuple(spaces), mood_start=start, market_tiles=tuple(tiles),
        removed_for_3=tuple(removed_idx), booths=booths, fresco_tiles=tuple(ftiles), centre_value=centre,
        blends=blends, rules=rules,
    )


def parse_text(text: str, name: str = "component file") -> dict:
    """Parse TOML or JSON text into a table."""
    try:
        if text.lstrip().startswith("{"):
            return json.loads(text)
        return tomllib.loads(text)
    except (ValueError, RecursionError) as e:   # TOMLDecodeError is a ValueError; too deep: RecursionError
        raise ComponentError(f"{name}: not valid TOML or JSON: {e}") from None


def load_components(source: str | Path | Mapping[str, Any] | None = None) -> Components:
    """Load the reference edition (``None``, or ``"reference"`` as saved states and records name
    it), a file path, or an already parsed table."""
    if source is None or source == "reference":
        return reference()
    if isinstance(source, Mapping):
        return build(source)
    if not isinstance(source, (str, PathLike)):
        raise ComponentError(f"components: a component file's path or a parsed table, not {source!r}")
    path = Path(source)
    try:
        text = path.read_text(encoding="utf-8")
    except OSError as e:
        raise ComponentError(f"component file {path}: cannot read it ({e.strerror})") from None
    except ValueError as e:   # not UTF-8 (UnicodeDecodeError), a NUL in the path
        raise ComponentError(f"component file {path}: cannot read it as UTF-8 text ({e})") from None
    return build(parse_text(text, str(path)))


_REFERENCE: Components | None = None


def reference() -> Components:
    """The reference edition shipped with affresco (loaded once)."""
    global _REFERENCE
    if _REFERENCE is None:
        text = resources.files(__package__).joinpath("data/base.toml").read_text(encoding="utf-8")
        _REFERENCE = build(tomllib.loads(text))
    return _REFERENCE
