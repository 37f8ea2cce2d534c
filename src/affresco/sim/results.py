"""Tournament result files: the rows as CSV or Parquet, the game records as JSON lines beside
them (streamed while the tournament runs by :class:`ResultsWriter`), and reading them back."""
from __future__ import annotations

import contextlib
import csv
import json
import os
from pathlib import Path
from typing import Any, Callable, Iterable, Mapping, Sequence

from ..errors import ConfigError
from .interrupts import sigint_deferred

#: VP sources (``vp_<source>`` columns, in this order): the engine's source names
#: (docs/events.md; ``Game.vp_sources()``): the bells' certificates and instalments (``bells``),
#: their final scoring's threshold and rank points (``bells_track``, ``bells_rank``), the wall
#: fresco's sections (``wall``), the VP of the medico's 5 Thalers per healthy own apprentice
#: (``medico``, told apart from ``money``); ``position`` for points a loaded position already
#: had, and ``other`` for the sources of a module with no column here.  They add up to the score.
#: A table written before a column existed reads back with that column 0 (:func:`read_rows`).
SOURCES = ("tile", "bishop", "special_colours", "favour", "altar", "portrait", "request", "scroll",
           "bells", "bells_track", "bells_rank", "wall", "medico", "money", "track", "position", "other")
FIELDS = ("game", "seed", "players", "modules", "bot", "seat", "name", "getup", "score", "rank", "rounds",
          "thalers", *(f"vp_{s}" for s in SOURCES))
INT_FIELDS = ("game", "seed", "players", "seat", "score", "rank", "rounds", "thalers",
              *(f"vp_{s}" for s in SOURCES))
LEONARDO = "leonardo"


def records_path(path: str | Path) -> Path:
    """Where the game records of a results table go: the same name with ``.jsonl``."""
    return Path(path).with_suffix(".jsonl")


def _pyarrow():
    try:
        import pyarrow
        import pyarrow.parquet
    except ImportError:
        raise ConfigError("writing or reading .parquet needs pyarrow: pip install pyarrow "
                          "(or name a .csv file)") from None
    return pyarrow


def table_format(path: str | Path) -> str:
    """``"parquet"`` for a name ending in ``.parquet`` (needs pyarrow), ``"jsonl"`` for the
    records alone, else ``"csv"``."""
    suffix = Path(path).suffix.lower()
    if suffix in (".parquet", ".pq"):
        return "parquet"
    if suffix == ".jsonl":
        return "jsonl"
    return "csv"


def _check_table_path(path: Path) -> str:
    kind = table_format(path)
    if kind == "jsonl":
        raise ConfigError(f"{path}: name the results table .csv or .parquet; the game records go beside it "
                          f"as .jsonl")
    if kind == "parquet":
        _pyarrow()
    return kind


def _replace_atomically(path: Path, write: Callable[[Path], None]) -> None:
    tmp = path.with_name(f".{path.name}.{os.getpid()}.tmp")
    try:
        write(tmp)
        os.replace(tmp, path)
    finally:
        with contextlib.suppress(FileNotFoundError):
            tmp.unlink()


def _csv_value(v: Any) -> Any:
    return "" if v is None else v


def _write_csv(rows: Iterable[Mapping[str, Any]], path: Path) -> None:
    with path.open("w", newline="", encoding="utf-8") as f:
        writer = csv.DictWriter(f, fieldnames=FIELDS, extrasaction="ignore")
        writer.writeheader()
        for row in rows:
            writer.writerow({k: _csv_value(row.get(k)) for k in FIELDS})


def _write_parquet(rows: Sequence[Mapping[str, Any]], path: Path) -> None:
    pa = _pyarrow()
    schema = pa.schema([(k, pa.int64() if k in INT_FIELDS else pa.string()) for k in FIELDS])
    table = pa.Table.from_pylist([{k: (None if row.get(k) == "" and k in INT_FIELDS else row.get(k))
                                   for k in FIELDS} for row in rows], schema=schema)
    pa.parquet.write_table(table, path)


def _record_line(k: int, record: Mapping[str, Any]) -> str:
    info = dict(record.get("tournament") or {})
    info["game"] = k
    return json.dumps({**record, "tournament": info}, separators=(",", ":")) + "\n"


def write_results(rows: Sequence[Mapping[str, Any]], records: Mapping[int, dict] | Sequence[dict],
                  path: str | Path) -> tuple[Path, Path]:
    """Write the rows as a CSV (or Parquet, for a ``.parquet`` name) at ``path`` and the game
    records as JSON lines beside it (``records_path(path)``; each line is a game record, its
    ``"tournament"`` entry holding at least the game index).  Each file is replaced whole
    (written aside, then renamed).  Returns both paths."""
    path = Path(path)
    kind = _check_table_path(path)
    path.parent.mkdir(parents=True, exist_ok=True)
    items = sorted(records.items()) if isinstance(records, Mapping) else list(enumerate(records))
    jpath = records_path(path)
    with sigint_deferred():
        _replace_atomically(path, lambda p: (_write_parquet if kind == "parquet" else _write_csv)(rows, p))

        def write_jsonl(p: Path) -> None:
            with p.open("w", encoding="utf-8") as f:
                for k, record in items:
                    f.write(_record_line(k, record))
        _replace_atomically(jpath, write_jsonl)
    return path, jpath


