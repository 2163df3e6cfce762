"""The PROXY protocol (versions 1 and 2), as a load balancer such as HAProxy sends it.

Behind a TCP load balancer every connection comes from the balancer's address; with
``send-proxy`` (version 1, one line of text) or ``send-proxy-v2`` (binary) it first
sends a header naming the client's address, and ``railgames host --proxy-protocol``
takes that address as the client's, for everything counted per address.

Only the header is read from the socket, never a byte more: what follows is the SSH
client's own greeting, which the SSH server must read itself. Anything that is not a
valid header, or one that does not come whole in time, ends the connection.
"""

from __future__ import annotations

import asyncio
import ipaddress
import socket
import struct
from dataclasses import dataclass

V1_PREFIX = b"PROXY "
V1_MAX = 107  # the longest version 1 line, its CRLF included
V2_SIGNATURE = b"\r\n\r\n\x00\r\nQUIT\n"
V2_FIXED = 16  # signature, version and command, family and protocol, length
# The longest version 2 header taken: the addresses and the extensions HAProxy can add
# (TLS details, a unique id) fit many times over; a longer one is refused, not read.
V2_MAX = 4096

# Version 2 families, and the bytes of their source and destination addresses and ports.
_V2_INET, _V2_INET6, _V2_UNIX = 1, 2, 3
_V2_ADDRESS_BYTES = {0: 0, _V2_INET: 12, _V2_INET6: 36, _V2_UNIX: 216}


class ProxyHeaderError(ValueError):
    """Not a PROXY protocol header (the reason, in a few words)."""


@dataclass(frozen=True)
class ProxyHeader:
    """A header read whole: its length, and the client's address when it gives one.

    ``source`` is None for a version 2 LOCAL header (the balancer's own health check),
    for ``PROXY UNKNOWN`` and for families without an IP address: then the connection's
    own peer, the balancer, is the address to use.
    """

    version: int
    length: int
    source: tuple[str, int] | None = None
    destination: tuple[str, int] | None = None


def _ip(text: str | bytes, version: int) -> str:
    try:
        address = ipaddress.ip_address(text)
    except ValueError:
        raise ProxyHeaderError("an address that is not an IP address") from None
    if address.version != version:
        raise ProxyHeaderError(f"an address that is not IPv{version}")
    if isinstance(address, ipaddress.IPv6Address) and address.ipv4_mapped is not None:
        return str(address.ipv4_mapped)  # a client on IPv4 seen through an IPv6 socket
    return str(address)


def _port(text: bytes) -> int:
    if not text.isdigit() or len(text) > 5 or (len(text) > 1 and text[:1] == b"0"):
        raise ProxyHeaderError("a port that is not a number from 0 to 65535")
    port = int(text)
    if port > 65535:
        raise ProxyHeaderError("a port that is not a number from 0 to 65535")
    return port


def _parse_v1(data: bytes) -> ProxyHeader | None:
    end = data.find(b"\r\n", 0, V1_MAX)
    if end < 0:
        if len(data) >= V1_MAX or b"\n" in data[:V1_MAX]:
            raise ProxyHeaderError("a version 1 line without its CRLF within 107 bytes")
        return None
    fields = data[:end].split(b" ")
    if len(fields) >= 2 and fields[1] == b"UNKNOWN":  # whatever follows is to be ignored
        return ProxyHeader(1, end + 2)
    if len(fields) != 6 or fields[1] not in (b"TCP4", b"TCP6"):
        raise ProxyHeaderError("a version 1 line that is not "
                               "'PROXY TCP4|TCP6 SOURCE DESTINATION SPORT DPORT'")
    version = 4 if fields[1] == b"TCP4" else 6
    try:
        source, destination = fields[2].decode("ascii"), fields[3].decode("ascii")
    except UnicodeDecodeError:
        raise ProxyHeaderError("an address that is not an IP address") from None
    return ProxyHeader(1, end + 2, (_ip(source, version), _port(fields[4])),
                       (_ip(destination, version), _port(fields[5])))


