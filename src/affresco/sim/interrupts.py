"""Ctrl-C held back while a tournament cleans up or writes a file."""
from __future__ import annotations

import contextlib
import signal
import threading


@contextlib.contextmanager
def sigint_deferred(reraise: bool = True):
    """Hold Ctrl-C back while cleaning up or writing a file (a Ctrl-C then must not leave
    workers running or a file half written); with ``reraise`` a Ctrl-C that came meanwhile is
    raised as KeyboardInterrupt at the end.  Only in the main thread (elsewhere a no-op)."""
    if (threading.current_thread() is not threading.main_thread()
            or signal.getsignal(signal.SIGINT) is not signal.default_int_handler):
        yield  # Ctrl-C is handled (or ignored) by someone else here
        return
    caught = []
    old = signal.signal(signal.SIGINT, lambda *_: caught.append(1))
    try:
        yield
    finally:
        signal.signal(signal.SIGINT, old)
    if caught and reraise:
        raise KeyboardInterrupt
