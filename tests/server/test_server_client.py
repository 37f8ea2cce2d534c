"""The web client of ``affresco serve`` without a browser (issue 5): the static files are
shipped in the package and served by the app, the three catalogs agree with each other and
with the JavaScript that uses them; the game log is rendered from the engine's events
(``event.*`` keys, tests/rules/test_events.py), never from English lines.

Browser tests of the same client: tests/server/test_server_browser.py.
"""
from __future__ import annotations

import json
import re
import tomllib
from functools import lru_cache
from importlib import resources
from pathlib import Path

import pytest

import affresco

from server_support import api_client, sqlite_url  # noqa: E402,F401

STATIC = resources.files("affresco.server") / "static"
CATALOGS = resources.files("affresco.i18n")
LANGS = ("en", "fr", "ru")
DATA = resources.files("affresco.rules") / "data"


def static_text(name: str) -> str:
    return (STATIC / name).read_text(encoding="utf-8")


def js_files() -> list[str]:
    return sorted(p.name for p in STATIC.iterdir() if p.name.endswith(".js"))


def _no_duplicates(pairs):
    keys = [k for k, _ in pairs]
    dup = sorted({k for k in keys if keys.count(k) > 1})
    assert not dup, f"duplicate keys in a catalog: {dup}"
    return dict(pairs)


@lru_cache(maxsize=None)
def catalog(lang: str) -> dict[str, str]:
    data = json.loads((CATALOGS / f"{lang}.json").read_text(encoding="utf-8"),
                      object_pairs_hook=_no_duplicates)
    assert isinstance(data, dict)
    return data


# ----------------------------------------------------------------------- shipped and served
def test_static_files_are_in_the_package():
    assert STATIC.is_dir()
    for name in ("index.html", "app.js", "api.js", "board.js", "i18n.js", "ui.js", "words.js", "style.css"):
        assert (STATIC / name).is_file(), name
        assert (STATIC / name).read_text(encoding="utf-8").strip(), f"{name} is empty"
    for lang in LANGS:
        assert (CATALOGS / f"{lang}.json").is_file(), lang
    # the package data patterns of pyproject.toml ship them in a wheel
    pyproject = Path(__file__).resolve().parents[2] / "pyproject.toml"
    if pyproject.is_file():
        package_data = tomllib.loads(pyproject.read_text())["tool"]["setuptools"]["package-data"]["affresco"]
        assert "server/static/*" in package_data and "server/static/**/*" in package_data


def test_static_files_are_served(sqlite_url):  # noqa: F811
    with api_client(sqlite_url) as c:
        r = c.get("/")
        assert r.status_code == 200
        assert r.headers["content-type"].startswith("text/html")
        assert r.text == static_text("index.html")
        for name in js_files():
            r = c.get(f"/static/{name}")
            assert r.status_code == 200, name
            assert "javascript" in r.headers["content-type"], (name, r.headers["content-type"])
            assert r.text == static_text(name)
        r = c.get("/static/style.css")
        assert r.status_code == 200 and r.headers["content-type"].startswith("text/css")
        for lang in LANGS:
            r = c.get(f"/static/i18n/{lang}.json")
            assert r.status_code == 200
            assert r.json() == catalog(lang)
        assert c.get("/static/nothing.js").status_code == 404
        assert c.get("/static/../app.py").status_code == 404
        meta = c.get("/api/meta").json()
        assert meta["languages"] == list(LANGS)


def test_every_module_import_resolves():
    """Each ES module imports only files that exist, and only names they export."""
    exports: dict[str, set[str]] = {}
    for name in js_files():
        text = static_text(name)
        exports[name] = set(re.findall(r"export\s+(?:async\s+)?(?:function|const|let|class)\s+(\w+)", text))
    for name in js_files():
        text = static_text(name)
        for names, path in re.findall(r"import\s*\{([^}]*)\}\s*from\s*\"\./([\w.]+)\"", text):
            assert path in exports, f"{name} imports a missing file {path}"
            for n in names.replace("\n", " ").split(","):
                n = n.strip()
                if n:
                    assert n in exports[path], f"{name} imports {n!r}, which {path} does not export"
        for path in re.findall(r"import\s+\*\s+as\s+\w+\s+from\s+\"\./([\w.]+)\"", text):
            assert path in exports, f"{name} imports a missing file {path}"


