"""Module 1, the portraits (supplement 'The portraits', R14; 2 players: 'Module 1').

Decks A, B, C (A on top); two cards on display.  In the studio one apprentice may paint one
displayed portrait instead of earning 3 Thalers (at most one per visit, R14).  Permanent
cards (God's servant, Actor, Abbot, Sexton) stay with their owner; one-time cards pay at once
(the owner chooses the Merchant's paints; Pretty girl and Self-portrait give the VP or the
Thalers their card shows, M2).  At round preparation the
leftover cards are removed and two new ones revealed; the round after the last two cards
were revealed is the final round.  Leonardo gets a studio apprentice and must paint a
displayed portrait if any (VP only).
"""
from __future__ import annotations

from functools import lru_cache
from itertools import combinations_with_replacement
from typing import NamedTuple

from ...errors import ComponentError, StateError
from .. import cathedral, track
from ..actions import Action
from ..board import INDEX as SEGMENT, NAMES
from ..hooks import Module, ModuleState, own, register, with_item
from ..memo import IdentityMemo
from ..hostel import change_mood
from ..thalers import earn
from ..paints import BASIC, PAINTS, add_one
from ..components import check_provenance as provenance_ok
from ..chance import below
from ..preparation import chance
from ..serialize import whole as _whole
from ..state import State

NAME = "portraits"   # the module's name: its state is ``state.mods[NAME]``

EFFECTS = ("income", "theater", "bishop_bonus", "sexton", "thalers", "vp", "paint", "basic_paints",
           "mood", "mood_top")
PERMANENT = ("income", "theater", "bishop_bonus", "sexton")


class Card(NamedTuple):
    id: str
    name: str
    deck: str
    permanent: bool
    effects: dict


class Data(NamedTuple):
    cards: dict[str, Card]
    display: int
    thalers_instead: int


class PState(ModuleState):
    """The portraits' state (``state.mods['portraits']``), written in place (hooks.ModuleState)."""

    deck: tuple[str, ...]             # cards not yet revealed (no order: drawn at random, A first)
    display: tuple[str, ...]          # cards on display
    owned: tuple[tuple[str, ...], ...]  # permanent cards per seat
    taken: tuple[int, ...]            # round of each figure's last portrait (one per visit, R14)
    sexton: tuple[int, ...]           # round of each seat's last Sexton move

    def __init__(self, deck: tuple[str, ...], display: tuple[str, ...], owned: tuple[tuple[str, ...], ...],
                 taken: tuple[int, ...], sexton: tuple[int, ...]) -> None:
        self.deck = deck
        self.display = display
        self.owned = owned
        self.taken = taken
        self.sexton = sexton
        self.version = 0

    def copy(self) -> PState:
        return PState(self.deck, self.display, self.owned, self.taken, self.sexton)


