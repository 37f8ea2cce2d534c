"""Terminal rendering of a game with rich: the board, a player's screen, the log, the actions.

Every function takes a view (``game.view(seat)`` or ``game.view(None)``) and returns a rich
renderable; nothing here prints or reads the engine state.  The CLI prints them on a
:class:`rich.console.Console`.
"""
from __future__ import annotations

import re
from typing import Any, Iterable, Mapping, Sequence

from rich import box
from rich.columns import Columns
from rich.console import Group, RenderableType
from rich.panel import Panel
from rich.table import Table
from rich.text import Text

from ..i18n import catalog, column_text, render_event, text as i18n_text
from ..rules import parse_tile_text
from ..rules.board import COLUMNS, SIZE

__all__ = ["PAINT_STYLES", "paints_text", "fresco_table", "market_table", "hostel_table", "figures_table",
           "track_line", "extras_panel", "wall_table", "board", "private_panel", "log_panel", "actions_panel", "plan_panel", "scores_table",
           "column_label", "screen", "medico_panel", "bells_panel", "modules_panel", "card_text"]

PAINT_STYLES = {
    "R": "bold red", "Y": "bold yellow", "B": "bold blue",
    "O": "bold dark_orange", "G": "bold green", "P": "bold magenta",
    "K": "bold hot_pink", "N": "bold orange4",
}
PAINT_NAMES = {"R": "red", "Y": "yellow", "B": "blue", "O": "orange", "G": "green", "P": "purple",
               "K": "pink", "N": "brown"}
BISHOP = "♗"
LEONARDO_MARK = "L"
ROWS = [str(r + 1) for r in range(SIZE)]
COLS = COLUMNS


def paints_text(paints: str | None, empty: str = "-") -> Text:
    """Paint letters, each in its colour."""
    if paints is None:
        return Text("?", style="dim")
    if not paints:
        return Text(empty, style="dim")
    out = Text()
    for c in paints:
        out.append(c, style=PAINT_STYLES.get(c, ""))
    return out


def place_word(word: str, lang: str = "en") -> str:
    """An action-sheet column's word as shown: in English the engine's word (what the notation
    types); in other languages the catalogue's name (the word itself if it has none)."""
    return word if lang == "en" else column_text(word, lang) or word


def column_label(view: Mapping[str, Any], index: int, lang: str = "en") -> str:
    """Name of an action-sheet column; the final round's 5th column is the second cathedral visit.
    In English the engine's word (what the notation types); in other languages the catalogue's."""
    columns = view["columns"]
    name = place_word(columns[index], lang)
    if columns[index] in columns[:index]:
        return i18n_text("col.second_visit", lang, name=name)
    return name


def figure_names(view: Mapping[str, Any], lang: str = "en") -> list[str]:
    """The figures' names as shown in ``lang``: Leonardo's is the catalogue's (``leonardo``:
    Леонардо), as the browser names him; the players' are theirs."""
    return [_t("leonardo", lang) if f.get("leonardo") else f["name"] for f in view["figures"]]


def named(view: Mapping[str, Any], lang: str = "en") -> Mapping[str, Any]:
    """``view`` with Leonardo's name in ``lang`` wherever the view names him (figures, order,
    hostel, actor); the view itself is not changed."""
    leo = next((f["name"] for f in view["figures"] if f.get("leonardo")), None)
    shown = _t("leonardo", lang)
    if leo is None or leo == shown:
        return view
    def one(name: Any) -> Any:
        return shown if name == leo else name
    out = dict(view)
    out["figures"] = [dict(f, name=shown) if f.get("leonardo") else f for f in view["figures"]]
    out["order"] = [one(n) for n in view.get("order") or []]
    out["hostel"] = [dict(h, taken_by=one(h.get("taken_by"))) for h in view.get("hostel") or []]
    if "actor" in view:
        out["actor"] = one(view["actor"])
    return out


def _t(key: str, lang: str, **params: Any) -> str:
    """The catalogue's text of ``key`` (affresco.i18n, shared with the browser)."""
    return i18n_text(key, lang, **params)


