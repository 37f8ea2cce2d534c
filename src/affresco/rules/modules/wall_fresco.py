"""Module 9, the wall fresco (modules 8-10 rulebook, 'The Wall Fresco'; rulings R10, R13, R15, R21).

A small wall board of sections, each covered by a wall tile, restored contiguously from the
already-restored bottom left (a section adjoining a restored one orthogonally).  While
planning, a player may cover one column of the action sheet with the wall action tile and put
exactly one apprentice on it (no other apprentice in that column); at that column's turn, in
get-up order, the apprentice restores one section: the player pays the tile's blended paint,
scores 4 VP at once and keeps the tile back side up.  At each later round preparation the
tiles pay at most one cube of each basic colour shown on their backs, and each exchange tile
one cube of its blend.  At the workshop an apprentice may, instead of blending, trade 2 wall
tiles of 2 different basic colours for the exchange tile of their blend (one exchange tile of
each blend per player).  With the bishop's requests the tiles count like fresco tiles (R15);
their income is separate.  Leonardo never restores the wall (2 players).
"""
from __future__ import annotations

from functools import lru_cache
from itertools import combinations
from typing import Any, Mapping, NamedTuple, Sequence

from ...errors import ComponentError, StateError
from .. import track
from ..chance import chance
from ..state import State
from ..actions import KINDS, PASS, PLAN_WORDS, Action, arg_order, plan_word, tile_text_key, word_kind
from ..components import check_provenance as provenance_ok
from ..hooks import Module, ModuleState, ask, own, register, with_item
from ..memo import IdentityMemo
from ..planning import column_words, column_words_of
from ..paints import BASIC, BLENDED, INDEX as PAINT_INDEX, PAINTS, add_one, covers8, minus, paint_vector

NAME = "wall_fresco"   # the module's name: its state is ``state.mods[NAME]``

TILE = "wall"          # the action tile's word in plan notation ('plan 1-0-2-1-0 wall theater')
plan_word(TILE, 1, 70)   # after bells' words, before the medico's (hooks.ORDER)
arg_order("exchange", str)
word_kind(TILE)          # its words are never paints (nor the exchange's wall tiles: W:...)
word_kind("exchange")
KINDS.update({
    "wall": "wall <section>           restore a wall fresco section, e.g. 'wall A3' (module wall_fresco)",
    "exchange": "exchange <tile> <tile>  trade 2 wall tiles for an exchange tile, e.g. 'exchange W:G/B W:O/Y' "
                "(module wall_fresco)",
})


class WallTile(NamedTuple):
    """A wall fresco tile: ``paint`` on the front (what a restoration pays), ``income`` the
    basic paint on the back, ``splash`` the back's splash (bishop's requests)."""

    paint: str
    income: str
    splash: str

    @property
    def text(self) -> str:
        """'W:P/R' (front purple, back red); '/S' is added when the splash is not the front's colour."""
        text = _TILE_TEXTS.get(self)
        if text is None:
            extra = "" if self.splash == self.paint[0] else f"/{self.splash}"
            text = f"W:{self.paint}/{self.income}{extra}"
            if len(_TILE_TEXTS) < 4096:     # an edition has a handful of kinds of tiles
                _TILE_TEXTS[self] = text
        return text


_TILE_TEXTS: dict[WallTile, str] = {}


@lru_cache(maxsize=64)
def _vector(paint: str) -> tuple[int, ...]:
    return paint_vector(paint)


@lru_cache(maxsize=1024)
def _paint_sum(a: str, b: str) -> str:
    """Two paint texts together, in paint order (memoised: the seats' wall income and its sums
    repeat, and the keyed sort costs ~5k instructions, a hit ~0.6k)."""
    return "".join(sorted(a + b, key=PAINT_INDEX.__getitem__))


def parse_wall_tile(text) -> WallTile:
    """Read 'W:P/R' or 'W:P/R/G' (raises ValueError)."""
    if not isinstance(text, str) or not text.startswith("W:"):
        raise ValueError(f"{text!r}: a wall tile is written 'W:<front paint>/<back paint>', e.g. 'W:P/R'")
    parts = text[2:].split("/")
    if len(parts) not in (2, 3) or not parts[0] or any(c not in BLENDED for c in parts[0]) \
            or parts[1] not in BASIC or len(parts[1]) != 1 or (len(parts) == 3 and parts[2] not in BLENDED):
        raise ValueError(f"{text!r}: a wall tile is written 'W:<front paint>/<back paint>', e.g. 'W:P/R'")
    return WallTile(parts[0], parts[1], parts[2] if len(parts) == 3 else parts[0][0])


class Data(NamedTuple):
    rows: int
    columns: int
    restored: frozenset[int]             # cells restored at set-up
    tiles: tuple[WallTile, ...]          # the 18 tiles (one per section to cover)
    vp: int                              # per section restored
    exchange: tuple[tuple[str, int], ...]  # blend -> exchange tiles at the workshop

    def name(self, cell: int) -> str:
        return f"{'ABCDEFGHIJ'[cell % self.columns]}{cell // self.columns + 1}"

    def cell(self, name: str) -> int | None:
        if len(name) < 2 or name[0] not in "ABCDEFGHIJ"[:self.columns] or not name[1:].isdigit():
            return None
        r = int(name[1:]) - 1
        return r * self.columns + "ABCDEFGHIJ".index(name[0]) if 0 <= r < self.rows else None

    def neighbours(self, cell: int) -> tuple[int, ...]:
        return _neighbours(self.rows, self.columns)[cell]


