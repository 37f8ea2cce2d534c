"""``python -m affresco``: the ``affresco`` command."""
from .cli import app

app()
