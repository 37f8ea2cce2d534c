"""Determinization: a full game state consistent with what one seat sees.

``determinize(view, seat, rng)`` builds an :class:`affresco.Game` from ``view`` =
``game.view(seat)`` alone (it never reads the hidden state) such that
``result.view(seat) == view`` (the log kept from ``log_from``).  Used by the information-set search (``bots/search.py``).

What is taken from the view (exact): everything public (fresco, bishop, booths, track,
get-up times, mood, tiles, Leonardo, revealed plans, module displays...) and the seat's own
paints, Thalers, plan and scrolls.

What is sampled (the approximations):

* **Other seats' Thalers**: an estimate replayed from the public log: 12 at the start, minus
  the market price (the get-up space's price) per tile bought, minus 1 per paid bishop move
  (and the Sexton's fee), plus studio earnings, income, favour tokens and the Thalers of
  one-time portraits.  Exact in the base game; 'VP or Thalers' portraits are counted as VP.
  Never negative.
* **Other seats' paints**: R Y B at the start + tiles bought + favour paints + blends (inputs
  removed, output added) - the paints shown on every tile they restored (their face-down tiles
  and the tiles under their requests) - altar payments.  Paints paid with special-colour
  substitutes, the Merchant's choice, request income and the general request's paint are not
  followed (unknown or rare); each count is clamped at 0.
* **Plans**: a plan committed but not yet revealed is drawn by ``plan_chooser(game, figure,
  legal_plans, rng)`` (default: uniform among the legal plans) - it must be committed, since
  ``plan_committed`` is public.  Seats that have not committed stay uncommitted: the search
  decides for them.
* **The bag**: every market tile of this player count not on a booth (the engine keeps no
  order, so nothing else is hidden there).
* **Modules**: the portraits still in the decks are drawn from the cards neither displayed nor
  owned (the right count per deck; a one-time card painted earlier may be drawn again); the
  favour tokens left from the 25 printed less those taken (logged); the other seats' scrolls
  from the rows/columns the seat does not hold (as many as they still hold, distinct).
  The 'one portrait / one request / one Sexton move this round' marks come from the log of
  the current round.  The wall fresco is public (board, wall and exchange tiles) but for
  where other seats' wall tiles lie while plans are secret: that comes with the drawn plan.
  Wall paints: what the view's public accounts say was paid for sections and received as
  wall income.
* **Decisions waiting** (a module's question, ``view["asks"]``) and who decides are public:
  the engine rebuilds them from the view.
* Not rebuilt: scoring events queued behind a pending VP-track choice (rare; they are lost),
  the action history (empty: the determinized game starts at this position), and the seed
  (drawn from ``rng``, so future market draws and portrait reveals are sampled too).

The game is built by the engine (:meth:`affresco.Game.from_view`) from the view and the hidden
parts sampled here; nothing here writes the engine's state format.
"""
from __future__ import annotations

import json
import random
from typing import Any, Mapping, Sequence

from ..rules import Game, parse_tile_text, read_plan
from ..rules.board import COLUMNS
from ..rules.paints import PAINTS, paint_text
from ..rules.modules.wall_fresco import column_words_of, state_from_view as wall_state_from_view
from .model import module, numbers, round_start

__all__ = ["determinize", "estimate_hidden"]


