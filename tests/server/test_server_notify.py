"""E-mail notification (issue 13): with SMTP settings the server mails a seat that asked when
it becomes its turn while its page is closed, and everyone who asked when the game is over;
without settings it stores no address and sends nothing.  A real SMTP server (aiosmtpd) runs
on loopback."""
from __future__ import annotations

import os
import random
import sys
import time
from email import message_from_bytes

import pytest

from server_support import api_client, auth, free_port, need  # noqa: E402


class Inbox:
    def __init__(self):
        self.mails = []

    async def handle_DATA(self, server, session, envelope):
        self.mails.append((envelope.rcpt_tos, message_from_bytes(envelope.content)))
        return "250 OK"


@pytest.fixture
def smtp():
    try:
        from aiosmtpd.controller import Controller
    except ImportError:
        need("aiosmtpd (pip install aiosmtpd)")
    inbox = Inbox()
    ctl = Controller(inbox, hostname="127.0.0.1", port=free_port())
    ctl.start()
    try:
        yield ctl, inbox
    finally:
        ctl.stop()


def wait_for(pred, timeout=60.0):      # ends when pred holds: long only when the mail never comes
    end = time.monotonic() + timeout
    while not pred():
        assert time.monotonic() < end, "timed out"
        time.sleep(0.02)


def two_people(c):
    r = c.post("/api/games", json={"players": [{"name": "Anna"}, {"name": "Bea"}], "seed": 4})
    assert r.status_code == 201, r.text
    return r.json()


def play_one(c, token, rng):
    me = c.get("/api/me", headers=auth(token)).json()
    if not me["legal"]:
        return False
    r = c.post("/api/me/act", headers=auth(token), json={"action": rng.choice(me["legal"]), "version": me["version"]})
    assert r.status_code == 200, r.text
    return True


@pytest.mark.slow
def test_a_seat_that_asked_is_mailed_when_it_becomes_its_turn_and_when_the_game_ends(tmp_path, smtp):
    from affresco.server.notify import SmtpSettings
    ctl, inbox = smtp
    settings = SmtpSettings(host="127.0.0.1", port=ctl.port, sender="game@affresco.test",
                            public_url="https://play.example")
    with api_client(f"sqlite:///{tmp_path / 'g.db'}", smtp=settings) as c:
        g = two_people(c)
        anna, bea = (s["token"] for s in g["seats"])
        assert c.get("/api/me/notify", headers=auth(bea)).json() == {"enabled": True, "email": None}
        r = c.post("/api/me/notify", headers=auth(bea), json={"email": "not an address"})
        assert r.status_code == 400 and "e-mail" in r.json()["error"]["message"]
        for tok, mail in ((anna, "anna@example.org"), (bea, "bea@example.org")):
            r = c.post("/api/me/notify", headers=auth(tok), json={"email": mail})
            assert r.json() == {"enabled": True, "email": mail}
        # the addresses are private: nothing of them in any state
        assert "example.org" not in c.get(f"/api/games/{g['game_id']}").text
        assert "example.org" not in c.get("/api/me", headers=auth(anna)).text
        rng = random.Random(2)
        first = c.get("/api/me", headers=auth(anna)).json()
        mover, other, other_mail = (anna, bea, "bea@example.org") if first["legal"] else (bea, anna, "anna@example.org")
        assert play_one(c, mover, rng)                         # a get-up choice: now it is the other's turn
        wait_for(lambda: inbox.mails)
        rcpt, msg = inbox.mails[0]
        assert rcpt == [other_mail] and "your turn" in msg["Subject"]
        assert f"https://play.example/#/play/{other}" in msg.get_payload()
        assert len(inbox.mails) == 1
        # play the game out (random moves for both); the end mails both seats once
        for _ in range(5000):
            moved = play_one(c, anna, rng) | play_one(c, bea, rng)
            if not moved:
                break
        assert c.get(f"/api/games/{g['game_id']}").json()["is_over"]
        wait_for(lambda: sum("game over" in m["Subject"] for _, m in inbox.mails) == 2)
        over = [(rcpt, m) for rcpt, m in inbox.mails if "game over" in m["Subject"]]
        assert sorted(r[0] for r, _ in over) == ["anna@example.org", "bea@example.org"]
        body = over[0][1].get_payload()
        assert "1. " in body and " VP" in body and "wins" in over[0][1]["Subject"]
        # a seat that clears its address gets nothing more
        assert c.post("/api/me/notify", headers=auth(bea), json={"email": ""}).json()["email"] is None


def test_without_smtp_settings_nothing_is_stored_or_sent(tmp_path, smtp, monkeypatch):
    ctl, inbox = smtp
    monkeypatch.delenv("AFFRESCO_SMTP_HOST", raising=False)
    with api_client(f"sqlite:///{tmp_path / 'g.db'}") as c:
        g = two_people(c)
        anna, bea = (s["token"] for s in g["seats"])
        assert c.get("/api/me/notify", headers=auth(anna)).json() == {"enabled": False, "email": None}
        r = c.post("/api/me/notify", headers=auth(anna), json={"email": "anna@example.org"})
        assert r.status_code == 409 and r.json()["error"]["code"] == "not_enabled"
        rng = random.Random(3)
        for _ in range(40):
            play_one(c, anna, rng)
            play_one(c, bea, rng)
        assert c.app.state.notifier is None
    assert inbox.mails == []
