"""QR codes of the class's addresses, made on this machine (``segno``: nothing goes to the
internet): an SVG for a page (:func:`qr_svg`), and text for a terminal (:func:`qr_text`, what
``python -m toolkit.classroom check`` prints)."""
from __future__ import annotations

import io

__all__ = ["qr_svg", "qr_text"]


def qr_svg(text: str, scale: int = 6) -> str:
    """``text`` (a web address) as a QR code, an inline SVG string (``segno``, offline).

    Raises:
        ValueError: ``text`` is empty.
    """
    import segno

    if not text:
        raise ValueError("nothing to encode in a QR code")
    return segno.make(text, error="m").svg_inline(scale=scale, dark="#000000", light="#ffffff")


def qr_text(text: str) -> str:
    """``text`` as a QR code drawn with block characters for a terminal (two rows of modules per
    line, dark on light with a quiet zone), readable by a phone's camera on a dark or a light
    terminal.

    Raises:
        ValueError: ``text`` is empty.
    """
    import segno

    if not text:
        raise ValueError("nothing to encode in a QR code")
    qr = segno.make(text, error="m")
    rows = [[bool(v) for v in row] for row in qr.matrix_iter(scale=1, border=2)]
    if len(rows) % 2:
        rows.append([False] * len(rows[0]))
    out = io.StringIO()
    for top, bottom in zip(rows[0::2], rows[1::2]):
        # a light module is drawn (the terminal's background may be dark): full, upper, lower, none
        out.write("".join({(False, False): "\u2588", (True, False): "\u2584", (False, True): "\u2580",
                           (True, True): " "}[(a, b)] for a, b in zip(top, bottom)) + "\n")
    return out.getvalue()
