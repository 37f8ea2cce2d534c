"""Module 10, the medico (en-modules-8-9-10.txt, 'The Medico'; rulings R11, R12, R20, R22).

Getting ill.  After planning, before any action, the top infection tile is revealed (drawn at
random from the pile: no order is kept, so none can leak); 'same location' leaves last
round's location infected (round 1: none).  After a player's last action (or forfeit) at the
infected location, one healthy apprentice they planned there falls ill: an own one goes onto
the medico board for a black apprentice; the neutral one (their choice) goes back to the
theater and the player takes a black apprentice.  A location where a player planned ill and
healthy apprentices makes all of those healthy ones ill after the actions.

Ill apprentices (planned with the plan word ``ill a-b-c-d-e``, how many of each column are
ill) may not go to the market, the theater, the medico tile or any action tile placed off
the columns (wall fresco).  Cathedral: an ill apprentice restores without moving the bishop,
never on or next to him, and the bishop then moves there (``restore C3 ill``; the altar too,
``altar RYB ill``); the Sexton cannot be played by it.  Studio: pictures of saints only, one
paint of any colour for 3 Thalers (``saints R``).  Workshop: one blend only.

The medico.  The plan word ``medico`` puts the medico tile on the market column (at most one
apprentice there with it); at the player's market turn they must buy one displayed bottle
they can pay for (``medicine 2``: the bottle in place 2), at most two before the screen.
After the theater (the final cathedral in the final round) each player in get-up order uses
bottles (``heal 3 juice``, ``heal none``): each portion swaps a black apprentice for an own
one from the board, each juice is +1 mood, leftover portions are lost.  On a -1 get-up space
a player may set aside an ill apprentice, who comes back healthy (``aside ill`` /
``aside own``).  Round preparation: unsold bottles are discarded, one bottle per player with
an ill apprentice is displayed, sorted 3, 2, 1 portions then juice (the discard pile is
reshuffled when the draw pile is empty).  A round that starts with one infection tile left is
the final round; at the end each player is credited 5 Thalers per own apprentice not on the
medico board.  Leonardo never falls ill and buys no medicine.
"""
from __future__ import annotations

from bisect import bisect_right
from functools import lru_cache
from itertools import accumulate, combinations, combinations_with_replacement, compress, permutations, product
from math import perm
from operator import getitem, itemgetter, mul
from typing import Any, Callable, Mapping, NamedTuple

from ...errors import ComponentError, StateError
from .. import cathedral
from ..state import PLAN, SIDE1, SIDE2, VISITS, State
from ..actions import KINDS, Action, arg_order, counts_text, plan_word, word_kind
from ..board import INDEX as SEGMENT, NEIGHBOURS8
from ..components import check_provenance as provenance_ok
from ..thalers import earn
from ..hooks import Module, ModuleState, ask, find, own, register, with_item
from ..hostel import change_mood
from ..paints import PAINTS, INDEX as PAINT_INDEX
from ..memo import IdentityMemo
from ..plan_sequences import base_counts, sheet_counts, within
from ..planning import PlanVariants, TiledPlans
from ..chance import below
from ..preparation import chance

NAME = "medico"
LOCATIONS: tuple[str, ...] = ("market", "cathedral", "studio", "workshop")
SAME = "same"
TILES: tuple[str, ...] = LOCATIONS + (SAME,)     # the infection tiles' faces
BOTTLES = ("3", "2", "1", "juice")            # display order (printed): 3, 2, 1 portions, then juice
BARRED = ("market", "theater")                 # columns ill apprentices may not go to
ILL_WORD, TILE_WORD = "ill", "medico"
# "No apprentice is needed to visit the medico. The player can also send one healthy apprentice
# to the market to purchase paint": apprentices at the market beside the medico tile, at most
MARKET_WITH_TILE = 1
plan_word(ILL_WORD, 1, 80)
plan_word(TILE_WORD, 0, 81)
KINDS.update({
    "medicine": "medicine <place>          buy the medico's bottle in this display place (module medico)",
    "heal": "heal none|<bottles>      use bottles after the theater, e.g. 'heal 3 juice' (module medico)",
    "aside": "aside ill|own             on a -1 space, set aside an ill (comes back healthy) or own apprentice",
    "illness": "illness own|neutral       which healthy apprentice falls ill (module medico)",
    "saints": "saints <paint>            an ill studio apprentice paints saints: 1 paint for 3 Thalers",
})
arg_order("heal", lambda a: BOTTLES.index(a) if a in BOTTLES else len(BOTTLES))
for _kind in ("medicine", "heal", "aside", "illness"):   # their words are never paints
    word_kind(_kind)


class Data(NamedTuple):
    bottles: tuple[str, ...]                  # every bottle ('3', '2', '1', 'juice'), sorted
    infection: tuple[str, ...]                # every infection tile (location or 'same'), sorted
    prices: dict[int, tuple[int, ...]]        # display places (3 or 4) -> Thalers by place
    black: int                                # black apprentices per player
    max_bottles: int
    juice_mood: int
    ill_blends: int
    saints_paints: int
    saints_thalers: int
    thalers_per_apprentice: int


class MState(ModuleState):
    """The medico's state (``state.mods['medico']``), written in place (hooks.ModuleState)."""

    pile: tuple[str, ...]  # infection tiles left (no order: drawn at random)
    tile: str | None  # this round's infection tile
    infected: str | None  # the infected location this round
    draw: tuple[str, ...]  # bottles in the draw pile (no order)
    discard: tuple[str, ...]  # discarded bottles
    display: tuple[str | None, ...]  # bottle by display place (None: empty or sold)
    held: tuple[tuple[str, ...], ...]  # bottles before each seat's screen
    sick: tuple[int, ...]  # own apprentices of each seat on the medico board
    black: tuple[int, ...]  # black (ill) apprentices each seat holds
    neutral_ill: tuple[int, ...]  # round in which each seat's neutral apprentice fell ill (0: never)
    plans: tuple  # per seat: (ill per column, medico tile) of the committed plan, or None
    ill_left: int  # ill apprentices of the current visitor still to act at this column
    worked: tuple[int, int]  # the current workshop turn: (blends, other actions) so far
    spent: tuple[str, ...]  # infection tiles revealed and discarded (public)

    def __init__(self, pile: tuple[str, ...], tile: str | None, infected: str | None, draw: tuple[str, ...],
                 discard: tuple[str, ...], display: tuple[str | None, ...], held: tuple[tuple[str, ...], ...],
                 sick: tuple[int, ...], black: tuple[int, ...], neutral_ill: tuple[int, ...], plans: tuple,
                 ill_left: int, worked: tuple[int, int], spent: tuple[str, ...]) -> None:
        self.pile = pile
        self.tile = tile
        self.infected = infected
        self.draw = draw
        self.discard = discard
        self.display = display
        self.held = held
        self.sick = sick
        self.black = black
        self.neutral_ill = neutral_ill
        self.plans = plans
        self.ill_left = ill_left
        self.worked = worked
        self.spent = spent
        self.version = 0

    def copy(self) -> MState:
        return MState(self.pile, self.tile, self.infected, self.draw, self.discard, self.display, self.held,
                      self.sick, self.black, self.neutral_ill, self.plans, self.ill_left, self.worked, self.spent)


_BOTTLE_RANK = {b: i for i, b in enumerate(BOTTLES)}


def _sorted_bottles(items) -> tuple[str, ...]:
    return tuple(sorted(items, key=_BOTTLE_RANK.__getitem__))


_UNBEGUN = (0, 0)      # MState.worked at the start of a turn: no blend, no other workshop action
_WORKSHOP = SIDE1.index("workshop")   # the workshop's column, on either side of the action sheet
assert SIDE2.index("workshop") == _WORKSHOP
_MEDICINE = tuple(Action("medicine", (str(p + 1),)) for p in range(4))   # by display place
_ASIDE = (Action("aside", ("ill",)), Action("aside", ("own",)))
_SAINTS = {c: Action("saints", (c,)) for c in PAINTS}   # by the paint paid
_ILLNESS = (Action("illness", ("neutral",)), Action("illness", ("own",)))


@lru_cache(maxsize=256)
def _heal_choices(held: tuple[str, ...], sick: bool) -> tuple[Action, ...]:
    """'heal none', then every choice of the bottles ``held`` of use (juice always, healing
    bottles only with an own apprentice on the medico board), in combination order."""
    out = [Action("heal", ("none",))]
    useful = [b for b in held if b == "juice" or sick]
    seen = set()
    for k in range(1, len(held) + 1):
        for combo in combinations(held, k):
            if combo not in seen and all(b in useful for b in combo):
                seen.add(combo)
                out.append(Action("heal", combo))
    return tuple(out)


def healthy_count(apprentices: int, sick: int, neutral: int, aside: int) -> int:
    """Healthy apprentices a player may plan with: their own not on the medico board (of
    ``apprentices``, ``sick`` there), the neutral one, minus the one set aside."""
    return apprentices - sick + neutral - aside


def _tile_may_go(m: MState, seat: int, most: int) -> bool:
    """Whether the seat may plan the medico tile: it holds fewer than ``most`` bottles and the
    display offers one."""
    return len(m.held[seat]) < most and m.display.count(None) != len(m.display)


def black_left(black: int, taken: tuple[int, ...]) -> int:
    """Black apprentices left on the medico board: ``black`` at set-up, minus each player's."""
    return black - sum(taken)