class Portraits(Module):
    name = NAME
    view_reads = ()
    visit_columns = ("studio", "cathedral")   # painting a portrait; the Sexton's move
    visit_kinds = (("studio", ("portrait",)),)
    action_kinds = ("portrait", "restore")   # a portrait painted; a restoration with the Sexton

    @classmethod
    def build_data(cls, raw: dict) -> Data:
        provenance_ok(raw, "portraits")
        cards = {}
        for i, c in enumerate(raw.get("cards", [])):
            w = f"portraits.cards[{i}]"
            provenance_ok(c, w)
            if not isinstance(c.get("id"), str) or c["id"] in cards or not c["id"] or " " in c["id"] \
                    or c["id"] != c["id"].lower():
                raise ComponentError(f"component file: {w}.id: {c.get('id')!r} must be a unique lowercase word "
                                     "(it is the card's word in the notation, which reads any case as lowercase)")
            if c.get("deck") not in ("A", "B", "C") or c.get("kind") not in ("permanent", "once"):
                raise ComponentError(f"component file: {w}: deck A/B/C and kind permanent/once")
            if "vp_or_thalers" in c:
                raise ComponentError(f"component file: {w}.vp_or_thalers: each card gives what it shows "
                                     "(supplement, 'Pretty girl / Self-portrait'): write vp or thalers")
            eff = {k: c[k] for k in EFFECTS if k in c}
            if not eff or any(k not in EFFECTS for k in c if k not in ("id", "name", "deck", "kind", "provenance")):
                raise ComponentError(f"component file: {w}: effects must be among {', '.join(EFFECTS)}")
            paint = eff.get("paint", "R")
            if not (isinstance(paint, str) and len(paint) == 1 and paint in PAINTS):
                raise ComponentError(f"component file: {w}.paint: {eff['paint']!r} is not a paint")
            bad = next((k for k, v in eff.items() if k not in ("paint", "mood_top") and not (_whole(v) and v >= 0)), None)
            if bad is not None:
                raise ComponentError(f"component file: {w}.{bad}: {eff[bad]!r} must be a whole number >= 0")
            if eff.get("mood_top", True) is not True:
                raise ComponentError(f"component file: {w}.mood_top: {eff['mood_top']!r} must be true")
            if (c["kind"] == "permanent") != any(k in PERMANENT for k in eff):
                raise ComponentError(f"component file: {w}: permanent cards have a permanent effect, and only they")
            why = _printed_refusal(c.get("name", c["id"]), eff)
            if why:
                raise ComponentError(f"component file: {w} ({c.get('name', c['id'])}): {why} "
                                     "(printed: supplement, 'Details of the portrait cards')")
            cards[c["id"]] = Card(c["id"], c.get("name", c["id"]), c["deck"], c["kind"] == "permanent", eff)
        if len(cards) != 18 or any(sum(c.deck == d for c in cards.values()) != 6 for d in "ABC"):
            raise ComponentError("component file: portraits.cards: 18 cards, 6 in each deck A, B, C")
        names = {c.name for c in cards.values()}
        for printed in ("God's servant", "Actor", "Abbot", "Sexton", "Merchant", "Patron", "Muse", "Peers",
                        "Bishop", "Virgin Mary", "Pretty girl", "Self-portrait"):
            if printed not in names:
                raise ComponentError(f"component file: portraits.cards: the printed card {printed!r} is missing")
        display, instead = raw.get("display", 2), raw.get("thalers_instead", 3)
        if not (_whole(display) and 1 <= display <= 2):
            raise ComponentError(f"component file: portraits.display: {display!r} cards on display (1 or 2)")
        if not (_whole(instead) and instead >= 0):
            raise ComponentError(f"component file: portraits.thalers_instead: {instead!r} must be a whole number >= 0")
        return Data(cards, display, instead)

    # --- helpers -----------------------------------------------------------------------
    def st(self, s: State) -> PState:
        return s.mods[NAME]

    def _reveal(self, s: State, rng, log: bool = True) -> None:
        deck, display = self.st(s).deck, []
        for _ in range(self.data.display):
            if not deck:
                break
            top = _top_cards(self.data.cards, deck)
            card = top[below(rng, len(top))]
            i = deck.index(card)
            deck = deck[:i] + deck[i + 1:]
            display.append(card)
        p = own(s, NAME)
        p.deck, p.display = deck, tuple(display)
        if display and log:
            s.add_event({"kind": "portraits_revealed", "cards": list(display)})

    def owns(self, s: State, fig: int, effect: str) -> int:
        owned = s.mods[NAME].owned[fig] if fig < s.n else ()
        total = 0
        if owned:
            cards = self.data.cards
            for c in owned:
                total += cards[c].effects.get(effect, 0)
        return total

    # --- hooks -------------------------------------------------------------------------
    def setup(self, s: State, rng) -> None:
        s.mods[NAME] = PState(tuple(sorted(self.data.cards)), (), ((),) * s.n, (0,) * s.figures, (0,) * s.n)
        self._reveal(s, rng)

    def round_preparation(self, s: State, rng) -> None:
        if self.st(s).display:
            s.add_event({"kind": "portraits_discarded", "cards": list(self.st(s).display)})
        self._reveal(s, rng)     # a new display in place of the old one

    def is_final_round(self, s: State) -> bool:
        return not self.st(s).deck  # the last cards were revealed (alternative end)

    def leonardo_plan(self, s: State, plan: list[int]) -> None:
        plan[s.columns().index("studio")] += 1

    def income(self, s: State, seat: int) -> int:
        return self.owns(s, seat, "income")

    def theater_steps(self, s: State, fig: int, per: int) -> int:
        return self.owns(s, fig, "theater") or per

    def action_space(self, space) -> None:
        """'portrait CARD [choice]' for every card; the Sexton's 'restore SEG sexton TO'."""
        for cid in sorted(self.data.cards):
            eff = self.data.cards[cid].effects
            space.actions.append(Action("portrait", (cid,)))
            if "basic_paints" in eff:
                space.actions.extend(Action("portrait", (cid, "".join(c)))
                                     for c in combinations_with_replacement(BASIC, eff["basic_paints"]))
            elif "vp_or_thalers" in eff:
                space.actions.extend(Action("portrait", (cid, x)) for x in ("vp", "thalers"))
        if any("sexton" in c.effects for c in self.data.cards.values()):
            for a in space.restores():
                if len(a.args) == 1:
                    space.actions.extend(Action("restore", (a.args[0], "sexton", to)) for to in NAMES)

    def bishop_bonus(self, s: State, fig: int, bonus: int) -> int:
        return bonus + self.owns(s, fig, "bishop_bonus") if bonus else bonus

    def visit_actions(self, s: State, fig: int, column: str, actions: list) -> None:
        p: PState = s.mods[NAME]
        if column == "studio" and p.display and p.taken[fig] != s.round:
            for cid in p.display:
                actions.extend(_painting(cid, None if fig >= s.n else self.data.cards[cid].effects.get("basic_paints")))
        elif column == "cathedral" and fig < s.n and p.sexton[fig] != s.round:
            cost = self.owns(s, fig, "sexton")
            if cost and s.thalers[fig] >= cost:
                plain = [a for a in actions if a.kind == "restore" and "bishop" not in a.args]
                bishop = s.bishop
                for a in plain:  # R14: the Sexton's move replaces the one-step move
                    segment, rest = a.args[0], a.args[1:]
                    for t in range(len(NAMES)):   # (loops: a comprehension would make locals cells)
                        if t != bishop:
                            actions.append(Action("restore", (segment, "sexton", NAMES[t], *rest)))

    def refusal(self, s: State, seat: int, action: Action) -> str | None:
        """Why 'portrait CARD [choice]' is refused: the card is not on display, one was painted
        this visit already (R14), or the choice of paints is missing or wrong."""
        if action.kind != "portrait":
            return None
        p = self.st(s)
        cid = action.args[0] if action.args else ""
        if cid not in p.display:
            return f"the portraits on display: {', '.join(p.display) or 'none'}"
        fig = s.actor
        if 0 <= fig < s.figures and p.taken[fig] == s.round:
            return "one portrait per studio visit (R14)"
        n = self.data.cards[cid].effects.get("basic_paints")
        if n and 0 <= fig < s.n:
            return (f"{self.data.cards[cid].name}: name the {n} basic paints you choose (R, Y, B), "
                    f"e.g. 'portrait {cid} {'RY'[:n] if n <= 2 else 'R' * n}'")
        return f"'portrait {cid}' takes no other word"

    def apply_action(self, s: State, fig: int, action: Action) -> bool:
        if action.kind == "portrait":
            self._paint(s, fig, action)
            return True
        if action.kind == "restore" and "sexton" in action.args:
            i = action.args.index("sexton")
            s.thalers[fig] -= self.owns(s, fig, "sexton")
            s.bishop = SEGMENT[action.args[i + 1]]
            p = own(s, NAME)
            p.sexton = with_item(p.sexton, fig, s.round)
            s.add_event({"kind": "bishop_move", "figure": fig, "segment": action.args[i + 1], "sexton": True})
            cathedral.apply(s, fig, Action("restore", action.args[:i] + action.args[i + 2:]))
            return True
        return False

    def _paint(self, s: State, fig: int, action: Action) -> None:
        p = own(s, NAME)
        cid = action.args[0]
        card = self.data.cards[cid]
        eff = card.effects
        display = []
        for c in p.display:     # (a loop: a comprehension would make ``cid`` a cell)
            if c != cid:
                display.append(c)
        p.display = tuple(display)
        p.taken = with_item(p.taken, fig, s.round)
        if card.permanent and fig < s.n:
            p.owned = with_item(p.owned, fig, p.owned[fig] + (cid,))
        s.add_event({"kind": "portrait", "figure": fig, "card": cid})
        choice = action.args[1] if len(action.args) > 1 else None
        vp = eff.get("vp", 0)
        if fig < s.n:  # Leonardo gains only the VP a card shows (supplement, 2 players; M3)
            earn(s, fig, eff.get("thalers", 0))
            gained = [c for c in ((eff.get("paint") or "") + ((choice or "") if "basic_paints" in eff else ""))]
            for c in gained:
                s.paints[fig] = add_one(s.paints[fig], c)
            if "mood" in eff:
                change_mood(s, fig, eff["mood"])
            if eff.get("mood_top"):
                s.mood[fig] = 0
        track.gain(s, fig, {"portrait": vp}, "portrait", card=cid)
        s.left -= 1

    def view(self, s: State, seat, out) -> None:
        p = self.st(s)
        cards = self.data.cards
        out["portraits"] = {
            "display": [_card_view(cards, c) for c in p.display],
            "deck_left": _deck_left(cards, p.deck),
            "owned": [[_card_view(cards, c) for c in o] for o in p.owned],
        }

    def dump(self, s: State):
        p = self.st(s)
        return {"deck": list(p.deck), "display": list(p.display), "owned": [list(o) for o in p.owned],
                "taken": list(p.taken), "sexton": list(p.sexton)}

    def load(self, s: State, data) -> None:
        """Read ``modules_state.portraits`` (docs/state-format.md).  Every field may be left out
        (the whole entry too): ``owned`` none, ``taken`` and ``sexton`` all 0, ``deck`` every card
        not on display or owned, ``display`` revealed from the deck as at set-up (one chance
        draw of the game's seed)."""
        where = "saved state: modules_state.portraits"
        data = {} if data is None else data
        if not isinstance(data, dict) or set(data) - {"deck", "display", "owned", "taken", "sexton"}:
            raise StateError(f"{where}: an object with deck, display, owned, taken, sexton")
        cards = self.data.cards

        def ids(v, name):
            if not isinstance(v, list) or any(not isinstance(c, str) or c not in cards for c in v):
                raise StateError(f"{where}.{name}: {v!r}: a list of card ids of this edition")
            return tuple(v)

        def rounds(v, name, count):
            if not isinstance(v, list) or len(v) != count or any(not _whole(x) or not 0 <= x <= s.round for x in v):
                raise StateError(f"{where}.{name}: {v!r}: {count} round numbers 0..{s.round} (0: never)")
            return tuple(v)

        owned = data.get("owned", [[]] * s.n)
        if not isinstance(owned, list) or len(owned) != s.n:
            raise StateError(f"{where}.owned: {owned!r}: one list of cards per seat")
        owned = tuple(ids(o, f"owned[{i}]") for i, o in enumerate(owned))
        for i, o in enumerate(owned):
            once = [c for c in o if not cards[c].permanent]
            if once:
                # 'Cards with [lightning]: ... they are paid the reward immediately. Subsequently the
                # card is removed from the game': a player keeps only the permanent cards (rules notes M15)
                raise StateError(f"{where}.owned[{i}]: {once!r}: a player keeps only permanent cards "
                                 "(a card paid at once is removed from the game)")
        display = ids(data["display"], "display") if "display" in data else ()
        held = set(display) | {c for o in owned for c in o}
        deck = ids(data["deck"], "deck") if "deck" in data else tuple(sorted(c for c in cards if c not in held))
        every = list(deck) + list(display) + [c for o in owned for c in o]
        if len(set(every)) != len(every):
            raise StateError(f"{where}: a card is in two places")
        if len(display) > self.data.display:
            raise StateError(f"{where}.display: at most {self.data.display} cards are on display")
        s.mods[NAME] = PState(deck, display, owned,
                                   rounds(data.get("taken", [0] * s.figures), "taken", s.figures),
                                   rounds(data.get("sexton", [0] * s.n), "sexton", s.n))
        if "display" not in data:
            self._reveal(s, chance(s), log=False)