def estimate_hidden(view: Mapping[str, Any]) -> tuple[list[int], list[str]]:
    """Public estimates of every seat's (Thalers, paints) replayed from the events the seat saw
    (see the module doc)."""
    k = numbers(view)
    n = sum(not f["leonardo"] for f in view["figures"])
    thalers = [k.start_thalers] * n
    paints = [list(k.comp.start_paints) for _ in range(n)]
    price = {h["time"]: h["price"] for h in view["hostel"]}
    bishop_cost = k.cathedral["bishop_move_cost"]
    blend_inputs = {PAINTS[out]: PAINTS[a] + PAINTS[b] for out, (a, b) in k.blend_inputs.items()}
    special = view.get("special_colours")
    if isinstance(special, Mapping):  # the special colours' blends, as the view names them ('K': 'P+R')
        blend_inputs.update({out: ins.replace("+", "") for out, ins in (special.get("blends") or {}).items()})
    getup_price = [0] * n
    cards = k.module("portraits").cards if "portraits" in view else None
    owned = view.get("portraits", {}).get("owned", [[]] * n)

    def add(i, text, sign=1):
        for c in text:
            paints[i][PAINTS.index(c)] += sign

    for e in view["events"]:
        i = e.get("figure")
        if not isinstance(i, int) or not 0 <= i < n:
            continue
        kind = e["kind"]
        if kind == "getup":
            getup_price[i] = price.get(e["time"], 0)
        elif kind == "buy":
            thalers[i] -= getup_price[i] * len(e["tiles"])
            for t in e["tiles"]:
                add(i, t)
        elif kind == "bishop_move":
            if e.get("sexton"):
                thalers[i] -= sum(c.get("sexton", 0) for c in owned[i] if isinstance(c.get("sexton", 0), int))
            else:
                thalers[i] -= bishop_cost
        elif kind in ("studio", "income"):
            thalers[i] += int(e["amount"])
        elif kind == "bells_instalment":
            thalers[i] -= int(e["paid"])
        elif kind == "bells_deposit":       # own money, or money just earned (R10)
            thalers[i] -= int(e["thalers"])
        elif kind == "blend":
            if e["paint"] in blend_inputs:
                add(i, blend_inputs[e["paint"]], -1)
                add(i, e["paint"])
        elif kind == "score" and e.get("for") == "altar":
            add(i, "".join(c for c in e["paid"] if c in PAINTS), -1)
        elif kind == "favour":
            if e["effect"] == "thalers":
                thalers[i] += int(e["value"])
            elif e["effect"] == "paint" and e["value"] in PAINTS:
                add(i, e["value"])
        elif kind == "portrait" and cards is not None and e["card"] in cards:
            eff = cards[e["card"]].effects
            if isinstance(eff.get("thalers"), int):
                thalers[i] += eff["thalers"]
    # paints spent on restorations: the tiles in front of each seat (and under its requests)
    for i, fig in enumerate(view["figures"][:n]):
        restored = list(fig["tiles"])
        if "requests" in view:
            restored += [t for d in view["requests"]["fulfilled"][i] for t in d["tiles"]]
        for t in restored:
            if not t.startswith("W:"):  # wall tiles under requests: paid below
                add(i, parse_tile_text(t)[1], -1)
        if "wall_fresco" in view:  # wall fresco (module 9): its public accounts of paints
            add(i, view["wall_fresco"]["paid"][i], -1)
            add(i, view["wall_fresco"]["received"][i])
    thalers = [max(0, t) for t in thalers]
    texts = [paint_text([max(0, x) for x in p]) for p in paints]
    return thalers, texts


def _bells_state(view: Mapping[str, Any], seat: int, rng: random.Random) -> dict[str, Any]:
    """The bells' saved state of a game consistent with ``view`` (R22): the other figures'
    face-down certificates and the stack are dealt at random from the unseen certificates
    (never-revealed ones keep no order; the unsold ones put under are not told apart)."""
    b = view["bells"]
    pool = list(module("bells").certificates)
    seen = [c["certificate"] for c in b["display"]]
    for f, h in enumerate(b["figures"]):
        seen += [c["certificate"] for c in h["partly_paid"]]
        if f == seat or "face_down_certificates" in h:
            seen += [c["certificate"] for c in h.get("face_down_certificates", ())]
    for c in seen:
        if c in pool:
            pool.remove(c)
    rng.shuffle(pool)
    holdings = []
    for f, h in enumerate(b["figures"]):
        if f == seat or "face_down_certificates" in h:
            down = [c["certificate"] for c in h.get("face_down_certificates", ())]
        else:
            down = [pool.pop() if pool else "1:1:1" for _ in range(h["face_down"])]
        holdings.append({"face_down": down, "partly_paid": [[c["certificate"], c["paid"]] for c in h["partly_paid"]]})
    stack = sorted(pool[:b["stack"]])
    stack += ["1:1:1"] * (b["stack"] - len(stack))    # another edition than the reference: fill
    track = b.get("track")
    return {"stack": stack, "under": [], "display": seen[:len(b["display"])], "holdings": holdings,
            "audience": list(b["audience"]), "asked": view["round"] if b.get("deposits_asked") else 0,
            "track": None if track is None else [x if x is not None else -1 for x in track["figures"]] + [track["bishop"]]}