# -------------------------------------------------------------------------- local assets only
URL = re.compile(r"https?://[^\s\"'<>)`]+")
XMLNS = re.compile(r"xmlns=[\"']$")     # an XML namespace name is an identifier, not a download


def _strip_block_comments(text: str, open_: str, close: str) -> str:
    """Blank out comments, keeping line numbers and positions."""
    out, i = [], 0
    while True:
        j = text.find(open_, i)
        if j < 0:
            out.append(text[i:])
            return "".join(out)
        k = text.find(close, j + len(open_))
        k = len(text) if k < 0 else k + len(close)
        out.append(text[i:j])
        out.append(re.sub(r"[^\n]", " ", text[j:k]))
        i = k


def _code_urls(name: str, text: str) -> list[str]:
    if name.endswith(".html"):
        text = _strip_block_comments(text, "<!--", "-->")
    elif name.endswith((".js", ".css")):
        text = _strip_block_comments(text, "/*", "*/")
    found = []
    for line in text.splitlines():
        if name.endswith(".js"):
            m = re.search(r"(?<![:\\])//", line)        # a line comment (not the // of a URL)
            if m and not URL.search(line[:m.start() + 2]):
                line = line[:m.start()]
        for u in URL.finditer(line):
            if XMLNS.search(line[:u.start()]):
                continue
            found.append(u.group())
    return found


def test_no_remote_urls_in_static_files():
    for path in sorted(_all_static()):
        rel = path.relative_to(Path(str(STATIC)))
        text = path.read_text(encoding="utf-8")
        assert _code_urls(path.name, text) == [], f"{rel} refers to a remote address"


def _all_static() -> list[Path]:
    root = Path(str(STATIC))
    return [p for p in root.rglob("*") if p.is_file() and p.suffix in (".html", ".js", ".css", ".json")]


def test_index_html_loads_only_local_assets():
    html = static_text("index.html")
    refs = re.findall(r"\b(?:src|href)\s*=\s*\"([^\"]*)\"", html)
    assert refs, "index.html loads nothing?"
    root = Path(str(STATIC))
    for ref in refs:
        if ref.startswith("data:"):
            continue
        assert ref.startswith("/static/"), f"index.html loads {ref!r} from elsewhere"
        assert (root / ref[len("/static/"):]).is_file(), f"index.html loads a missing file {ref}"
    assert '<script type="module" src="/static/app.js">' in html
    # the client talks only to its own server: relative fetches, a WebSocket on this host
    js = {name: static_text(name) for name in js_files()}
    fetches = [(n, arg.strip()) for n, text in js.items() for arg in re.findall(r"fetch\(\s*([^,)]*)", text)]
    assert fetches
    for name, arg in fetches:
        assert "//" not in arg and "http" not in arg, (name, arg)
    for path in re.findall(r"api\(\s*\"[A-Z]+\",\s*[`\"]([^`\"]*)", js["api.js"]):
        assert path.startswith("/api/"), path
    sockets = [m for text in js.values() for m in re.findall(r"new WebSocket\(([^)]*)\)", text)]
    assert sockets == ["`${proto}://${location.host}/ws`"], sockets


def test_the_control_url_test_catches_remote_urls():
    """The URL check itself: a remote script is caught, a comment or a namespace is not."""
    assert _code_urls("x.js", 'import x from "https://cdn.example/x.js";') == ["https://cdn.example/x.js"]
    assert _code_urls("x.js", "// see https://example.org/docs") == []
    assert _code_urls("x.js", "/* https://example.org */ const a = 1;") == []
    assert _code_urls("x.js", 'const s = `<svg xmlns="http://www.w3.org/2000/svg">`;') == []
    assert _code_urls("x.html", '<!-- https://x.org --><script src="https://x.org/a.js"></script>') == [
        "https://x.org/a.js"]
    assert _code_urls("x.css", "@import url(https://fonts.example/f.css);") == ["https://fonts.example/f.css"]


# ------------------------------------------------------------------------------ catalogs
PLACEHOLDER = re.compile(r"\{(\w+)((?:\|[a-z]+:[^|}]*)+)?\}")    # i18n.js fill()


