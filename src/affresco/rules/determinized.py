"""A game rebuilt from what one seat sees, the hidden parts filled in by the caller (R22).

:func:`state_from_view` is the engine side of a determinization (``Game.from_view``): a bot
decides what the hidden information might be (other seats' paints, Thalers and secret plans,
the modules' secrets such as the portrait decks or the other seats' scrolls); the engine builds
a state that shows ``seat`` exactly its view.  Nothing public is taken from the caller.

Not rebuilt: the action history (the game starts at this position), scoring events queued
behind a pending VP-track choice (rare), and the order of future chance events (``seed``).
"""
from __future__ import annotations

from typing import Any, Mapping

from ..errors import StateError
from .hooks import ORDER
from .serialize import FORMAT

__all__ = ["state_from_view"]

_PRIVATE = ("paints", "thalers", "plan")


def state_from_view(view: Mapping[str, Any], seat: Any, hidden: Mapping[str, Any] | None, seed: Any,
                    log: Any = None) -> dict[str, Any]:
    """The saved-state dict (docs/state-format.md) of a game consistent with ``view`` =
    ``game.view(seat)`` and ``hidden``:

    * ``hidden["figures"]``: ``{figure: {"paints": "RYB", "thalers": 12, "plan": [..]}}`` for the
      other seats (``paints`` and ``thalers`` are required; a committed plan not given leaves the
      figure uncommitted, so ``legal_actions(figure)`` lists the plans it could have made);
    * ``hidden["modules"]``: ``{module: state}`` in the module's saved format (its secrets drawn).
    ``log``: the log entries ``[round, seat, event]`` to keep (default: the view's events, as
    the seat's own).
    """
    hidden = hidden or {}
    figs = view["figures"]
    n = sum(not f["leonardo"] for f in figs)
    if type(seat) is not int or not 0 <= seat < n:
        raise StateError(f"from_view: seat must be 0..{n - 1}, not {seat!r}")
    names = [f["name"] for f in figs]
    given = {int(k): v for k, v in (hidden.get("figures") or {}).items()}
    figures = []
    for f, fig in enumerate(figs):
        d: dict[str, Any] = {"name": fig["name"], "track": fig["track"], "getup": fig["getup"],
                             "tiles": list(fig["tiles"]), "plan": fig.get("plan")}
        if f < n:
            d.update(mood=fig["mood"], neutral_apprentice=fig["neutral_apprentice"],
                     apprentice_set_aside=fig["apprentice_set_aside"])
            if f == seat:
                d.update({k: fig[k] for k in ("paints", "thalers")})
            else:
                secret = given.get(f)
                if secret is None or "paints" not in secret or "thalers" not in secret:
                    raise StateError(f"from_view: hidden['figures'][{f}] needs the paints and Thalers of {fig['name']}")
                d.update(paints=secret["paints"], thalers=secret["thalers"])
                if fig.get("plan") is None and secret.get("plan") is not None:
                    d["plan"] = list(secret["plan"])
        figures.append(d)
    modules = [m for m in ORDER if m in view.get("modules", ())] if "modules" in view else \
        [m for m in ORDER if m in view]
    options = dict(view.get("options") or {})
    mstate = dict(hidden.get("modules") or {})
    missing = [m for m in modules if m not in mstate]
    if missing:
        raise StateError(f"from_view: hidden['modules'] lacks the state of {missing}")
    idx = {name: i for i, name in enumerate(names)}
    phase = view["phase"]
    turn: dict[str, Any] = {"order": [idx[x] for x in view["order"]] if view["order"] else []}
    actor = view["actor_figure"]
    if phase == "visits":
        column, visit = view["column"], turn["order"].index(actor) if actor is not None else -1
        asks = view.get("asks") or []
        if column is None:                 # every column done: decisions after the last one
            column = len(view["columns"])
        elif actor is None and asks:       # a decision right after a turn (e.g. who falls ill)
            visit = turn["order"].index(asks[0][0])
        turn.update(location=column, actor=actor if actor is not None else -1, visit=visit,
                    left=view["visit_left"] or 0)
    elif phase == "getup":
        turn.update(actor=actor if actor is not None else -1)
    pend = view["pending_track"]
    rnd = view["round"]
    if log is None:
        log = [[e["round"], seat, {k: v for k, v in e.items() if k != "round"}] for e in view.get("events", ())]
    return {
        "format": FORMAT,
        "setup": {"determinized": True},
        "players": names[:n],
        "modules": modules,
        "options": options,
        "components": view.get("components", "reference"),
        "seed": seed,
        "chance_draws": 0,
        "round": rnd,
        "final_round": view["final_round"],
        "action_sheet_side": view["action_sheet_side"],
        "phase": phase,
        "fresco": [list(r) for r in view["fresco"]],
        "bishop": view["bishop"],
        "market": {"booths": [list(view["booths"][b]) for b in view["booths"]]},
        "figures": figures,
        "leonardo": None if n > 2 else {"painter": view["leonardo_painter"],
                                         "controller": view["leonardo_controller"]},
        "turn": turn,
        "pending_track": None if pend is None else {"figure": pend["figure_index"], "behind": pend["behind"],
                                                    "ahead": pend["ahead"],
                                                    **({"target": pend["target"]} if "target" in pend else {})},
        "queued_moves": [],
        "asks": [list(a) for a in view.get("asks", ())],
        "modules_state": mstate,
        "history": [],
        "log": [list(e) for e in log],
    }
