"""Module 3, special blend colours (supplement 'Special blend colors'; Russian edition
'special colours'; R7, R16).

Set-up: the tile valued 24 in the centre; 7 base tiles removed at random; the other 6 new
tiles shuffled in with the remaining base tiles.  Workshop: P+R=K (pink), O+G=N (brown),
usable at once by the next blend.  Altar: K/N may replace O/G/P in the blend form (+3 per K,
+5 per N) and count as blended paints in the basic form (R7).  Option
``special_colours_on_fresco`` (Russian text, off by default): K and N may also replace O, G,
P shown on fresco tiles, each pink used +3 VP and each brown +5.
"""
from __future__ import annotations

from itertools import product
from typing import Any, NamedTuple

from ...errors import ComponentError, StateError
from .. import workshop
from ..actions import Action
from ..board import CENTRE
from ..components import FrescoTile
from ..hooks import Module, register
from ..paints import BLENDED, INDEX as PAINT, PAINTS, SPECIAL, canonical, covers, paint_vector
from ..components import check_provenance as provenance_ok
from ..serialize import whole
from ..state import State

OPTION = "special_colours_on_fresco"


class Data(NamedTuple):
    tiles: tuple[FrescoTile, ...]
    centre_value: int
    remove: int
    blends: dict[str, tuple[int, int]]
    altar_basic: dict[str, int]
    altar_blend: dict[str, int]
    fresco_bonus: dict[str, int]


# VP per pink (K) and brown (N) piece, at the altar and on the fresco: printed (supplement and
# Russian text; R7); a component file must give these (the checks in build_data)
PRINTED_VP = {"K": 3, "N": 5}