def placeholders(template: str) -> set[str]:
    return {m.group(1) for m in PLACEHOLDER.finditer(template)}


def test_catalogs_have_the_same_keys():
    en = set(catalog("en"))
    for lang in ("fr", "ru"):
        keys = set(catalog(lang))
        assert keys == en, f"{lang}: missing {sorted(en - keys)}, extra {sorted(keys - en)}"


def test_catalogs_have_the_same_placeholders_per_key():
    bad = []
    for key, en in catalog("en").items():
        for lang in ("fr", "ru"):
            if placeholders(catalog(lang)[key]) != placeholders(en):
                bad.append((lang, key, sorted(placeholders(en)), sorted(placeholders(catalog(lang)[key]))))
    assert not bad, bad


def test_catalog_values_are_non_empty_strings():
    for lang in LANGS:
        for key, value in catalog(lang).items():
            assert isinstance(value, str), (lang, key)
            assert value.strip(), f"{lang}: {key} is empty"
            assert re.fullmatch(r"[a-z_]+(\.[A-Za-z0-9_]+)*", key), (lang, key)


def test_plural_forms_are_well_formed():
    """{n|one:...|other:...}: every plural word has an 'other' form and only CLDR categories."""
    cats = {"zero", "one", "two", "few", "many", "other"}
    for lang in LANGS:
        for key, value in catalog(lang).items():
            for m in PLACEHOLDER.finditer(value):
                if not m.group(2):
                    continue
                forms = dict(f.split(":", 1) for f in m.group(2)[1:].split("|"))
                assert "other" in forms and set(forms) <= cats, (lang, key, value)
            # no stray braces: every { opens a placeholder the client fills
            rest = PLACEHOLDER.sub("", value)
            assert "{" not in rest and "}" not in rest, (lang, key, value)
    # Russian plurals need one/few/many where English has one/other
    for key, value in catalog("ru").items():
        for m in PLACEHOLDER.finditer(value):
            if m.group(2):
                forms = dict(f.split(":", 1) for f in m.group(2)[1:].split("|"))
                assert {"one", "few", "many"} <= set(forms), (key, value)


def test_translations_are_translated():
    """French and Russian are not English left in place (except names and short codes)."""
    same = {lang: [k for k, v in catalog(lang).items() if v == catalog("en")[k]] for lang in ("fr", "ru")}
    for lang, keys in same.items():
        # names of languages, the title, and tiny strings (units, letters) may coincide
        odd = [k for k in keys if not k.startswith("lang.") and k != "app.title" and len(catalog("en")[k]) > 6]
        assert len(odd) <= 12, f"{lang}: {len(odd)} values identical to English: {odd}"
    ru = catalog("ru")
    cyrillic = sum(bool(re.search(r"[а-яА-ЯёЁ]", v)) for v in ru.values())
    assert cyrillic > 0.8 * len(ru)


def _call_args(text: str, fn: str) -> list[str]:
    """The first argument's source text of every call ``fn(`` (not ``.fn(`` or ``xfn(``)."""
    out = []
    for m in re.finditer(rf"(?<![\w.$]){fn}\(", text):
        i, depth, start = m.end(), 0, m.end()
        quote = None
        while i < len(text):
            c = text[i]
            if quote:
                if c == "\\":
                    i += 1
                elif c == quote:
                    quote = None
            elif c in "\"'`":
                quote = c
            elif c in "([{":
                depth += 1
            elif c in ")]}":
                if depth == 0:
                    break
                depth -= 1
            elif c == "," and depth == 0:
                break
            i += 1
        out.append(text[start:i].strip())
    return out


STRING = re.compile(r"\"((?:[^\"\\]|\\.)*)\"|'((?:[^'\\]|\\.)*)'|`([^`]*)`")


def _keys_used() -> tuple[set[str], set[str]]:
    """(literal keys, static prefixes of template keys) passed to t/tOr/has in the client."""
    literal, prefixes = set(), set()
    for name in js_files():
        text = _strip_block_comments(static_text(name), "/*", "*/")
        for fn in ("t", "tOr", "has"):
            for arg in _call_args(text, fn):
                for m in STRING.finditer(arg):
                    s = next(g for g in m.groups() if g is not None)
                    if m.group(3) is not None and "${" in s:
                        prefixes.add(s.split("${", 1)[0])
                    elif re.fullmatch(r"[a-z_]+\.[\w.]+", s):
                        literal.add(s)
    return literal, prefixes