# The effects the supplement prints for each card ('Details of the portrait cards'): the
# amounts it names exactly; for the others which effects the card shows (their amounts are
# reconstructed, components.md).
_PRINTED_EXACTLY = {
    "God's servant": {"income": 1},            # "an additional income of 1 Thaler"
    "Actor": {"theater": 3},                   # "3 spaces instead of only 2"
    "Abbot": {"bishop_bonus": 1},              # "increased by 1"
    "Sexton": {"sexton": 1},                   # "paying 1 Thaler"
    "Merchant": {"basic_paints": 2, "thalers": 1},   # "any 2 paint pieces (red, yellow, blue) ... + 1 Thaler"
    "Patron": {"thalers": 7},                  # "7 Thalers"
    "Muse": {"mood_top": True},                # "pushed to its maximum"
}


def _printed_refusal(name: str, eff: dict) -> str | None:
    """Why a card's effects break what the supplement prints for a card of that name (None:
    they do not)."""
    exact = _PRINTED_EXACTLY.get(name)
    if exact is not None:
        return None if eff == exact else f"the card gives {exact}, not {eff}"
    has = {k for k, v in eff.items() if v}
    if name == "Peers" and not ({"thalers", "paint"} <= has and has <= {"thalers", "paint"}):
        return "the card gives Thalers and a paint piece ('money and a paint piece as shown')"
    if name in ("Bishop", "Virgin Mary") and not ("vp" in has and len(has & {"paint", "thalers"}) == 1
                                                 and has <= {"vp", "paint", "thalers"}):
        return "the card gives VP and a paint piece or Thalers ('victory points and a paint piece or Thalers')"
    if name in ("Pretty girl", "Self-portrait") and not ("mood" in has and len(has & {"vp", "thalers"}) == 1
                                                        and has <= {"vp", "thalers", "mood"}):
        return "the card gives VP or Thalers and mood ('victory points or Thalers and their mood increases')"
    return None