def fresco_table(view: Mapping[str, Any], lang: str = "en") -> Table:
    """The 5x5 fresco: VP and paints of each unrestored segment, the bishop and Leonardo's painter."""
    t = Table(title=_t("term.fresco", lang), box=box.SQUARE, show_lines=True, padding=(0, 1), title_style="bold")
    t.add_column("", justify="right", style="dim")
    for c in COLS:
        t.add_column(c, justify="center", min_width=7)
    bishop = view.get("bishop")
    leo = view.get("leonardo_painter")
    for r, row in enumerate(view["fresco"]):
        cells: list[RenderableType] = []
        for c, tile in enumerate(row):
            name = f"{COLS[c]}{ROWS[r]}"
            cell = Text()
            if tile is None:
                cell.append(_t("term.restored", lang), style="dim")
            else:
                vp, paints, _ = parse_tile_text(tile)
                cell.append(_t("term.vp_n", lang, n=vp) + " ", style="bold")
                cell.append_text(paints_text(paints))
            marks = []
            if name == bishop:
                marks.append((f"{BISHOP} {_t('term.bishop', lang)}", "bold white on purple4"))
            if name == leo:
                marks.append((f"{LEONARDO_MARK} {_t('leonardo', lang)}", "bold black on grey70"))
            for label, style in marks:
                cell.append("\n")
                cell.append(label, style=style)
            cells.append(cell)
        t.add_row(ROWS[r], *cells)
    return t


def wall_table(view: Mapping[str, Any], lang: str = "en") -> Table:
    """Module wall fresco: the wall board (each section's paint to pay -> the basic paint of its
    back; restorable sections marked), then the wall tiles, exchange tiles and wall action tiles
    of the players."""
    w = view["wall_fresco"]
    t = Table(title=_t("term.wall_title", lang, n=w["vp_per_section"]), box=box.SQUARE, show_lines=False,
              padding=(0, 1), title_style="bold")
    t.add_column("", justify="right", style="dim")
    for c in range(w["columns"]):
        t.add_column("ABCDEFGHIJ"[c], justify="center", min_width=6)
    restorable = set(w["restorable"])
    for r, row in enumerate(w["board"]):
        cells: list[RenderableType] = []
        for c, tile in enumerate(row):
            name = f"{'ABCDEFGHIJ'[c]}{r + 1}"
            cell = Text()
            if tile is None:
                cell.append(_t("term.restored", lang), style="dim")
            else:
                front, back = tile[2:].split("/")[:2]
                cell.append_text(paints_text(front))
                cell.append("→", style="dim")
                cell.append_text(paints_text(back))
                if name in restorable:
                    cell.append(" ✓", style="bold green")
            cells.append(cell)
        t.add_row(str(r + 1), *cells)
    lines = []
    for f, fig in enumerate(view["figures"][:len(w["tiles"])]):
        backs = Text()
        for i, tile in enumerate(w["tiles"][f]):
            if i:
                backs.append(" ")
            backs.append_text(paints_text(tile[2:].split("/")[1]))
        parts = [f"{fig['name']}: "]
        line = Text("".join(parts), style="bold")
        line.append_text(backs if w["tiles"][f] else Text(_t("wall.no_tiles", lang), style="dim"))
        if w["exchange_tiles"][f]:
            line.append(f"  {_t('term.exchange', lang)} ")
            line.append_text(paints_text("".join(w["exchange_tiles"][f])))
        if w["action_tile"][f]:
            col = place_word(w["action_tile"][f], lang)
            line.append("  " + _t("wall.tile_at", lang, col=col), style="italic")
        lines.append(line)
    supply = " ".join(f"{k}×{v}" for k, v in w["supply"].items())
    t.caption = Text("\n").join(lines + [Text(_t("term.wall_caption", lang, supply=supply), style="dim")])
    return t


def market_table(view: Mapping[str, Any], lang: str = "en") -> Table:
    t = Table(title=_t("board.market", lang), box=box.SIMPLE_HEAD, title_style="bold")
    t.add_column(_t("term.booth", lang))
    t.add_column(_t("term.tiles", lang))
    for booth, tiles in view["booths"].items():
        text = Text()
        for i, tile in enumerate(tiles):
            if i:
                text.append("  ")
            text.append_text(paints_text(tile))
        t.add_row(booth, text if tiles else Text(_t("board.booth_empty", lang), style="dim"))
    t.caption = _t("board.bag", lang, n=view.get("bag_size", "?"))
    return t


def hostel_table(view: Mapping[str, Any], lang: str = "en") -> Table:
    t = Table(title=_t("board.hostel", lang), box=box.SIMPLE_HEAD, title_style="bold")
    t.add_column(_t("board.getup", lang))
    t.add_column(_t("term.mood", lang), justify="right")
    t.add_column(_t("board.price", lang), justify="right")
    t.add_column(_t("term.taken_by", lang))
    for h in view["hostel"]:
        mood = h["mood"]
        t.add_row(h["time"], f"{mood:+d}" if mood else "0", str(h["price"]), h["taken_by"] or "")
    return t