def test_every_key_used_in_the_js_exists():
    literal, prefixes = _keys_used()
    assert len(literal) > 150, f"found only {len(literal)} keys: is the scan broken?"
    en = catalog("en")
    missing = sorted(k for k in literal if k not in en)
    assert not missing, f"keys used by the client but missing from en.json: {missing}"
    for p in prefixes:
        assert p and any(k.startswith(p) for k in en), f"no catalog key starts with {p!r}"


def test_key_scan_sees_ternaries_and_templates():
    assert _call_args('x(t(r.timer ? "replay.pause" : "replay.play"))', "t") == [
        'r.timer ? "replay.pause" : "replay.play"']
    assert _call_args("a.t(1); fit(2); t(`col.${c}`, {n: f(1, 2)})", "t") == ["`col.${c}`"]
    literal, _ = _keys_used()
    assert {"replay.pause", "replay.play", "status.round", "plan.confirm"} <= literal


def _terminal_keys_used() -> tuple[set[str], set[str]]:
    """(keys, prefixes) named in the terminal client's sources (src/affresco/cli: ``"term.hint"``,
    ``f"term.mod.{key}"``), which renders with the same catalogues."""
    src = "\n".join(p.read_text(encoding="utf-8") for p in (Path(affresco.__file__).parent / "cli").glob("*.py"))
    literal = set(re.findall(r"[\"']([a-z_]+\.[\w.]*\w)[\"']", src))
    prefixes = set(re.findall(r"f[\"']([a-z_]+\.[\w.]*)\{", src))
    return literal, prefixes


def test_catalog_keys_are_used():
    """Keys that no code can reach are dead text for translators (the browser's or the terminal's)."""
    literal, prefixes = _keys_used()
    term_literal, term_prefixes = _terminal_keys_used()
    literal, prefixes = literal | term_literal, prefixes | term_prefixes
    js = "\n".join(static_text(n) for n in js_files())
    built = set(re.findall(r"`([a-z_]+\.[a-z_]*)\$\{", js))
    unused = []
    for key in catalog("en"):
        if key in literal or any(key.startswith(p) for p in prefixes) or key.split(".")[0] in ("event", "vp_source"):
            continue  # rendered from events (affresco.i18n, events.js, docs/events.md)
        if f'"{key}"' in js:
            continue
        if any(key.startswith(p) for p in built):      # const key = `error.${code}`; has(key)
            continue
        unused.append(key)
    assert len(unused) <= 3, f"catalog keys no code uses: {unused}"


def _toml(name: str) -> dict:
    return tomllib.loads((DATA / name).read_text(encoding="utf-8"))


def test_dynamic_key_families_cover_the_engine_and_the_server(sqlite_url):  # noqa: F811
    """Keys built at run time (t(`phase.${...}`), tOr(`module.${...}`)...) exist for every
    value the engine or the server can produce: the fallbacks would show raw English."""
    en = catalog("en")
    g = affresco.new_game(players=3, modules=list(affresco.MODULES), seed=1)
    v = g.view(0)
    need = set()
    need |= {f"phase.{p}" for p in ("getup", "plan", "visits", "over")}
    need |= {f"col.{c}" for c in v["columns"]}
    need |= {f"paint.{p}" for p in "RYBOGPKN"}
    need |= {f"conn.{s}" for s in ("connecting", "connected", "disconnected")}
    need |= {f"lang.{lang}" for lang in LANGS}
    need |= {f"act.scroll_{w}" for w in ("none", "row", "column", "both")}
    need |= {f"module.{m}" for m in affresco.MODULES}
    need |= {f"request.{s['type']}" for s in _toml("requests.toml")["stacks"]}
    need |= {f"favour.{t['effect']}" for t in _toml("bishops_favour.toml")["tokens"]}
    cards = _toml("portraits.toml")["cards"]
    need |= {f"card.{re.sub(r'-[a-z]$', '', c['id'])}" for c in cards}
    effects = {k for c in cards for k in c if k not in ("id", "name", "deck", "kind", "provenance")}
    need |= {f"eff.{e}" for e in effects}
    need |= {f"source.{s}" for s in ("fresco", "altar", "thalers", "favour", "portraits", "requests", "scrolls",
                                      "other")}
    need |= {f"error.{c}" for c in ("stale", "illegal", "bad_token", "no_undo", "not_over", "network")}
    with api_client(sqlite_url) as c:
        meta = c.get("/api/meta").json()
    need |= {f"bot.{b['name']}" for b in meta["bots"]}
    need |= {f"option.{o['name']}" for o in meta["options"]}
    need |= {f"module.{m['name']}" for m in meta["modules"]}
    missing = sorted(need - set(en))
    assert not missing, missing
    # the English card names are the engine's, so a revealed card's name finds its key
    names = {v: k for k, v in en.items() if k.startswith("card.")}
    for card in cards:
        assert names.get(card["name"]) == f"card.{re.sub(r'-[a-z]$', '', card['id'])}", card["name"]


