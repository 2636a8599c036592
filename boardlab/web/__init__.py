"""The web app behind ``boardlab serve``: an ASGI app, its store, match sessions and bot workers.

Needs the ``web`` extra (``pip install -e '.[web]'``). The HTTP and websocket contract with the
front end (``static/``) is ``docs/web-api.md``.
"""
