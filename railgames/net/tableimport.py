"""Tables kept as files by earlier versions, brought into the host's database.

Before the tables lived in a database, a host kept each in its data directory's
``tables`` folder: a log of JSON lines (``CODE.table``) or, earlier still, one JSON
file (``CODE.json``). The first time a host starts with a database store, each of
those tables the database does not hold yet is read (as strictly as ever, by the
file store) and written into it as it stands: its settings and seats, its record,
its chat, its last timeout and when the move it awaits began. The files are left
where they are, so an earlier version can still be run on them; a table the
database holds already is never read again, so a second start imports nothing.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from railgames.net.store import FileTableStore, TableStore, compacted
from railgames.net.tables import event


def import_table_files(folder: Path, store: TableStore) -> list[str]:
    """Copy the tables kept as files in ``folder`` that ``store`` does not hold yet into
    it, one log line each; a file that cannot be read is one line naming it, and the
    others come in. The codes imported."""
    if isinstance(store, FileTableStore) or not folder.is_dir():
        return []
    files = FileTableStore(folder, sync=False)
    done: list[str] = []
    for code in files.list():
        source = files.describe(code)
        try:
            if store.exists(code):
                continue
            stored = files.load(code)
            store.rewrite(code, *compacted(stored))
        except Exception as exc:  # whatever a damaged file does, the other tables come in
            event("table_not_imported", code=code, file=source, reason=_reason(exc, source))
            continue
        done.append(code)
        event("table_imported", code=code, file=source, into=store.describe(code),
              actions=len(stored.record.actions) if stored.record is not None else 0)
    return done


def _reason(exc: Any, source: str) -> str:
    reason = getattr(exc, "reason", None)
    if not isinstance(reason, str):
        reason = f"{type(exc).__name__}: {exc}"
    return (reason if reason.startswith(source) else f"{source}: {reason}")[:500]