def test_every_refusal_of_the_server_has_its_words():
    """Every error code the server can answer (``ServiceError("code", ...)``) has its words in
    each language: 'abandoned', 'busy', 'broken_game' and 'not_enabled' had none, so a French or
    Russian page showed the server's English."""
    server = Path(affresco.__file__).parent / "server"
    codes = {c for f in server.glob("*.py") for c in re.findall(r'ServiceError\(\s*"([a-z_]+)"', f.read_text())}
    assert {"stale", "abandoned", "busy"} <= codes
    keys = {"error.no_game" if c == "not_found" else f"error.{c}" for c in codes}   # errorText's one renaming
    for lang in ("en", "fr", "ru"):
        missing = sorted(keys - set(catalog(lang)))
        assert not missing, (lang, missing)
        assert catalog(lang)["status.abandoned"]     # (the page's status: test_server_browser.py)


@pytest.mark.parametrize("lang,word,wrong", [("fr", "assistant", r"\bapprentie?s?\b"), ("ru", "подмастерь", r"ученик|ученика|учеников"),
                                             ("fr", "atelier de peintre", r"atelier de (peinture|portrait)"),
                                             ("fr", "échelle des points", r"\bpiste\b(?! des cloches| de décompte des cloches)"),
                                             ("ru", "дорожк", r"\bтрек"),
                                             ("fr", "tableau d'action", r"feuille d'actions?"),
                                             ("ru", "планшет", r"\bлист(а|е|ом)? действий")])
def test_the_apprentice_has_its_rulebook_name_in_every_text(lang, word, wrong):
    """The pieces and places keep the word of the edition's rulebook (issue 5: game words from
    the French and Russian rulebooks): the French base rules say 'assistant' and 'atelier de
    peintre' (the studio), the Russian 'подмастерье'; the VP track is the French 'échelle des
    points' and the Russian 'дорожка победных очков', the action sheet the French 'tableau
    d'action' and the Russian 'планшет действий' (session 9 audit: VP sources, the tie-break and
    the help said 'piste', 'трек', 'feuille d'actions', 'лист действий'); the catalogue and the
    help never call them anything else."""
    texts = list(catalog(lang).values()) + [json.dumps(json.loads(static_text(f"help/{lang}.json")), ensure_ascii=False)]
    assert any(word in t.lower() for t in texts)
    odd = [t for t in texts if re.search(wrong, t, re.IGNORECASE)]
    assert not odd, odd[:5]


@pytest.mark.parametrize("lang,event,n,want", [
    ("ru", {"kind": "score", "figure": 0, "vp": 1, "sources": {"bells": 1}, "for": "bells_instalment"}, "thalers",
     {2: "2 талера", 5: "5 талеров", 21: "21 талер", 24: "24 талера"}),
    ("ru", {"kind": "bells_leonardo", "figure": 0}, "certificates", {4: "4 сертификата", 5: "5 сертификатов"}),
    ("ru", {"kind": "medico_credit", "figure": 0, "apprentices": 5}, "amount", {5: "5 талеров", 22: "22 талера"}),
    ("fr", {"kind": "bells_deposit", "figure": 0, "certificate": "7:7:5", "thalers": 1}, "paid", {1: "(1 payé)", 3: "(3 payés)"}),
])
def test_numbers_take_their_plural_form(lang, event, n, want):
    """Nouns after a number take the form of that number (1 талер, 2 талера, 5 талеров; 1 payé,
    3 payés): the bells' instalments, deposits and Leonardo's certificates and the medico's
    credit once said '2 талеров' and '1 payés'."""
    from affresco.i18n import render_event
    for k, words in want.items():
        text = render_event({**event, n: k}, ["Anna"], lang)
        assert words in text, (k, text)


