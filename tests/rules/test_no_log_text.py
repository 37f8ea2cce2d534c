"""Layers exchange data, not prose (issue #11): no code outside the engine reads the log's text
(``view["log"]``, ``log_since``) or matches a regular expression or a string prefix against it;
bots, tournaments, the terminal and the server read structured events."""
from __future__ import annotations

import ast
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
        if rel == "rules/legacy_log.py":
            continue
        yield rel, ast.parse(path.read_text(encoding="utf-8"))


# Files of other branches still moving to events this session (h-server, h-web): each entry is
# removed as soon as its file is clean (the tests then keep it so).
PENDING = {"server/live.py", "server/static/i18n.js", "server/static/app.js"}


def test_nobody_reads_the_log_text_outside_the_engine():
    found = []
    for rel, tree in _python_files():
        if rel.startswith("rules/") or rel in PENDING:
            continue
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
    for path in sorted((SRC / "server" / "static").rglob("*.js")):
        if f"server/static/{path.name}" in PENDING:
            continue
        text = path.read_text(encoding="utf-8")
        for m in re.finditer(r"new RegExp\(", text):
            line = text[:m.start()].count("\n") + 1
            window = text[max(0, m.start() - 600):m.start() + 200]
            if '"log.' in window or "'log." in window or "log.*" in window:
                found.append(f"server/static/{path.name}:{line} builds a RegExp from log templates")
    assert not found, found