@lru_cache(maxsize=None)
def _neighbours(rows: int, columns: int) -> tuple[tuple[int, ...], ...]:
    """The orthogonal neighbours of every cell of a rows x columns board."""
    out = []
    for cell in range(rows * columns):
        r, c = divmod(cell, columns)
        out.append(tuple(rr * columns + cc for rr, cc in ((r - 1, c), (r + 1, c), (r, c - 1), (r, c + 1))
                         if 0 <= rr < rows and 0 <= cc < columns))
    return tuple(out)


_FRONTIER = IdentityMemo(256)   # board -> its frontier


def _backs_income(held: tuple[WallTile, ...]) -> str:
    """The basic paints shown on the backs of the wall tiles ``held``, each once, in paint
    order (memoised on the tiles, which change only at a restoration or an exchange)."""
    gained = _INCOME.get(held)
    if gained is None:
        backs = {t.income for t in held}
        gained = ""
        for c in BASIC:     # (a loop: a comprehension reading ``backs`` would make it a cell at every call)
            if c in backs:
                gained += c
        _INCOME.put(held, gained)
    return gained


_INCOME = IdentityMemo(1024)        # tiles held -> their income
_BOARD_TEXTS = IdentityMemo(256)    # board -> (rows of tile texts, restorable section names)


def _blends_by_inputs(comp) -> dict[frozenset, str]:
    """The blend of each pair of paints (by paint text), from the edition's blending table."""
    return {frozenset(PAINTS[i] for i in ins): out for out, ins in reversed(comp.blends.items())}


class WState(ModuleState):
    """The wall fresco's state (``state.mods['wall_fresco']``), written in place (hooks.ModuleState)."""

    board: tuple[WallTile | None, ...]  # per cell: its tile, None once restored
    held: tuple[tuple[WallTile, ...], ...]  # per seat: wall tiles in front of the screen
    exchange: tuple[str, ...]  # per seat: the blends of their exchange tiles
    supply: tuple[tuple[str, int], ...]  # exchange tiles left at the workshop
    placed: tuple[int, ...]  # per seat: column covered this round, -1 none
    paid: tuple[str, ...]  # per seat: every paint paid for wall sections (public)
    received: tuple[str, ...]  # per seat: every paint of wall income so far (public)

    def __init__(self, board: tuple[WallTile | None, ...], held: tuple[tuple[WallTile, ...], ...],
                 exchange: tuple[str, ...], supply: tuple[tuple[str, int], ...], placed: tuple[int, ...],
                 paid: tuple[str, ...] = (), received: tuple[str, ...] = ()) -> None:
        self.board = board
        self.held = held
        self.exchange = exchange
        self.supply = supply
        self.placed = placed
        self.paid = paid
        self.received = received
        self.version = 0

    def copy(self) -> WState:
        return WState(self.board, self.held, self.exchange, self.supply, self.placed, self.paid, self.received)


