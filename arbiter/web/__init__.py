"""The companion's web page: the live board, the players' controls and private pages, history.

Phones on the club's network look at the game the Pi referees (docs/web.md). The parts, each in
a module named for what it holds:

- ``hub``: where the session's thread drops what the page shows, never waiting on a page;
- ``snapshot``: a session as plain data (the public view, and each player's private view);
- ``svg``: a board and its position drawn as SVG from the board's geometry (any family);
- ``remote``: the page's buttons and secrets, carried into the session's thread;
- ``history``: the journals folder as a list of games, each replayed step by step;
- ``server``: the Starlette application and the thread uvicorn runs it in;
- ``qr``: the address as a QR code in the terminal.

Starlette, uvicorn and qrcode are the ``web`` extra (``pip install .[web]``): only ``server`` and
``qr`` import them, and only when a page is asked for, so the rest of arbiter never needs them.
"""