def mood_strip(view: Mapping[str, Any], index: int | None) -> Text:
    """The mood display top (left) to bottom (right): '+' the +1 spaces, '-' the -1 spaces, '●'
    the painter's space (marked in the zone's colour)."""
    out = Text()
    if index is None:
        return Text("-", style="dim")
    for i, zone in enumerate(view["mood_display"]):
        ch = "+" if zone > 0 else "-" if zone < 0 else "·"
        style = "green" if zone > 0 else "red" if zone < 0 else ""
        # one character a space (the painter's a '●'), so the strip fits an 80-column table
        out.append("●" if i == index else ch, style=f"bold reverse {style}".strip() if i == index else style)
    return out


def figures_table(view: Mapping[str, Any], lang: str = "en") -> Table:
    """Every figure's public items (and the viewer's own paints and Thalers)."""
    t = Table(title=_t("players.title", lang), box=box.SIMPLE_HEAD, title_style="bold", pad_edge=False, collapse_padding=True)
    # one line per painter at 80 columns: the longest name whole (a star marks who is to act),
    # the plan ("2-3-0-1-3") whole; only the paints fold onto a second line when long
    name_width = min(16, max(len(f["name"]) for f in view["figures"]) + 2)
    for key, just in (("#", "right"), ("term.name", "left"), ("final.vp", "right"), ("board.getup", "left"),
                      ("term.mood", "left"), ("term.appr", "right"), ("final.tiles", "left"),
                      ("screen.plan", "left"), ("term.paints", "left"), ("screen.thalers", "right")):
        fold = key == "term.paints"
        name = key if key == "#" else _t(key, lang)
        t.add_column(name, justify=just, overflow="fold" if fold else "ellipsis",  # type: ignore[arg-type]
                     no_wrap=not fold,
                     min_width={"term.name": name_width, "screen.plan": 9}.get(key, len(name)))
    viewer = view.get("seat")
    to_act = set(view.get("to_act") or [])
    for i, f in enumerate(view["figures"]):
        leo = f.get("leonardo")
        seat = "" if leo else str(i)
        name = Text(f["name"], style="bold" if i == viewer else "")
        if not leo and i in to_act:
            name.append(" *", style="bold yellow")
        tiles = f.get("tiles") or []
        plan = f.get("plan")
        if plan is not None:
            plan_text = "-".join(map(str, plan))
        elif f.get("plan_committed"):
            plan_text = _t("term.secret", lang)
        else:
            plan_text = ""
        if leo:
            mood: RenderableType = Text(_t("term.no_mood", lang), style="dim")
            appr = ""
            paints: RenderableType = Text("-", style="dim")
            thalers = "-"
        else:
            mood = mood_strip(view, f.get("mood"))
            appr = str(f.get("apprentices", ""))   # the mood strip shows a +1 or -1 space
            paints = paints_text(f["paints"]) if "paints" in f else Text(_t("term.hidden", lang), style="dim")
            thalers = str(f["thalers"]) if "thalers" in f else "?"
        track = f.get("track")
        vp = track if isinstance(track, str) else f"{f.get('vp', 0)}"   # 'S2': still on a start space
        t.add_row(seat, name, vp, f.get("getup") or "", mood, appr,
                  str(len(tiles)) if tiles else "", plan_text, paints, thalers)
    return t


def track_line(view: Mapping[str, Any], lang: str = "en") -> Text:
    """The VP track from the leader to the last (start spaces behind the track)."""
    def key(f):
        tr = f.get("track")
        # start spaces are behind the track; S1 is furthest behind (R2)
        return (1, tr) if isinstance(tr, int) else (0, int(str(tr)[1:]) if str(tr)[1:].isdigit() else 0)
    figs = sorted(view["figures"], key=key, reverse=True)
    out = Text(_t("term.track", lang), style="bold")
    for i, f in enumerate(figs):
        if i:
            out.append("  >  ", style="dim")
        out.append(f"{f['name']} ", style="bold" if i == 0 else "")
        out.append(str(f.get("track")), style="cyan")
    return out


def status_line(view: Mapping[str, Any], lang: str = "en") -> Text:
    phase = view.get("phase")
    out = Text()
    out.append(_t("status.round", lang, n=view.get("round")), style="bold")
    if view.get("final_round"):
        out.append(f" ({_t('status.final_round', lang)})", style="bold red")
    out.append(f" · {_t(f'phase.{phase}', lang)}")
    if phase == "visits" and view.get("location"):
        place = place_word(view["location"], lang)
        out.append(" · " + _t("term.at", lang, place=place))
        if view.get("actor"):
            out.append(" · " + _t("term.acts", lang, name=view["actor"]))
    if view.get("order"):
        out.append(" · " + _t("term.order", lang, names=", ".join(view["order"])), style="dim")
    if view.get("leonardo_controller") is not None:
        names = [f["name"] for f in view["figures"]]
        ctrl = view["leonardo_controller"]
        if 0 <= ctrl < len(names):
            out.append(" · " + _t("term.leo_by", lang, name=names[ctrl]), style="dim")
    return out


