"""The server on the medico's plans (issue #12: bots wherever the game is played): a timed
bot decides in a worker process, so the seat's legal actions travel there.  A medico planning
decision offers up to ~110,000 plans; they travel as the lazy
:class:`affresco.rules.PlanVariants` (its parents and limits, a few kB, not every plan as
text to parse again) and the bot's answer is one of them."""
from __future__ import annotations

import asyncio
import pickle

from affresco import parse
from affresco.rules import PlanVariants
from affresco.server.bots import BotRunner
from affresco.server.store import SeatInfo

from positions import lazy_planning  # noqa: E402

ALL = ("portraits", "requests", "special_colours", "scrolls", "bishops_favour", "bells", "wall_fresco", "medico")


def test_a_timed_bot_in_a_worker_process_answers_a_medico_planning_decision_with_a_legal_plan():
    g, seat, legal = next((g, s, legal) for g, s, legal in lazy_planning(3, ALL, seed=4, rounds=6) if len(legal) > 2000)
    sent = pickle.dumps(legal)
    assert type(pickle.loads(sent)) is PlanVariants and pickle.loads(sent) == legal
    assert len(sent) < len(pickle.dumps([str(a) for a in legal])) / 2
    runner = BotRunner(processes=1)
    try:
        choice = asyncio.run(runner.decide(SeatInfo(seat, "Bot", "bot", "search", 0.1), "s:1",
                                           g.view(seat), legal, seat))
    finally:
        runner.close()
    assert parse(choice) in legal




def test_the_state_push_writes_a_medico_planning_decision_once():
    """The seat's state push lists its legal actions as text; the lazy plans of one situation
    are written once and the same list serves the pushes that follow."""
    from affresco.server.live import legal_texts

    g, seat, legal = next(lazy_planning(2, ("medico",), seed=5, rounds=9))
    texts = legal_texts(legal)
    assert texts == [str(a) for a in legal] and legal_texts(g.legal_actions(seat)) is texts
