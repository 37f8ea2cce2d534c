"""Reading saved games and game records from files, and saving a game."""
from __future__ import annotations

import json
import os
import shlex
from pathlib import Path
from typing import Any, Sequence

from rich.console import Console
from rich.text import Text

from ..errors import FrescoError
from ..i18n import text as i18n_text
from ..rules import OLD_STATE_FORMATS, RECORD_FORMAT, STATE_FORMAT, Game, replay
from ..rules.game import RECORD_FORMATS, upgrade_record


def read_json(path: Path) -> dict[str, Any]:
    try:
        text = path.read_text(encoding="utf-8")
    except OSError as e:
        raise FrescoError(f"cannot read {path}: {e.strerror or e}") from None
    except UnicodeDecodeError as e:
        raise FrescoError(f"{path}: not UTF-8 text, so not a saved game or record ({e})") from None
    try:
        data = json.loads(text)
    except (ValueError, RecursionError) as e:   # RecursionError: too deeply nested
        if path.suffix.lower() == ".jsonl":   # a tournament's records, one game a line
            raise FrescoError(f"{path} holds one game record a line (a tournament's records): take one out "
                              f"with 'affresco report {path} --game K', then replay that file") from None
        raise FrescoError(f"{path}: not valid JSON ({e})") from None
    if not isinstance(data, dict):
        raise FrescoError(f"{path}: expected a saved game or a game record")
    return data


def load_game(path: Path) -> Game:
    """A saved game (``to_json``) or a game record (``record()``), as a game in progress."""
    data = read_json(path)
    fmt = data.get("format")
    if fmt in RECORD_FORMATS:
        return replay(data)
    if fmt == STATE_FORMAT or fmt in OLD_STATE_FORMATS:
        return Game.from_json(json.dumps(data))
    raise FrescoError(f"{path}: format {fmt!r} is neither {STATE_FORMAT!r} (saved game) nor {RECORD_FORMAT!r} (record)")


def load_record(path: Path) -> dict[str, Any]:
    """The game record of a record file or of a saved game (its history)."""
    data = read_json(path)
    fmt = data.get("format")
    if fmt in RECORD_FORMATS:
        record = upgrade_record(data)[0]  # an old record: forced passes made, up to a revised rule
        try:
            # a forced pass asked since the record was written (the wall visit, rules notes W2)
            # is made by the engine's replay; the replayer then steps through it as it is
            return replay(record).record()
        except FrescoError:
            return record
    if fmt == STATE_FORMAT or fmt in OLD_STATE_FORMATS:
        return Game.from_json(json.dumps(data)).record()
    raise FrescoError(f"{path}: format {fmt!r} is neither {STATE_FORMAT!r} (saved game) nor {RECORD_FORMAT!r} (record)")


def write_refusal(path: Path) -> str | None:
    """Why a file could not be written at ``path`` (a directory, a missing or read-only
    folder), checked before a game whose record goes there is played; None when it can be."""
    path = path.expanduser()
    if path.is_dir():
        return f"{path} is a folder: give a file name, e.g. {path / 'record.json'}"
    folder = path.parent
    if not folder.is_dir():
        return f"{path}: the folder {folder} does not exist"
    if not os.access(path if path.exists() else folder, os.W_OK):
        return f"{path}: not allowed to write {'it' if path.exists() else f'into {folder}'}"
    return None


def save_game(console: Console, game: Game, name: str, resume: Sequence[str] = (), lang: str = "en") -> bool:
    """Save ``game`` to ``name`` and say how to resume it: ``affresco play --load FILE`` and
    ``resume``, the options that keep the player's seat and bots (a saved game is the whole
    game: it does not know which seat was the person's)."""
    path = Path(name).expanduser()
    try:
        path.write_text(game.to_json(), encoding="utf-8")
    except OSError as e:
        console.print(Text(i18n_text("term.cannot_save", lang, file=str(path), error=e.strerror or str(e)), style="red"))
        return False
    command = shlex.join(["affresco", "play", "--load", str(path), *resume])
    console.print(i18n_text("term.saved", lang, file=str(path), command=command), markup=False, highlight=False)
    return True