def _top_cards(cards: dict, deck: tuple[str, ...]) -> tuple[str, ...]:
    """The cards of ``deck`` in the earliest deck still there (A before B before C), sorted:
    the ones a card is revealed from (memoised per edition and deck; a deck left new to the
    memo is met with each deck's cards as a set, made once per edition)."""
    hit = _TOP.get((id(cards), deck))
    if hit is not None and hit[0] is cards:
        return hit[1]
    out: tuple[str, ...] = ()
    for ids in _decks(cards):
        top = ids.intersection(deck)
        if top:
            out = tuple(sorted(top))
            break
    if len(_TOP) > 4096:
        _TOP.clear()
    _TOP[id(cards), deck] = (cards, out)
    return out


_TOP: dict[tuple, tuple] = {}


def _decks(cards: dict) -> tuple[frozenset[str], ...]:
    """The card ids of each deck of an edition's ``cards``, deck A first (kept per edition)."""
    kept = _DECKS.get(id(cards))
    if kept is None or kept[0] is not cards:
        by_deck: dict[str, set[str]] = {}
        for cid, card in cards.items():
            by_deck.setdefault(card.deck, set()).add(cid)
        if len(_DECKS) > 64:
            _DECKS.clear()
        kept = _DECKS[id(cards)] = (cards, tuple(frozenset(by_deck[d]) for d in sorted(by_deck)))
    return kept[1]


