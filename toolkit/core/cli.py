"""Argument types the toolkit's command lines share (``python -m toolkit.classroom``,
``python -m toolkit.lab``): one parser, so every command refuses a bad value in the same words."""
from __future__ import annotations

import argparse

__all__ = ["port_number"]


def port_number(text: str) -> int:
    """``--port``'s type: a whole number from 0 to 65535 (0: any free port).

    Raises:
        argparse.ArgumentTypeError: anything else (argparse prints it with the option's name).
    """
    try:
        port = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"{text!r} is not a port: give a whole number from 1 to 65535") from None
    if not 0 <= port <= 65535:
        raise argparse.ArgumentTypeError(f"{port} is not a port: give a whole number from 1 to 65535")
    return port