# view keys shown by the functions above; anything else (modules) goes to extras_panel
BASE_KEYS = {"seat", "round", "final_round", "action_sheet_side", "columns", "phase", "to_act", "actor", "actor_figure", "column", "visit_left",
             "location", "fresco", "bishop", "leonardo_painter", "leonardo_controller", "booths", "bag_size",
             "hostel", "mood_display", "order", "figures", "pending_track", "is_over",
             "deciding", "asks", "modules", "options", "components", "secrets", "events", "vp_sources"}
DRAWN_KEYS = {"wall_fresco", "medico",   # module parts of the view drawn by their own tables
              "portraits", "requests", "special_colours", "scrolls", "bishops_favour"}
BASE_FIGURE_KEYS = {"name", "track", "vp", "getup", "tiles", "leonardo", "mood", "mood_zone", "neutral_apprentice",
                    "apprentice_set_aside", "apprentices", "plan_committed", "plan", "paints", "thalers"}


def _short(value: Any) -> str:
    if isinstance(value, (list, tuple)):
        sep = " | " if any(isinstance(v, (dict, list, tuple)) for v in value) else ", "
        return sep.join(_short(v) for v in value) or "-"
    if isinstance(value, dict):
        return "; ".join(f"{k} {_short(v)}" if isinstance(v, (dict, list, tuple)) else f"{k}: {_short(v)}"
                         for k, v in value.items()) or "-"
    return "-" if value is None else str(value)


    return "-" if value is None else str(value)


def _certificate(c: Mapping[str, Any], lang: str = "en") -> Text:
    """A bell certificate: price, VP and bells ('5 Th · 5 VP · 4 🔔'), with what is paid on it."""
    out = Text(_t("term.cert", lang, price=c["price"], vp=c["vp"], bells=c["bells"]), style="bold")
    if "paid" in c:
        out.append(" " + _t("term.cert_paid", lang, paid=c["paid"], price=c["price"]), style="yellow")
    return out


def bells_panel(view: Mapping[str, Any], lang: str = "en") -> Panel | None:
    """Module bells: the displayed certificates, the stack, each figure's certificates (face
    down: a count, the viewer's own with their bells; partly paid: face up with the amount
    paid), the audience tiles and, after final scoring, the bell track with the bishop."""
    b = view.get("bells")
    if not b:
        return None
    out = Text()
    out.append(_t("term.display", lang), style="bold")
    for i, c in enumerate(b["display"]):
        out.append("  " if i else "")
        out.append_text(_certificate(c, lang))
    if not b["display"]:
        out.append(_t("term.audience_void", lang), style="dim")
    out.append("   " + _t("term.stack", lang, n=b["stack"]) + "\n", style="dim")
    names = [f["name"] for f in view["figures"]]
    words = dict(enumerate(b.get("audience") or []))
    for f, h in enumerate(b["figures"]):
        out.append(f"{names[f]}: ", style="bold")
        out.append(_t("bells.count", lang, n=h["certificates"]))
        if h["face_down"]:
            own = h.get("face_down_certificates")
            if own:
                out.append(", " + _t("term.face_down_own", lang, bells=sum(c["bells"] for c in own), n=len(own)))
            else:
                out.append(", " + _t("term.face_down", lang, n=h["face_down"]))
        for c in h["partly_paid"]:
            out.append(f", {_t('term.partly_paid', lang)} ")
            out.append_text(_certificate(c, lang))
        if words.get(f):
            col = place_word(words[f], lang)
            out.append("   " + _t("term.audience_on", lang, col=col), style="cyan")
        out.append("\n")
    track = b.get("track")
    if track:
        spots = [(s, names[f]) for f, s in enumerate(track["figures"]) if s is not None] + \
            [(track["bishop"], _t("term.bishop", lang))]
        out.append(_t("term.bell_track", lang), style="bold")
        out.append("  >  ".join(f"{who} {min(s, b['track_top'])}{'+' if s >= b['track_top'] else ''}"
                                for s, who in sorted(spots, reverse=True)))
        out.append("\n")
    out.append(_t("term.thresholds", lang,
                  list=", ".join(f"{sp} → {_t('players.vp', lang, n=vp)}" for sp, vp in b["thresholds"]),
                  ranks=", ".join(map(str, b["rank_points"]))), style="dim")
    return Panel(out, title=_t("tab.bells", lang), border_style="yellow", expand=False)


