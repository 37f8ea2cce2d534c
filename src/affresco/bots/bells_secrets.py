"""Determinization of the bells' secrets (module 8, R22) from one seat's view only.

Hidden from the seat: the other figures' face-down certificates (Leonardo's too) and the
stack.  Known: the edition's certificates, the display, every partly paid certificate, the
seat's own face-down ones, and how many face-down certificates each figure holds.  The
unseen certificates are dealt at random: each other figure gets as many as it holds face
down, the rest make the stack (never-revealed ones: no order; the unsold ones put under the
stack are not told apart, as the view does not name them).
"""
from __future__ import annotations

import random
from typing import Any, Mapping

from .model import module

__all__ = ["sample_bells"]


def sample_bells(view: Mapping[str, Any], seat: int, rng: random.Random) -> dict[str, Any]:
    """The bells' saved state (docs/state-format.md) of a game consistent with ``view``."""
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
