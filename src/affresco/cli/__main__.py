"""``python -m affresco.cli``: the ``affresco`` command."""
from . import app

app()