class ResultsWriter:
    """Streams a tournament's results to disk as games finish: the game records (JSONL) and,
    for a CSV table, the rows, appended in finishing order and flushed after every game (so a
    crash or a kill keeps them); :meth:`close` then writes both files whole, sorted by game.
    A ``.parquet`` table is only written by :meth:`close` (its rows can be rebuilt from the
    records otherwise: :func:`rows_from_record`).

        with ResultsWriter("results.csv") as out:
            result = run_tournament(..., on_result=out.add)
            out.close(result)
    """

    def __init__(self, path: str | Path, resume: Mapping[int, Mapping[str, Any]] | None = None):
        """``resume``: the records already in the files (game index -> record, an interrupted
        run of the same tournament, ``run_tournament(done=...)``): the files are appended to."""
        self.path = Path(path)
        self.kind = _check_table_path(self.path)
        self.jsonl = records_path(self.path)
        self.path.parent.mkdir(parents=True, exist_ok=True)
        self._table = None
        self.count = len(resume or {})
        if resume:   # the same records, whole lines again (a last line cut short by a kill is dropped)
            _replace_atomically(self.jsonl, lambda p: p.write_text(
                "".join(_record_line(k, r) for k, r in sorted(resume.items())), encoding="utf-8"))
        self._records = self.jsonl.open("a" if resume else "w", encoding="utf-8")
        if self.kind == "csv":
            self._table = self.path.open("w", newline="", encoding="utf-8")
            self._csv = csv.DictWriter(self._table, fieldnames=FIELDS, extrasaction="ignore")
            self._csv.writeheader()
            if resume:
                from .games import rows_from_record
                self._write_rows(row for k, r in sorted(resume.items()) for row in rows_from_record(r, k))
            self._table.flush()

    def _write_rows(self, rows: Iterable[Mapping[str, Any]]) -> None:
        for row in rows:
            self._csv.writerow({key: _csv_value(row.get(key)) for key in FIELDS})

    def add(self, k: int, rows: Sequence[Mapping[str, Any]], record: Mapping[str, Any]) -> None:
        with sigint_deferred():
            self._records.write(_record_line(k, record))
            self._records.flush()
            if self._table is not None:
                self._write_rows(rows)
                self._table.flush()
            self.count += 1

    def _close_streams(self) -> None:
        for f in (self._records, self._table):
            if f is not None and not f.closed:
                f.close()

    def close(self, result: Sequence[Mapping[str, Any]] | None = None) -> tuple[Path, Path]:
        """Close the streams and, given the tournament's result (its rows, with ``records``),
        write both files sorted."""
        self._close_streams()
        if result is not None:
            return write_results(result, result.records, self.path)
        return self.path, self.jsonl

    def __enter__(self) -> "ResultsWriter":
        return self

    def __exit__(self, *exc) -> None:
        self._close_streams()


def read_rows(path: str | Path) -> list[dict[str, Any]]:
    """The rows of a results table: a CSV (the numeric columns as ints, empty ones None), a
    ``.parquet`` file, or a ``.jsonl`` of game records (rows rebuilt by replaying the games)."""
    path = Path(path)
    kind = table_format(path)
    if kind == "parquet":
        pa = _pyarrow()
        return _with_all_sources(pa.parquet.read_table(path).to_pylist())
    if kind == "jsonl":
        from .games import rows_from_record
        return [row for rec in read_records(path) for row in rows_from_record(rec)]
    with path.open(newline="", encoding="utf-8") as f:
        reader = csv.DictReader(f)
        if reader.fieldnames is None or not {"bot", "seat", "score", "rank"} <= set(reader.fieldnames):
            raise ValueError("not a results CSV (needs the columns bot, seat, score, rank)")
        rows = list(reader)
    for row in rows:
        for key in INT_FIELDS:
            if key in row:
                row[key] = int(row[key]) if row[key] not in (None, "") else None
    return _with_all_sources(rows)


def _with_all_sources(rows: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """A table written before a source had its column: that column is 0 in each row (none of
    its games had the module)."""
    for row in rows:
        for source in SOURCES:
            row.setdefault(f"vp_{source}", 0)
    return rows


def read_records(path: str | Path) -> list[dict]:
    """The game records of a JSONL file written by :func:`write_results` or a
    :class:`ResultsWriter` (a last line cut short by a kill is skipped)."""
    with Path(path).open(encoding="utf-8") as f:
        lines = [line for line in f if line.strip()]
    out = []
    for i, line in enumerate(lines):
        try:
            out.append(json.loads(line))
        except ValueError:
            if i == len(lines) - 1 and not line.endswith("\n"):
                break
            raise
    return out