def _medico_state(mv: Mapping[str, Any], data) -> dict:
    """The medico's state from its public view: the piles hold what is nowhere else (no order
    is kept, so the contents are all there is to sample)."""
    draw = list(data.bottles)
    for b in [d["bottle"] for d in mv["display"] if d] + [b for h in mv["held"] for b in h] + list(mv["discard"]):
        draw.remove(b)
    pile = list(data.infection)
    for x in list(mv["infection_discard"]) + ([mv["infection_tile"]] if mv["infection_tile"] else []):
        pile.remove(x)
    return {"infection_pile": pile, "infection_tile": mv["infection_tile"], "infected": mv["infected"],
            "infection_discard": list(mv["infection_discard"]), "draw": draw, "discard": list(mv["discard"]),
            "display": [d["bottle"] if d else None for d in mv["display"]], "held": [list(h) for h in mv["held"]],
            "sick": list(mv["sick"]), "ill": list(mv["ill"]), "neutral_ill": list(mv["neutral_ill"]),
            "plans": [None if p is None else dict(p) for p in mv["plans"]], "ill_left": mv["ill_left"],
            "workshop_done": list(mv["workshop_done"])}


def determinize(view: Mapping[str, Any], seat: int, rng: random.Random, *, legal: Sequence | None = None,
                plan_chooser=None, keep_log: bool = True, log_from: int = 0,
                estimates: tuple[list[int], list[str]] | None = None, with_key: bool = False):
    """A full game consistent with ``view`` = ``game.view(seat)`` (see the module doc), built
    with :meth:`affresco.Game.from_view`.  ``log_from``: keep the view's events from this index.
    ``estimates``: :func:`estimate_hidden` of this view, when the caller has it already.
    ``with_key``: return ``(game, key)``, where ``key`` (text) is the same for two samples
    that differ only by their seed (the same sampled hidden parts): until a chance event,
    the same actions then lead to the same views."""
    figs = view["figures"]
    n = sum(not f["leonardo"] for f in figs)
    rnd = view["round"]
    events = view["events"]
    cur = events[round_start(events):]
    est_thalers, est_paints = estimate_hidden(view) if estimates is None else estimates

    hidden_plan = []
    secret: dict[int, dict[str, Any]] = {}
    for f, fig in enumerate(figs[:n]):
        if f != seat:
            secret[f] = {"thalers": est_thalers[f], "paints": est_paints[f]}
            if fig["plan_committed"] and fig.get("plan") is None:
                hidden_plan.append(f)

    mstate: dict[str, Any] = {}
    if "portraits" in view:
        pv = view["portraits"]
        data = module("portraits", view)
        seen = {c["id"] for c in pv["display"]} | {c["id"] for o in pv["owned"] for c in o}
        deck = []
        for dk in "ABC":
            pool = sorted(cid for cid, c in data.cards.items() if c.deck == dk and cid not in seen)
            deck += rng.sample(pool, min(pv["deck_left"].get(dk, 0), len(pool)))
        taken = [0] * len(figs)
        sexton = [0] * n
        for e in cur:
            if e["kind"] == "portrait":
                taken[e["figure"]] = rnd
            elif e["kind"] == "bishop_move" and e.get("sexton") and e["figure"] < n:
                sexton[e["figure"]] = rnd
        mstate["portraits"] = {"deck": deck, "display": [c["id"] for c in pv["display"]],
                               "owned": [[c["id"] for c in o] for o in pv["owned"]],
                               "taken": taken, "sexton": sexton}
    if "requests" in view:
        rv = view["requests"]
        last = [0] * len(figs)
        for e in cur:
            if e["kind"] == "score" and e.get("for") == "request":
                last[e["figure"]] = rnd
        mstate["requests"] = {"stacks": {t: list(v) for t, v in rv["stacks"].items()},
                              "fulfilled": [[[d["type"], d["vp"], list(d["tiles"])] for d in done]
                                            for done in rv["fulfilled"]],
                              "last": last}
    if "special_colours" in view:
        mstate["special_colours"] = None
    if "bishops_favour" in view:
        pool = list(module("bishops_favour", view).tokens)
        for e in events:
            token = f"{e['effect']}:{e['value']}" if e["kind"] == "favour" else None
            if token in pool:
                pool.remove(token)
        left = view["bishops_favour"]["tokens_left"]
        mstate["bishops_favour"] = sorted(rng.sample(pool, min(left, len(pool))))
    if "scrolls" in view:
        data = module("scrolls", view)
        mine = view["scrolls"]["mine"]
        rows_free = [r + 1 for r in data.rows if r + 1 != mine["row"]]
        cols_free = [COLUMNS[c] for c in data.columns if COLUMNS[c] != mine["column"]]
        rng.shuffle(rows_free)
        rng.shuffle(cols_free)
        held = []
        for f in range(n):
            if f == seat:
                held.append(dict(mine))
                continue
            k = view["scrolls"]["unplayed"][f]
            r, c = rows_free.pop(), cols_free.pop()
            if k == 2:
                held.append({"row": r, "column": c})
            elif k == 1:
                held.append({"row": r, "column": None} if rng.random() < 0.5 else {"row": None, "column": c})
            else:
                held.append({"row": None, "column": None})
        mstate["scrolls"] = held

    if "bells" in view:
        mstate["bells"] = _bells_state(view, seat, rng)
    if "wall_fresco" in view:  # all public but the other seats' secret wall-tile placements
        mstate["wall_fresco"] = wall_state_from_view(view, seat)
    if "medico" in view:
        mstate["medico"] = _medico_state(view["medico"], module("medico", view))

    hidden = {"figures": secret, "modules": mstate}
    seed = rng.getrandbits(48)
    kept = [[e["round"], seat, {k: v for k, v in e.items() if k != "round"}] for e in events[log_from:]] \
        if keep_log else []
    if hidden_plan:
        # draw the committed-but-secret plans: legal plans of an uncommitted copy
        probe = Game.from_view(view, seat, hidden, seed=seed, log=kept)
        for f in hidden_plan:
            options_f = probe.legal_actions(f)
            if plan_chooser is not None:
                choice = plan_chooser(probe, f, options_f, rng)
            else:
                choice = options_f[rng.randrange(len(options_f))]
            plan = read_plan(choice)
            if plan is None:
                raise ValueError(f"the plan chooser gave {choice}, not a plan")
            counts, words = plan
            secret[f]["plan"] = list(counts)
            if "bells" in view:      # the plan's audience tile ('audience <column>')
                mstate["bells"]["audience"][f] = words["audience"][0] if "audience" in words else None
            if "wall_fresco" in mstate:  # where the drawn plan puts the wall tile ('wall <column>')
                columns = column_words_of(view["columns"])
                col = words["wall"][0] if "wall" in words else None
                mstate["wall_fresco"]["action_tile"][f] = columns.index(col) if col in columns else -1
            if "medico" in view:     # the plan's medico words (ill apprentices, medico tile)
                ill = Game.plan_choice_counts(("ill", *words["ill"])) if "ill" in words else None
                mstate["medico"]["plans"][f] = {"ill": list(ill or [0] * len(counts)), "medico": "medico" in words}
    game = Game.from_view(view, seat, hidden, seed=seed, log=kept)
    if with_key:
        return game, _sample_key(hidden)
    return game


# The sampled parts no seat's view shows: they come out only through chance events (a portrait
# revealed from the deck, a favour token drawn, a certificate dealt from the stack).
_UNSEEN = {"portraits": ("deck",), "bells": ("stack",)}


def _sample_key(hidden: Mapping[str, Any]) -> str:
    """What two samples must share for the same actions to show every seat the same views
    until a chance event: the hidden parts but those no view shows (see :data:`_UNSEEN`)."""
    modules = {}
    for name, part in hidden["modules"].items():
        if name == "bishops_favour":
            continue  # the tokens left: only their number is shown
        if name in _UNSEEN and isinstance(part, Mapping):
            part = {k: v for k, v in part.items() if k not in _UNSEEN[name]}
        modules[name] = part
    return json.dumps({"figures": hidden["figures"], "modules": modules}, sort_keys=True, default=str)
