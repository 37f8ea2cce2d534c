"""The round: whose decision it is, the legal actions, and carrying one out.

Decisions in round order: get-up space (phase 1, furthest behind first), the secret plans
(all seats at once), then the visits location by location in get-up order, with the choice
of where to stop on an occupied VP-track space whenever it arises.  Steps without a choice
(mood, reveal, income, round preparation...) run by themselves.  A visit whose only legal
action is 'pass' is forfeited ('Performing actions'): skipped when everyone can see it
(Leonardo, a market without tiles), else the player passes themselves (:func:`idle_is_public`).
"""
from __future__ import annotations

from typing import Any, Final, Sequence

from . import cathedral, hostel, leonardo, market, planning, preparation, studio, theater, track, workshop
from .actions import PASS, Action
from .state import GETUP, OVER, PLAN, VISITS, State

LOCATIONS: Final[dict[str, Any]] = {"market": market, "cathedral": cathedral, "studio": studio,
             "workshop": workshop, "theater": theater}


def location(s: State, fig: int):
    column = s.columns()[s.loc]
    return (leonardo.LOCATIONS if fig >= s.n else LOCATIONS)[column], column


def to_act(s: State) -> tuple[int, ...]:
    """The seats that must decide now (memoised until the state changes)."""
    acting = s.acting
    if acting is None:
        acting = s.acting = _to_act(s)
    return acting


def _to_act(s: State) -> tuple[int, ...]:
    if s.pending is not None:
        return (s.controller(s.pending[0]),)
    if s.asks:
        return (s.controller(s.asks[0][0]),)
    if s.phase == PLAN:
        return tuple([f for f in range(s.n) if s.plan[f] is None])
    if s.phase in (GETUP, VISITS) and s.actor >= 0:
        return (s.controller(s.actor),)
    return ()


def deciding(s: State) -> int | None:
    """The figure whose decision the seat in :func:`to_act` makes now (Leonardo's is made by his
    controller, R13): the figure choosing a VP-track space, else the one a module asks, else the
    acting figure; None while planning (each seat plans for itself) and once the game is over."""
    if s.pending is not None:
        return s.pending[0]
    if s.asks:
        return s.asks[0][0]
    if s.phase in (GETUP, VISITS) and s.actor >= 0:
        return s.actor
    return None


def legal_for_figure(s: State) -> list[Action]:
    """Legal actions of the figure whose decision it is (not for planning); computed once per
    decision (the memo is cleared by :func:`advance` and travels with clones; the list must not
    be changed)."""
    actions = s.cache
    if actions is None:
        actions = s.cache = _legal_for_figure(s)
    return actions


def _legal_for_figure(s: State) -> list[Action]:
    if s.pending is not None:
        return track.legal(s)
    if s.asks:
        return s.hooks.named[s.asks[0][1]].ask_actions(s, s.asks[0])
    if s.phase == GETUP:
        return hostel.legal(s, s.actor)
    loc, column = location(s, s.actor)
    actions = loc.legal(s, s.actor)
    for hook in s.hooks.visit_actions_at[column]:
        hook(s, s.actor, column, actions)
    return actions


def legal(s: State, seat: int) -> Sequence[Action]:
    if seat not in to_act(s):
        return []
    if s.phase == PLAN and s.pending is None and not s.asks:
        plans = planning.legal(s, seat)
        if type(plans) is not list:
            s.offered = (seat, plans)    # a TiledPlans or PlanVariants: the plan it gave last is legal (is_legal)
        return plans
    return list(legal_for_figure(s))


def is_legal(s: State, seat: int, action: Action, acting: tuple[int, ...] | None = None,
             quick: bool = False) -> bool:
    """Whether ``seat`` may carry out ``action`` now.  ``quick``: the caller has checked the
    seat, and only wants to know whether a well-formed action is legal (False may also mean
    "could not tell": the caller checks it fully then)."""
    if not quick and seat not in (to_act(s) if acting is None else acting):
        return False
    if s.phase == PLAN and s.pending is None and not s.asks:
        if s.offered is not None and s.offered[0] == seat and s.offered[1].made_here(action):
            return True                  # one of the plans offered to the seat in this state
        if quick:
            try:
                return planning.is_legal(s, seat, action)
            except (TypeError, ValueError, AttributeError):   # malformed: the full check says why
                return False
        return planning.is_legal(s, seat, action)
    actions = legal_for_figure(s)
    for a in actions:      # the usual case: an action from the list itself, found by identity
        if a is action:
            return True
    return action in actions