class WallFresco(Module):
    name = NAME
    visit_columns = ("workshop",)   # the exchange instead of blending
    action_kinds = ("exchange",)
    visit_kinds = (("workshop", ("exchange",)),)
    plan_words = (TILE,)
    view_reads = ("phase", "side2")   # action tiles hidden while planning, column words
    busy_columns = ()                 # visit_start: the wall tile's column, where no apprentice goes
    action_tile = ("wall action tile", "action_tile")

    # --- components -----------------------------------------------------------------------
    @classmethod
    def build_data(cls, raw: dict) -> Data:
        w = "wall_fresco"
        provenance_ok(raw, w)
        vp = raw.get("vp_per_section")
        if vp != 4:
            raise ComponentError(f"component file: {w}.vp_per_section: {vp!r}: the rulebook prints 4 VP")
        b = raw.get("board")
        if not isinstance(b, dict):
            raise ComponentError(f"component file: {w}.board: a table with rows, columns, restored")
        provenance_ok(b, f"{w}.board")
        rows: Any = b.get("rows")
        cols: Any = b.get("columns")
        if not all(isinstance(x, int) and not isinstance(x, bool) and 1 <= x <= 10 for x in (rows, cols)):
            raise ComponentError(f"component file: {w}.board: rows and columns are whole numbers 1..10")
        probe = Data(rows, cols, frozenset(), (), vp, ())
        restored = set()
        for name in b.get("restored", []) if isinstance(b.get("restored"), list) else [None]:
            cell = probe.cell(name) if isinstance(name, str) else None
            if cell is None:
                raise ComponentError(f"component file: {w}.board.restored: {name!r} is not a section "
                                     f"(A1..{probe.name(rows * cols - 1)})")
            restored.add(cell)
        if (rows - 1) * cols not in restored:
            raise ComponentError(f"component file: {w}.board.restored: the bottom-left section "
                                 f"{probe.name((rows - 1) * cols)} is printed as already restored")
        tiles: list[WallTile] = []
        for i, t in enumerate(raw.get("tiles", [])):
            tw = f"{w}.tiles[{i}]"
            provenance_ok(t, tw)
            paint, income = t.get("paint"), t.get("income")
            splash = t.get("splash", paint[0] if isinstance(paint, str) and paint else None)
            count = t.get("count", 1)
            if not isinstance(paint, str) or not 1 <= len(paint) <= 3 or any(c not in BLENDED for c in paint):
                raise ComponentError(f"component file: {tw}.paint: {paint!r}: the front shows blended paint (O, G, P)")
            if income not in tuple(BASIC):
                raise ComponentError(f"component file: {tw}.income: {income!r}: the back shows a basic paint (R, Y, B)")
            if splash not in tuple(BLENDED):
                raise ComponentError(f"component file: {tw}.splash: {splash!r}: a splash of O, G or P")
            if not isinstance(count, int) or isinstance(count, bool) or count < 1:
                raise ComponentError(f"component file: {tw}.count: {count!r} must be a whole number >= 1")
            paint = "".join(sorted(paint, key=PAINTS.index))
            tiles += [WallTile(paint, income, splash)] * count
        if len(tiles) != 18:
            raise ComponentError(f"component file: {w}.tiles: {len(tiles)} tiles: the module has 18 wall fresco tiles")
        if len(tiles) != rows * cols - len(restored):
            raise ComponentError(f"component file: {w}.board: {rows * cols - len(restored)} sections to restore "
                                 f"for {len(tiles)} tiles: one tile covers each section")
        if not any(t.paint == "P" for t in tiles):
            raise ComponentError(f"component file: {w}.tiles: the printed tile paid with one purple is missing")
        ex = raw.get("exchange")
        if not isinstance(ex, dict):
            raise ComponentError(f"component file: {w}.exchange: a table O = 4, G = 4, P = 4")
        provenance_ok(ex, f"{w}.exchange")
        counts = {k: v for k, v in ex.items() if k != "provenance"}
        if counts != {"O": 4, "G": 4, "P": 4}:
            raise ComponentError(f"component file: {w}.exchange: {counts!r}: printed are 4 each of O, G and P")
        return Data(rows, cols, frozenset(restored), tuple(tiles), vp, tuple(sorted(counts.items())))

    # --- the action index space (rules/action_space.py) ---------------------------------
    def action_space(self, space) -> None:
        """Plans with the wall word on an empty column that no earlier module word names (the
        plans so far, each with the column words of its side of the action sheet), 'wall
        <section>' for every section, and 'exchange' for every pair of printed wall tiles with
        different backs."""
        plans = [a for a in space.plans() if TILE not in a.args]
        for words in space.column_words():
            named = set(words) | set(PLAN_WORDS)   # the earlier words' arguments name columns of this side
            space.actions.extend(_with_wall(tuple(a for a in plans if named.issuperset(a.args[1:])), words, 99))
        d = self.data
        space.actions.extend(Action(TILE, (d.name(c),)) for c in range(d.rows * d.columns) if c not in d.restored)
        kinds = sorted(set(d.tiles))
        space.actions.extend(Action("exchange", tuple(sorted((a.text, b.text))))
                             for a, b in combinations(kinds, 2) if a.income != b.income)
        self._request_space(space)

    def _request_space(self, space) -> None:
        """With the bishop's requests (R15): each request form the requests module listed, again
        with 1..3 of its tiles replaced by wall tiles (any wall tile: a superset)."""
        from collections import Counter
        from itertools import combinations_with_replacement
        reqs = [a for a in space.actions if a.kind == "request"]
        if not reqs:
            return
        per = len(reqs[0].args) - 1
        fresco = Counter(space.tile_texts())
        wall = Counter(t.text for t in self.data.tiles)
        usable: dict[str, set] = {}
        for a in reqs:
            usable.setdefault(a.args[0], set()).update(a.args[1:])

        def multisets(counts: Counter, texts, k: int) -> list[tuple]:
            return [c for c in combinations_with_replacement(sorted(texts), k)
                    if all(c.count(x) <= counts[x] for x in set(c))]

        for kind, texts in usable.items():
            for k in range(1, per + 1):
                for ws in multisets(wall, wall, k):
                    for fs in multisets(fresco, texts, per - k):
                        space.actions.append(Action("request", (kind, *sorted(ws + fs, key=tile_text_key))))

    # --- helpers --------------------------------------------------------------------------
    def st(self, s: State) -> WState:
        return s.mods[NAME]

    def frontier(self, board: tuple) -> tuple[tuple[int, tuple[int, ...], Action], ...]:
        """The covered sections next to a restored one ('a section can be restored only if it
        adjoins a restored section in an orthogonal direction'), in board order, each with the
        paints it costs (a paint vector) and its restoration 'wall SECTION': memoised on the
        board, which changes only when a section is restored."""
        hit = _FRONTIER.get(board)
        if hit is None:
            adj = _neighbours(self.data.rows, self.data.columns)
            sections = []
            for c, t in enumerate(board):
                if t is not None:
                    for n in adj[c]:
                        if board[n] is None:
                            sections.append(self._section(c, t))
                            break
            hit = _FRONTIER.put(board, tuple(sections))
        return hit

    def _section(self, cell: int, tile: WallTile) -> tuple[int, tuple[int, ...], Action]:
        """A section of the frontier: its cell, the paints it costs, its restoration."""
        return cell, _vector(tile.paint), Action(TILE, (self.data.name(cell),))

    def _blend_of(self, s: State, a: str, b: str) -> str | None:
        return s.comp.derived("wall_fresco.blend_of", _blends_by_inputs).get(frozenset((a, b)))

    # --- set-up, planning -----------------------------------------------------------------
    def setup(self, s: State, rng) -> None:
        """'Mix the 18 wall fresco tiles with their front sides visible. Cover each segment of
        the small wall fresco board with one random wall fresco tile.'"""
        tiles = list(self.data.tiles)
        rng.shuffle(tiles)
        cells = self.data.rows * self.data.columns
        board = tuple(None if c in self.data.restored else tiles.pop() for c in range(cells))
        s.mods[NAME] = WState(board, ((),) * s.n, ("",) * s.n, self.data.exchange, (-1,) * s.n,
                                   ("",) * s.n, ("",) * s.n)

    def plan_options(self, s: State, seat: int, plans: Any) -> Sequence:
        """'he must cover one location on his action sheet with the "wall fresco" action tile.
        The player cannot deploy apprentices to this covered location ... Only one apprentice
        can be placed on this tile': each plan again with the wall tile on one of its empty
        columns not covered by another tile, if an apprentice is left for it."""
        if seat >= s.n:
            return plans
        return plans.with_tile(TILE, carries=1)

    def plan_situation(self, s: State, seat: int) -> None:
        """:meth:`plan_options` reads nothing of the position but the seat (idle: below)."""
        return None

    def idle_hooks(self) -> tuple[str, ...]:
        """The plan situation is the same in every position: the planning memo's key leaves it
        out (no call at each plan decision)."""
        return ("plan_situation",)

    def plan_refusal(self, s: State, seat: int, counts: tuple, words: Mapping) -> str | None:
        if TILE not in words:
            return None
        columns = column_words(s)
        col = words[TILE][0]
        if col not in columns:
            return f"the wall tile covers a column: {', '.join(columns)}"
        if counts[columns.index(col)]:
            return f"no apprentice may go to the {col} column covered by the wall tile"
        if any(w != TILE and col in args for w, args in words.items()):
            return f"two action tiles cannot cover the {col} column"
        return None

    def placed_off_sheet(self, s: State, seat: int, words: Mapping) -> int:
        """The wall tile carries one apprentice (W2).  It counts against the apprentices
        available, and the medico counts it among the healthy ones ("Black apprentice tokens
        cannot be placed on the action tiles for ... the Wall Fresco", W10)."""
        return 1 if TILE in words else 0

    def covered_column(self, s: State, seat: int) -> int:
        """The column the wall action tile of ``seat`` covers this round (-1 none)."""
        return s.mods[NAME].placed[seat]

    def off_sheet(self, s: State, seat: int) -> int:
        """The apprentice on the wall tile of a loaded position's committed plan (W2)."""
        return 1 if s.plan[seat] is not None and s.mods[NAME].placed[seat] >= 0 else 0

    def plan_apply(self, s: State, seat: int, counts: tuple, words: Mapping) -> None:
        tile = words.get(TILE)      # (the column's word,) or None
        col = column_words(s).index(tile[0]) if tile is not None else -1
        placed = s.mods[NAME].placed
        if placed[seat] != col:
            own(s, NAME).placed = with_item(placed, seat, col)
        if tile is not None:     # the seat's own record: secret until the reveal (R4)
            s.add_event({"kind": "wall_tile", "figure": seat, "column": tile[0]}, seat)

    def after_planning(self, s: State) -> None:
        columns = column_words(s)
        for seat, c in enumerate(self.st(s).placed):
            if c >= 0:
                s.add_event({"kind": "wall_tile", "figure": seat, "column": columns[c]})

    def visit_start(self, s: State, fig: int, column: str, count: int) -> bool:
        """'This action takes place in the given player order at the time of the covered action':
        the apprentice on the tile restores a section.  Asked whenever a section adjoins a
        restored one, whatever the player's paints: one who cannot pay passes himself, as in the
        base game's forced forfeits (rules notes N2), so the question shows nothing of his
        paints (R22)."""
        if fig < s.n and s.mods[NAME].placed[fig] == s.loc and self.frontier(s.mods[NAME].board):
            ask(s, fig, NAME, TILE)
            return True
        return False

    def ask_actions(self, s: State, a) -> list:
        have = s.paints[a[0]]     # the frontier's sections the player's paints pay for
        out = [PASS]
        for _, need, action in self.frontier(s.mods[NAME].board):   # (a loop: a comprehension would make
            if covers8(have, need):                                # ``have`` a cell at every call)
                out.append(action)
        return out

    def valid_ask(self, s: State, fig: int, payload) -> bool:
        """A saved wall ask: a seat whose wall tile covers the current column."""
        return payload == TILE and fig < s.n and 0 <= s.loc == self.st(s).placed[fig]

    def answer(self, s: State, a, action: Action) -> None:
        if action.kind == TILE:
            self.restore(s, a[0], self.data.cell(action.args[0]))

    # --- the wall visit -------------------------------------------------------------------
    def restore(self, s: State, fig: int, cell: int) -> None:
        """'To restore a section, the player returns the required paint on the selected tile to
        the general supply and scores 4 VP ... He then removes the tile from the wall fresco,
        flips it back side up, and places it in front of his large screen.'"""
        w: WState = s.mods[NAME]
        tile = w.board[cell]
        assert tile is not None, "a legal wall restoration names a covered section"
        s.paints[fig] = minus(s.paints[fig], _vector(tile.paint))
        board = list(w.board)
        board[cell] = None
        restored = tuple(board)
        # the new board's frontier from the old one's: the section leaves it, its covered
        # neighbours join it
        frontier = [x for x in self.frontier(w.board) if x[0] != cell]
        known = {x[0] for x in frontier}
        frontier += [self._section(n, board[n]) for n in self.data.neighbours(cell)
                     if board[n] is not None and n not in known]
        _FRONTIER.put(restored, tuple(sorted(frontier)))
        held = list(w.held)
        held[fig] = held[fig] + (tile,)
        paid = list(w.paid)
        paid[fig] = _paint_sum(paid[fig], tile.paint)
        w = own(s, NAME)
        w.board, w.held, w.paid = restored, tuple(held), tuple(paid)
        section = self.data.name(cell)
        s.add_event({"kind": "wall_restore", "figure": fig, "section": section, "tile": tile.text, "paid": tile.paint})
        track.gain(s, fig, {"wall": self.data.vp}, "wall", section=section, tile=tile.text)

    # --- the workshop exchange ------------------------------------------------------------
    def exchanges(self, s: State, fig: int) -> list[Action]:
        """Pairs of the player's wall tiles of 2 different basic colours whose blend's exchange
        tile the player does not own yet and the workshop still has."""
        w: WState = s.mods[NAME]
        held = w.held[fig]
        if len(held) < 2:      # no pair (most players at most turns)
            return []
        supply = dict(w.supply)
        out = []
        for a, b in combinations(sorted(set(held)), 2):
            if a.income == b.income:
                continue
            blend = self._blend_of(s, a.income, b.income)
            if blend is None or blend in w.exchange[fig] or not supply.get(blend):
                continue
            out.append(Action("exchange", tuple(sorted((a.text, b.text)))))
        return sorted(set(out))

    def visit_actions(self, s: State, fig: int, column: str, actions: list) -> None:
        """'Instead of blending paints 1 or 2 times, a player's apprentice may exchange 2 wall
        fresco tiles for one exchange tile' (an apprentice who has not begun blending, M5)."""
        if column != "workshop" or fig >= s.n or s.left < s.comp.rules["workshop"]["blends_per_apprentice"]:
            return
        actions.extend(self.exchanges(s, fig))

    def apply_action(self, s: State, fig: int, action: Action) -> bool:
        if action.kind != "exchange":
            return False
        w: WState = s.mods[NAME]
        a, b = (parse_wall_tile(x) for x in action.args)
        blend = self._blend_of(s, a.income, b.income)
        assert blend is not None, "a legal exchange names tiles of 2 different basic colours"
        mine = list(w.held[fig])
        mine.remove(a)
        mine.remove(b)
        held = list(w.held)
        held[fig] = tuple(mine)
        exchange = list(w.exchange)
        exchange[fig] = "".join(sorted(exchange[fig] + blend, key=PAINTS.index))
        supply = tuple((k, v - (k == blend)) for k, v in w.supply)
        w = own(s, NAME)
        w.held, w.exchange, w.supply = tuple(held), tuple(exchange), supply
        s.add_event({"kind": "wall_exchange", "figure": fig, "tiles": list(action.args), "exchange": blend})
        s.left -= s.comp.rules["workshop"]["blends_per_apprentice"]
        return True

    # --- round preparation: income --------------------------------------------------------
    def round_preparation(self, s: State, rng) -> None:
        """'Players remove the wall fresco action tile'; 'A player gains 1 paint cube of the
        basic paint ... shown on the wall fresco tiles in front of his screen. He can earn at
        most 1 cube of each color ... He also receives 1 cube of the blended color ... for each
        exchange tile he owns.'  (Separate from the requests' income, R15.)"""
        w = self.st(s)
        received = list(w.received)
        for seat in range(s.n):
            held = w.held[seat]     # (no wall tile held: no income from backs, no memo look-up)
            gained = _backs_income(held) + w.exchange[seat] if held else w.exchange[seat]
            for c in gained:
                s.paints[seat] = add_one(s.paints[seat], c)
            if gained:
                received[seat] = _paint_sum(received[seat], gained)
                s.add_event({"kind": "wall_income", "figure": seat, "paints": gained})
        w = own(s, NAME)
        w.placed, w.received = (-1,) * s.n, tuple(received)

    # --- the bishop's requests (R15) ------------------------------------------------------
    def request_tiles(self, s: State, fig: int, tiles: list) -> None:
        if fig < s.n:
            held = s.mods[NAME].held[fig]
            if held:     # (no wall tile held, the usual case: no generator made)
                tiles.extend((t.text, t.splash) for t in held)

    def take_request_tile(self, s: State, fig: int, text: str) -> bool:
        w: WState = s.mods[NAME]
        if fig >= s.n or not text.startswith("W:"):
            return False
        mine = list(w.held[fig])
        mine.remove(parse_wall_tile(text))
        held = list(w.held)
        held[fig] = tuple(mine)
        self.put(s, held=tuple(held))
        return True

    def refusal(self, s: State, seat: int, action: Action) -> str | None:
        from ..flow import location
        from ..state import VISITS
        if s.phase != VISITS or s.pending is not None:
            return None
        w = self.st(s)
        if s.asks:
            where = TILE if s.asks[0][1] == NAME else None
        else:
            where = location(s, s.actor)[1] if s.actor >= 0 else None
        if action.kind == TILE and where == TILE:
            cell = self.data.cell(action.args[0]) if len(action.args) == 1 else None
            if cell is None:
                return f"a wall section is named A1..{self.data.name(len(w.board) - 1)}, e.g. 'wall A3'"
            tile = w.board[cell]
            if tile is None:
                return f"wall section {action.args[0]} is already restored"
            if not any(w.board[n] is None for n in self.data.neighbours(cell)):
                return (f"wall section {action.args[0]} does not adjoin a restored section orthogonally "
                        "(the wall fresco is restored contiguously from the bottom left)")
            return f"wall section {action.args[0]} needs {tile.paint}; you do not have it"
        if action.kind == "exchange" and where == "workshop" and s.actor < s.n:
            try:
                a, b = (parse_wall_tile(x) for x in action.args)
            except ValueError as e:
                return f"{e}; an exchange names 2 of your wall tiles"
            mine = list(w.held[seat])
            if any(mine.count(x) < [a, b].count(x) for x in (a, b)):
                return f"you hold the wall tiles {' '.join(x.text for x in mine) or 'none'}"
            if a.income == b.income:
                return "an exchange takes 2 wall tiles of 2 different basic colours"
            blend = self._blend_of(s, a.income, b.income)
            if blend is None or blend in w.exchange[seat]:
                return f"you already have the {blend} exchange tile (one of each blend per player)"
            if not dict(w.supply).get(blend):
                return f"no {blend} exchange tile is left at the workshop"
            return "an exchange replaces the blends of an apprentice who has not begun blending"
        return None

    # --- view, saving ---------------------------------------------------------------------
    def view(self, s: State, seat, out) -> None:
        from ..state import PLAN
        w = self.st(s)
        words = column_words(s)
        d = self.data
        placed = []
        for f, c in enumerate(w.placed):
            shown = c >= 0 and (f == seat or s.phase != PLAN)
            placed.append(words[c] if shown else None)
        rows, restorable = self._board_texts(w.board)
        out["wall_fresco"] = {
            "rows": d.rows, "columns": d.columns,
            "board": [list(r) for r in rows],
            "restorable": list(restorable),
            "tiles": [[t.text for t in h] for h in w.held],
            "exchange_tiles": [list(e) for e in w.exchange],
            "supply": dict(w.supply),
            "vp_per_section": d.vp,
            "action_tile": placed,
            "paid": list(w.paid),
            "received": list(w.received),
        }

    def _board_texts(self, board: tuple) -> tuple[tuple[tuple[str | None, ...], ...], tuple[str, ...]]:
        """The board as rows of tile texts (None: restored) and the names of the sections that
        can be restored next, memoised on the board (it changes only at a restoration)."""
        hit = _BOARD_TEXTS.get(board)
        if hit is None:
            d = self.data
            rows = tuple(tuple(None if board[r * d.columns + c] is None else board[r * d.columns + c].text
                               for c in range(d.columns)) for r in range(d.rows))
            hit = _BOARD_TEXTS.put(board, (rows, tuple(d.name(c) for c, _, _ in self.frontier(board))))
        return hit

    def dump(self, s: State):
        w = self.st(s)
        return {"board": [list(r) for r in self._board_texts(w.board)[0]],
                "tiles": [[t.text for t in h] for h in w.held],
                "exchange_tiles": list(w.exchange),
                "supply": dict(w.supply),
                "action_tile": list(w.placed),
                "paid": list(w.paid), "received": list(w.received)}

    def load(self, s: State, data) -> None:
        where = "saved state: modules_state.wall_fresco"
        if data is None:    # left out: the board is laid as at set-up (one chance draw of the seed)
            self.setup(s, chance(s))
            return
        d = self.data
        try:
            rows = data["board"]
            if len(rows) != d.rows or any(len(r) != d.columns for r in rows):
                raise StateError(f"{where}.board: {d.rows} rows of {d.columns} sections (tile text or null)")
            board = tuple(None if x is None else parse_wall_tile(x) for r in rows for x in r)
            held = tuple(tuple(parse_wall_tile(x) for x in h) for h in data.get("tiles", [[]] * s.n))
            exchange = tuple("".join(sorted(e, key=PAINTS.index)) for e in data.get("exchange_tiles", [""] * s.n))
            supply_raw = data.get("supply")
            placed = tuple(data.get("action_tile", [-1] * s.n))
            paid = tuple(data.get("paid", [""] * s.n))
            received = tuple(data.get("received", [""] * s.n))
        except ValueError as e:
            raise StateError(f"{where}: {e}") from None
        except (KeyError, TypeError, AttributeError) as e:
            raise StateError(f"{where}: malformed ({e})") from None
        if any(board[c] is not None for c in d.restored):
            raise StateError(f"{where}.board: {', '.join(sorted(d.name(c) for c in d.restored))} are restored "
                             "from the start (null)")
        if len(held) != s.n or len(exchange) != s.n or len(placed) != s.n:
            raise StateError(f"{where}: tiles, exchange_tiles and action_tile have one entry per seat")
        for seat, ex in enumerate(exchange):
            if any(c not in BLENDED for c in ex) or len(set(ex)) != len(ex):
                raise StateError(f"{where}.exchange_tiles[{seat}]: {ex!r}: at most one exchange tile of each "
                                 "blend (O, G, P) per player")
        ncol = s.comp.rules["action_sheet"]["columns"]
        if any(not isinstance(c, int) or isinstance(c, bool) or not -1 <= c < ncol for c in placed):
            raise StateError(f"{where}.action_tile: {list(placed)!r}: a column 0..{ncol - 1} per seat or -1")
        if supply_raw is None:
            owned = "".join(exchange)
            supply = tuple((k, v - owned.count(k)) for k, v in d.exchange)
        else:
            if not isinstance(supply_raw, dict) or set(supply_raw) != {k for k, _ in d.exchange} or any(
                    not isinstance(v, int) or isinstance(v, bool) or v < 0 for v in supply_raw.values()):
                raise StateError(f"{where}.supply: {supply_raw!r}: exchange tiles left per blend (O, G, P), >= 0")
            supply = tuple(sorted(supply_raw.items()))
        if len(paid) != s.n or len(received) != s.n or any(
                not isinstance(p, str) or any(c not in PAINTS for c in p) for p in paid + received):
            raise StateError(f"{where}: paid and received are one paint text per seat")
        s.mods[NAME] = WState(board, held, exchange, supply, placed,
                                   tuple(_paint_sum(p, "") for p in paid), tuple(_paint_sum(p, "") for p in received))


