"""Layers exchange data, not prose (issue #11): the engine makes no English log lines any more,
no code reads log text (``view["log"]``, ``log_since``) or matches a regular expression or a
string prefix against it; bots, tournaments, the terminal, the server and the browser read
structured events."""
from __future__ import annotations

import ast
import json
import re
from pathlib import Path

import affresco

SRC = Path(affresco.__file__).parent
# English phrases of the former log lines: a pattern or prefix built on one of them parses prose
PHRASES = re.compile(r"scores \\?d|\bbuys\b|gets up at|moves the bishop|paints the portrait|request with|"
                     r"earns .*Thalers|receives .*Thalers|takes the bishop's favour|restores the altar|"
                     r"^round |stops (behind|ahead)|blends ")


def _python_files():
    for path in sorted(SRC.rglob("*.py")):
        rel = path.relative_to(SRC).as_posix()
        yield rel, ast.parse(path.read_text(encoding="utf-8"))


STATIC = SRC / "server" / "static"
CATALOGS = SRC / "i18n"


def test_nobody_reads_the_log_text_outside_the_engine():
    found = []
    for rel, tree in _python_files():
        for node in ast.walk(tree):
            if isinstance(node, ast.Subscript) and isinstance(node.slice, ast.Constant) and node.slice.value == "log":
                found.append(f"{rel}:{node.lineno} reads [\"log\"]")
            elif isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) and node.func.attr == "get" \
                    and node.args and isinstance(node.args[0], ast.Constant) and node.args[0].value == "log":
                found.append(f"{rel}:{node.lineno} reads .get(\"log\")")
            elif isinstance(node, ast.Attribute) and node.attr == "log_since":
                found.append(f"{rel}:{node.lineno} calls log_since")
    assert not found, found


def test_no_pattern_or_prefix_over_log_phrases_anywhere():
    found = []
    for rel, tree in _python_files():
        for node in ast.walk(tree):
            if isinstance(node, ast.Call):
                fn = node.func
                name = fn.attr if isinstance(fn, ast.Attribute) else getattr(fn, "id", "")
                if name in ("compile", "match", "search", "fullmatch", "startswith", "endswith") and node.args:
                    arg = node.args[0]
                    texts = [arg.value] if isinstance(arg, ast.Constant) and isinstance(arg.value, str) else \
                        [v.value for v in getattr(arg, "values", []) if isinstance(v, ast.Constant)
                         and isinstance(v.value, str)]
                    if any(PHRASES.search(t) for t in texts):
                        found.append(f"{rel}:{node.lineno} {name}({texts[0]!r})")
    for path in sorted(STATIC.rglob("*.js")):
        text = path.read_text(encoding="utf-8")
        for m in re.finditer(r"new RegExp\(", text):
            line = text[:m.start()].count("\n") + 1
            window = text[max(0, m.start() - 600):m.start() + 200]
            if '"log.' in window or "'log." in window or "log.*" in window:
                found.append(f"server/static/{path.name}:{line} builds a RegExp from log templates")
    assert not found, found


def test_the_engine_makes_no_log_lines():
    """No view, full view, message or API call carries English lines: events only."""
    g = affresco.new_game(["Anna", "Boris"], seed=3)
    while not g.is_over and g.round < 3:
        seat = g.to_act[0]
        g.apply(seat, g.legal_actions(seat)[0])
    assert not (SRC / "rules" / "legacy_log.py").exists()
    assert not hasattr(g, "log_since")
    for seat in (None, 0, 1):
        v = g.view(seat)
        assert "log" not in v and v["events"] == g.events(seat)
        assert "log" not in g.view(seat, log=False) and "events" not in g.view(seat, log=False)
    assert "log" not in g.full_view() and g.full_view()["events"]


def test_the_client_reads_events_only():
    """The browser neither reads a ``log`` field of the server's messages nor translates English
    lines; the catalogues hold no English-line templates (``log.*``, ``why.*``)."""
    found = []
    for path in sorted(STATIC.rglob("*.js")):
        text = path.read_text(encoding="utf-8")
        for m in re.finditer(r"\b(?:st|state|old|view|v|msg|m|data|d|r)\.log\b|log_total|\[\"log\"\]|translateLog|parseLog|parseWhy", text):
            if text[max(0, m.start() - 7):m.start()] == "console":
                continue
            found.append(f"server/static/{path.name}:{text[:m.start()].count(chr(10)) + 1} {m.group()}")
    for path in sorted(CATALOGS.glob("*.json")):
        keys = [k for k in json.loads(path.read_text(encoding="utf-8")) if k.startswith(("log.", "why."))]
        if keys:
            found.append(f"i18n/{path.name}: {keys[:3]}")
    assert not found, found
