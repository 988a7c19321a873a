#!/usr/bin/env python3
"""A process-placed module that fails on request, for the supervision tests
(Tests/ApiaryHostTests/SupervisionHostTests.swift). Speaks the wire protocol
(docs/wire-protocol.md) and nothing else.

Its target (any name): `pid` answers the process id, `version` the VERSION below (tests rewrite it to
see `:restart` load new code), `crash` ends the process while the call is in flight:
how=segv (SIGSEGV), exit (status 3), abort (SIGABRT) or stop (SIGSTOP: the process hangs, so
health check pings go unanswered); or breaks the wire and lives on: how=garbage (writes what is
not a frame on its standard output) or closein (closes its standard input, then answers). Each
start prints `faulty started` on standard error, which the host shows tagged `[faulty]`.

With the argument `hang=METHOD` (initialize, start, tearDown), that request prints `faulty PID hangs in HOOK` on
standard error and never answers; with `crash=METHOD`, the process aborts (SIGABRT) on that request.
"""
import json
import os
import signal
import sys

VERSION = "one"
waits_after_answering = False

wire_in = sys.stdin.buffer
wire_out = sys.stdout.buffer


def send(message):
    body = json.dumps(message).encode()
    wire_out.write(b"Content-Length: %d\r\n\r\n" % len(body) + body)
    wire_out.flush()


def receive():
    length = None
    while True:
        line = wire_in.readline()
        if not line:
            return None
        line = line.strip()
        if not line:
            break
        name, _, value = line.decode().partition(":")
        if name.lower() == "content-length":
            length = int(value)
    return json.loads(wire_in.read(length))


def crash(how):
    global waits_after_answering
    print("faulty crashing: %s" % how, file=sys.stderr, flush=True)
    if how == "segv":
        os.kill(os.getpid(), signal.SIGSEGV)
    elif how == "abort":
        os.abort()
    elif how == "stop":
        os.kill(os.getpid(), signal.SIGSTOP)
    elif how == "closein":
        os.close(0)
        waits_after_answering = True
        return "closed"
    elif how == "garbage":
        wire_out.write(b"not a header\r\n\r\n")
        wire_out.flush()
        signal.pause()
    else:
        os._exit(3)


def handle(method, params):
    if "crash=" + method in sys.argv[1:]:
        os.abort()
    if "hang=" + method in sys.argv[1:]:
        print("faulty %d hangs in %s" % (os.getpid(), method), file=sys.stderr, flush=True)
        while True:
            signal.pause()
    if method == "initialize":
        return {"protocol": 1, "pid": os.getpid()}
    if method == "setUp":
        return {"events": []}
    if method == "start":
        print("faulty started", file=sys.stderr, flush=True)
        return {}
    if method in ("ready", "tearDown", "ping"):
        return {}
    if method == "perform":
        action, values = params["action"], params.get("params", {})
        if action == "pid":
            return os.getpid()
        if action == "version":
            return VERSION
        if action == "crash":
            return crash(values.get("how", "exit"))
    raise LookupError("no method %s" % method)


def main():
    while True:
        message = receive()
        if message is None:
            return
        try:
            reply = {"jsonrpc": "2.0", "id": message.get("id"),
                     "result": handle(message["method"], message.get("params", {}))}
        except LookupError as error:
            reply = {"jsonrpc": "2.0", "id": message.get("id"),
                     "error": {"code": -32601, "message": str(error)}}
        if "id" in message:
            send(reply)
        if waits_after_answering:
            signal.pause()


if __name__ == "__main__":
    main()