def _with_wall(plans: tuple, words: tuple[str, ...], available: int) -> tuple:
    """The action space's plans with the wall tile (action_space): the plans, then each again
    with the tile (and its apprentice) on one of its empty columns that no other module word
    names, as :meth:`WallFresco.plan_options` lays it ('wall' is written in its rank among the
    plan words, actions.plan_word)."""
    return plans + _wall_variants(plans, words, available)


def _wall_variants(plans: tuple, words: tuple[str, ...], available: int) -> tuple:
    rank = PLAN_WORDS[TILE][1]
    out = []
    for a in plans:
        counts = a.args[0].split("-")
        if sum(map(int, counts)) + 1 > available or TILE in a.args[1:]:
            continue
        rest = a.args[1:]
        cut, i = len(rest), 0
        while i < len(rest):          # word groups (a word, then its arguments: 'audience theater')
            arity, r = PLAN_WORDS.get(rest[i], (0, rank + 1))
            if r > rank:
                cut = i
                break
            i += 1 + arity
        for col, w in enumerate(words):
            if counts[col] == "0" and w not in rest:
                out.append(Action("plan", (a.args[0], *rest[:cut], TILE, w, *rest[cut:])))
    return tuple(out)


def state_from_view(view: Mapping[str, Any], seat: int | None = None) -> dict:
    """The module's saved state (modules_state.wall_fresco) as far as ``view`` = game.view(seat)
    shows it: everything of the wall is public (R22) except where other seats' wall tiles lie
    while plans are secret, which is left off (-1) for a determinization to decide."""
    w = view["wall_fresco"]
    words = column_words_of(view["columns"])
    return {"board": [list(r) for r in w["board"]], "tiles": [list(t) for t in w["tiles"]],
            "exchange_tiles": ["".join(e) for e in w["exchange_tiles"]], "supply": dict(w["supply"]),
            "action_tile": [words.index(c) if c in words else -1 for c in w["action_tile"]],
            "paid": list(w["paid"]), "received": list(w["received"])}