# events whose fields hold an engine word (a column, a request type, a scroll)
WORDED_EVENTS = [{"kind": "audience", "figure": 0, "column": "cathedral2"},
                 {"kind": "audience_planned", "figure": 0, "column": "market"},
                 {"kind": "score", "figure": 0, "vp": 12, "sources": {"scroll": 12}, "for": "scroll", "scroll": "both",
                  "segment": "C3"},
                 {"kind": "score", "figure": 0, "vp": 6, "sources": {"request": 6}, "for": "request",
                  "request": "general", "tiles": ["3:YY"]}]
ENGINE_WORDS = re.compile(r"\b(market|cathedral2?|general|both|row)\b")


@pytest.mark.parametrize("lang", ["fr", "ru"])
def test_engine_words_in_events_are_translated(lang):
    """An audience's column, a request's type and the scrolls played are told in the page's
    language ('Рынок', not 'market'), by the terminal's renderer as by the browser's."""
    from affresco.i18n import render_event
    c = catalog(lang)
    texts = [render_event(e, ["Anna"], lang) for e in WORDED_EVENTS]
    assert not [x for x in texts if ENGINE_WORDS.search(x)], texts
    assert c["col.market"] in texts[1] and c["request.general"] in texts[3] and c["scroll.both"] in texts[2]


@pytest.mark.parametrize("lang,action_tile", [("en", "action tile"), ("fr", "tuile action"), ("ru", "плитка действия")])
def test_the_wall_fresco_action_tile_is_never_called_a_wall_tile(lang, action_tile):
    """Module 9 names two things: the 'wall fresco' action tile (placed on a column of the plan)
    and the 18 wall fresco tiles (restored sections). The wall panel said 'no wall tile · wall
    tile: Studio' (session 8 audit, left alone; session 9 fixed): the action tile's texts say
    'action tile', the restored tiles' texts never do."""
    cat = catalog(lang)
    assert all(action_tile in cat[k].lower() for k in ("wall.tile_at", "plan.tile_wall_title"))
    assert all(action_tile not in cat[k].lower() for k in ("wall.tiles", "wall.no_tiles"))


@pytest.mark.parametrize("lang", ["en", "fr", "ru"])
def test_the_portraits_revealed_are_told_apart(lang):
    """Portrait names are words ("Pretty girl", "God's servant"): the revealed cards were joined
    with spaces, 'portraits revealed: Pretty girl God's servant Virgin Mary', where the log
    before the structured events put commas.  A comma stands between two cards."""
    from affresco.i18n import render_event
    c = catalog(lang)
    text = render_event({"kind": "portraits_revealed", "cards": ["girl-a", "servant-b", "mary-c"]}, ["Anna"], lang)
    assert f"{c['card.girl']}, {c['card.servant']}, {c['card.mary']}" in text, text


@pytest.mark.parametrize("lang", ["en", "fr", "ru"])
def test_a_figure_without_face_down_bells_is_told_so(lang):
    """The bells' final scoring: a figure with no face-down certificate (only partly paid ones,
    or none) 'reveals' nothing, and the log read 'Anna reveals : space 0 of the bell track'."""
    from affresco.i18n import render_event
    event = {"kind": "bells_placed", "figure": 0, "space": 0, "face_down": [], "partly_paid": [["4:4:3", 1]]}
    text = render_event(event, ["Anna"], lang)
    assert text == catalog(lang)["event.bells_placed.none"].replace("{who}", "Anna").replace("{space}", "0"), text
    shown = render_event({**event, "face_down": ["7:7:5"]}, ["Anna"], lang)
    assert "7:7:5" in shown
