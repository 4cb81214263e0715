"""The web game: ``hearts serve`` (:mod:`.server`), tables and bots (:mod:`.hub`,
:mod:`.table`, :mod:`.handlers`),
storage in SQLite or PostgreSQL (:mod:`.storage`), and the page (``static/``).

The protocol between page and server is described in ``docs/web-protocol.md``.
"""
