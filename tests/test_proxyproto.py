"""The PROXY protocol header: both versions read exactly, and every bad one refused."""

from __future__ import annotations

import asyncio
import random
import socket
import struct

import pytest

from railgames.net.proxyproto import (
    V2_MAX,
    V2_SIGNATURE,
    ProxyHeader,
    ProxyHeaderError,
    parse,
    read_header,
)

SSH_GREETING = b"SSH-2.0-OpenSSH_9.2\r\n"


def v2(command: int = 1, family: int = 1, protocol: int = 1, body: bytes | None = None,
       length: int | None = None) -> bytes:
    if body is None:
        body = struct.pack("!4s4sHH", bytes([198, 51, 100, 7]), bytes([10, 0, 0, 1]), 51234, 22)
    size = len(body) if length is None else length
    return V2_SIGNATURE + bytes([0x20 | command, family << 4 | protocol]) + struct.pack("!H", size) + body


def test_version_1_names_the_client_and_its_length_stops_at_the_crlf() -> None:
    line = b"PROXY TCP4 198.51.100.7 10.0.0.1 51234 2222\r\n"
    assert parse(line + SSH_GREETING) == ProxyHeader(1, len(line), ("198.51.100.7", 51234),
                                                     ("10.0.0.1", 2222))
    line6 = b"PROXY TCP6 2001:db8::7 2001:db8::1 40000 22\r\n"
    assert parse(line6).source == ("2001:db8::7", 40000)  # type: ignore[union-attr]
    mapped = b"PROXY TCP6 ::ffff:192.0.2.9 ::1 40000 22\r\n"
    assert parse(mapped).source == ("192.0.2.9", 40000)  # type: ignore[union-attr]
    # UNKNOWN: the balancer could not tell; the connection's own peer is used.
    unknown = b"PROXY UNKNOWN ffff::1 ffff::2 1 2\r\n"
    assert parse(unknown + SSH_GREETING) == ProxyHeader(1, len(unknown))


def test_version_2_proxy_local_and_unspecified() -> None:
    header = v2()
    assert parse(header + SSH_GREETING) == ProxyHeader(2, 28, ("198.51.100.7", 51234),
                                                       ("10.0.0.1", 22))
    six = struct.pack("!16s16sHH", socket.inet_pton(socket.AF_INET6, "2001:db8::7"),
                      socket.inet_pton(socket.AF_INET6, "2001:db8::1"), 1000, 22)
    assert parse(v2(family=2, body=six)).source == ("2001:db8::7", 1000)  # type: ignore[union-attr]
    # Extensions (TLVs) after the addresses are part of the header, and skipped.
    with_tlv = v2(body=v2()[16:] + b"\x04\x00\x03abc")
    assert parse(with_tlv + SSH_GREETING) == ProxyHeader(2, 34, ("198.51.100.7", 51234),
                                                         ("10.0.0.1", 22))
    # LOCAL (a health check of the balancer's own) and UNSPEC give no client address.
    assert parse(v2(command=0, family=0, protocol=0, body=b"")) == ProxyHeader(2, 16)
    assert parse(v2(command=0)) == ProxyHeader(2, 28)
    assert parse(v2(family=0, protocol=0, body=b"")) == ProxyHeader(2, 16)
    assert parse(v2(family=3, body=bytes(216))) == ProxyHeader(2, 232)


def test_incomplete_headers_wait_for_more() -> None:
    for whole in (b"PROXY TCP4 198.51.100.7 10.0.0.1 51234 2222\r\n", v2()):
        for cut in range(len(whole)):
            assert parse(whole[:cut]) is None, (whole, cut)
        assert parse(whole) is not None


