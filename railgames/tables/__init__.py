"""Tables: what a game screen plays against, wherever the game lives.

* ``table``     the ``Table`` protocol (everything a game screen reads and does),
                ``Change`` (what to redraw) and ``TurnIndex`` (stepping through a game).
* ``local``     ``Session``: a game in this process, its bots and its save file.
* ``remote``    ``RemoteSeat``: one seat at a host's table; ``RemoteHistory``, its past.
* ``recording`` ``Recording``: a record stepped forward and back, read-only.

Nothing here imports Textual.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from railgames.tables.local import Session
    from railgames.tables.recording import Recording
    from railgames.tables.remote import RemoteSeat
    from railgames.tables.table import Table

    def _every_kind_is_a_table(local: Session, remote: RemoteSeat,
                               recording: Recording) -> tuple[Table, Table, Table]:
        return local, remote, recording  # mypy holds each to the protocol