BOTTLE_STYLE = {"3": "bold green", "2": "bold green", "1": "bold green", "juice": "bold red"}


def medico_panel(view: Mapping[str, Any], lang: str = "en") -> Panel | None:
    """The medico board (module 10): the infection, the bottles on display with their prices,
    the piles, and per player the bottles before the screen and the ill apprentices."""
    mv = view.get("medico")
    if mv is None:
        return None
    lines = Text()

    def bottle(word: str) -> str:
        return _t(f"bottle.{word}", lang) if f"bottle.{word}" in catalog("en") else word
    tile = mv["infection_tile"]
    if tile is None:     # this round's tile comes after planning
        lines.append(_t("term.infection", lang), style="bold")
        lines.append(_t("term.infection_later", lang)
                     + (" " + _t("term.infection_last", lang, loc=place_word(mv["infected"], lang)) if mv["infected"] else "") + "   ")
    else:
        lines.append(_t("term.infected", lang), style="bold")
        lines.append((place_word(mv["infected"], lang) if mv["infected"] else _t("term.nothing_infected", lang))
                     + (" " + _t("term.same_tile", lang) if tile == "same" else "") + "   ",
                     style="bold red" if mv["infected"] else "")
    lines.append(_t("medico.tiles_left", lang, n=mv["infection_tiles_left"]) + "   ", style="dim")
    lines.append(_t("medico.piles", lang, draw=mv["draw_pile"], discard=len(mv["discard"]),
                    black=mv["black_on_board"]) + "\n", style="dim")
    lines.append(_t("term.medico_display", lang), style="bold")
    shown = [d for d in mv["display"] if d]
    if not shown:
        lines.append(_t("term.no_bottle", lang), style="dim")
    for d in shown:
        lines.append(f"[{d['place']}] ")
        lines.append(bottle(d["bottle"]), style=BOTTLE_STYLE.get(d["bottle"], ""))
        lines.append(" " + _t("term.for_price", lang, price=d["price"]) + "   ")
    for f, fig in enumerate(view["figures"]):
        if fig.get("leonardo"):
            continue
        held = ", ".join(bottle(b) for b in mv["held"][f]) or _t("term.no_bottle", lang)
        lines.append(f"\n{fig['name']}: ", style="bold")
        lines.append(_t("term.medico_figure", lang, ill=mv["ill"][f], healthy=mv["healthy"][f], sick=mv["sick"][f],
                        held=held))
        plan = mv["plans"][f]
        if plan is not None and (any(plan["ill"]) or plan["medico"]):
            ill = ", ".join(f"{column_label(view, i, lang)} {n}" for i, n in enumerate(plan["ill"]) if n)
            lines.append("; " + _t("term.medico_plan", lang) + (_t("plan.ill_words", lang, cols=ill) if ill else "")
                         + (" + " + _t("term.medico_tile", lang) if plan["medico"] else ""), style="italic")
    return Panel(lines, title=_t("tab.medico", lang), border_style="red", expand=False)


CARD_EFFECTS = ("income", "theater", "bishop_bonus", "sexton", "thalers", "vp", "paint", "basic_paints", "mood", "mood_top")
SPLASH = {"orange": "O", "green": "G", "purple": "P"}


def card_text(card: Mapping[str, Any], lang: str = "en") -> Text:
    """A portrait card: its name (the catalogue's, as in the browser), deck and effects in words."""
    key = f"card.{card['id'].split('-')[0]}"        # 'bishop-b' is the Bishop of deck B
    out = Text(_t(key, lang) if key in catalog("en") else card.get("name", card["id"]), style="bold")
    out.append(f" ({card.get('deck', '?')}{', ' + _t('portrait.permanent', lang) if card.get('permanent') else ''}): ",
               style="dim")
    out.append("; ".join(_t(f"eff.{k}", lang, n=card[k], paint=card[k]) for k in CARD_EFFECTS if k in card))
    return out


def scrolls_text(mine: Mapping[str, Any], lang: str = "en") -> str:
    """A painter's scrolls ('row 3, column C'; 'all played'), as the browser words them."""
    held = [_t("screen.scroll_row", lang, row=mine["row"])] if mine.get("row") else []
    held += [_t("screen.scroll_column", lang, col=mine["column"])] if mine.get("column") else []
    return ", ".join(held) or _t("screen.scrolls_played", lang)