def apply(s: State, seat: int, action: Action) -> None:
    """Carry out a legal action (the caller has checked legality).  The history keeps the
    action itself; its notation is made when the history is read."""
    s.acting = s.cache = None     # (s.offered: a plan decision's, taken by planning.apply; advance clears it)
    s.history = ((seat, action), s.history)
    s.nactions += 1
    if s.pending is not None:
        track.apply(s, action)
    elif s.asks:
        ask, s.asks = s.asks[0], s.asks[1:]
        s.hooks.named[ask[1]].answer(s, ask, action)
    elif s.phase == GETUP:
        hostel.apply(s, s.actor, action)
    elif s.phase == PLAN:
        planning.apply(s, seat, action)
    elif action == PASS:
        s.add_event({"kind": "pass", "figure": s.actor})
        s.left = 0
    else:
        loc, _ = location(s, s.actor)
        fig = s.actor
        handlers = s.hooks.apply_action_for.get(action.kind) if s.hooks.apply_action else ()
        if handlers is None:
            handlers = s.hooks.for_kind("apply_action", action.kind)
        for hook in handlers:
            if hook(s, fig, action):
                break
        else:
            loc.apply(s, fig, action)
        if s.hooks.after_action:     # (no module hook: no look-up by column)
            for hook in s.hooks.after_action_at[s.side2][s.loc]:
                hook(s, fig, action)
    advance(s)


def advance(s: State) -> None:
    """Run the steps that need no decision, up to the next decision or the end; the legal
    actions found on the way for that decision are kept (:func:`legal_for_figure`)."""
    s.acting = s.cache = s.offered = s.drafts = None
    while True:
        if s.moves and s.pending is None:
            track.resolve(s)
        while s.pending is None and s.asks:
            actions = s.hooks.named[s.asks[0][1]].ask_actions(s, s.asks[0])
            if actions:
                s.cache = actions
                return
            s.asks = s.asks[1:]   # a question an earlier answer left without choices (money spent): none
        if s.pending is not None or s.asks or s.phase == OVER:
            return
        if s.phase == GETUP:
            nxt = hostel.next_chooser(s)
            if nxt is not None:
                s.actor = nxt
                return
            s.order = hostel.action_order(s)
            s.phase, s.actor = PLAN, -1
            continue
        if s.phase == PLAN:
            if None in s.plan[:s.n]:
                return
            planning.reveal(s)
            s.phase, s.loc, s.visit, s.actor, s.left = VISITS, 0, -1, -1, 0
            continue
        # VISITS
        if s.actor >= 0:
            if s.left > 0:
                actions = _legal_for_figure(s)
                if actions and (len(actions) > 1 or actions[0] != PASS or not idle_is_public(s)):
                    s.cache = actions
                    return
                s.left = 0  # nothing can be done, and everyone can see it: the visit is forfeited
            fig, s.actor = s.actor, -1
            if s.hooks.after_visit:
                for hook in s.hooks.after_visit_at[s.side2][s.loc]:
                    hook(s, fig, s.columns()[s.loc])
            continue
        if not _next_visitor(s):
            preparation.end_round(s)


def idle_is_public(s: State) -> bool:
    """Whether everyone can see that the visitor has nothing to do (rules notes N2; R22, issue
    #15 item 4): Leonardo has no secrets, and a market without tiles offers nothing to anyone.
    Otherwise a player whose only legal action is 'pass' must pass themselves: a forced pass
    then leaves the same public trace (the seat to act, then its 'pass') as a chosen one, and
    reveals nothing about the paints and Thalers that forced it."""
    return s.actor >= s.n or (s.columns()[s.loc] == "market" and not any(s.booths))


def _next_visitor(s: State) -> bool:
    """Start the next figure's turn at a column (True), after the last column False.  A
    figure has a turn if it has apprentices in the column or a module gives it one
    (hook ``visit_start``, the modules acting at the column's busy or empty turns,
    ``HookTable.visit_start_at``); after a column the hook ``after_location`` runs (it may ask)."""
    columns = s.columns()
    starts_at = s.hooks.visit_start_at
    order = s.order
    while s.loc < len(columns):
        column = columns[s.loc]
        busy_starts, starts = starts_at[s.loc]
        s.visit += 1
        while s.visit < len(order):
            fig = order[s.visit]
            count = s.plan[fig][s.loc]
            s.left = 0
            busy = False
            if count:
                loc, _ = location(s, fig)
                loc.start(s, fig, count)
                for hook in busy_starts:
                    busy = hook(s, fig, column, count) or busy
            else:
                for hook in starts:
                    busy = hook(s, fig, column, count) or busy
            if count or busy or s.asks:
                s.actor = fig
                return True
            s.visit += 1
        done = s.loc
        s.loc += 1
        s.visit = -1
        for hook in s.hooks.after_location_at[done]:
            hook(s, column, done)
        if s.asks:
            s.actor = -1
            return True
    s.actor = -1
    return False