@pytest.mark.parametrize("data, reason", [
    (SSH_GREETING, "did not start with a PROXY"),
    (b"GET / HTTP/1.1\r\n", "did not start with a PROXY"),
    (b"PROXY TCP4 198.51.100.7 10.0.0.1 51234 2222\n", "CRLF"),  # LF alone
    (b"PROXY TCP4 198.51.100.7 10.0.0.1 51234 2222" + b" " * 70, "CRLF"),  # no end in 107
    (b"PROXY TCP5 198.51.100.7 10.0.0.1 51234 2222\r\n", "not 'PROXY TCP4"),
    (b"PROXY TCP4 198.51.100.7 10.0.0.1 51234\r\n", "not 'PROXY TCP4"),
    (b"PROXY TCP4  198.51.100.7 10.0.0.1 51234 2222\r\n", "not 'PROXY TCP4"),
    (b"PROXY TCP4 2001:db8::7 10.0.0.1 51234 2222\r\n", "not IPv4"),
    (b"PROXY TCP6 198.51.100.7 ::1 51234 2222\r\n", "not IPv6"),
    (b"PROXY TCP4 198.51.100.777 10.0.0.1 51234 2222\r\n", "not an IP"),
    (b"PROXY TCP4 \xff\xfe.1.2.3 10.0.0.1 51234 2222\r\n", "not an IP"),
    (b"PROXY TCP4 198.51.100.7 10.0.0.1 65536 2222\r\n", "port"),
    (b"PROXY TCP4 198.51.100.7 10.0.0.1 -1 2222\r\n", "port"),
    (b"PROXY TCP4 198.51.100.7 10.0.0.1 0022 2222\r\n", "port"),
    (v2()[:12] + b"\x11\x11\x00\x0c" + bytes(12), "version 1 of the binary"),
    (v2(command=2), "unknown command"),
    (v2(family=4), "unknown address family"),
    (v2(family=15), "unknown address family"),
    (v2(protocol=3), "unknown transport"),
    (v2(protocol=2), "not a TCP stream"),
    (v2(length=65535), "at most 4096"),
    (v2(body=bytes(8)), "too short"),
    (v2(family=2, body=bytes(12)), "too short"),
])
def test_bad_headers_are_refused_with_a_reason(data: bytes, reason: str) -> None:
    with pytest.raises(ProxyHeaderError, match=reason):
        parse(data)


def test_random_bytes_never_raise_anything_but_a_refusal() -> None:
    rng = random.Random(29)
    starts = [b"", b"PROXY ", b"PROXY TCP4 ", b"PROXY TCP6 ", V2_SIGNATURE, V2_SIGNATURE + b"\x21"]
    for _ in range(5000):
        data = rng.choice(starts) + rng.randbytes(rng.randrange(0, 200))
        try:
            header = parse(data)
        except ProxyHeaderError:
            continue
        if header is not None:
            assert 0 < header.length <= len(data)


def run(coro_fn):  # type: ignore[no-untyped-def]
    return asyncio.run(asyncio.wait_for(coro_fn(), 30))


def pair() -> tuple[socket.socket, socket.socket]:
    host_side, client = socket.socketpair()
    host_side.setblocking(False)
    return host_side, client


def test_read_header_takes_the_header_and_leaves_the_ssh_greeting() -> None:
    async def scenario(header: bytes) -> None:
        host_side, client = pair()
        try:
            client.sendall(header + SSH_GREETING)
            got = await read_header(host_side, 5)
            assert got.source == ("198.51.100.7", 51234)
            assert host_side.recv(100) == SSH_GREETING
        finally:
            host_side.close()
            client.close()

    for header in (b"PROXY TCP4 198.51.100.7 10.0.0.1 51234 2222\r\n", v2()):
        asyncio.run(asyncio.wait_for(scenario(header), 30))


def test_read_header_in_pieces_and_dribbled() -> None:
    async def scenario() -> None:
        host_side, client = pair()
        try:
            async def dribble() -> None:
                for byte in v2() + SSH_GREETING[:4]:
                    client.send(bytes([byte]))
                    await asyncio.sleep(0.001)

            sender = asyncio.ensure_future(dribble())
            got = await read_header(host_side, 10)
            await sender
            assert got.source == ("198.51.100.7", 51234)
            await asyncio.sleep(0.05)
            assert host_side.recv(100) == SSH_GREETING[:4]
        finally:
            host_side.close()
            client.close()

    run(scenario)


def test_a_client_that_sends_nothing_or_vanishes_halfway_is_refused() -> None:
    async def scenario() -> None:
        host_side, client = pair()
        try:
            with pytest.raises(ProxyHeaderError, match="no whole header within 0.3 seconds"):
                await read_header(host_side, 0.3)
        finally:
            host_side.close()
            client.close()
        host_side, client = pair()
        try:
            client.sendall(v2()[:20])
            client.close()
            with pytest.raises(ProxyHeaderError, match="closed after 20 bytes"):
                await read_header(host_side, 5)
        finally:
            host_side.close()
        host_side, client = pair()
        try:  # a v1 line that never ends: refused at 107 bytes, not read on for ever
            client.sendall(b"PROXY TCP4 " + b"1" * 5000)
            with pytest.raises(ProxyHeaderError, match="CRLF"):
                await read_header(host_side, 5)
        finally:
            host_side.close()
            client.close()
        host_side, client = pair()
        try:  # a huge v2 length: refused from its first 16 bytes
            client.sendall(v2(length=60000) + bytes(V2_MAX))
            with pytest.raises(ProxyHeaderError, match="at most 4096"):
                await read_header(host_side, 5)
        finally:
            host_side.close()
            client.close()

    run(scenario)
