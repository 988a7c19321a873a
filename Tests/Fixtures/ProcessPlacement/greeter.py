#!/usr/bin/env python3
"""A process-placed Apiary module in Python: the wire protocol (docs/wire-protocol.md), nothing else.

Target `greeter`: `greet` answers "hello, NAME" and posts `note.saved` to the host (a note
whose title is the greeting); `countNotes` calls the host's `notes.list` while the host's call
is in flight; `fail` throws; `crash` dies of SIGSEGV; `gather` leaves its call unanswered
until the COUNT-th has come, then exits with status 3; `hang` stops serving altogether (health
check pings go unanswered). It handles the custom event
`greet.requested`.
"""
import json
import os
import signal
import sys
import time

wire_in = sys.stdin.buffer
wire_out = sys.stdout.buffer
host_events = set()
next_id = 0
answers = {}  # responses to our requests, by id
greeted = 0
gathered = 0


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


def call(method, params):
    """A request to the host; other messages arriving meanwhile are served."""
    global next_id
    next_id += 1
    mine = next_id
    send({"jsonrpc": "2.0", "id": mine, "method": method, "params": params})
    while mine not in answers:
        if not serve_one():
            raise RuntimeError("the host went away")
    answer = answers.pop(mine)
    if "error" in answer:
        raise RuntimeError(answer["error"]["message"])
    return answer.get("result")


# What "stall" returns: the request is never answered (the host's time limit must end it).
NO_ANSWER = object()


def handle(method, params):
    global greeted, gathered
    if method == "initialize":
        return {"protocol": 1, "pid": os.getpid()}
    if method == "setUp":
        return {"events": ["greet.requested"]}
    if method == "start":
        host_events.update(params.get("events", []))
        return {}
    if method in ("ready", "tearDown", "ping"):
        return {}
    if method == "event":
        handled = params["name"] == "greet.requested"
        if handled:
            print("greet.requested for %s" % params["payload"].get("name"), file=sys.stderr)
        return {"handledBy": ["greeter"] if handled else [], "ignoredBy": [], "failures": []}
    if method == "perform" and params.get("target") == "greeter":
        action, values = params["action"], params.get("params", {})
        if action == "greet":
            greeted += 1
            text = "hello, %s" % values.get("name", "world")
            if "note.saved" in host_events:
                note = {"id": 1000 + greeted, "title": text, "body": ""}
                call("event", {"name": "note.saved", "payload": {"note": note}})
            return text
        if action == "countNotes":
            return len(call("perform", {"target": "notes", "action": "list", "params": {}}))
        if action == "crash":
            os.kill(os.getpid(), signal.SIGSEGV)
        if action == "fail":
            raise RuntimeError("greeter refuses: %s" % values.get("why", "no reason"))
        if action == "hang":
            while True:
                time.sleep(3600)
        if action == "stall":
            return NO_ANSWER
        if action == "gather":
            gathered += 1
            if gathered >= values["count"]:
                os._exit(3)
            return NO_ANSWER
    raise LookupError("no method %s for %s" % (method, params.get("target")))


def serve_one():
    message = receive()
    if message is None:
        return False
    if "method" not in message:
        answers[message["id"]] = message
        return True
    try:
        reply = {"jsonrpc": "2.0", "id": message.get("id"), "result": handle(message["method"], message.get("params", {}))}
    except LookupError as error:
        reply = {"jsonrpc": "2.0", "id": message.get("id"), "error": {"code": -32601, "message": str(error)}}
    except Exception as error:
        reply = {"jsonrpc": "2.0", "id": message.get("id"), "error": {"code": -32000, "message": str(error)}}
    if "id" in message and reply.get("result") is not NO_ANSWER:
        send(reply)
    return True


if __name__ == "__main__":
    while serve_one():
        pass
