"""Module 2, the bishop's requests (supplement 'The bishop's request', R15; 2 players).

Once a round a player may have one workshop apprentice fulfil one request instead of
blending: a general request with any 3 of their fresco tiles, a special one (orange, green,
purple) with 3 tiles showing that splash (a tile with several splashes counts as any one).
The highest value of the stack is taken first; the player stacks the 3 tiles they choose
under it and those tiles no longer pay income; each request pays 1 Thaler and its paint at
every income (the general one a basic paint chosen then).  Leonardo's workshop apprentice may
fulfil a request with his tiles: he scores it, and tiles and request leave the game.
"""
from __future__ import annotations

from functools import lru_cache
from itertools import combinations
from typing import NamedTuple

from ...errors import ComponentError, StateError
from .. import track
from ..actions import Action, tile_text_key
from ..hooks import Module, ask, register
from ..paints import BASIC, BLENDED, add_one
from ..view import tile_text
from ..components import check_provenance as provenance_ok
from ..serialize import _Reader, parse_tile, whole
from ..state import State

NAME = "requests"   # the module's name: its state is ``state.mods[NAME]``


def _module_tile(x) -> bool:
    """Another module's tile counted for requests (R15), written '<letter>:...' ('W:P/R')."""
    return isinstance(x, str) and len(x) > 2 and x[0].isalpha() and x[1] == ":"


def _text(x) -> str:
    """A stacked tile's text: a fresco tile's, or another module's tile kept as text."""
    return x if isinstance(x, str) else tile_text(x)


class Data(NamedTuple):
    stacks: dict[str, tuple[int, ...]]   # type -> values, lowest first (the top is last)
    paint: dict[str, str | None]         # type -> splash/paint (None: general)
    per: int
    income: int


class RState(NamedTuple):
    stacks: tuple[tuple[str, tuple[int, ...]], ...]          # type -> values left, top last
    done: tuple[tuple[tuple[str, int, tuple], ...], ...]     # per figure: (type, vp, tiles)
    last: tuple[int, ...]                                   # round of each figure's last request


