"""Local worker processes hold none of the sockets of the process that forked them."""

from __future__ import annotations

import os
import socket

from analyzer.sim.backends import local_pool


def test_a_connection_the_parent_closes_is_closed_for_its_client_while_workers_live() -> None:
    # A server forks workers while a client's connection is open, then closes it: the client must see it closed
    # (else a browser sends its next request on it, and waits for the workers to end before trying another).
    with socket.create_server(("127.0.0.1", 0)) as server:
        client = socket.create_connection(server.getsockname())
        accepted, _ = server.accept()
        with client, local_pool(1) as pool:
            pool.submit(os.getpid).result()  # the worker is forked now, with the connection open
            accepted.close()
            client.settimeout(30)  # what the client would wait for, were the worker holding the connection
            assert client.recv(1) == b""
