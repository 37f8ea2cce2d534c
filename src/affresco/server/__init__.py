"""``affresco serve``: play Fresco in the browser (FastAPI + uvicorn, SQLAlchemy storage).

    >>> from affresco.server import create_app
    >>> app = create_app("sqlite:///games.db")      # an ASGI app; uvicorn serves it
"""
from .app import create_app
from .service import GameService, ServiceError
from .store import Store

__all__ = ["create_app", "GameService", "ServiceError", "Store"]