_DECKS: dict[int, tuple] = {}     # id(cards) -> (cards, the card ids of each deck, A first)


@lru_cache(maxsize=256)
def _painting(cid: str, basic_paints: int | None) -> tuple[Action, ...]:
    """The ways to paint card ``cid``: with each choice of its ``basic_paints`` basic paints,
    else plain (Leonardo takes only the card's VP: plain, ``basic_paints`` None)."""
    if basic_paints is None:
        return (Action("portrait", (cid,)),)
    return tuple(Action("portrait", (cid, "".join(combo)))
                 for combo in combinations_with_replacement(BASIC, basic_paints))


def _card_view(cards: dict, cid: str) -> dict:
    """Card ``cid`` as view data: a new dict (read from a memo per edition)."""
    hit = _CARD_VIEWS.get((id(cards), cid))
    if hit is None or hit[0] is not cards:
        c = cards[cid]
        hit = (cards, {"id": cid, "name": c.name, "deck": c.deck, "permanent": c.permanent, **c.effects})
        if len(_CARD_VIEWS) > 4096:
            _CARD_VIEWS.clear()
        _CARD_VIEWS[id(cards), cid] = hit
    return dict(hit[1])


def _deck_left(cards: dict, deck: tuple[str, ...]) -> dict[str, int]:
    """The cards left in each deck A, B, C: a new dict (memoised on the deck, a tuple of the
    game's edition: the empty deck, shared by all, has none left in any)."""
    hit = _DECK_LEFT.get(deck)
    if hit is None:
        hit = _DECK_LEFT.put(deck, {d: sum(cards[c].deck == d for c in deck) for d in "ABC"})
    return dict(hit)


