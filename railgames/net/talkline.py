"""A line said at a table, made plain: what both the host and each player's app apply to
it before it is kept or shown, so that nothing in it is ever read by a terminal as a
command (moving the cursor, clearing the screen, setting the clipboard or the title) or
turns the text that follows around."""

from __future__ import annotations

import re
import unicodedata

# Escape sequences as terminals read them, 7-bit and 8-bit: CSI (cursor moves, clearing
# the screen), OSC (titles, the clipboard: OSC 52) up to BEL or ST or the end of the
# line, DCS/SOS/PM/APC strings likewise, then any other ESC and the character after it.
_ESCAPES = re.compile(
    r"(?:\x1b\[|\x9b)[0-?]*[ -/]*[@-~]?"
    r"|(?:\x1b[\]PX^_]|[\x90\x98\x9d\x9e\x9f])[^\x07\x1b\x9c]*(?:\x07|\x1b\\|\x9c)?"
    r"|\x1b[ -~]?")
# Characters that turn the direction of the text that follows (overrides, isolates and
# marks): they could make a line read as something else.
_BIDI = frozenset("\u061c\u200e\u200f\u202a\u202b\u202c\u202d\u202e\u2066\u2067\u2068\u2069")


def clean(text: str) -> str:
    """``text`` as one plain line: escape sequences and control characters (C0, DEL, C1)
    left out, direction overrides and isolates left out, and every run of white space
    (line breaks and tabs too) made one space."""
    text = _ESCAPES.sub("", text)
    kept = []
    for char in text:
        if char.isspace():
            kept.append(" ")
        elif char in _BIDI or unicodedata.category(char) in ("Cc", "Cs"):
            continue  # controls, and halves of a character that no terminal can show
        else:
            kept.append(char)
    return " ".join("".join(kept).split())
