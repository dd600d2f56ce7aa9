"""The web side: the FastAPI app and its websocket session, the HTTP API, security headers and
origin checks."""
