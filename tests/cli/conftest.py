"""The terminal's tests read English unless a test names a language: ``affresco play`` takes
its language from ``AFFRESCO_LANG`` or the locale when ``--lang`` is not given."""
import pytest


@pytest.fixture(autouse=True)
def _english_terminal(monkeypatch):
    monkeypatch.setenv("AFFRESCO_LANG", "en")
