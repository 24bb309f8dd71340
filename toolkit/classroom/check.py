"""The pre-class check: can the class's phones reach this computer?

Run the day before, on the school's network, from the computer the class will use::

    python -m toolkit.classroom check        (toolkit.classroom.cli.run_check)

It starts the class game server for a moment (on a database of its own, deleted afterwards: the
class's score sheet is not touched), prints the address a phone opens and its QR code, and waits.
When a phone opens the address (``/check``), the phone's page says it reached the class computer
and the command says so too, with the phone's network address. When no phone arrives in time
(``--wait``, 5 minutes by default), the command says what usually stands in the way and what to
do about it (:data:`ADVICE`): the phone on another network, a school Wi-Fi that keeps devices
apart ("client isolation"), the computer's firewall; a phone hotspot, or the port to ask IT to
open.

A visit counts when it comes from another address than this computer's own (its loopback
address ``127.0.0.1`` and the network address it prints): the teacher opening the address on the
laptop itself proves nothing about the phones. The lessons' class mode has the same check on a
button (the running server's ``/check`` page, read through ``GET /api/teacher/check``).

Nothing here needs the internet.
"""
from __future__ import annotations

import ipaddress
import time
from urllib.parse import urlsplit

from ..core.i18n import _

__all__ = ["own_addresses", "devices_seen", "advice", "record_visit"]


def own_addresses(public_url: str | None = None) -> set[str]:
    """This computer's own addresses as a visitor's address reads: loopback ``127.0.0.1`` and
    ``::1``, its network address (:func:`toolkit.classroom.server.lan_address`) and the host of
    ``public_url``. Another loopback address (``127.0.0.2``) is not one of them: a test uses it
    as a second device."""
    from .web import lan_address

    own = {"127.0.0.1", "::1", "localhost", lan_address()}
    if public_url:
        host = urlsplit(public_url).hostname
        if host:
            own.add(host)
    return own


def _normal(addr: str) -> str:
    try:
        ip = ipaddress.ip_address(addr)
    except ValueError:
        return addr
    if ip.version == 6 and ip.ipv4_mapped is not None:     # ::ffff:192.168.1.34
        return str(ip.ipv4_mapped)
    return str(ip)


def record_visit(state, address: str) -> bool:
    """Note a visit to ``/check`` from ``address`` on the app's ``state`` (``state.visitors``:
    ``{address: time}``).

    Returns:
        whether it came from another device (not one of :func:`own_addresses`).
    """
    addr = _normal(address)
    state.visitors.setdefault(addr, time.time())
    if len(state.visitors) > 1000:           # a scan of the network: keep the first ones
        state.visitors.pop(next(reversed(state.visitors)))
    return addr not in own_addresses(getattr(state, "public_url", None))


def devices_seen(state) -> list[dict]:
    """The other devices that opened ``/check`` on this server: ``[{"address", "at"}]`` (epoch
    seconds), first visit first."""
    own = own_addresses(getattr(state, "public_url", None))
    visitors = getattr(state, "visitors", {}) or {}
    return [{"address": a, "at": t} for a, t in sorted(visitors.items(), key=lambda x: x[1]) if a not in own]


def advice(port: int) -> list[str]:
    """What to do when no phone reached the class computer, in the current language: the
    three usual causes and their remedies, naming ``port``."""
    return [
        _("Check that the phone is on the same Wi-Fi network as this computer (the same network name)."),
        _("School Wi-Fi often keeps devices from seeing each other (client isolation): ask the school's IT to "
          "let phones reach this computer on TCP port {port}, or use a phone's hotspot: connect this computer and "
          "the students' phones to it (it needs no internet).").format(port=port),
        _("This computer's firewall may refuse the connection: allow Python on private networks when the system "
          "asks, or open TCP port {port}.").format(port=port),
        _("Then run this check again."),
    ]