def _parse_v2(data: bytes) -> ProxyHeader | None:
    if len(data) < V2_FIXED:
        return None
    version_command, family_protocol, length = struct.unpack("!BBH", data[12:16])
    if version_command >> 4 != 2:
        raise ProxyHeaderError(f"version {version_command >> 4} of the binary header")
    command = version_command & 0x0F
    if command > 1:
        raise ProxyHeaderError(f"an unknown command ({command})")
    family, protocol = family_protocol >> 4, family_protocol & 0x0F
    if family not in _V2_ADDRESS_BYTES:
        raise ProxyHeaderError(f"an unknown address family ({family})")
    if protocol > 2:
        raise ProxyHeaderError(f"an unknown transport ({protocol})")
    if V2_FIXED + length > V2_MAX:
        raise ProxyHeaderError(f"a header of {V2_FIXED + length} bytes "
                               f"(at most {V2_MAX} are taken)")
    if length < _V2_ADDRESS_BYTES[family] and command == 1:
        raise ProxyHeaderError("a header too short for its addresses")
    total = V2_FIXED + length
    if len(data) < total:
        return None
    if command == 0 or family in (0, _V2_UNIX):  # LOCAL, UNSPEC, a UNIX socket: no IP
        return ProxyHeader(2, total)
    if protocol != 1:
        raise ProxyHeaderError("a client address that is not a TCP stream's")
    body = data[V2_FIXED:total]
    if family == _V2_INET:
        src, dst, sport, dport = struct.unpack("!4s4sHH", body[:12])
        ip = 4
    else:
        src, dst, sport, dport = struct.unpack("!16s16sHH", body[:36])
        ip = 6
    return ProxyHeader(2, total, (_ip(src, ip), sport), (_ip(dst, ip), dport))


def parse(data: bytes) -> ProxyHeader | None:
    """The header at the start of ``data``; None while the bytes so far could still begin
    one. Raises ProxyHeaderError as soon as they cannot."""
    if data[:12] == V2_SIGNATURE[:len(data[:12])] and data[:1] == b"\r":
        return _parse_v2(data)
    if data[:6] == V1_PREFIX[:len(data[:6])] and data[:1] == b"P":
        return _parse_v1(data) if len(data) >= 6 else None
    if not data:
        return None
    raise ProxyHeaderError("the connection did not start with a PROXY protocol header")


async def read_header(sock: socket.socket, timeout: float) -> ProxyHeader:
    """Read the header from a connected, non-blocking socket: exactly its bytes, leaving
    what follows for whoever reads next. Raises ProxyHeaderError (a bad header, nothing
    in time, the connection closed first)."""
    loop = asyncio.get_running_loop()
    held = b""

    async def readable() -> None:
        ready: asyncio.Future[None] = loop.create_future()

        def now() -> None:
            if not ready.done():
                ready.set_result(None)

        loop.add_reader(sock.fileno(), now)
        try:
            await ready
        finally:
            loop.remove_reader(sock.fileno())

    async def whole() -> ProxyHeader:
        nonlocal held
        while True:
            await readable()
            try:
                # Looked at, not taken: the bytes past the header are the SSH client's.
                seen = sock.recv(V2_MAX - len(held), socket.MSG_PEEK)
            except (BlockingIOError, InterruptedError):
                continue
            except OSError as exc:
                raise ProxyHeaderError(f"the connection failed ({exc.strerror or exc})") from None
            if not seen:
                raise ProxyHeaderError(f"the connection closed after {len(held)} bytes, "
                                       "before a whole header")
            header = parse(held + seen)
            # All that was seen belongs to the header while it is not whole; once it is,
            # only its own bytes are taken.
            take = len(seen) if header is None else header.length - len(held)
            taken = sock.recv(take)
            held += taken
            if header is not None and len(taken) == take:
                return header
            if len(held) >= V2_MAX:
                raise ProxyHeaderError(f"no whole header in {V2_MAX} bytes")

    try:
        return await asyncio.wait_for(whole(), timeout)
    except TimeoutError:
        raise ProxyHeaderError(f"no whole header within {timeout:g} seconds "
                               f"({len(held)} bytes came)") from None
