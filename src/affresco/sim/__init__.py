"""Tournaments (``sim/``: ``tournament``, ``backends``, ``games``, ``results``, ``report``): many bot games with rotated seats, on local processes or a Ray cluster, as rows
for analysis.

    >>> from affresco.sim import run_tournament, write_results
    >>> result = run_tournament(4, ["greedy", "random", "random", "random"], games=8, seed=1)
    >>> write_results(result, result.records, "results.csv")   # + results.jsonl (game records)

Game ``k`` of a tournament seats the bot list shifted by ``k`` (seat ``s`` plays
``bots[(s + k) % players]``) and is a pure function of ``(seed, k)``: its game seed is
:func:`game_seed` ``(seed, k)`` and the bot in seat ``s`` has the seed ``"<game seed>:<s>"``.
So a tournament gives the same rows whatever the number of workers or the backend (bots with
a time budget excepted: how far they search depends on the machine).

A bot is named by a spec: its name in :data:`affresco.bots.BOTS`, optionally with a time
budget in seconds per decision, ``"search:1.0"`` (passed as ``seconds=``), and ``key=value``
options where :func:`affresco.bots.make_bot` takes them (``"search:simulations=200"``); see
:func:`affresco.bots.parse_spec`.  The rows name each bot by its canonical spec (``parse_spec(spec).label``).

Backends: ``workers == 1`` plays in this process; ``workers > 1`` on that many local processes
(started with the ``spawn`` method, so a script that runs a tournament with ``workers > 1`` must
do so under ``if __name__ == "__main__":``, as usual with :mod:`multiprocessing`);
``ray="local"`` (a local Ray instance with ``workers`` CPUs) or ``ray=ADDRESS`` (an existing
cluster, e.g. ``"auto"`` or ``"ray://head:10001"``) plays on Ray, with ``workers`` games in
flight (by default one per CPU of the cluster).  Both backends run the same loop: games are
futures, at most ``2 * workers`` in flight, handed over as they finish; an interruption
cancels the rest and ends the workers.  Ray is an optional extra (``pip install 'affresco[ray]'``),
imported only when asked for; the cluster's nodes need affresco installed.

Each game gives one row per figure (in a 2-player game Leonardo has his own row, bot
``leonardo``) with its score, its rank (1 = winner, Leonardo counted), its get-up time in the
final round, its Thalers left at the end and its VP by source (:data:`SOURCES`), taken from
the engine (``Game.vp_sources()``, docs/events.md): the tile's printed value (``tile``), the
bishop bonus (``bishop``), pink/brown on a fresco tile (``special_colours``), the bishop's favour,
the altar, portraits, requests, scrolls, the bells (``bells``: certificates and instalments;
``bells_track``, ``bells_rank``: final bell scoring), the wall fresco (``wall``), the medico's
final credit of 5 Thalers per own apprentice (``medico``, its 1 VP per 2), the final 1 VP per 2
Thalers left (``money``), points a loaded position already had (``position``), any newer
module's (``other``) and what the
VP track added or took away beyond the points scored (``track``: stopping behind or ahead), so
that the sources always add up to the score.

Files: the rows go to a table (CSV, or Parquet when the name ends in ``.parquet`` and pyarrow
is installed) and every game's record to JSON lines beside it (``results.jsonl``): each line
is an ``affresco-record/2`` game record (``affresco replay`` takes one line as a file; ``affresco
report RESULTS --game K`` writes game K out) with a ``"tournament"`` entry (game index, the
tournament's seed, the bots by seat).  :class:`ResultsWriter` streams both files while the
tournament runs, so that finished games survive even a hard kill, then rewrites them sorted.
"""
from __future__ import annotations

from .backends import require_ray
from .games import game_seed, lineup, play_one, rows_from_record, vp_columns
from .results import (FIELDS, SOURCES, ResultsWriter, read_records, read_rows, records_path, table_format,
                      write_results)
from .tournament import TournamentResult, earlier_games, run_tournament

__all__ = ["SOURCES", "FIELDS", "TournamentResult", "ResultsWriter", "game_seed", "lineup", "play_one",
           "rows_from_record", "run_tournament", "vp_columns", "write_results", "read_rows", "read_records",
           "records_path", "table_format", "require_ray", "earlier_games"]