def modules_panel(view: Mapping[str, Any], lang: str = "en") -> Panel | None:
    """Modules 1-5 in words, as the browser shows them: the portraits on display with what each
    gives and who owns which permanent card, the request stacks and each painter's requests, the
    special colours' blends, the scrolls (the viewer's own and how many each holds) and the
    favour tokens left."""
    names = [f["name"] for f in view["figures"]]
    grid = Table.grid(padding=(0, 1))
    grid.add_column(style="bold magenta", no_wrap=True)
    grid.add_column()

    def section(key: str) -> Text:
        text = Text()
        grid.add_row(_t(f"term.mod.{key}", lang), text)
        return text

    p = view.get("portraits")
    if p:
        out = section("portraits")
        if p.get("display"):
            for i, card in enumerate(p["display"]):
                out.append("\n" if i else "")
                out.append_text(card_text(card, lang))
        else:
            out.append(_t("portrait.none", lang), style="dim")
        left = ", ".join(f"{d}: {n}" for d, n in (p.get("deck_left") or {}).items())
        if left:
            out.append("\n" + _t("portrait.decks", lang, left=left), style="dim")
        for f, owned in enumerate(p.get("owned") or []):
            for card in owned:
                out.append(f"\n{names[f]}: ")
                out.append_text(card_text(card, lang))
    r = view.get("requests")
    if r:
        out = section("requests")
        out.append(" · ".join(f"{_t(f'request.{t}', lang)}: " + (_t("request.top", lang, vp=v[-1], n=len(v)) if v
                                                                 else _t("request.empty", lang))
                              for t, v in r["stacks"].items()))
        for f, done in enumerate(r.get("fulfilled") or []):
            if done:
                out.append(f"\n{names[f]}: ")
                out.append("; ".join(f"{_t('request.' + d['type'], lang)} {_t('players.vp', lang, n=d['vp'])} "
                                     f"({' '.join(d['tiles'])})" for d in done))
                if not view["figures"][f].get("leonardo"):   # R10: each pays 1 Thaler and its paint
                    out.append("; " + _t("term.request_income", lang, n=len(done)), style="dim")
                    special = "".join(SPLASH[d["type"]] for d in done if d["type"] in SPLASH)
                    if special:
                        out.append(" + ", style="dim")
                        out.append_text(paints_text(special))
                    general = len(done) - len(special)
                    if general:
                        out.append(" + " + _t("term.basic_of_choice", lang, n=general), style="dim")
    sc = view.get("special_colours")
    if sc:
        out = section("special_colours")
        out.append(_t("special.altar", lang))
        if sc.get("on_fresco"):
            bonus = sc.get("fresco_bonus") or {}
            out.append("\n" + _t("special.on_fresco", lang, k=bonus.get("K", "?"), n=bonus.get("N", "?")))
    s = view.get("scrolls")
    if s:
        out = section("scrolls")
        if s.get("mine") is not None:
            out.append(_t("term.yours", lang) + scrolls_text(s["mine"], lang) + " · ", style="bold")
        out.append(_t("term.unplayed", lang) + ", ".join(f"{names[f]} {n}" for f, n in enumerate(s.get("unplayed") or [])))
        out.append("\n" + _t("scrolls.rule", lang), style="dim")
    bf = view.get("bishops_favour")
    if bf:
        out = section("bishops_favour")
        out.append(_t("favour.left", lang, n=bf["tokens_left"]))
    if not grid.rows:
        return None
    return Panel(grid, title=_t("home.modules", lang), border_style="magenta", expand=False)


def extras_panel(view: Mapping[str, Any], lang: str = "en") -> Panel | None:
    """What modules add to the view (game-wide and per painter), as plain text (modules with a
    panel of their own apart)."""
    lines = Text()
    for key in sorted(set(view) - BASE_KEYS - DRAWN_KEYS - {"bells"}):
        if not view[key] and view[key] != 0:     # nothing to tell (e.g. no house rule in play)
            continue
        lines.append(f"{key}: ", style="bold")
        lines.append(_short(view[key]) + "\n")
    for f in view["figures"]:
        extra = {k: v for k, v in f.items() if k not in BASE_FIGURE_KEYS}
        if extra:
            lines.append(f"{f['name']}: ", style="bold")
            lines.append(_short(extra) + "\n")
    if not lines.plain:
        return None
    lines.rstrip()
    return Panel(lines, title=_t("term.other_items", lang), border_style="magenta", expand=False)


