#!/usr/bin/env python3
"""A small MCP server (2025-11-25, standard library only) for tests/derive_test.cpp: fakehost
must make its triggers from these tools without a fakehost.yaml, and must never call on its own a
tool that is not annotated read-only.

Tools: clock (readOnlyHint, an enum argument), shout (readOnlyHint, echoes its text upper-cased
... and as given), forecast (readOnlyHint, an outputSchema, answers in 0.7 s), wipe (no
annotation: it writes the file $DERIVE_WIPED when called, which the test looks for)."""
import json
import os
import sys
import time

TOOLS = [
    {"name": "clock", "description": "The time in a zone.",
     "inputSchema": {"type": "object", "properties": {"zone": {"enum": ["UTC", "CET"]}},
                     "required": ["zone"]},
     "annotations": {"readOnlyHint": True}},
    {"name": "shout", "description": "Says its text back.",
     "inputSchema": {"type": "object", "properties": {"text": {"type": "string"}},
                     "required": ["text"]},
     "annotations": {"readOnlyHint": True}},
    {"name": "forecast", "description": "A made-up forecast, slowly.",
     "inputSchema": {"type": "object", "properties": {"days": {"type": "integer", "minimum": 1}},
                     "required": ["days"]},
     "outputSchema": {"type": "object", "properties": {"sky": {"type": "string"}},
                      "required": ["sky"]},
     "annotations": {"readOnlyHint": True}},
    {"name": "wipe", "description": "Deletes things (here: writes a file saying it was called).",
     "inputSchema": {"type": "object", "properties": {}}},
]


def send(message):
    sys.stdout.write(json.dumps(message) + "\n")
    sys.stdout.flush()


def error(rid, code, text):
    send({"jsonrpc": "2.0", "id": rid, "error": {"code": code, "message": text}})


def call(rid, params):
    name, args = params.get("name"), params.get("arguments") or {}
    tool = next((t for t in TOOLS if t["name"] == name), None)
    if tool is None:
        return error(rid, -32602, "unknown tool")
    for key in tool["inputSchema"].get("required", []):
        if key not in args:
            return send({"jsonrpc": "2.0", "id": rid, "result": {
                "content": [{"type": "text", "text": "missing " + key}], "isError": True}})
    text = "ok"
    structured = None
    if name == "clock":
        text = "12:00 " + str(args["zone"])
    elif name == "shout":
        if not isinstance(args["text"], str):
            return send({"jsonrpc": "2.0", "id": rid, "result": {
                "content": [{"type": "text", "text": "text is a string"}], "isError": True}})
        text = args["text"]
    elif name == "forecast":
        if not isinstance(args["days"], int):
            return send({"jsonrpc": "2.0", "id": rid, "result": {
                "content": [{"type": "text", "text": "days is an integer"}], "isError": True}})
        time.sleep(0.7)
        structured = {"sky": "clear"}
        text = json.dumps(structured)
    elif name == "wipe":
        with open(os.environ["DERIVE_WIPED"], "w") as f:
            f.write("called\n")
    result = {"content": [{"type": "text", "text": text}]}
    if structured is not None:
        result["structuredContent"] = structured
    send({"jsonrpc": "2.0", "id": rid, "result": result})


def main():
    for line in sys.stdin:
        try:
            msg = json.loads(line)
        except ValueError:
            error(None, -32700, "parse error")
            continue
        if not isinstance(msg, dict) or "method" not in msg:
            continue
        rid, method, params = msg.get("id"), msg["method"], msg.get("params") or {}
        if rid is None:
            continue  # a notification
        if method == "initialize":
            send({"jsonrpc": "2.0", "id": rid, "result": {
                "protocolVersion": "2025-11-25", "capabilities": {"tools": {}},
                "serverInfo": {"name": "derive-test-server", "version": "2.1.0"}}})
        elif method == "ping":
            send({"jsonrpc": "2.0", "id": rid, "result": {}})
        elif method == "tools/list":
            if params.get("cursor") is not None:
                error(rid, -32602, "invalid cursor")
            else:
                send({"jsonrpc": "2.0", "id": rid, "result": {"tools": TOOLS}})
        elif method == "tools/call":
            call(rid, params)
        else:
            error(rid, -32601, "method not found")


if __name__ == "__main__":
    main()
