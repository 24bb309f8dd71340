"""Colour-vision checks for plot colours (pure functions, no browser needed).

A student with deuteranopia or protanopia (about 1 in 12 boys has a red-green colour-vision
deficiency) must still tell the traces of a figure apart. We simulate both with the matrices of
Machado, Oliveira and Fernandes (2009, severity 1.0, applied to linear RGB) and require every
pair of trace colours to stay at least ``MIN_DELTA_E`` apart in CIELAB (CIE76 distance) under
normal vision and under each simulation.
"""
from __future__ import annotations

import itertools
import re

#: Machado et al. 2009, severity 1.0, linear-RGB matrices.
MACHADO = {
    "deuteranopia": ((0.367322, 0.860646, -0.227968),
                     (0.280085, 0.672501, 0.047413),
                     (-0.011820, 0.042940, 0.968881)),
    "protanopia": ((0.152286, 1.052583, -0.204868),
                   (0.114503, 0.786281, 0.099216),
                   (-0.003882, -0.048116, 1.051998)),
}
#: Minimum CIE76 distance between any two trace colours of one figure, as seen by each viewer.
#: (ΔE ≈ 2.3 is a just-noticeable difference; thin lines and small markers need much more.)
MIN_DELTA_E = 15.0

_NAMED = {"black": (0, 0, 0), "white": (255, 255, 255), "red": (255, 0, 0), "green": (0, 128, 0),
          "blue": (0, 0, 255), "grey": (128, 128, 128), "gray": (128, 128, 128),
          "orange": (255, 165, 0)}


def parse_colour(text: str) -> tuple[int, int, int]:
    """'#rrggbb', '#rgb', 'rgb(r, g, b)', 'rgba(r, g, b, a)' or a few names -> (r, g, b) 0-255."""
    s = text.strip().lower()
    if s in _NAMED:
        return _NAMED[s]
    if s.startswith("#"):
        h = s[1:]
        if len(h) == 3:
            h = "".join(c * 2 for c in h)
        return tuple(int(h[i:i + 2], 16) for i in (0, 2, 4))
    m = re.match(r"rgba?\(\s*([\d.]+)\s*,\s*([\d.]+)\s*,\s*([\d.]+)", s)
    if m:
        return tuple(round(float(v)) for v in m.groups())
    raise ValueError(f"unknown colour {text!r}")


def _to_linear(c: float) -> float:
    c /= 255
    return c / 12.92 if c <= 0.04045 else ((c + 0.055) / 1.055) ** 2.4


def _lab(lin: tuple[float, float, float]) -> tuple[float, float, float]:
    r, g, b = (min(1.0, max(0.0, v)) for v in lin)
    x = (0.4124 * r + 0.3576 * g + 0.1805 * b) / 0.95047
    y = 0.2126 * r + 0.7152 * g + 0.0722 * b
    z = (0.0193 * r + 0.1192 * g + 0.9505 * b) / 1.08883
    f = lambda t: t ** (1 / 3) if t > 0.008856 else 7.787 * t + 16 / 116  # noqa: E731
    fx, fy, fz = f(x), f(y), f(z)
    return 116 * fy - 16, 500 * (fx - fy), 200 * (fy - fz)


def seen_as(rgb: tuple[int, int, int], vision: str = "normal") -> tuple[float, float, float]:
    """The CIELAB colour a viewer with ``vision`` ('normal' or a MACHADO key) perceives."""
    lin = tuple(_to_linear(v) for v in rgb)
    if vision != "normal":
        m = MACHADO[vision]
        lin = tuple(sum(m[i][j] * lin[j] for j in range(3)) for i in range(3))
    return _lab(lin)


def delta_e(a, b) -> float:
    return sum((x - y) ** 2 for x, y in zip(a, b)) ** 0.5


def confusable_pairs(colours, min_delta_e: float = MIN_DELTA_E):
    """Pairs of distinct colours closer than ``min_delta_e`` for some viewer:
    ``[(colour1, colour2, vision, distance)]`` (empty when all are distinguishable)."""
    uniq = sorted({parse_colour(c) for c in colours})
    bad = []
    for a, b in itertools.combinations(uniq, 2):
        for vision in ("normal", *MACHADO):
            d = delta_e(seen_as(a, vision), seen_as(b, vision))
            if d < min_delta_e:
                bad.append((a, b, vision, round(d, 1)))
    return bad