def board(view: Mapping[str, Any], lang: str = "en") -> Group:
    """Everything public: status, fresco, market, hostel, painters, VP track (and module items)."""
    view = named(view, lang)
    side = Table.grid(padding=(0, 2))
    side.add_column()
    side.add_row(market_table(view, lang))
    side.add_row(hostel_table(view, lang))
    # side by side where the terminal is wide enough, the market and hostel below otherwise
    # (an 80-column terminal would cut the fresco's last column)
    top = Columns([fresco_table(view, lang), side], padding=(0, 2))
    legend = Text(_t("term.legend", lang), style="dim")
    parts: list[RenderableType] = [status_line(view, lang), top, legend, figures_table(view, lang), track_line(view, lang)]
    if "wall_fresco" in view:
        parts.append(wall_table(view, lang))
    for panel in (bells_panel(view, lang), medico_panel(view, lang), modules_panel(view, lang), extras_panel(view, lang)):
        if panel is not None:
            parts.append(panel)
    return Group(*parts)


def _secret_text(module: str, part: Any, seat: int, lang: str = "en") -> RenderableType:
    """What only ``seat`` sees of a module (a face-up view's ``secrets``), in words: its scrolls,
    its face-down bell certificates; any other module's part as plain text."""
    if module == "scrolls" and isinstance(part, Mapping) and isinstance(part.get("mine"), Mapping):
        return scrolls_text(part["mine"], lang)
    if module == "bells" and isinstance(part, Mapping) and seat < len(part.get("figures") or []):
        own = part["figures"][seat].get("face_down_certificates") or []
        out = Text(_t("term.face_down_own", lang, bells=sum(c["bells"] for c in own), n=len(own)) if own
                   else _t("term.no_face_down", lang))
        for i, c in enumerate(own):
            out.append(" (" if not i else ", ")
            out.append_text(_certificate(c, lang))
        return out.append(")") if own else out
    return Text(_short(part.get("mine", part) if isinstance(part, Mapping) else part))


def private_panel(view: Mapping[str, Any], seat: int, title: str | None = None, lang: str = "en") -> Panel:
    """Behind the seat's screens: paints, Thalers, plan."""
    f = view["figures"][seat]
    t = Table.grid(padding=(0, 2))
    t.add_column(style="bold")
    t.add_column()
    t.add_row(_t("screen.paints", lang), paints_text(f.get("paints"), empty=_t("screen.no_paints", lang)))
    t.add_row(_t("screen.thalers", lang), str(f.get("thalers", "?")))
    t.add_row(_t("screen.apprentices", lang), str(f.get("apprentices", "?")))
    plan = f.get("plan")
    if plan is not None:
        t.add_row(_t("screen.plan", lang), ", ".join(f"{column_label(view, i, lang)} {n}" for i, n in enumerate(plan)))
    if f.get("tiles"):
        t.add_row(_t("term.fresco_tiles", lang), " ".join(f.get("tiles")))
    secrets = view.get("secrets")  # a face-up view (Game.full_view): the module items only this seat sees
    if secrets and seat < len(secrets):
        for module, part in secrets[seat].items():
            t.add_row(_t(f"module.{module}", lang) if f"module.{module}" in catalog("en")
                      else module.replace("_", " ").capitalize(), _secret_text(module, part, seat, lang))
    title = title or _t("term.your_screen", lang, name=f["name"], seat=seat)
    return Panel(t, title=title, border_style="green", expand=False)


def event_lines(events: Iterable[Mapping[str, Any]], names: Sequence[str], lang: str = "en") -> list[str]:
    """The events as sentences (``affresco.i18n``: the catalogue the browser uses too)."""
    return [render_event(e, names, lang) for e in events]


def vp_sources_text(sources: Mapping[str, int], lang: str = "en") -> str:
    """A figure's VP by source (``view["vp_sources"]``), largest first: 'tile 50 + bishop 18'."""
    parts = sorted(((v, k) for k, v in sources.items() if v), key=lambda vk: -abs(vk[0]))
    return " + ".join(i18n_text(f"vp_source.{k}", lang, n=v) for v, k in parts) or "-"


def log_panel(lines: Sequence[str], title: str | None = None, lang: str = "en") -> Panel:
    title = title or _t("term.since", lang)
    body = Text("\n".join(lines) if lines else _t("term.nothing", lang), style="" if lines else "dim")
    return Panel(body, title=title, border_style="blue", expand=False)