class Requests(Module):
    name = NAME
    view_reads = ()
    visit_columns = ("workshop",)   # fulfilling a request
    action_kinds = ("request",)
    visit_kinds = (("workshop", ("request",)),)

    @classmethod
    def build_data(cls, raw: dict) -> Data:
        provenance_ok(raw, "requests")
        stacks, paint = {}, {}
        for i, st in enumerate(raw.get("stacks", [])):
            w = f"requests.stacks[{i}]"
            provenance_ok(st, w)
            t, values = st.get("type"), st.get("values")
            if not isinstance(t, str) or t in stacks:
                raise ComponentError(f"component file: {w}.type: {t!r} must be a new type name")
            if not isinstance(values, list) or not all(isinstance(v, int) and v > 0 for v in values):
                raise ComponentError(f"component file: {w}.values: {values!r} must be VP values")
            p = st.get("paint")
            if p is not None and p not in BLENDED:
                raise ComponentError(f"component file: {w}.paint: {p!r}: special requests are O, G or P")
            stacks[t], paint[t] = tuple(sorted(values)), p
        if sum(map(len, stacks.values())) != 12 or len(stacks) != 4 or "general" not in stacks:
            raise ComponentError("component file: requests.stacks: 12 tiles in 4 types, one named 'general'")
        if sorted(p for p in paint.values() if p) != ["G", "O", "P"]:
            raise ComponentError("component file: requests.stacks: one special type each for O, G and P")
        if 6 not in stacks["general"] or not any(10 in stacks[t] for t in stacks if paint[t] == "P"):
            raise ComponentError("component file: requests.stacks: the printed general 6 VP and purple 10 VP")
        tiles, income = raw.get("tiles_per_request", 3), raw.get("income_thalers", 1)
        if tiles != 3 or not whole(tiles):
            raise ComponentError(f"component file: requests.tiles_per_request: {tiles!r}: the printed 3 fresco tiles")
        if not (whole(income) and income == 1):
            raise ComponentError(f"component file: requests.income_thalers: {income!r}: the printed 1 Thaler "
                                 "('Each request tile is good for 1 Thaler of income')")
        return Data(stacks, paint, tiles, income)

    def st(self, s: State) -> RState:
        return s.mods[NAME]

    def setup(self, s: State, rng) -> None:
        s.mods[NAME] = RState(tuple(self.data.stacks.items()), ((),) * s.figures, (0,) * s.figures)

    def leonardo_plan(self, s: State, plan: list[int]) -> None:
        plan[s.columns().index("workshop")] += 1

    def action_space(self, space) -> None:
        """'request TYPE T1 T2 T3' for every type and usable tiles of the set-up; 'income R|Y|B'."""
        for t in self.data.stacks:
            colour = self.data.paint[t]
            usable = [x for x in space.fresco_tiles if colour is None or colour in x.splashes]
            for combo in combinations(space.tile_texts(usable), self.data.per):
                space.actions.append(Action("request", (t, *combo)))
        space.actions.extend(Action("income", (c,)) for c in BASIC)

    def options_for(self, s: State, fig: int) -> list[Action]:
        out: list[Action] = []
        owned = [(tile_text(x), x.splashes) for x in s.tiles[fig]]
        for hook in s.hooks.request_tiles:     # other modules' tiles that count (wall fresco, R15)
            hook(s, fig, owned)
        if len(owned) < self.data.per:     # too few tiles for any request (most turns: no memo look-up)
            return out
        paint = self.data.paint
        types = []
        for t, values in s.mods[NAME].stacks:   # (a loop: a comprehension reading ``self`` would make it a cell)
            if values:
                types.append((t, paint[t]))
        return list(_requests(tuple(owned), tuple(types), self.data.per))

    def visit_actions(self, s: State, fig: int, column: str, actions: list) -> None:
        if column != "workshop" or s.mods[NAME].last[fig] == s.round:
            return
        if fig < s.n and s.left < s.comp.rules["workshop"]["blends_per_apprentice"]:
            return  # every workshop apprentice has begun blending
        options = self.options_for(s, fig)
        actions.extend(options)
        if fig >= s.n and options:
            actions.insert(0, Action("pass"))  # Leonardo "may" fulfil a request

    def refusal(self, s: State, seat: int, action: Action) -> str | None:
        """Why 'request TYPE T1 T2 T3' is refused: the type, its stack, the tiles named."""
        if action.kind != "request":
            return None
        fig = s.actor
        stacks = dict(s.mods[NAME].stacks)
        t = action.args[0] if action.args else ""
        if t not in stacks:
            return f"request types: {', '.join(stacks)}"
        if not stacks[t]:
            return f"no {t} request is left"
        if not 0 <= fig < s.figures:
            return None
        if s.mods[NAME].last[fig] == s.round:
            return "one request per player per round (R15): yours is fulfilled"
        if fig < s.n and s.left < s.comp.rules["workshop"]["blends_per_apprentice"]:
            return ("a request takes a workshop apprentice instead of blending: each of yours "
                    "has begun blending (rules notes M5)")
        owned = [(tile_text(x), x.splashes) for x in s.tiles[fig]]
        for hook in s.hooks.request_tiles:
            hook(s, fig, owned)
        texts = list(action.args[1:])
        if len(texts) != self.data.per:
            return f"a request names its type and {self.data.per} of your tiles, e.g. 'request {t} 3:YY 3:RB 4:RRY'"
        left = [x for x, _ in owned]
        for x in texts:
            if x not in left:
                return f"your tiles: {' '.join(x for x, _ in owned) or 'none'}"
            left.remove(x)
        colour = self.data.paint[t]
        if colour is not None:
            return f"a {t} request takes {self.data.per} tiles showing the {colour} splash"
        return None

    def apply_action(self, s: State, fig: int, action: Action) -> bool:
        if action.kind == "request":
            self._fulfil(s, fig, action.args[0], action.args[1:])
            return True
        return False

    def _fulfil(self, s: State, fig: int, t: str, texts: tuple[str, ...]) -> None:
        r: RState = s.mods[NAME]
        stacks = dict(r.stacks)
        vp = stacks[t][-1]
        stacks[t] = stacks[t][:-1]
        tiles, stacked = list(s.tiles[fig]), []
        for text in texts:
            x = next((x for x in tiles if tile_text(x) == text), None)
            if x is None:               # another module's tile (wall fresco, R15): kept as its text
                any(hook(s, fig, text) for hook in s.hooks.take_request_tile)
                stacked.append(text)
                continue
            tiles.remove(x)
            stacked.append(x)
        s.tiles[fig] = tuple(tiles)
        done = list(r.done)
        done[fig] = done[fig] + ((t, vp, tuple(stacked)),)
        last = list(r.last)
        last[fig] = s.round
        self.put(s, stacks=tuple(stacks.items()), done=tuple(done), last=tuple(last))
        track.gain(s, fig, {"request": vp}, "request", request=t, tiles=list(texts))
        if fig >= s.n:
            s.left = 0
        else:
            s.left -= s.comp.rules["workshop"]["blends_per_apprentice"]

    def income(self, s: State, seat: int) -> int:
        return self.data.income * len(s.mods[NAME].done[seat])

    def round_preparation(self, s: State, rng) -> None:
        done = s.mods[NAME].done
        for seat in range(s.n):
            for t, _, _ in done[seat]:
                colour = self.data.paint[t]
                if colour:
                    s.paints[seat] = add_one(s.paints[seat], colour)
                else:
                    ask(s, seat, NAME, "general")

    def ask_actions(self, s: State, a) -> list:
        return [Action("income", (c,)) for c in BASIC]

    def valid_ask(self, s: State, fig: int, payload) -> bool:
        return fig < s.n and payload == "general"

    def answer(self, s: State, a, action) -> None:
        s.paints[a[0]] = add_one(s.paints[a[0]], action.args[0])
        s.add_event({"kind": "general_request_paint", "figure": a[0]})

    def view(self, s: State, seat, out) -> None:
        r = self.st(s)
        out["requests"] = {
            "stacks": {t: list(v) for t, v in r.stacks},
            "fulfilled": [[{"type": t, "vp": vp, "tiles": [_text(x) for x in tiles]} for t, vp, tiles in d]
                          for d in r.done],
        }

    def dump(self, s: State):
        r = self.st(s)
        return {"stacks": {t: list(v) for t, v in r.stacks},
                "fulfilled": [[[t, vp, [_text(x) for x in tiles]] for t, vp, tiles in d] for d in r.done],
                "last": list(r.last)}

    def load(self, s: State, data) -> None:
        """Read ``modules_state.requests`` (docs/state-format.md).  Every field may be left out
        (the whole entry too): ``stacks`` the edition's full stacks (a type left out: its full
        stack), ``fulfilled`` none, ``last`` all 0."""
        where = "saved state: modules_state.requests"
        data = {} if data is None else data
        if not isinstance(data, dict) or set(data) - {"stacks", "fulfilled", "last"}:
            raise StateError(f"{where}: an object with stacks, fulfilled, last")
        given = data.get("stacks", {})
        if not isinstance(given, dict) or any(t not in self.data.stacks for t in given):
            raise StateError(f"{where}.stacks: {given!r}: an object of request types "
                             f"({', '.join(self.data.stacks)}) with their VP values left")
        stacks = []
        for t, full in self.data.stacks.items():
            v = given.get(t, list(full))
            if not isinstance(v, list) or any(not whole(x) or x < 1 for x in v):
                raise StateError(f"{where}.stacks.{t}: {v!r}: a list of VP values (whole numbers >= 1)")
            stacks.append((t, tuple(sorted(v))))  # the highest value is on top
        fulfilled = data.get("fulfilled", [[]] * s.figures)
        if not isinstance(fulfilled, list) or len(fulfilled) != s.figures:
            raise StateError(f"{where}.fulfilled: one list per figure ({s.figures})")
        done = []
        for f, d in enumerate(fulfilled):
            w = f"{where}.fulfilled[{f}]"
            if not isinstance(d, list):
                raise StateError(f"{w}: a list of [type, vp, [tiles]]")
            entries = []
            for i, e in enumerate(d):
                if not (isinstance(e, list) and len(e) == 3 and e[0] in self.data.stacks and whole(e[1])
                        and e[1] >= 1 and isinstance(e[2], list) and len(e[2]) == self.data.per):
                    raise StateError(f"{w}[{i}]: {e!r}: [type, vp, [{self.data.per} fresco tiles]]")
                tiles = tuple(parse_tile(x, f"modules_state.requests.fulfilled[{f}][{i}]", _Reader(data))
                              if not _module_tile(x) else x   # other modules' tiles ('W:P/R'): text
                              for x in e[2])
                if any(x is None for x in tiles):
                    raise StateError(f"{w}[{i}]: null is not a tile")
                entries.append((e[0], e[1], tiles))
            done.append(tuple(entries))
        last = data.get("last", [0] * s.figures)
        if not isinstance(last, list) or len(last) != s.figures or any(not whole(x) or not 0 <= x <= s.round
                                                                      for x in last):
            raise StateError(f"{where}.last: {last!r}: {s.figures} round numbers 0..{s.round} (0: never)")
        s.mods[NAME] = RState(tuple(stacks), tuple(done), tuple(last))