_CARD_VIEWS: dict[tuple, tuple] = {}   # (id(cards), card id) -> (cards, its view)
_DECK_LEFT = IdentityMemo(1024)        # deck -> cards left per deck


register(Portraits)  # (a call, not a decorator: a decorated class cannot be a mypyc native class)


# --- the observation's numbers (encoding 3, rules/observation.py) -----------------------------
from ..observation import ModuleSlots, register_slots  # noqa: E402


class PortraitsSlots(ModuleSlots):
    """``display``: the cards on display, one-hot by card (the edition's order of cards);
    ``deck_left``: the cards left in decks A, B, C / 6; ``owned``: per seat from the observer
    on, the permanent cards it owns, one-hot by permanent card (the edition's order)."""

    name = "portraits"

    def layout(self, module, n: int, figures: int) -> tuple:
        cards = module.data.cards
        self.card = {c: i for i, c in enumerate(cards)}
        self.permanent = {c: i for i, c in enumerate(c for c in cards if cards[c].permanent)}
        return ((("display", len(self.card)),), ("m.display",), None, self._display), \
            ((("deck_left", 3),), ("m.deck", "hooks"), self._left_fact, self._left), \
            ((("owned", n * len(self.permanent)),), ("m.owned",), None, self._owned)

    def _left_fact(self, k: tuple, seat: int) -> tuple:
        deck, hooks = k
        counts = _deck_left(hooks.named[self.name].data.cards, deck)
        return counts["A"], counts["B"], counts["C"]

    def view_facts(self, part, seat: int) -> tuple:
        return (tuple(c["id"] for c in part["display"]), tuple(part["deck_left"][d] for d in "ABC"),
                tuple(tuple(c["id"] for c in o) for o in part["owned"]))

    def _display(self, display: tuple, seat: int, x, p: int) -> None:
        for c in display:
            x[p + self.card[c]] = 1.0

    def _left(self, left: tuple, seat: int, x, p: int) -> None:
        for i, k in enumerate(left, p):
            x[i] = k / 6

    def _owned(self, owned: tuple, seat: int, x, p: int) -> None:
        P = len(self.permanent)
        for j, f in enumerate(self.seats_from[seat]):
            for c in owned[f]:
                x[p + j * P + self.permanent[c]] = 1.0


register_slots(PortraitsSlots)