def actions_panel(actions: Sequence[str], title: str | None = None,
                  notes: Mapping[str, str] | None = None, lang: str = "en") -> Panel:
    """Numbered actions (type the number or the notation: the same in every language); ``notes``:
    a word after an action (what a scoring choice would score)."""
    notes = notes or {}
    title = title or _t("term.legal", lang)
    items = [Text.assemble((f"{i:>2}. ", "bold cyan"), a, (f" {notes[a]}" if a in notes else "", "green"))
             for i, a in enumerate(actions, start=1)]
    return Panel(Columns(items, padding=(0, 3), equal=False, column_first=True), title=title,
                 border_style="cyan", expand=False)


def _words(template: str, bold: Mapping[str, str]) -> Text:
    """A filled catalogue text whose ``{name}`` parts (typed words: notation) are in bold."""
    out = Text()
    pos = 0
    for m in re.finditer(r"\{(\w+)\}", template):
        out.append(template[pos:m.start()])
        out.append(bold.get(m.group(1), m.group(0)), style="bold")
        pos = m.end()
    out.append(template[pos:])
    return out


def plan_panel(view: Mapping[str, Any], seat: int, examples: Sequence[tuple[str, str]], lang: str = "en") -> Panel:
    """How to enter a plan: the columns, the apprentices, a few numbered examples (the notation
    is the same in every language; the columns' names are the catalogue's)."""
    f = view["figures"][seat]
    cols = [column_label(view, i, lang) for i in range(len(view["columns"]))]
    if lang != "en":    # the typed word beside the name: 'ill' and 'wall' take the English word
        cols = [f"{c} ({view['columns'][i]})" if c != view["columns"][i] else c for i, c in enumerate(cols)]
    lines = _words(_t("term.plan_how", lang), {"cmd": "plan a-b-c-d-e"})
    lines.append("\n   " + ", ".join(f"{chr(97 + i)} = {c}" for i, c in enumerate(cols)) + "\n", style="bold")
    lines.append(_t("term.plan_have", lang, n=f.get("apprentices", "?")))
    if (view.get("bells") or {}).get("audience_usable"):
        lines.append("\n")
        lines.append_text(_words(_t("term.plan_audience", lang),
                                 {"cmd": "audience <column>", "example": "plan 1-1-0-0-1 audience studio"}))
    if "wall_fresco" in view:
        lines.append("\n")
        lines.append_text(_words(_t("term.plan_wall", lang),
                                 {"cmd": "wall <column>", "example": "plan 1-0-2-1-0 wall theater"}))
    mv = view.get("medico")
    if mv is not None:
        me = view["seat"] if view.get("seat") is not None else seat
        lines.append("\n")
        template = _t("term.plan_medico", lang, ill=mv["ill"][me], healthy=mv["healthy"][me])
        lines.append_text(_words(template, {"ill_cmd": "ill a-b-c-d-e", "medico_cmd": "medico"}))
    for i, (action, why) in enumerate(examples, start=1):
        lines.append(f"\n{i:>2}. ", style="bold cyan")
        lines.append(action)
        if why:
            lines.append(f"   {why}", style="dim")
    return Panel(lines, title=_t("term.planning", lang), border_style="cyan", expand=False)


def scores_table(view: Mapping[str, Any], ranking: Sequence[int], scores: Sequence[int], lang: str = "en") -> Table:
    t = Table(title=_t("term.ranking", lang), box=box.SIMPLE_HEAD, title_style="bold")
    t.add_column("#", justify="right")
    t.add_column(_t("term.name", lang))
    t.add_column(_t("final.vp", lang), justify="right")
    t.add_column(_t("term.fresco_tiles", lang), justify="right")
    t.add_column(_t("term.by_source", lang))
    sources = view.get("vp_sources") or [{} for _ in view["figures"]]
    fulfilled = (view.get("requests") or {}).get("fulfilled") or [[] for _ in view["figures"]]
    for place, fig in enumerate(ranking, start=1):
        f = view["figures"][fig]
        stacked = sum(len(d["tiles"]) for d in fulfilled[fig])   # restored too, now under requests
        tiles = str(len(f.get("tiles") or [])) + (" " + _t("term.under_requests", lang, n=stacked) if stacked else "")
        t.add_row(str(place), f["name"], str(scores[fig]), tiles,
                  vp_sources_text(sources[fig], lang), style="bold green" if place == 1 else "")
    return t


def screen(view: Mapping[str, Any], seat: int | None, log: Iterable[str] | None = None,
           lang: str = "en") -> Group:
    """The board, then the seat's own screen and the log (when given), in ``lang``."""
    view = named(view, lang)
    parts: list[RenderableType] = [board(view, lang)]
    if seat is not None:
        parts.append(private_panel(view, seat, lang=lang))
    if log is not None:
        parts.append(log_panel(list(log), lang=lang))
    return Group(*parts)