@lru_cache(maxsize=4096)
def _requests(owned: tuple[tuple[str, str], ...], types: tuple[tuple[str, str | None], ...],
              per: int) -> tuple[Action, ...]:
    """Every request of the ``types`` (type, special colour or None) whose stacks are not empty
    that ``per`` of the tiles ``owned`` (text, splashes) can fulfil, each set of tile texts once,
    the tiles in notation order."""
    owned = tuple(sorted(owned, key=lambda x: tile_text_key(x[0])))
    out = []
    for t, colour in types:
        usable = [x for x in owned if colour is None or colour in x[1]]
        seen = set()
        for combo in combinations(usable, per):
            texts = tuple(x[0] for x in combo)
            if texts not in seen:
                seen.add(texts)
                out.append(Action("request", (t, *texts)))
    return tuple(out)


register(Requests)  # (a call, not a decorator: a decorated class cannot be a mypyc native class)


# --- the observation's numbers (encoding 3, rules/observation.py) -----------------------------
from ..observation import ModuleSlots, register_slots  # noqa: E402


class RequestsSlots(ModuleSlots):
    """Per request type (the edition's order: general, orange, green, purple): ``stack_left``
    the tiles left / the stack's size, ``stack_top`` the value taken next / 10 (0: none left);
    per figure from the observer on (Leonardo last): ``fulfilled`` the requests of each type /
    3, ``fulfilled_vp`` their VP / 20.  The tiles stacked under them left play (no income): not
    in the vector."""

    name = "requests"

    def layout(self, module, n: int, figures: int) -> tuple:
        self.types = {t: i for i, t in enumerate(module.data.stacks)}
        self.sizes = tuple(len(v) for v in module.data.stacks.values())
        T = len(self.types)
        return ((("stack_left", T), ("stack_top", T)), ("m.stacks",), None, self._stacks), \
            ((("fulfilled", figures * T), ("fulfilled_vp", figures)), ("m.done",), self._done_fact, self._fulfilled)

    def _done_fact(self, done: tuple, seat: int) -> tuple:
        return tuple(tuple((t, vp) for t, vp, _ in d) for d in done)

    def view_facts(self, part, seat: int) -> tuple:
        return (tuple((t, tuple(v)) for t, v in part["stacks"].items()),
                tuple(tuple((d["type"], d["vp"]) for d in done) for done in part["fulfilled"]))

    def _stacks(self, stacks: tuple, seat: int, x, p: int) -> None:
        types, T = self.types, len(self.types)
        for t, values in stacks:
            i = types[t]
            x[p + i] = len(values) / self.sizes[i]
            x[p + T + i] = values[-1] / 10 if values else 0.0

    def _fulfilled(self, done: tuple, seat: int, x, p: int) -> None:
        types, T = self.types, len(self.types)
        q = p + self.figures * T
        for j, f in enumerate(self.figures_from[seat]):
            vp = 0
            for t, v in done[f]:
                x[p + j * T + types[t]] += 1 / 3
                vp += v
            x[q + j] = vp / 20


register_slots(RequestsSlots)