class Medico(Module):
    name = NAME
    visit_columns = ("cathedral", "studio", "workshop")   # ill apprentices: restore/altar, saints, one blend
    visit_kinds = (("market", ("medicine",)), ("studio", ("saints",)))
    suffixes = (("restore", ILL_WORD), ("altar", ILL_WORD))   # an ill apprentice's restoration
    action_kinds = ("restore", "altar", "saints", "studio")   # the ill ones' restorations, pictures of saints, the studio
    location_columns = (-1,)   # after_location: after the last column only
    # after_visit: not at the theater, where no ill apprentice goes (BARRED) and no infection lies
    # (its turn record, ill_left, is 0 there from visit_start)
    after_visit_columns = LOCATIONS
    after_action_columns = ("workshop",)   # after_action: the workshop's turn record (worked)
    # visit_start at turns without apprentices: the medico tile's market turn, and the workshop and
    # the column after it, where a turn's record is emptied at each seat's turn (the workshop's
    # blends are the only part a turn without apprentices can find left)
    empty_columns = (0, 3, -1)
    plan_words = (ILL_WORD, TILE_WORD)
    view_reads = ("phase", "actor", "asks", "neutral", "aside")   # plans, visit counts, asks, healthy ones

    # ------------------------------------------------------------------ components
    @classmethod
    def build_data(cls, raw: dict) -> Data:
        provenance_ok(raw, NAME)
        w = "component file: medico"
        bottles: list[str] = []
        for i, b in enumerate(raw.get("bottles", [])):
            provenance_ok(b, f"medico.bottles[{i}]")
            count = b.get("count", 1)
            if not isinstance(count, int) or isinstance(count, bool) or count < 1:
                raise ComponentError(f"{w}.bottles[{i}].count: {count!r} must be a whole number >= 1")
            if b.get("juice") is True:
                bottles += ["juice"] * count
            elif b.get("portions") in (1, 2, 3):
                bottles += [str(b["portions"])] * count
            else:
                raise ComponentError(f"{w}.bottles[{i}]: a healing bottle has 1-3 portions, or 'juice = true'")
        if len(bottles) != 16 or bottles.count("juice") != 4:
            raise ComponentError(f"{w}.bottles: {len(bottles)} bottles with {bottles.count('juice')} juices; "
                                 "16 are printed, 4 of them raspberry juice")
        if "3" not in bottles or "1" not in bottles:
            raise ComponentError(f"{w}.bottles: bottles of 3 and of 1 portions are printed (examples)")
        inf = raw.get("infection")
        if not isinstance(inf, dict):
            raise ComponentError(f"{w}.infection: a table of tile counts")
        provenance_ok(inf, "medico.infection")
        counts = {k: inf.get(k) for k in TILES}
        if counts != {"market": 2, "cathedral": 2, "studio": 2, "workshop": 2, "same": 1} or \
                any(k not in TILES and k != "provenance" for k in inf):
            raise ComponentError(f"{w}.infection: {counts}: the printed 2 each of market, cathedral, studio, "
                                 "workshop and 1 'same location'")
        infection = tuple(sorted(k for k, c in counts.items() for _ in range(c)))
        pr = raw.get("prices")
        if not isinstance(pr, dict):
            raise ComponentError(f"{w}.prices: Thalers by display place for 3 and 4 places")
        provenance_ok(pr, "medico.prices")
        prices: dict[int, tuple[int, ...]] = {}
        for places in (3, 4):
            p = pr.get(str(places))
            if not isinstance(p, list) or len(p) != places or any(
                    not isinstance(x, int) or isinstance(x, bool) or x < 0 for x in p):
                raise ComponentError(f"{w}.prices.{places}: {p!r}: {places} prices, one per display place")
            prices[places] = tuple(p)
        if sorted(prices[3][:2]) != [2, 3] or prices[3][2] != 2:
            raise ComponentError(f"{w}.prices.3: {list(prices[3])}: the printed example sells the two 3-portion "
                                 "bottles of the first places for 3 and 2 Thalers and the third for 2")
        scalars = {}
        for key, printed in (("black_apprentices_per_player", 5), ("max_bottles", 2), ("juice_mood", 1),
                             ("ill_blends", 1), ("saints_paints", 1), ("saints_thalers", 3),
                             ("thalers_per_apprentice", 5)):
            v = raw.get(key, printed)
            if v != printed:
                raise ComponentError(f"{w}.{key}: {v!r}: the rulebook prints {printed}")
            scalars[key] = v
        return Data(_sorted_bottles(bottles), infection, prices, scalars["black_apprentices_per_player"],
                    scalars["max_bottles"], scalars["juice_mood"], scalars["ill_blends"], scalars["saints_paints"],
                    scalars["saints_thalers"], scalars["thalers_per_apprentice"])

    def action_space(self, space) -> None:
        """Plans with 'ill' words (any column but the market) and the medico tile; 'restore
        ... ill' and 'altar ... ill'; 'saints P'; the medico's decisions."""
        from itertools import combinations_with_replacement
        # each plan once (the other modules' words may list one several times: a repeat would
        # only add the same actions again, which the space drops)
        plans = list(dict.fromkeys(a for a in space.actions if a.kind == "plan"))
        allowed = tuple(i != 0 for i in range(len(_counts(plans[0].args[0]))))
        add = space.actions.append
        for a in plans:
            counts = _counts(a.args[0])
            tile = counts[0] <= MARKET_WITH_TILE
            for _, extra in _ill_words(tuple(c if ok else 0 for c, ok in zip(counts, allowed)), sum(counts)):
                args = a.args + extra
                add(_new(Action, ("plan", args)))
                if tile:
                    add(_new(Action, ("plan", args + _TILE)))
        for a in list(space.actions):
            if (a.kind == "restore" and "bishop" not in a.args and "sexton" not in a.args) or a.kind == "altar":
                space.actions.append(Action(a.kind, a.args + (ILL_WORD,)))
        space.actions.extend(Action("saints", (c,)) for c in PAINTS)
        space.actions.extend(Action("medicine", (str(p + 1),)) for p in range(4))
        space.actions.append(Action("heal", ("none",)))
        for k in range(1, self.data.max_bottles + 1):
            space.actions.extend(Action("heal", c) for c in combinations_with_replacement(BOTTLES, k))
        space.actions.extend(Action(kind, (w,)) for kind, ws in (("aside", ("ill", "own")),
                                                                 ("illness", ("neutral", "own"))) for w in ws)

    # ------------------------------------------------------------------ helpers
    def st(self, s: State) -> MState:
        return s.mods[NAME]

    def places(self, s: State) -> int:
        return 4 if s.n == 4 else 3

    def price(self, s: State, place: int) -> int:
        return self.data.prices[self.places(s)][place]

    def pool(self, s: State) -> int:
        """Black apprentices left on the medico board."""
        return black_left(self.data.black * s.n, s.mods[NAME].black)

    def healthy(self, s: State, seat: int) -> int:
        """Healthy apprentices ``seat`` may plan with: own ones not on the board, the neutral one,
        minus the one set aside."""
        return healthy_count(s.comp.apprentices, s.mods[NAME].sick[seat], s.neutral[seat], s.aside[seat])

    def plan_of(self, s: State, fig: int) -> tuple[tuple[int, ...], bool]:
        p = self.st(s).plans[fig] if fig < s.n else None
        return p if p is not None else ((0,) * len(s.columns()), False)

    def ill_at(self, s: State, fig: int, index: int) -> int:
        """Ill apprentices ``fig`` planned in column ``index``."""
        p = self.st(s).plans[fig] if fig < s.n else None
        return p[0][index] if p is not None else 0

    def healthy_at(self, s: State, fig: int, index: int) -> int:
        """Healthy apprentices ``fig`` planned in column ``index`` (a predicate for other modules)."""
        return s.plan[fig][index] - self.ill_at(s, fig, index)

    # ------------------------------------------------------------------ set-up, round
    def setup(self, s: State, rng) -> None:
        s.mods[NAME] = MState(pile=self.data.infection, tile=None, infected=None, draw=self.data.bottles,
                              discard=(), display=(None,) * self.places(s), held=((),) * s.n, sick=(0,) * s.n,
                              black=(0,) * s.n, neutral_ill=(0,) * s.n, plans=(None,) * s.n, ill_left=0,
                              worked=(0, 0), spent=())
        # 'No medicine will be offered at the market during the first game round.'

    def is_final_round(self, s: State) -> bool:
        """R11: one infection tile left at the start of a round (alternative end): the tiles
        left, with this round's if it was revealed already (a position in phase visits, N19)."""
        m = self.st(s)
        return len(m.pile) + (m.tile is not None and s.phase == VISITS) <= 1

    def after_planning(self, s: State) -> None:
        """'After players have planned their actions, reveal the top infection tile'."""
        m = self.st(s)
        for f, p in enumerate(m.plans):      # the plans' medico words are public now (R4)
            shown = _shown(p) if p is not None else None
            if shown is not None:
                s.add_event({"kind": "medico_plan", "figure": f, "ill": shown, "medico": p[1]})
        if not m.pile:      # no tile to reveal (a hand-written position): no location is infected
            m = own(s, NAME)
            m.tile = m.infected = None
            return
        pile = list(m.pile)
        tile = pile.pop(below(chance(s), len(pile)))
        infected = m.infected if tile == SAME else tile   # 'same location' in round 1: none (infected None)
        m = own(s, NAME)
        m.pile, m.tile, m.infected = tuple(pile), tile, infected
        s.add_event({"kind": "medico_infection", "tile": tile, "location": infected})

    def round_preparation(self, s: State, rng) -> None:
        """Unsold bottles are discarded; one bottle per player with an ill apprentice is
        displayed, sorted 3, 2, 1 portions then juice; the draw pile is remade from the
        discards when empty.  This round's infection tile is discarded."""
        m = self.st(s)
        places = self.places(s)
        unsold = [b for b in m.display if b is not None]
        discard = list(m.discard) + unsold       # the piles are kept sorted: sorted again only when mixed
        draw = list(m.draw)
        wanted = min(places, len(m.black) - m.black.count(0))
        shown = []
        reshuffled = False
        for _ in range(wanted):
            if not draw:
                if not discard:
                    break
                draw, discard, reshuffled = discard, [], True
                s.add_event({"kind": "medico_reshuffle", "bottles": len(draw)})
            shown.append(draw.pop(below(rng, len(draw))))
        shown = list(_sorted_bottles(shown))
        display = tuple(shown + [None] * (places - len(shown)))
        spent = tuple(sorted(m.spent + (m.tile,))) if m.tile else m.spent
        m = own(s, NAME)
        m.draw = _sorted_bottles(draw) if reshuffled else tuple(draw)
        m.discard = _sorted_bottles(discard) if unsold and not reshuffled else tuple(discard)
        m.display, m.tile, m.plans, m.spent = display, None, (None,) * s.n, spent
        if shown:
            s.add_event({"kind": "medico_display", "count": len(shown), "bottles": shown,
                         "prices": list(self.data.prices[places][:len(shown)])})

    # ------------------------------------------------------------------ get-up
    def after_getup(self, s: State, fig: int) -> None:
        """'Automatic healings': 'If a player chooses a wake-up time that forces him to move onto
        a -1 space, he can choose to set aside an ill apprentice' -- moving onto the -1 spaces
        from elsewhere; one already there keeps the apprentice set aside before (rules notes
        MD14; the hook runs before the zone's apprentices change: ``s.aside`` is the old zone's)."""
        if fig < s.n and not s.aside[fig] and s.comp.mood_spaces[s.mood[fig]] == -1 \
                and s.mods[NAME].sick[fig] and s.mods[NAME].black[fig]:
            ask(s, fig, NAME, "aside")

    # ------------------------------------------------------------------ planning
    def apprentices(self, s: State, seat: int, n: int) -> int:
        m: MState = s.mods[NAME]
        return n + m.black[seat] - m.sick[seat]

    def _tile_refusal(self, s: State, seat: int) -> str | None:
        m: MState = s.mods[NAME]
        if _tile_may_go(m, seat, self.data.max_bottles):
            return None
        if len(m.held[seat]) >= self.data.max_bottles:
            return f"you hold {len(m.held[seat])} bottles, the most a player may have"
        return "the medico offers no bottle this round"

    def plan_refusal(self, s: State, seat: int, counts: tuple, words: Mapping) -> str | None:
        cols = s.columns()
        m = self.st(s)
        ill_count = 0
        if ILL_WORD in words:
            try:
                ill = _counts(words[ILL_WORD][0])
            except ValueError:
                ill = ()
            if len(ill) != len(cols):
                return f"'ill' gives the ill apprentices of each of the {len(cols)} columns, like 'ill 0-1-0-0-0'"
            for c, n, i in zip(cols, counts, ill):
                if i > n:
                    return f"{i} ill apprentices in the {c} column, which has {n}"
                if i and c in BARRED:
                    return f"ill apprentices may not go to the {c}"
            ill_count = sum(ill)
            if ill_count > m.black[seat]:
                return f"the plan has {ill_count} ill apprentices; you have {m.black[seat]}"
        off = 0
        for hook in s.hooks.placed_off_sheet:
            off += hook(s, seat, words)
        healthy = sum(counts) - ill_count + off
        if healthy > self.healthy(s, seat):
            return (f"the plan needs {healthy} healthy apprentices; you have {self.healthy(s, seat)} "
                    f"(and {m.black[seat]} ill ones: name them with 'ill', e.g. 'ill 0-1-0-0-0')")
        if TILE_WORD in words:
            why = self._tile_refusal(s, seat)
            if why:
                return "the medico tile: " + why
            if counts[cols.index("market")] > MARKET_WITH_TILE:
                return "with the medico tile at most one (healthy) apprentice goes to the market"
        return None

    def plan_options(self, s: State, seat: int, plans: Any) -> TiledPlans | PlanVariants:
        """Each plan with every way of naming its ill apprentices (MD1) that the seat's healthy
        and ill apprentices allow, each also with the medico tile where it may go (W10: the
        apprentice on the wall tile is a healthy one): a lazy :class:`PlanVariants` of the
        :class:`TiledPlans` given, memoised on its identity and the seat's limits."""
        if type(plans) is not TiledPlans:
            raise TypeError("the medico's plan words extend the TiledPlans of the base plans and action tiles "
                            f"(rules/plan_sequences.py), not {type(plans).__name__}: a module hook before the "
                            "medico's gave plans of its own")
        key = self.plan_situation(s, seat)
        hit = _OPTIONS.get(plans, key)
        if hit is None:
            allowed, market = _sheet_limits(s.columns())   # the columns ill ones may go to; the market's
            hit = _OPTIONS.put(plans, _ill_variants(plans, (key[0], key[1], allowed, key[2], market)), key)
        return hit

    def plan_situation(self, s: State, seat: int) -> tuple[int, int, bool]:
        """What :meth:`plan_options` depends on besides the plans' side of the action sheet (their
        column words): the seat's healthy and ill apprentices, and whether the medico tile may go."""
        m: MState = s.mods[NAME]
        return (healthy_count(s.comp.apprentices, m.sick[seat], s.neutral[seat], s.aside[seat]), m.black[seat],
                _tile_may_go(m, seat, self.data.max_bottles))

    def plan_apply(self, s: State, seat: int, counts: tuple, words: Mapping) -> None:
        ill = words.get(ILL_WORD)      # (the ill apprentices' counts text,) or None
        plan = (_counts(ill[0]) if ill is not None else (0,) * len(counts), TILE_WORD in words)
        m = own(s, NAME)
        m.plans = with_item(m.plans, seat, plan)
        shown = _shown(plan)
        if shown is not None:     # the seat's own: secret until the reveal (R4)
            s.add_event({"kind": "medico_plan", "figure": seat, "ill": shown, "medico": plan[1]}, seat)

    # ------------------------------------------------------------------ visits
    def visit_start(self, s: State, fig: int, column: str, count: int) -> bool:
        if fig >= s.n:
            return False
        m = s.mods[NAME]
        plan = m.plans[fig]
        i = plan[0][s.loc] if plan is not None else 0     # the ill ones of this column (ill_at)
        if m.ill_left != i or m.worked != _UNBEGUN:
            m = own(s, NAME)
            m.ill_left, m.worked = i, _UNBEGUN
        if i and column == "workshop":
            per = s.comp.rules["workshop"]["blends_per_apprentice"]
            s.left = per * (count - i) + self.data.ill_blends * i     # 'Ill apprentices can blend paint only once'
        if column == "market" and plan is not None and plan[1]:    # (the market: one column on either side)
            options = self._bottle_options(s, fig)
            if options:
                ask(s, fig, NAME, "medicine")
            elif any(b is not None for b in m.display):
                if len(m.held[fig]) < self.data.max_bottles:
                    # 'If a player doesn't have enough money to buy a bottle, he must lift his screen'
                    s.add_event({"kind": "medico_no_money", "figure": fig})
            return True
        return False

    def _bottle_options(self, s: State, fig: int) -> list[Action]:
        m: MState = s.mods[NAME]
        if len(m.held[fig]) >= self.data.max_bottles:
            return []
        prices, money = self.data.prices[self.places(s)], s.thalers[fig]
        out = []
        for p, b in enumerate(m.display):    # (loops here and below: a comprehension reading a local
            if b is not None and prices[p] <= money:   # makes it a cell at every call)
                out.append(_MEDICINE[p])
        return out

    def visit_actions(self, s: State, fig: int, column: str, actions: list) -> None:
        if fig >= s.n:
            return
        m = s.mods[NAME]
        plan = m.plans[fig]
        if plan is None or not plan[0][s.loc]:    # no ill apprentice of fig in this column (ill_at)
            return
        healthy_left = s.left - m.ill_left
        if column == "cathedral":
            ill_actions = []
            if m.ill_left:
                near = NEIGHBOURS8[s.bishop]
                for a in actions:
                    if a.kind == "restore" and "bishop" not in a.args and "sexton" not in a.args:
                        seg = SEGMENT[a.args[0]]
                        if seg != s.bishop and seg not in near:
                            ill_actions.append(Action("restore", a.args + (ILL_WORD,)))
                    elif a.kind == "altar":
                        ill_actions.append(Action("altar", a.args + (ILL_WORD,)))
            if healthy_left <= 0:
                actions[:] = [a for a in actions if a.kind == "pass"]
            actions.extend(ill_actions)
        elif column == "studio":
            if healthy_left <= 0:
                actions[:] = [a for a in actions if a.kind == "pass"]
            if m.ill_left:
                have = s.paints[fig]
                for c in PAINTS:
                    if have[PAINT_INDEX[c]]:
                        actions.append(_SAINTS[c])
        elif column == "workshop":
            if not self._healthy_unbegun(s, fig):
                actions[:] = [a for a in actions if a.kind in ("blend", "pass")]

    def _healthy_unbegun(self, s: State, fig: int) -> bool:
        """Workshop: is a healthy apprentice left who has not begun blending?  Blends are
        counted against the ill apprentices first (the player's best order); every other
        workshop action (a request, an exchange) takes a healthy apprentice's place."""
        p = s.mods[NAME].plans[fig] if fig < s.n else None
        ill = p[0][s.loc] if p is not None else 0     # ill_at
        healthy = s.plan[fig][s.loc] - ill
        blends, others = s.mods[NAME].worked
        used = others + -(-max(0, blends - ill) // 2)
        return healthy - used > 0

    def apply_action(self, s: State, fig: int, action: Action) -> bool:
        if action.kind in ("restore", "altar") and action.args and action.args[-1] == ILL_WORD:
            s.add_event({"kind": "medico_ill_apprentice", "figure": fig, "action": action.kind,
                         "segment": action.args[0] if action.kind == "restore" else None})
            if action.kind == "restore":
                seg = SEGMENT[action.args[0]]
                tile = s.fresco[seg]
                cathedral.apply(s, fig, Action("restore", action.args[:-1]))
                # 'the bishop is moved to this section' (cathedral.restore did); scrolls may be
                # played: the bishop stands on the segment right after the restoration
                self._scrolls_after_ill_restore(s, fig, seg, tile)
            else:
                cathedral.apply(s, fig, Action("altar", action.args[:-1]))
            own(s, NAME).ill_left -= 1
            return True
        if action.kind == "saints":
            paint = action.args[0]
            p = list(s.paints[fig])
            p[PAINT_INDEX[paint]] -= self.data.saints_paints
            s.paints[fig] = tuple(p)
            earn(s, fig, self.data.saints_thalers)   # R10: onto a partly paid bell certificate first
            s.left -= 1
            own(s, NAME).ill_left -= 1
            s.add_event({"kind": "medico_saints", "figure": fig, "paint": paint, "amount": self.data.saints_thalers})
            return True
        if action.kind == "studio" and fig < s.n and s.mods[NAME].ill_left:
            ill = s.mods[NAME].ill_left
            gained = s.comp.rules["studio"]["thalers_per_apprentice"] * (s.left - ill)
            earn(s, fig, gained)
            s.left = ill
            s.add_event({"kind": "studio", "figure": fig, "amount": gained})
            return True
        return False

    def after_action(self, s: State, fig: int, action: Action) -> None:
        if fig < s.n and s.loc == _WORKSHOP:
            blends, others = s.mods[NAME].worked
            own(s, NAME).worked = (blends + 1, others) if action.kind == "blend" else (blends, others + 1)

    def _scrolls_after_ill_restore(self, s: State, fig: int, seg: int, tile) -> None:
        if "scrolls" in s.modules:
            find(s, "scrolls").after_restore(s, fig, seg, tile, True)

    def after_visit(self, s: State, fig: int, column: str) -> None:
        """'After a player has finished his final action at the infected location, one of his
        healthy apprentices there becomes ill' (also after forfeiting); mixed locations make
        every healthy apprentice there ill."""
        if fig >= s.n:
            return
        m = s.mods[NAME]
        plan = m.plans[fig]
        ill = plan[0][s.loc] if plan is not None else 0     # ill_at
        if m.ill_left:
            m = own(s, NAME)
            m.ill_left = 0
        if not ill and column != m.infected:     # neither mixed nor infected: nobody falls ill here
            return
        healthy = s.plan[fig][s.loc] - ill
        if healthy <= 0:
            return
        falling = healthy if ill else (1 if column == m.infected else 0)
        if not falling:
            return
        neutral = s.neutral[fig] and m.neutral_ill[fig] != s.round
        if neutral and 0 < falling <= self._own_present(s, fig):
            ask(s, fig, NAME, ["illness", falling, column])   # JSON-ready (view["asks"])
        else:   # more fall ill than own apprentices are there: the neutral one is among them
            self._fall_ill(s, fig, falling, neutral, column)

    def _own_present(self, s: State, fig: int) -> int:
        """Own healthy apprentices that can be on the action sheet (not on the medico board,
        not set aside)."""
        return s.comp.apprentices - s.mods[NAME].sick[fig] - s.aside[fig]

    def _fall_ill(self, s: State, fig: int, count: int, neutral: bool, column: str) -> None:
        m: MState = s.mods[NAME]
        sick, black, neutral_ill = m.sick[fig], m.black[fig], m.neutral_ill[fig]
        mine = count - (1 if neutral else 0)    # own apprentices falling ill
        taken = min(count, self.pool(s))        # no black apprentice left: nobody more falls ill
        if neutral and taken:
            neutral_ill = s.round
            black += 1
            taken -= 1
        mine = min(mine, taken, self._own_present(s, fig))
        sick += mine
        black += mine
        m = own(s, NAME)
        m.sick, m.black = with_item(m.sick, fig, sick), with_item(m.black, fig, black)
        if neutral_ill != m.neutral_ill[fig]:
            m.neutral_ill = with_item(m.neutral_ill, fig, neutral_ill)
        s.add_event({"kind": "medico_ill", "figure": fig, "location": column, "own": mine,
                     "neutral": bool(neutral and neutral_ill == s.round)})

    def after_location(self, s: State, column: str, index: int) -> None:
        """'After the last player has performed his final action at the theater (or passed)'
        (in the final round, the final cathedral, R20): healing in player order."""
        if index != len(s.columns()) - 1:
            return
        m: MState = s.mods[NAME]
        for fig in s.order:   # asked only of a player holding a bottle of use ('heal none' is not a choice)
            if fig < s.n:
                sick = m.sick[fig]
                for b in m.held[fig]:
                    if sick or b == "juice":
                        ask(s, fig, NAME, "heal")
                        break

    def _heal_options(self, s: State, fig: int) -> list[Action]:
        m: MState = s.mods[NAME]
        return list(_heal_choices(m.held[fig], m.sick[fig] > 0))

    # ------------------------------------------------------------------ asks
    def valid_ask(self, s: State, fig: int, payload) -> bool:
        """A saved medico ask: 'medicine', 'heal', 'aside' or ['illness', count, column] of a seat."""
        if not 0 <= fig < s.n:
            return False
        if payload in ("medicine", "heal", "aside"):
            return True
        return (isinstance(payload, (list, tuple)) and len(payload) == 3 and payload[0] == "illness"
                and isinstance(payload[1], int) and not isinstance(payload[1], bool) and payload[1] >= 1
                and payload[2] in s.columns())

    def ask_actions(self, s: State, a) -> list:
        fig, _, what = a
        if what == "medicine":
            return self._bottle_options(s, fig)
        if what == "heal":
            return self._heal_options(s, fig)
        if what == "aside":
            own_here = s.comp.apprentices - s.mods[NAME].sick[fig]
            return list(_ASIDE if own_here else _ASIDE[:1])
        return list(_ILLNESS)

    def answer(self, s: State, a, action) -> None:
        fig, _, what = a
        m: MState = s.mods[NAME]
        if what == "medicine":
            place = int(action.args[0]) - 1
            bottle, price = m.display[place], self.price(s, place)
            s.thalers[fig] -= price
            m = own(s, NAME)
            m.display = with_item(m.display, place, None)
            m.held = with_item(m.held, fig, _sorted_bottles(m.held[fig] + (bottle,)))
            s.add_event({"kind": "medico_buy", "figure": fig, "place": place + 1, "bottle": bottle, "cost": price})
        elif what == "heal":
            used = action.args if action.args != ("none",) else ()
            held = list(m.held[fig])
            for b in used:
                held.remove(b)
            portions = sum(int(b) for b in used if b != "juice")
            healed = min(portions, m.sick[fig], m.black[fig])
            juice = sum(b == "juice" for b in used)
            if juice:
                change_mood(s, fig, self.data.juice_mood * juice)
            m = own(s, NAME)
            m.held, m.discard = with_item(m.held, fig, tuple(held)), _sorted_bottles(m.discard + used)
            if healed:
                m.sick, m.black = with_item(m.sick, fig, m.sick[fig] - healed), with_item(m.black, fig, m.black[fig] - healed)
            s.add_event({"kind": "medico_heal", "figure": fig, "bottles": list(used), "healed": healed,
                         "lost": portions - healed, "mood": juice * self.data.juice_mood})
        elif what == "aside":
            if action.args[0] == "ill":
                m = own(s, NAME)
                m.sick, m.black = with_item(m.sick, fig, m.sick[fig] - 1), with_item(m.black, fig, m.black[fig] - 1)
            if action.args[0] == "ill":
                s.add_event({"kind": "medico_aside", "figure": fig})
        else:
            _, count, column = what
            self._fall_ill(s, fig, count, action.args[0] == "neutral", column)

    def refusal(self, s: State, seat: int, action) -> str | None:
        m = self.st(s)
        if action.kind == "medicine" and not (s.asks and s.asks[0][2] == "medicine"):
            return ("a bottle is bought by a player whose 'medico at the market' tile covers the "
                    "market, at the start of his market turn")
        if action.kind == "medicine":
            shown = ", ".join(f"place {p + 1}: {_BOTTLE_NAMES[b]} for {self.price(s, p)}"
                              for p, b in enumerate(m.display) if b)
            return f"the medico's display shows {shown or 'no bottle'}; you have {s.thalers[seat]} Thalers"
        if action.kind == "heal":
            bottles = m.held[seat] if seat < s.n else ()
            held = ", ".join(_BOTTLE_NAMES[b] for b in bottles) or "no bottle"
            return (f"you hold {held}; name the bottles to use "
                    f"('heal {' '.join(bottles) or '3 juice'}') or 'heal none'")
        fig = s.actor
        if action.kind in ("restore", "altar", "studio") and (not action.args or action.args[-1] != ILL_WORD) \
                and 0 <= fig < s.n and m.ill_left and s.left <= m.ill_left and not s.asks and not s.pending:
            if action.kind == "studio":
                return "the apprentices you have left in the studio are ill: they paint pictures of saints ('saints R')"
            plain = action
            for word in ("bishop", "sexton"):   # 'the bishop cannot be moved beforehand'
                if word in plain.args:
                    i = plain.args.index(word)
                    plain = Action(plain.kind, plain.args[:i] + plain.args[i + 2:])
            moved = " (without moving the bishop)" if plain is not action else ""
            return f"the apprentices you have left in the cathedral are ill: '{plain} {ILL_WORD}'{moved}"
        if action.kind in ("restore", "altar") and action.args and action.args[-1] == ILL_WORD:
            if not m.ill_left:
                return "no ill apprentice of yours is left in this column"
            if action.kind == "restore" and action.args[0] in SEGMENT:
                seg = SEGMENT[action.args[0]]
                if seg == s.bishop or seg in NEIGHBOURS8[s.bishop]:
                    return "an ill apprentice cannot restore a section on or next to the bishop"
                if "bishop" in action.args or "sexton" in action.args:
                    return "the bishop cannot be moved before an ill apprentice restores"
        if action.kind == "saints" and not (0 <= fig < s.n and m.ill_left):
            return "pictures of saints are painted by ill apprentices: you have none left in the studio"
        if action.kind == "saints":
            have = [c for c in PAINTS if s.paints[seat][PAINT_INDEX[c]]] if seat < s.n else []
            eg = f", e.g. 'saints {have[0]}'" if have else ": you have none"
            return f"pictures of saints: one ill studio apprentice pays one paint you have{eg}"
        return None

    # ------------------------------------------------------------------ the end
    def final_scoring(self, s: State, seat: int) -> dict[str, int]:
        """R12: 5 Thalers per own apprentice not on the medico board, before 1 VP per 2 Thalers
        (their VP count as the source 'medico')."""
        mine = s.comp.apprentices - self.st(s).sick[seat]     # own apprentices not on the board
        credit = self.data.thalers_per_apprentice * mine
        s.thalers[seat] += credit
        s.log_event("medico_credit", figure=seat, apprentices=mine, amount=credit)
        return {NAME: credit}

    # ------------------------------------------------------------------ view, saving
    def view(self, s: State, seat, out) -> None:
        m = self.st(s)
        revealed = s.phase != "plan"
        plans = []
        for f in range(s.n):
            p = m.plans[f]
            plans.append(None if p is None or not (revealed or f == seat)
                         else {"ill": list(p[0]), "medico": p[1]})
        prices = self.data.prices[self.places(s)]
        out[NAME] = {
            "infection_tile": m.tile,
            "infected": m.infected,
            "infection_tiles_left": len(m.pile),
            "infection_discard": list(m.spent),
            "display": [None if b is None else {"place": p + 1, "bottle": b, "price": prices[p]}
                        for p, b in enumerate(m.display)],
            "prices": list(prices),
            "draw_pile": len(m.draw),
            "discard": list(m.discard),
            "held": [list(h) for h in m.held],
            "sick": list(m.sick),
            "ill": list(m.black),
            "neutral_ill": list(m.neutral_ill),
            "healthy": [self.healthy(s, f) for f in range(s.n)],
            "black_on_board": self.pool(s),
            "plans": plans,
            "ill_left": m.ill_left if s.phase == "visits" and s.actor >= 0 else 0,
            "workshop_done": list(m.worked) if s.phase == "visits" and s.actor >= 0 else [0, 0],
            # the medico's decisions waiting (public: who decides what follows from public facts)
            "asks": [[a[0], a[2] if isinstance(a[2], str) else list(a[2])] for a in s.asks if a[1] == NAME],
        }

    def dump(self, s: State):
        m = self.st(s)
        return {"infection_pile": list(m.pile), "infection_tile": m.tile, "infected": m.infected,
                "draw": list(m.draw), "discard": list(m.discard), "display": list(m.display),
                "held": [list(h) for h in m.held], "sick": list(m.sick), "ill": list(m.black),
                "neutral_ill": list(m.neutral_ill),
                "plans": [None if p is None else {"ill": list(p[0]), "medico": p[1]} for p in m.plans],
                "ill_left": m.ill_left, "workshop_done": list(m.worked), "infection_discard": list(m.spent)}

    def load(self, s: State, data) -> None:
        w = "saved state: modules_state.medico"
        if data is None:
            data = {}
        if not isinstance(data, dict):
            raise StateError(f"{w}: an object")
        n, cols = s.n, len(s.columns())

        def lst(key, default):
            v = data.get(key, default)
            if not isinstance(v, list):
                raise StateError(f"{w}.{key}: {v!r} must be a list")
            return v

        def ints(key, lo, hi):
            v = lst(key, [0] * n)
            if len(v) != n or any(not isinstance(x, int) or isinstance(x, bool) or not lo <= x <= hi for x in v):
                raise StateError(f"{w}.{key}: {v!r}: one whole number {lo}..{hi} per seat")
            return tuple(v)

        pile = lst("infection_pile", list(self.data.infection))
        if any(t not in TILES for t in pile):
            raise StateError(f"{w}.infection_pile: {pile!r}: tiles are {', '.join(TILES)}")
        tile = data.get("infection_tile")
        infected = data.get("infected")
        if (tile is not None and tile not in TILES) or (infected is not None and infected not in LOCATIONS):
            raise StateError(f"{w}: infection_tile {tile!r} / infected {infected!r}: a location, 'same' or null")
        if tile in LOCATIONS and s.phase == VISITS and infected != tile:
            # this round's tile, revealed after planning, names the location it infects ('reveal
            # the top infection tile ... This location is infected'): a position that leaves
            # ``infected`` out (or null) is read so (rules notes MD16; before, nothing was
            # infected); another location is refused
            if infected is not None:
                raise StateError(f"{w}: infection_tile {tile!r} infects the {tile} this round, not the {infected}")
            infected = tile
        draw, discard = lst("draw", None if "draw" in data else list(self.data.bottles)), lst("discard", [])
        display = lst("display", [None] * self.places(s))
        held = lst("held", [[] for _ in range(n)])
        if len(display) != self.places(s):
            raise StateError(f"{w}.display: {self.places(s)} places with {n} players")
        if len(held) != n or any(not isinstance(h, list) or len(h) > self.data.max_bottles for h in held):
            raise StateError(f"{w}.held: one list of at most {self.data.max_bottles} bottles per seat")
        every = list(draw) + list(discard) + [b for b in display if b is not None] + [b for h in held for b in h]
        if any(b not in BOTTLES for b in every):
            raise StateError(f"{w}: bottles are written {', '.join(BOTTLES)}")
        if sorted(every, key=BOTTLES.index) != list(self.data.bottles) and "draw" in data:
            raise StateError(f"{w}: the bottles in draw, discard, display and held must be the edition's "
                             f"{len(self.data.bottles)} bottles")
        if "draw" not in data:   # a hand-written position: the draw pile holds the other bottles
            rest = list(self.data.bottles)
            for b in every[len(draw):]:
                if b not in rest:
                    raise StateError(f"{w}: more {b!r} bottles than the edition has")
                rest.remove(b)
            draw = rest
        sick = ints("sick", 0, s.comp.apprentices)
        black = ints("ill", 0, self.data.black * n)
        if any(b < k for b, k in zip(black, sick)):
            raise StateError(f"{w}: a seat holds a black apprentice for each own one on the board (ill >= sick)")
        if sum(black) > self.data.black * n:
            raise StateError(f"{w}.ill: {sum(black)} black apprentices; the board has {self.data.black * n}")
        neutral_ill = ints("neutral_ill", 0, s.round)     # a round of the game so far, 0 never (rules notes N28)
        spent = lst("infection_discard", [])
        left = list(self.data.infection)
        for x in list(pile) + list(spent) + ([tile] if tile else []):
            if x not in left:
                raise StateError(f"{w}: infection pile, discard and tile hold more {x!r} tiles than the edition")
            left.remove(x)
        plans_raw = lst("plans", [None] * n)
        if len(plans_raw) != n:
            raise StateError(f"{w}.plans: one entry per seat")
        plans = []
        for f, p in enumerate(plans_raw):
            if p is None:
                # left out: 'no ill apprentice' (``loaded`` checks that the seat has the healthy
                # ones, rules notes MD17)
                plans.append(None if s.plan[f] is None else ((0,) * cols, False))
                continue
            if not isinstance(p, dict) or not isinstance(p.get("ill"), list) or len(p["ill"]) != cols \
                    or not isinstance(p.get("medico", False), bool):
                raise StateError(f"{w}.plans[{f}]: {{'ill': [{cols} counts], 'medico': true/false}}")
            ill = tuple(p["ill"])
            if s.plan[f] is not None and any(not isinstance(i, int) or not 0 <= i <= c for i, c in zip(ill, s.plan[f])):
                raise StateError(f"{w}.plans[{f}].ill: {list(ill)!r} must fit the plan {list(s.plan[f])!r}")
            if any(i and not may for i, may in zip(ill, _sheet_limits(s.columns())[0])):
                raise StateError(f"{w}.plans[{f}].ill: {list(ill)!r}: no ill apprentice goes to the market "
                                 "or the theater")
            if p.get("medico", False) and s.plan[f] is not None and s.plan[f][0] > MARKET_WITH_TILE:
                # 'The player can also send one healthy apprentice to the market' (MD15)
                raise StateError(f"{w}.plans[{f}].medico: with the medico tile at most {MARKET_WITH_TILE} apprentice "
                                 f"goes to the market; the plan {list(s.plan[f])!r} sends {s.plan[f][0]}")
            plans.append((ill, p.get("medico", False)))
        s.mods[NAME] = MState(tuple(sorted(pile)), tile, infected, _sorted_bottles(draw), _sorted_bottles(discard),
                              tuple(display), tuple(_sorted_bottles(h) for h in held), sick, black, neutral_ill,
                              tuple(plans), int(data.get("ill_left", 0)),
                              _workshop_done(data.get("workshop_done", [0, 0]), w),
                              tuple(sorted(lst("infection_discard", []))))


    def loaded(self, s: State) -> None:
        """A committed plan's medico part names every ill apprentice of the plan (left out: none):
        'Ill apprentices may not be deployed at ...' (rules notes MD17, MD18), so no more ill ones
        than the seat's black apprentices, and no more healthy ones still to act than the seat's
        healthy ones (the wall tile's apprentice among them, W10).  Checked once the figures'
        flags are read (the neutral apprentice a visits plan shows, N21)."""
        w = "saved state: modules_state.medico"
        m: MState = s.mods[NAME]
        cols = len(s.columns())
        # the columns whose healthy apprentices cannot have fallen ill yet this round: all of them
        # in phase plan; in phase visits those after the current one, and the current one before
        # its first visitor (illness strikes after a visit, healing comes after the last column;
        # in phase over the last round's plans are kept and checked no more)
        if s.phase == PLAN:
            first = 0
        elif s.phase == VISITS:
            first = s.loc + (0 if s.visit < 0 and s.actor < 0 else 1)
        else:
            first = cols
        for f in range(s.n):
            plan, part = s.plan[f], m.plans[f]
            if plan is None or part is None or first >= cols:
                continue
            ill = part[0]
            if sum(ill) > m.black[f]:
                raise StateError(f"{w}.plans[{f}].ill: {list(ill)!r}: {sum(ill)} ill apprentices; the seat "
                                 f"holds {m.black[f]} (ill)")
            healthy = sum(c - i for c, i in zip(plan[first:], ill[first:])) + sum(mod.off_sheet(s, f) for mod in s.hooks)
            if healthy > self.healthy(s, f):
                raise StateError(f"{w}.plans[{f}]: the plan {list(plan)!r} holds {healthy} healthy apprentices still "
                                 f"to act; the seat has {self.healthy(s, f)}: name its ill ones ({{'ill': [per column], "
                                 "'medico': false})")


def _workshop_done(raw, where: str) -> tuple[int, int]:
    """A saved ``workshop_done``: the current workshop turn's blends and other actions."""
    if not isinstance(raw, list) or len(raw) != 2:
        raise StateError(f"{where}.workshop_done: {raw!r}: [blends, other actions] of the current workshop turn")
    return int(raw[0]), int(raw[1])


def _made_in_full() -> int:
    """The plan sequences made in full so far (the memo below weighs them again when it moves)."""
    return PlanVariants.made_in_full


# plan_options memo: 256 entries, at most 1.5 million plan actions made in all (tens of MB), weighed
# again only when a sequence was made in full
_OPTIONS = IdentityMemo(256, 1_500_000, PlanVariants.weight, _made_in_full)


_TILE = (TILE_WORD,)

_BOTTLE_NAMES = {"3": "a bottle of 3 portions", "2": "a bottle of 2 portions", "1": "a bottle of 1 portion",
                 "juice": "a raspberry juice"}
_new = tuple.__new__


@lru_cache(maxsize=4096)
def _counts(text: str) -> tuple[int, ...]:
    return tuple(map(int, text.split("-")))


def _shown(plan: tuple[tuple[int, ...], bool]) -> str | None:
    """A committed plan's medico part ``(ill per column, medico tile)`` as the 'ill' text of its
    ``medico_plan`` events (:func:`counts_text`, memoised: shown when committed and again at the
    reveal), or None when it names no ill apprentice and no medico tile (no event)."""
    ill, tile = plan
    return counts_text(ill) if tile or any(ill) else None


@lru_cache(maxsize=8)
def _sheet_limits(columns: tuple) -> tuple[tuple[bool, ...], int]:
    """Per column of an action sheet side: whether ill apprentices may go there; and the
    market's column."""
    return tuple(c not in BARRED for c in columns), columns.index("market")


@lru_cache(maxsize=4096)
def _ill_words(capped: tuple, black: int) -> tuple:
    """``(k, word)`` for every way of naming ``k`` ill apprentices, at most ``black``, among a
    plan's counts ``capped`` at ``black`` (0 where none may be ill, :func:`_capped_columns`):
    the word is 'ill a-b-c-d-e' (() for none), in product order."""
    out = []
    texts = product(*[_DIGITS[:c + 1] for c in capped])      # the same counts as text, in step
    for ill in product(*[range(c + 1) for c in capped]):
        text = next(texts)
        k = sum(ill)
        if k <= black:
            out.append((k, (ILL_WORD, "-".join(text)) if k else ()))
    return tuple(out)


_DIGITS = ("0", "1", "2", "3", "4", "5", "6", "7", "8", "9")    # counts per column as text (at most 9)


@lru_cache(maxsize=4096)
def _ill_left(capped: tuple, black: int, least: int) -> tuple:
    """The words of :func:`_ill_words` naming at least ``least`` ill apprentices."""
    return tuple(extra for k, extra in _ill_words(capped, black) if k >= least)


def _capped_columns(per_column: int, allowed: tuple, black: int) -> list[list[int]]:
    """Per column, per count: how many of them may be ill (at most ``black``, none where
    ill apprentices may not go); ``product`` of it: the capped counts in counting order."""
    return [[min(v, black) if ok else 0 for v in range(per_column + 1)] for ok in allowed]


@lru_cache(maxsize=4096)
def _capped(counts: tuple, allowed: tuple, black: int) -> tuple:
    """A plan's counts capped as :func:`_capped_columns` caps them (made for the plans made)."""
    return tuple([min(c, black) if ok else 0 for c, ok in zip(counts, allowed)])


@lru_cache(maxsize=4096)
def _at_least_capped(capped: tuple, black: int) -> tuple:
    """``out[k]``: how many words :func:`_ill_words` has naming at least ``k`` ill apprentices
    (k = 0..black+1) among counts capped at ``black`` (0 where none may be ill), counted
    without making the words (the count does not depend on the columns' order)."""
    ways = [1]                       # ways[k]: words naming k ill apprentices in the columns so far
    for c in capped:
        ways = [sum(ways[max(0, k - c):k + 1]) for k in range(min(len(ways) + c, black + 1))]
    per = ways + [0] * (black + 2 - len(ways))
    for k in range(black, -1, -1):
        per[k] += per[k + 1]
    return tuple(per)


@lru_cache(maxsize=512)
def _sizes(base: tuple, allowed: tuple, black: int, healthy: int, tile_ok: bool, market: int) -> tuple:
    """Per base plan of ``base`` (TiledPlans.base_key) using ``healthy`` healthy apprentices at
    most: how many ill words name at least the ill ones it needs, times 2 where the medico tile
    may go too (at most one apprentice at the market)."""
    n_of = base_counts(*base)[1]
    if black:
        need = [min(max(n - healthy, 0), black + 1) for n in range(base[0] + 1)]   # ill ones needed, by apprentices
        sizes = map(getitem, _at_least_of(base, allowed, black), map(need.__getitem__, n_of))
    else:   # no ill apprentice: one word (none) where the healthy ones suffice
        sizes = map(int, compress(within(healthy, *base[1:]), within(*base)))
    return tuple(map(mul, sizes, _tile_factor(base, market)) if tile_ok else sizes)


@lru_cache(maxsize=512)
def _with_variants(base: tuple, allowed: tuple, healthy: int, most: int) -> bytes:
    """Per base plan of ``base`` (TiledPlans.base_key): 1 if it has a variant (its
    :func:`_sizes` not 0: its apprentices in the columns ill ones may not go to at most
    ``healthy``, all its apprentices at most ``most``, the healthy and the ill ones), else 0;
    :func:`_kinds_of` translated in one pass, without counting ill words."""
    top = base[1] * base[2] + 1
    rows = min(max(healthy + 1, 0), top)     # the counts in those columns allowed: 0 to healthy
    return _kinds_of(base, allowed).translate((bytes([n <= most for n in range(top)]) * rows).ljust(256, b"\0"))


@lru_cache(maxsize=64)
def _kinds_of(base: tuple, allowed: tuple) -> bytes:
    """:func:`_sheet_kinds` of the base plans of ``base``, in their order."""
    return bytes(compress(_sheet_kinds(base[1], base[2], allowed), within(*base)))


@lru_cache(maxsize=8)
def _sheet_kinds(columns: int, per_column: int, allowed: tuple) -> bytes:
    """Per plan of the sheet in counting order (sheet_counts): its apprentices in the columns
    ill ones may not go to times one more than a plan may hold, plus all its apprentices (the
    printed sheet of 5 columns of 3: under 256)."""
    counts, apprentices = sheet_counts(columns, per_column)[:2]
    barred, top = [not ok for ok in allowed], columns * per_column + 1
    return bytes([sum(compress(c, barred)) * top + n for c, n in zip(counts, apprentices)])


@lru_cache(maxsize=64)
def _at_least_of(base: tuple, allowed: tuple, black: int) -> tuple:
    """:func:`_at_least_capped` of each base plan of ``base`` (TiledPlans.base_key), in the
    base plans' counting order."""
    return tuple(compress(_at_least_every(base[1], base[2], allowed, black), within(*base)))


@lru_cache(maxsize=32)
def _at_least_every(columns: int, per_column: int, allowed: tuple, black: int) -> tuple:
    """:func:`_at_least_capped` of every column count in counting order (the few distinct
    capped counts computed once each)."""
    capped = _capped_columns(per_column, allowed, black)
    table = {c: _at_least_capped(tuple(sorted(c)), black) for c in product(*(sorted(set(x)) for x in capped))}
    return tuple(map(table.__getitem__, product(*capped)))


@lru_cache(maxsize=64)
def _tile_factor(base: tuple, market: int) -> tuple:
    """Per base plan: 2 if the medico tile may go with it (at most one apprentice at the
    market), else 1."""
    factor = [2 if c <= MARKET_WITH_TILE else 1 for c in range(base[2] + 1)]     # by the market's count
    return tuple(map(factor.__getitem__, map(itemgetter(market), base_counts(*base)[0])))


class _PlanOrder:
    """The order of the medico's plans within one part of a :class:`PlanVariants` (one set of
    action tiles, ``t`` of them) and the number of plans of each group of it, from tables of the
    action sheet's side alone, so that a planning situation new to the process costs a few table
    look-ups and a plan at a place is found by two bisections and a few divisions (issue #12's
    speed; docs/architecture.md, "the order of the medico's plans").

    A plan is its counts (apprentices per column), the columns its action tiles cover, its ill
    apprentices (the word ``ill``) and the medico tile.  Its variants (ill words naming ``j`` ill
    apprentices, ``need <= j <= black``, ``need`` those beyond the seat's healthy ones, each
    without and, where it may go, with the medico tile) depend on its counts in the columns ill
    ones may go to, as a multiset (the *kind*), its apprentices, and whether the market's count
    allows the tile; the ways to lay the tiles, ``perm(e, t)``, on its empty columns.  So the
    plans are ordered by: the *group* of the columns ill ones may not go to
    (their apprentices, empty columns and the market's flag; :attr:`groups`), the kind of the
    others (:attr:`kinds`), the others' counts (the kind's orderings, ascending), the group's
    counts (ascending), the tiles' columns (as TiledPlans lays them), then the variants as
    before (ill words in :func:`_ill_left`'s order, each without then with the medico tile)."""

    def __init__(self, per_column: int, allowed: tuple[bool, ...], market: int):
        self.allowed, self.market = allowed, market
        spaces = range(per_column + 1)
        barred = [k for k, ok in enumerate(allowed) if not ok]      # (the market among them)
        self.ill_columns = ill = [k for k, ok in enumerate(allowed) if ok]
        self.top = len(ill) * per_column           # the most apprentices in the ill ones' columns
        groups: dict[tuple[int, int, bool], list[tuple[int, ...]]] = {}
        for cfg in product(spaces, repeat=len(barred)):
            key = (sum(cfg), cfg.count(0), cfg[barred.index(market)] <= MARKET_WITH_TILE)
            groups.setdefault(key, []).append(cfg)
        # per group: its apprentices, empty columns, market flag, counts of its columns
        self.groups = tuple((*key, tuple(cfgs)) for key, cfgs in sorted(groups.items()))
        # per kind: its apprentices, empty columns, the counts sorted, their orderings
        self.kinds = tuple((sum(ms), ms.count(0), ms, tuple(sorted(set(permutations(ms)))))
                           for ms in combinations_with_replacement(spaces, len(ill)))
        self._barred = barred
        self._group_of = {cfg: (g, i) for g, (*_, cfgs) in enumerate(self.groups) for i, cfg in enumerate(cfgs)}
        self._kind_of = {vec: (k, p) for k, (*_, vecs) in enumerate(self.kinds) for p, vec in enumerate(vecs)}
        self._parts: dict[int, tuple[int, ...]] = {}       # parts' answers
        self._kinds: dict[int, tuple[int, ...]] = {}       # weighed's answers
        self._ways: dict[int, list[int]] = {}        # per (e, t): per kind, its orderings times the ways to lay the tiles
        self._words: dict[int, list[tuple[int, ...]]] = {}     # per black: words' answers
        self._perm = [[perm(n, t) for t in range(len(allowed) + 1)] for n in range(len(allowed) + 1)]
        # a plan's place among every plan of the sheet in counting order (sheet_counts): the sum
        # of its group's counts' part and its kind's ordering's part
        digit = [(per_column + 1) ** (len(allowed) - 1 - k) for k in range(len(allowed))]
        self._group_rank = tuple(tuple(sum(c * digit[k] for k, c in zip(barred, cfg)) for cfg in cfgs)
                                 for *_, cfgs in self.groups)
        self._kind_rank = tuple(tuple(sum(c * digit[k] for k, c in zip(ill, vec)) for vec in vecs)
                                for *_, vecs in self.kinds)
        self._counts, self._apprentices, self._texts, self._empty = sheet_counts(len(allowed), per_column)
        # what pick reads, flat (issue #12's speed: a pick reads few objects, each at random): per group, its
        # apprentices, empty columns, market flag, number of counts and where they start among every group's
        # counts; per kind, its apprentices, empty columns, number of orderings and where they start among
        # every kind's; per plan of the sheet in that order (the kinds' orderings outside, the groups' counts
        # inside), its counts, text, empty columns (one bit each: TiledPlans.tails_by_mask) and apprentices
        firsts = tuple(accumulate([len(cfgs) for *_, cfgs in self.groups], initial=0))
        self._sizes = tuple((s, e, mk, len(cfgs), first) for (s, e, mk, cfgs), first in zip(self.groups, firsts))
        firsts = tuple(accumulate([len(vecs) for *_, vecs in self.kinds], initial=0))
        self._kind_sizes = tuple((sm, z, len(vecs), first) for (sm, z, _, vecs), first in zip(self.kinds, firsts))
        self._configs = len(self._group_of)          # the groups' counts in all
        masks = [sum(1 << k for k in empty) for empty in self._empty]
        self._sheet = tuple((self._counts[i], self._texts[i], masks[i], self._apprentices[i])
                            for ranks in self._kind_rank for rank in ranks
                            for granks in self._group_rank for i in (g + rank for g in granks))
        self._orderings = firsts[-1]                 # the kinds' orderings in all
        # the totals of up to two action tiles, made once (a few ms), and the kinds' weights of
        # every number of ill apprentices
        self._totals = {black * 16 + t: self.totals(black, t) for black in range(self.top + 1) for t in range(3)}
        for black in range(self.top + 1):
            for t in range(3):
                for e in range(len(barred) + 1):
                    for x in range(-1, self.top + 1):
                        self.weighed(x, black, e, t)
        # the group totals of every part (a planning situation new to the process then costs
        # look-ups only), and the ill words of each ordering of the ill ones' columns of every
        # number of ill apprentices (up to three with four such columns): made once per process
        self._most = len(barred) * per_column       # the most apprentices of a group
        self._records: dict[int, tuple] = {}        # part's answers
        self._situations: dict[tuple[int, ...], list[tuple]] = {}   # per carries, situation's answers (a table)
        for h in range(-1, self.top + self._most + 1):
            for black in range(self.top + 1):
                for t in range(3):
                    self.part(h, black, t, 1)
                    self.part(h, black, t, 2)
        self._span = self.top + 1                   # ill apprentices a word may name, and none
        self._ills: list[tuple | None] = [None] * (self._orderings * self._span ** 2)   # ill_words' answers
        most = self.top if len(ill) < 4 else 3
        ordering = 0
        for kind, ranks in zip(self.kinds, self._kind_rank):
            for rank in ranks:
                for black in range(1, min(kind[0], most) + 1):     # beyond its apprentices: the same words (pick)
                    for least in range(black + 1):
                        self.ill_words(ordering, self._counts[rank], black, least)
                ordering += 1

    def parts(self, h: int, black: int, t: int, tile: int) -> tuple[int, ...]:
        """The plans accumulated per group, with ``h`` healthy apprentices for the columns,
        ``black`` ill ones, ``t`` action tiles and ``tile`` 2 if the medico tile may go (at most
        one apprentice at the market), else 1."""
        top = self.top
        if black > top:
            black = top                 # (beyond: the same plans)
        key = ((h * 16 + black) * 16 + t) * 4 + tile
        ends = self._parts.get(key)
        if ends is None:
            totals = self._totals.get(black * 16 + t) or self.totals(black, t)
            ends = self._parts[key] = tuple(accumulate([
                n * (tile if mk else 1) * totals[e][(h - s if h - s < top else top) + 1] if h >= s else 0
                for s, e, mk, n, _ in self._sizes]))
        return ends

    def totals(self, black: int, t: int) -> list[list[int]]:
        """``totals[e][x + 1]``: the last of :meth:`weighed`'s answer, ``x`` from -1 to :attr:`top`."""
        return [[sum(map(mul, self._ways_of(e, t), self.words(x, black))) for x in range(-1, self.top + 1)]
                for e in range(len(self._barred) + 1)]

    def _ways_of(self, e: int, t: int) -> list[int]:
        """Per kind: its orderings times the ways to lay ``t`` tiles on its empty columns and ``e`` more."""
        ways = self._ways.get(e * 16 + t)
        if ways is None:
            ways = self._ways[e * 16 + t] = [len(vecs) * perm(e + z, t) for _, z, _, vecs in self.kinds]
        return ways

    def weighed(self, x: int, black: int, e: int, t: int) -> tuple[int, ...]:
        """Per kind, accumulated: its orderings times the ill words of at most ``black`` and at
        least those beyond ``x`` healthy ones, times the ways to lay ``t`` tiles on its empty
        columns and ``e`` more (one group's plans of each of its counts, one variant per ill
        word)."""
        x, black = max(min(x, self.top), -1), min(black, self.top)   # (beyond: the same plans)
        key = ((x * 16 + black) * 16 + e) * 16 + t
        ends = self._kinds.get(key)
        if ends is None:
            ends = self._kinds[key] = tuple(accumulate(map(mul, self._ways_of(e, t), self.words(x, black))))
        return ends

    def words(self, x: int, black: int) -> tuple[int, ...]:
        """Per kind: the ill words of at most ``black`` naming at least those beyond ``x``
        healthy ones (:func:`_at_least_capped`; ``x`` from -1 to :attr:`top`), made for every
        ``x`` when ``black`` is first met."""
        by_x = self._words.get(black)
        if by_x is None:
            least = [_at_least_capped(tuple([min(v, black) for v in ms]), black) for _, _, ms, _ in self.kinds]
            sums = [s for s, *_ in self.kinds]
            by_x = self._words[black] = [tuple([per[s - x if s > x else 0] if s - x <= black else 0
                                                for s, per in zip(sums, least)]) for x in range(-1, self.top + 1)]
        return by_x[x + 1]

    def ill_words(self, ordering: int, counts: tuple[int, ...], black: int, least: int) -> tuple:
        """The ill words (:func:`_ill_left`) of a plan with ``counts`` of at most ``black`` and at
        least ``least`` ill apprentices (``least <= black <= top``); ``ordering``: its counts in the
        columns ill ones may go to, as the place of their kind's ordering among every kind's
        (:meth:`_IllVariants.pick`)."""
        key = (ordering * self._span + black) * self._span + least
        words = self._ills[key]
        if words is None:
            words = self._ills[key] = _ill_left(_capped(counts, self.allowed, black), black, least)
        return words

    def part(self, h: int, black: int, t: int, tile: int) -> tuple:
        """What :meth:`_IllVariants.pick` reads of a part (as :meth:`parts` takes it): the plans accumulated
        per group, per group its kinds' :meth:`weighed` answer (a list filled when the pick
        first meets the group), ``t``, ``tile``, ``h`` and ``black`` capped at :attr:`top`."""
        capped = black if black < self.top else self.top
        key = ((h * 16 + capped) * 16 + t) * 4 + tile
        got = self._records.get(key)
        if got is None:
            got = self._records[key] = (self.parts(h, black, t, tile), [None] * len(self._sizes), t, tile, h, capped)
        return got

    def situation(self, carries: tuple[int, ...], healthy: int, black: int, tile: int) -> tuple:
        """Where the plans of each set of action tiles start, then their number, and each set's
        :meth:`part` (``carries`` as a :class:`TiledPlans` has them, its k-th set holding the
        tiles of the bits of k: the tiles' apprentices are healthy ones).  Read from a table of
        every situation of these ``carries`` (healthy apprentices up to a full sheet's, every
        number of ill ones, with and without the medico tile), made when they are first met (a
        few ms): a planning situation new to the process costs an index, not its parts' look-ups
        (issue #12's speed: those, each at a cold place, cost a miss of the planning memo more
        than its other steps).  Other healthy counts (a component file's apprentices) are made
        when asked."""
        capped = black if black < self.top else self.top
        table = self._situations.get(carries)
        if table is None:
            table = self._situations[carries] = [self._situation(carries, h, b, t)
                                                 for h in range(self._most + self.top + 1)
                                                 for b in range(self.top + 1) for t in (1, 2)]
        if 0 <= healthy <= self._most + self.top:
            return table[((healthy * (self.top + 1) + capped) << 1) + tile - 1]
        return self._situation(carries, healthy, capped, tile)

    def _situation(self, carries: tuple[int, ...], healthy: int, capped: int, tile: int) -> tuple:
        """:meth:`situation`'s answer, made (``capped``: the ill apprentices, at most :attr:`top`)."""
        get, parts, n = self._records.get, [], 0
        starts = [0]
        for k, c in enumerate(carries):     # (part(), its look-up inline: 2-4 parts a situation)
            h, t = healthy - c, k.bit_count()
            p = get(((h * 16 + capped) * 16 + t) * 4 + tile) or self.part(h, capped, t, tile)
            parts.append(p)
            n += p[0][-1]
            starts.append(n)
        return tuple(starts), tuple(parts)

    def place(self, counts: tuple[int, ...], q: int, t: int, tile: int, h: int, black: int) -> int:
        """Where the variants of the plan with ``counts`` and the ``q``-th way to lay its tiles
        start in its part (the inverse of :meth:`_IllVariants.pick`)."""
        g, i = self._group_of[tuple([counts[k] for k in self._barred])]
        kd, p = self._kind_of[tuple([counts[k] for k in self.ill_columns])]
        ends = self.parts(h, black, t, tile)
        s, e, mk, cfgs = self.groups[g]
        m = tile if mk else 1
        k = len(cfgs) * m
        kinds = self.weighed(h - s, black, e, t)
        prev = kinds[kd - 1] if kd else 0
        per = (kinds[kd] - prev) // len(self.kinds[kd][3])
        return (ends[g - 1] if g else 0) + k * prev + (p * len(cfgs) + i) * m * per \
            + q * (m * per // perm(e + self.kinds[kd][1], t))


@lru_cache(maxsize=8)
def _plan_order(per_column: int, allowed: tuple[bool, ...], market: int) -> _PlanOrder:
    return _PlanOrder(per_column, allowed, market)


def _ill_variants(parents: TiledPlans, limits: tuple) -> PlanVariants:
    """The plans of ``parents``, each with its ill words (:class:`_IllVariants`), as a
    :class:`PlanVariants` (made again from this function and its arguments in another process)."""
    order = _plan_order(parents.per_column, limits[2], limits[4])
    return PlanVariants(parents, _IllVariants(parents, limits, order), (_ill_variants, (parents, limits)))


class _IllVariants:
    """The variants of a :class:`PlanVariants` of the medico (one object per planning
    situation): each plan of ``parents`` with its ill words (at least as many ill apprentices
    as it needs beyond the healthy ones), each word without and, where it may go, with the
    medico tile, in :class:`_PlanOrder`'s order.  A plan of segment ``seg`` places
    ``parents.carries[seg]`` apprentices off the sheet (the wall tile's), healthy ones.
    ``limits``: the seat's healthy and ill apprentices, the columns ill ones may go to, whether
    the medico tile may go, the market's column; ``order``: the sheet side's tables
    (:func:`_plan_order`), in which the situation is looked up (:meth:`_PlanOrder.situation`)."""

    __slots__ = ("parents", "healthy", "black", "allowed", "tile_ok", "market", "order", "tile", "starts", "parts",
                 "tails", "columns", "segments")

    def __init__(self, parents: TiledPlans, limits: tuple, order: _PlanOrder) -> None:
        self.parents = parents
        self.healthy, self.black, self.allowed, self.tile_ok, self.market = limits
        self.order = order
        self.tile = 2 if self.tile_ok else 1
        self.starts, self.parts = self.order.situation(parents.carries, self.healthy, self.black, self.tile)
        self.tails = parents.tails_by_mask
        self.columns, self.segments = parents.columns, len(parents.segments)

    def sizes(self, seg: int) -> tuple:
        return _sizes(self.parents.base_key, self.allowed, self.black, self.healthy - self.parents.carries[seg],
                      self.tile_ok, self.market)

    def with_variants(self, seg: int) -> bytes:
        h = self.healthy - self.parents.carries[seg]
        return _with_variants(self.parents.base_key, self.allowed, h, h + self.black)

    def kind(self, seg: int, b: int) -> tuple[tuple, bool]:
        """The ill words of the parents of base plan ``b`` in segment ``seg``, and whether the
        medico tile may go with them."""
        counts_of, n_of = self.parents.base()[:2]      # (made when the sequence is searched or made in full)
        return (_ill_left(_capped(counts_of[b], self.allowed, self.black), self.black,
                          max(n_of[b] + self.parents.carries[seg] - self.healthy, 0)),
                self.tile_ok and counts_of[b][self.market] <= MARKET_WITH_TILE)

    def nth(self, args: tuple, seg: int, b: int, r: int) -> Action:
        ills, tile = self.kind(seg, b)
        if tile:
            return _new(Action, ("plan", args + ills[r >> 1] + (_TILE if r & 1 else ())))
        return _new(Action, ("plan", args + ills[r]))

    def words(self, seg: int, b: int) -> tuple[dict[str, tuple[str, ...]], ...]:
        """The words the variants of a parent of base plan ``b`` in segment ``seg`` add, in
        :meth:`nth`'s order: its ill word, its medico tile (:func:`_variant_words`)."""
        return _variant_words(*self.kind(seg, b))

    def find(self, action: Action) -> tuple[tuple, Callable[[int, int], int | None]] | None:
        """The parent's arguments, and the variant's rank given the parent's place."""
        a = action.args
        if action.kind != "plan":
            return None
        medico = a[-1:] == _TILE
        if medico:
            a = a[:-1]
        extra = a[-2:] if len(a) > 2 and a[-2] == ILL_WORD else ()

        def rank(seg: int, b: int) -> int | None:
            ills, tile = self.kind(seg, b)
            if (medico and not tile) or extra not in ills:
                return None
            q = ills.index(extra)
            return 2 * q + medico if tile else q
        return a[:len(a) - len(extra)], rank

    def pick(self, i: int) -> tuple[Action, tuple]:
        """The i-th plan and its reading (planning.read's answer), decoded in one call (issue
        #12's speed: no call per layer): its segment and, in the segment's
        :meth:`_PlanOrder.part`, its group and kind by three bisections, then a few divisions
        (the kind's ordering, the group's counts, the way to lay the tiles, the variant): its
        counts, its tiles' words (the :attr:`TiledPlans.tails_by_mask` memo), ill word
        (:meth:`_PlanOrder.ill_words`) and medico tile."""
        o, starts = self.order, self.starts
        seg = bisect_right(starts, i) - 1
        ends, kinds, t, tile, h, black = self.parts[seg]
        r = i - starts[seg]
        g = bisect_right(ends, r)
        if g:
            r -= ends[g - 1]
        s, e, mk, n, config = o._sizes[g]
        m = tile if mk else 1
        k = n * m
        ends = kinds[g]
        if ends is None:    # the group's kinds, weighed (:meth:`_PlanOrder.weighed`, its look-up inline; x >= 0 here)
            x = h - s
            ends = kinds[g] = o._kinds.get(((x * 16 + black) * 16 + e) * 16 + t) or o.weighed(x, black, e, t)
        kd = bisect_right(ends, r // k)
        prev = ends[kd - 1] if kd else 0
        sm, z, orderings, ordering = o._kind_sizes[kd]
        per = (ends[kd] - prev) // orderings           # placements times ill words of one ordering
        p, r = divmod(r - k * prev, k * per)
        c, r = divmod(r, m * per)
        q, v = divmod(r, m * per // o._perm[e + z][t])
        ordering += p
        counts, text, empty, apprentices = o._sheet[ordering * o._configs + config + c]
        if seg:     # (segment 0: no tile)
            tail = self.tails[((q << self.columns) + empty) * self.segments + seg]
            args = (text,) + tail
            # the tiles' words: (column,); one or two tiles spelled out (a dict display is cheaper)
            words: dict[str, tuple[str, ...]] = (
                {tail[0]: (tail[1],)} if len(tail) == 2 else {tail[0]: (tail[1],), tail[2]: (tail[3],)}
                if len(tail) == 4 else dict(zip(tail[::2], zip(tail[1::2]))))
        else:
            args, words = (text,), {}                 # (one way to lay no tile)
        if black:
            least = apprentices - h
            if least < 0:
                least = 0
            if black > sm:
                black = sm      # more ill ones than apprentices in their columns: the same words
            span = o._span
            ill = (o._ills[(ordering * span + black) * span + least]
                   or o.ill_words(ordering, counts, black, least))[v >> 1 if m == 2 else v]
            if ill:
                args += ill
                words[ILL_WORD] = ill[1:]
        if m == 2 and v & 1:
            args += _TILE
            words[TILE_WORD] = ()
        return _new(Action, ("plan", args)), (counts, words)     # (kept until the next pick: no read-only copy)

    def place(self, seg: int, b: int, q: int) -> int:
        return self.order.place(self.parents.base()[0][b], q, len(self.parents.segments[seg]), self.tile,
                                self.healthy - self.parents.carries[seg], self.black)


@lru_cache(maxsize=4096)
def _variant_words(ills: tuple, tile: bool) -> tuple[dict[str, tuple[str, ...]], ...]:
    """Per variant of :meth:`_IllVariants.nth` (the ill words ``ills``, each without and, if
    ``tile``, with the medico tile): its words, word -> the word and its arguments (read only:
    shared by the plans of one kind)."""
    out: list[dict[str, tuple[str, ...]]] = []
    for ill in ills:
        words = {ILL_WORD: ill} if ill else {}
        out.append(words)
        if tile:
            out.append({**words, TILE_WORD: _TILE})
    return tuple(out)


register(Medico)  # (a call, not a decorator: a decorated class cannot be a mypyc native class)


# --- the observation's numbers (encoding 3, rules/observation.py) -----------------------------
from ..observation import PLAN_SCALE, ModuleSlots, register_slots  # noqa: E402
from array import array  # noqa: E402
from ..state import SIDE1  # noqa: E402

_ASKS = ("aside", "medicine", "heal", "illness")
_ASK = len(_ASKS) + 1 + len(SIDE1)   # numbers per seat in MedicoSlots' asks
_PLAN = 2 + len(SIDE1)               # numbers per seat in its plans


class MedicoSlots(ModuleSlots):
    """``infection_tile`` (market, cathedral, studio, workshop, same; one-hot), ``infected`` (the
    infected location, one-hot), ``infection_tiles_left`` / the edition's,
    ``infection_discard`` (the revealed ones per face / 2); ``display``: per place, its bottle
    (3, 2, 1 portions, juice; one-hot; the prices by place are the edition's); ``draw_pile`` /
    the edition's bottles, ``discard`` per kind / the edition's of that kind; per seat from the
    observer on: ``held`` (bottles per kind before its screen / 2), ``sick`` (own apprentices on
    the medico board / 5), ``ill`` (black apprentices / 5), ``neutral_ill`` (the round its
    neutral apprentice fell ill / 10), ``healthy`` (apprentices it may plan with / 7);
    ``black_on_board`` / all black apprentices; ``plans``: per seat, 7 numbers: known (the
    observer's own, every seat's once revealed), ill apprentices per column / 3, the medico
    tile; ``ill_left`` (the visitor's ill apprentices still to act here / 6), ``workshop_done``
    (blends, other actions / 3); ``asks``: per seat, its medico decisions waiting: 1 per kind
    (aside, medicine, heal, illness; counts), then the apprentices falling ill / 6 and their
    column (one-hot)."""

    name = NAME
    apprentices_reads = ("black", "sick")     # Medico.apprentices

    def layout(self, module, n: int, figures: int) -> tuple:
        d = module.data
        places = max(d.prices)      # display places (the most: 4 players)
        self.tiles = len(d.infection)
        self.bottles = len(d.bottles)
        self.per_kind = tuple(max(1, d.bottles.count(b)) for b in BOTTLES)
        self.black = d.black * n
        self.places = places
        self.plan_blocks: dict[tuple, array] = {}    # a plan -> its numbers (_plans)
        self.spent_blocks: dict[tuple, array] = {}   # the infection tiles revealed -> their numbers (_infection)
        return ((("infection_tile", len(TILES)), ("infected", len(LOCATIONS)), ("infection_tiles_left", 1),
                 ("infection_discard", len(TILES))), ("m.tile", "m.infected", "m.pile", "m.spent"),
                self._infection_fact, self._infection), \
            ((("display", len(BOTTLES) * places), ("draw_pile", 1), ("discard", len(BOTTLES))),
             ("m.display", "m.draw", "m.discard"), self._bottles_fact, self._bottles), \
            ((("held", len(BOTTLES) * n),), ("m.held",), None, self._held), \
            ((("sick", n), ("ill", n), ("neutral_ill", n), ("healthy", n), ("black_on_board", 1)),
             ("m.sick", "m.black", "m.neutral_ill", "neutral", "aside", "comp"), self._apprentices_fact,
             self._apprentices), \
            ((("plans", _PLAN * n),), ("m.plans", "phase", "seat"), self._plans_fact, self._plans), \
            ((("ill_left", 1), ("workshop_done", 2)), ("m.ill_left", "m.worked", "phase", "actor"), self._visit_fact,
             self._visit), \
            ((("asks", _ASK * n),), ("asks",), self._asks_fact, self._asks)

    def _infection_fact(self, k: tuple, seat: int) -> tuple:
        tile, infected, pile, spent = k
        return tile, infected, len(pile), spent

    def _bottles_fact(self, k: tuple, seat: int) -> tuple:
        display, draw, discard = k
        return display, len(draw), discard

    def _apprentices_fact(self, k: tuple, seat: int) -> tuple:
        """Own apprentices on the board, black ones, neutral ill, healthy ones (Medico.healthy),
        black ones left on the board (Medico.pool)."""
        sick, black, neutral_ill, neutral, aside, comp = k
        a = comp.apprentices
        healthy = tuple([healthy_count(a, sick[f], neutral[f], aside[f]) for f in range(self.n)])
        return sick, black, neutral_ill, healthy, black_left(self.black, black)

    def _plans_fact(self, k: tuple, seat: int) -> tuple:
        plans, phase = k    # while planning, the seat's own plan alone
        return plans if phase != PLAN else tuple(p if f == seat else None for f, p in enumerate(plans))

    def _visit_fact(self, k: tuple, seat: int) -> tuple:
        ill_left, worked, phase, actor = k
        return (ill_left, worked) if phase == VISITS and actor >= 0 else (0, (0, 0))

    def _asks_fact(self, asks: tuple, seat: int) -> tuple:
        return tuple((a[0], a[2] if type(a[2]) is str else tuple(a[2])) for a in asks if a[1] == NAME)

    def view_facts(self, part, seat: int) -> tuple:
        return ((part["infection_tile"], part["infected"], part["infection_tiles_left"],
                 tuple(part["infection_discard"])),
                (tuple(None if b is None else b["bottle"] for b in part["display"]), part["draw_pile"],
                 tuple(part["discard"])),
                tuple(map(tuple, part["held"])),
                (tuple(part["sick"]), tuple(part["ill"]), tuple(part["neutral_ill"]), tuple(part["healthy"]),
                 part["black_on_board"]),
                tuple(None if p is None else (tuple(p["ill"]), p["medico"]) for p in part["plans"]),
                (part["ill_left"], tuple(part["workshop_done"])),
                tuple((f, what if type(what) is str else tuple(what)) for f, what in part["asks"]))

    def _infection(self, fact: tuple, seat: int, x, p: int) -> None:
        tile, infected, pile, spent = fact
        if tile is not None:
            x[p + TILES.index(tile)] = 1.0
        p += len(TILES)
        if infected is not None:
            x[p + LOCATIONS.index(infected)] = 1.0
        p += len(LOCATIONS)
        x[p] = pile / self.tiles
        if spent:
            block = self.spent_blocks.get(spent)
            if block is None:
                block = array("f", bytes(4 * len(TILES)))
                for t in spent:
                    block[TILES.index(t)] += 1 / 2
                _keep_block(self.spent_blocks, spent, block)
            x[p + 1:p + 1 + len(TILES)] = block

    def _bottles(self, fact: tuple, seat: int, x, p: int) -> None:
        display, draw, discard = fact
        for place, b in enumerate(display):
            if b is not None:
                x[p + place * len(BOTTLES) + _BOTTLE_RANK[b]] = 1.0
        p += len(BOTTLES) * self.places
        x[p] = draw / self.bottles
        for b in discard:
            i = _BOTTLE_RANK[b]
            x[p + 1 + i] += 1 / self.per_kind[i]

    def _held(self, held: tuple, seat: int, x, p: int) -> None:
        for j, f in enumerate(self.seats_from[seat]):
            for b in held[f]:
                x[p + j * len(BOTTLES) + _BOTTLE_RANK[b]] += 1 / 2

    def _apprentices(self, fact: tuple, seat: int, x, p: int) -> None:
        sick, black, neutral_ill, healthy, pool = fact
        n = self.n
        for j, f in enumerate(self.seats_from[seat], p):
            x[j] = sick[f] / 5
            x[j + n] = black[f] / 5
            x[j + 2 * n] = neutral_ill[f] / 10
            x[j + 3 * n] = healthy[f] / 7
        x[p + 4 * n] = pool / self.black

    def _plans(self, plans: tuple, seat: int, x, p: int) -> None:
        blocks = self.plan_blocks
        for j, f in enumerate(self.seats_from[seat]):
            plan = plans[f]
            if plan is not None:
                block = blocks.get(plan)
                if block is None:
                    block = array("f", [1.0, *(k / PLAN_SCALE for k in plan[0]), 1.0 if plan[1] else 0.0])
                    _keep_block(blocks, plan, block)
                q = p + j * _PLAN
                x[q:q + _PLAN] = block

    def _visit(self, fact: tuple, seat: int, x, p: int) -> None:
        ill_left, worked = fact
        x[p] = ill_left / 6
        x[p + 1] = worked[0] / 3
        x[p + 2] = worked[1] / 3

    def _asks(self, asks: tuple, seat: int, x, p: int) -> None:
        where = self.seats_from[seat].index
        for fig, what in asks:
            q = p + where(fig) * _ASK
            if type(what) is str:
                x[q + _ASKS.index(what)] += 1.0
            else:                     # ('illness', falling, column)
                x[q + 3] += 1.0
                x[q + 4] = what[1] / 6
                x[q + 5 + SIDE1.index(what[2])] = 1.0


def _keep_block(memo: dict[tuple, array], key: tuple, block: array) -> None:
    """Keep ``block`` in ``memo`` by ``key`` (a few thousand at most)."""
    if len(memo) > 4096:
        memo.clear()
    memo[key] = block


register_slots(MedicoSlots)