register(WallFresco)  # (a call, not a decorator: a decorated class cannot be a mypyc native class)


# --- the observation's numbers (encoding 3, rules/observation.py) -----------------------------
from array import array  # noqa: E402

from ..observation import ModuleSlots, register_slots  # noqa: E402
from ..state import PLAN, SIDE1, SIDE2  # noqa: E402

_CELL = 11        # numbers per wall section in WallFrescoSlots' board
_HELD = 10        # numbers per seat in its tiles
_WORD_COLUMN = {w: i for side in (SIDE1, SIDE2) for i, w in enumerate(column_words_of(side))}


class WallFrescoSlots(ModuleSlots):
    """``board``: per section (row by row from A1), 11 numbers: restored, restorable next, the
    front's paints (O, G, P counts), the back's income paint (R, Y, B one-hot), the back's
    splash (O, G, P one-hot); ``tiles``: per seat from the observer on, the wall tiles in front
    of its screen / 10, their backs' income paints (R, Y, B) / 5, splashes (O, G, P) / 5 and
    fronts' paints (O, G, P) / 5; ``exchange_tiles``: per seat, its exchange tiles (O, G, P);
    ``supply``: the exchange tiles left at the workshop / the edition's, per blend;
    ``action_tile``: per seat, the column its wall action tile covers, one-hot (another seat's
    only once the plans are revealed); ``paid``, ``received``: per seat, the paints paid for
    wall sections and received as wall income so far, per paint (R Y B O G P K N) / 10.  The VP
    per section is the edition's: not in the vector."""

    name = "wall_fresco"

    def layout(self, module, n: int, figures: int) -> tuple:
        d = module.data
        self.cells = d.rows * d.columns
        self.cell = {d.name(c): c for c in range(self.cells)}
        self.supply = {b: i for i, (b, _) in enumerate(d.exchange)}
        self.full = tuple(k for _, k in d.exchange)
        self.boards: dict[tuple, array] = {}    # (board, restorable) -> its numbers
        P = len(PAINTS)
        return ((("board", _CELL * self.cells),), ("m.board", "hooks"), self._board_fact, self._board), \
            ((("tiles", _HELD * n),), ("m.held",), None, self._tiles), \
            ((("exchange_tiles", len(BLENDED) * n), ("supply", len(self.full))), ("m.exchange", "m.supply"), None,
             self._exchange), \
            ((("action_tile", len(SIDE1) * n),), ("m.placed", "phase", "seat"), self._placed_fact, self._action_tile), \
            ((("paid", P * n), ("received", P * n)), ("m.paid", "m.received"), None, self._paints)

    def _board_fact(self, k: tuple, seat: int) -> tuple:
        board, hooks = k    # the sections restorable next: the module's reading of the board
        return board, hooks.named[self.name]._board_texts(board)[1]

    def _placed_fact(self, k: tuple, seat: int) -> tuple:
        placed, phase = k   # while planning, the seat's own tile alone
        return placed if phase != PLAN else tuple(c if f == seat else -1 for f, c in enumerate(placed))

    def view_facts(self, part, seat: int) -> tuple:
        return ((tuple(None if t is None else parse_wall_tile(t) for row in part["board"] for t in row),
                 tuple(part["restorable"])),
                tuple(tuple(parse_wall_tile(t) for t in h) for h in part["tiles"]),
                (tuple("".join(e) for e in part["exchange_tiles"]), tuple(part["supply"].items())),
                tuple(-1 if word is None else _WORD_COLUMN[word] for word in part["action_tile"]),
                (tuple(part["paid"]), tuple(part["received"])))

    def _board(self, fact: tuple, seat: int, x, p: int) -> None:
        block = self.boards.get(fact)
        if block is None:
            board, restorable = fact
            block = array("f", bytes(4 * _CELL * self.cells))
            for cell, t in enumerate(board):
                q = cell * _CELL
                if t is None:
                    block[q] = 1.0
                    continue
                for c in t.paint:
                    block[q + 2 + BLENDED.index(c)] += 1.0
                block[q + 5 + BASIC.index(t.income)] = 1.0
                block[q + 8 + BLENDED.index(t.splash)] = 1.0
            for name in restorable:
                block[self.cell[name] * _CELL + 1] = 1.0
            if len(self.boards) > 256:
                self.boards.clear()
            self.boards[fact] = block
        x[p:p + len(block)] = block

    def _tiles(self, held: tuple, seat: int, x, p: int) -> None:
        for j, f in enumerate(self.seats_from[seat]):
            h = p + j * _HELD
            x[h] = len(held[f]) / 10
            for t in held[f]:
                x[h + 1 + BASIC.index(t.income)] += 1 / 5
                x[h + 4 + BLENDED.index(t.splash)] += 1 / 5
                for c in t.paint:
                    x[h + 7 + BLENDED.index(c)] += 1 / 5

    def _exchange(self, fact: tuple, seat: int, x, p: int) -> None:
        exchange, supply = fact
        for j, f in enumerate(self.seats_from[seat]):
            for c in exchange[f]:
                x[p + j * len(BLENDED) + BLENDED.index(c)] = 1.0
        q = p + len(BLENDED) * self.n
        for b, k in supply:
            i = self.supply[b]
            x[q + i] = k / self.full[i]

    def _action_tile(self, placed: tuple, seat: int, x, p: int) -> None:
        for j, f in enumerate(self.seats_from[seat]):
            if placed[f] >= 0:
                x[p + j * len(SIDE1) + placed[f]] = 1.0

    def _paints(self, fact: tuple, seat: int, x, p: int) -> None:
        paid, received = fact
        P = len(PAINTS)
        q = p + P * self.n
        for j, f in enumerate(self.seats_from[seat]):
            for c in paid[f]:
                x[p + j * P + PAINT_INDEX[c]] += 1 / 10
            for c in received[f]:
                x[q + j * P + PAINT_INDEX[c]] += 1 / 10


register_slots(WallFrescoSlots)