class SpecialColours(Module):
    name = "special_colours"
    view_reads = ()
    visit_columns = ("workshop",)   # blending pink and brown
    action_kinds = ("blend",)
    options = (OPTION,)

    @classmethod
    def build_data(cls, raw: dict) -> Data:
        provenance_ok(raw, "special_colours")
        tiles = []
        for i, t in enumerate(raw.get("tiles", [])):
            w = f"special_colours.tiles[{i}]"
            provenance_ok(t, w)
            vp, p = t.get("vp"), t.get("paints")
            if not isinstance(vp, int) or not 13 <= vp <= 24:
                raise ComponentError(f"component file: {w}.vp: {vp!r} must be 13..24")
            if not isinstance(p, str) or not p or any(c not in PAINTS for c in p):
                raise ComponentError(f"component file: {w}.paints: {p!r} must be paint letters")
            tiles.append(FrescoTile(vp, canonical(p), paint_vector(p), ""))
        if len(tiles) != 7 or sum(t.vp == 24 for t in tiles) != 1:
            raise ComponentError("component file: special_colours.tiles: 7 tiles valued 13-24, one of them 24")
        blends = {}
        for i, b in enumerate(raw.get("blending", [])):
            provenance_ok(b, f"special_colours.blending[{i}]")
            blends[b["output"]] = (PAINT[b["inputs"][0]], PAINT[b["inputs"][1]])
        if sorted(blends.get("K", ())) != sorted((PAINT["P"], PAINT["R"])) or \
                sorted(blends.get("N", ())) != sorted((PAINT["O"], PAINT["G"])):
            raise ComponentError("component file: special_colours.blending: P+R=K and O+G=N are printed")
        altar = raw.get("altar", {})
        provenance_ok(altar, "special_colours.altar")
        if altar.get("blend") != PRINTED_VP:
            raise ComponentError("component file: special_colours.altar.blend: the printed +3 per K, +5 per N")
        bonus = raw.get("fresco_substitute_bonus", PRINTED_VP)
        basic = altar.get("basic", PRINTED_VP)
        for where, table in (("altar.basic", basic), ("fresco_substitute_bonus", bonus)):
            if not (isinstance(table, dict)
                    and all(k in SPECIAL and whole(v) and v >= 0 for k, v in table.items() if k != "provenance")):
                raise ComponentError(f"component file: special_colours.{where}: {table!r}: VP per K and N "
                                     "(whole numbers >= 0)")
            if {k: v for k, v in table.items() if k != "provenance"} != PRINTED_VP:
                raise ComponentError(f"component file: special_colours.{where}: {table!r}: each pink +3, each brown "
                                     "+5 (printed: supplement and Russian text; R7)")
        centre, remove = raw.get("centre_value", 24), raw.get("remove_base_tiles", 7)
        if centre != 24 or not whole(centre):
            raise ComponentError(f"component file: special_colours.centre_value: {centre!r}: the printed 24 "
                                 "in the centre")
        if remove != len(tiles) or not whole(remove):
            raise ComponentError(f"component file: special_colours.remove_base_tiles: {remove!r}: as many base tiles "
                                 f"leave as special tiles come in ({len(tiles)}), so the fresco keeps 25")
        return Data(tuple(tiles), centre, remove, blends,
                    {k: v for k, v in basic.items() if k in SPECIAL}, dict(altar["blend"]),
                    {k: v for k, v in bonus.items() if k in SPECIAL})

    def setup(self, s: State, rng) -> None:
        base = [t for t in s.fresco if t is not None]
        for _ in range(self.data.remove):
            base.pop(rng.randrange(len(base)))
        centre = next(t for t in self.data.tiles if t.vp == self.data.centre_value)
        tiles = base + [t for t in self.data.tiles if t is not centre]
        rng.shuffle(tiles)
        s.fresco = tiles[:CENTRE] + [centre] + tiles[CENTRE:]

    def altar_values(self, s: State, basic: dict, blend: dict) -> None:
        basic.update(self.data.altar_basic)
        blend.update(self.data.altar_blend)

    def fresco_tiles(self) -> tuple:
        return self.data.tiles

    def action_space(self, space) -> None:
        """'blend K|N'; with the option, every restoration form paid 'using' a substitute text."""
        space.actions.extend(Action("blend", (o,)) for o in self.data.blends)
        if not self.opts.get(OPTION):
            return
        found: set[str] = set()
        for tile in space.fresco_tiles:
            choices = [(c, *SPECIAL) if c in BLENDED else (c,) for c in tile.paints]
            found.update({canonical("".join(c)) for c in product(*choices)} - {canonical(tile.paints)})
        texts = sorted(found, key=lambda t: (len(t), [PAINT[c] for c in t]))
        for a in space.restores():
            space.actions.extend(Action("restore", (*a.args, "using", t)) for t in texts)

    def visit_actions(self, s: State, fig: int, column: str, actions: list) -> None:
        if column == "workshop" and fig < s.n:
            have = s.paints[fig]
            for out, (a, b) in self.data.blends.items():
                if have[a] and have[b]:
                    actions.append(Action("blend", (out,)))

    def refusal(self, s: State, seat: int, action: Action) -> str | None:
        """Why 'blend K|N' is refused: the two paints it needs (the base blends' reasons are
        the engine's); an unknown blend names every blend, pink and brown too."""
        if action.kind != "blend" or not action.args:
            return None
        out = action.args[0]
        if out in self.data.blends:
            a, b = self.data.blends[out]
            return f"blending {out} needs {PAINTS[a]}+{PAINTS[b]}"
        if out not in s.comp.blends:
            return f"blends make {', '.join((*s.comp.blends, *self.data.blends))}"
        return None

    def idle_hooks(self) -> tuple[str, ...]:
        """Without the option the special colours never replace a paint shown on a fresco
        tile: no other payment, and so no restoration bonus."""
        return () if self.opts.get(OPTION) else ("payments", "restoration_vp")

    def payments(self, s: State, fig: int, tile, payments: list[str]) -> None:
        """Option: each O/G/P shown may be paid with K or N instead (Russian text)."""
        if not self.opts.get(OPTION) or fig >= s.n:
            return
        choices = [(c, *SPECIAL) if c in BLENDED else (c,) for c in tile.paints]
        have = s.paints[fig]
        known = {canonical(p) for p in payments} | {canonical(tile.paints)}
        for combo in product(*choices):
            text = canonical("".join(combo))
            if text not in known and covers(have, paint_vector(text)):
                known.add(text)
                payments.append(text)

    def restoration_vp(self, s: State, fig: int, segment: int, tile, paid: str | None, sources: dict) -> None:
        """Option: +3 per pink and +5 per brown paid in place of an O, G or P shown (a K or N
        the tile itself shows earns nothing extra)."""
        if paid is None:
            return
        extra = sum(bonus * max(0, paid.count(c) - tile.paints.count(c)) for c, bonus in self.data.fresco_bonus.items())
        if extra:
            sources["special_colours"] = extra

    def apply_action(self, s: State, fig: int, action: Action) -> bool:
        if action.kind == "blend" and action.args[0] in self.data.blends:
            workshop.blend(s, fig, action.args[0], self.data.blends[action.args[0]])
            return True
        return False

    def dump(self, s: State):
        return {}

    def load(self, s: State, data) -> None:
        """Nothing to read: the special tiles are on the fresco and the paints with the players
        (``modules_state.special_colours`` is ``{}`` or left out)."""
        if data not in (None, {}):
            raise StateError(f"saved state: modules_state.special_colours: {data!r}: the module keeps no "
                             "state of its own ({} or left out)")
        s.mods.pop(self.name, None)

    def view(self, s: State, seat, out) -> None:
        out["special_colours"] = {"on_fresco": bool(self.opts.get(OPTION)),
                                  "fresco_bonus": dict(self.data.fresco_bonus) if self.opts.get(OPTION) else {},
                                  "blends": {o: "+".join(PAINTS[i] for i in ab) for o, ab in self.data.blends.items()}}


register(SpecialColours)  # (a call, not a decorator: a decorated class cannot be a mypyc native class)


# --- the observation's numbers (encoding 3, rules/observation.py) -----------------------------
from ..observation import ModuleSlots, register_slots  # noqa: E402


class SpecialColoursSlots(ModuleSlots):
    """``on_fresco``: the option ``special_colours_on_fresco`` (1 on); ``fresco_bonus``: its VP
    per pink and per brown paint used for a fresco tile / 5 (zeros with the option off).  The
    blends (P+R=K, O+G=N) are the edition's, the same in every game: not in the vector."""

    name = "special_colours"

    def layout(self, module, n: int, figures: int) -> tuple:
        return ((("on_fresco", 1), ("fresco_bonus", len(SPECIAL))), ("hooks",), self._option_fact, self._option),

    def _option_fact(self, hooks: Any, seat: int) -> tuple:
        module = hooks.named[self.name]     # (its options: the game's)
        on = bool(module.opts.get(OPTION))
        return on, tuple(module.data.fresco_bonus.get(c, 0) if on else 0 for c in SPECIAL)

    def view_facts(self, part, seat: int) -> tuple:
        return ((bool(part["on_fresco"]), tuple(part["fresco_bonus"].get(c, 0) for c in SPECIAL)),)

    def _option(self, fact: tuple, seat: int, x, p: int) -> None:
        on, bonus = fact
        x[p] = 1.0 if on else 0.0
        for i, v in enumerate(bonus, p + 1):
            x[i] = v / 5


register_slots(SpecialColoursSlots)
