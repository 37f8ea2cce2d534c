"""TRANSITION ONLY (issue #11): the English log lines of the first state format, made from the
structured events for the consumers that still read ``view(seat)["log"]``.  Deleted once every
layer reads events (docs/events.md); no new code may use it."""
from __future__ import annotations

from .state import State


def _score_why(s: State, e: dict) -> str:
    src, what = e["sources"], e["for"]
    if what == "restore":
        why = f"restores {e['segment']}: {src.get('tile', 0)}"
        if src.get("bishop"):
            why += f" + bishop {src['bishop']}"
        if src.get("special_colours"):
            why += f" + special colours {src['special_colours']}"
        return why
    if what == "altar":
        return f"restores the altar with {e['paid']}"
    if what == "final":
        return "final scoring: Thalers"
    if what == "favour":
        return "the bishop's favour"
    if what == "portrait":
        return f"portrait {_card(s, e['card'])}"
    if what == "request":
        return f"{e['request']} request with {' '.join(e['tiles'])}"
    if what == "scroll":
        return f"scroll{'s' if e['scroll'] == 'both' else ''} at {e['segment']}"
    return what


def _card(s: State, cid: str) -> str:
    m = next((m for m in s.hooks if m.name == "portraits"), None)
    return m.data.cards[cid].name if m is not None and cid in m.data.cards else cid


def text(s: State, e: dict) -> str:
    k = e["kind"]
    who = s.names[e["figure"]] if "figure" in e else ""
    if k == "getup":
        return f"{who} gets up at {e['time']}"
    if k == "studio":
        return f"{who} earns {e['amount']} Thalers in the studio"
    if k == "theater":
        return f"{who} goes to the theater (mood +{e['mood']})"
    if k == "blend":
        return f"{who} blends {e['paint']}"
    if k == "buy":
        return f"{who} buys {' '.join(e['tiles'])} at booth {e['booth']}"
    if k == "close":
        return f"{who} closes booth {e['booth']}"
    if k == "pass":
        return f"{who} passes"
    if k == "income":
        return f"{who} receives {e['amount']} Thalers income"
    if k == "game_over":
        return "the game is over"
    if k == "round_begins":
        return f"round {e.get('round', s.round)} begins" + (" (final round)" if e["final"] else "")
    if k == "plan_committed":
        return f"{who} commits a plan"
    if k == "plan_chosen":
        return f"you plan {e['plan']}"
    if k == "plan_revealed":
        return f"{who} reveals plan {e['plan']}"
    if k == "score":
        return f"{who} scores {e['vp']} VP ({_score_why(s, e)})"
    if k == "track":
        if e["choice"] == "forced":
            return ""
        return f"{who} stops {e['choice']} on space {e['space']}"
    if k == "bishop_move":
        return f"{who}{' (Sexton)' if e['sexton'] else ''} moves the bishop to {e['segment']}"
    if k == "portraits_revealed":
        return "portraits revealed: " + ", ".join(_card(s, c) for c in e["cards"])
    if k == "portraits_discarded":
        return "leftover portraits leave the game"
    if k == "portrait":
        return f"{who} paints the portrait {_card(s, e['card'])}"
    if k == "general_request_paint":
        return f"{who} takes a basic paint for the general request"
    if k == "favour_discarded":
        return "the favour token of the restored tile is discarded"
    if k == "favour":
        return f"{who} takes the bishop's favour: {e['effect']} {e['value']}"
    if k == "text":
        return e["text"]
    return ""   # kinds added after the transition (modules 8-10) have no old line: read the events


def lines(s: State, entries, seat: int | None) -> list[str]:
    """The old log lines ``seat`` may see, from ``(round, seat, event)`` entries."""
    out = []
    for rnd, who, e in entries:
        if who is None or who == seat:
            line = text(s, dict(e, round=rnd)) if e["kind"] == "round_begins" else text(s, e)
            if line:
                out.append(line)
    return out
