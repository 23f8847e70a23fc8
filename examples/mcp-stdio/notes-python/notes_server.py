#!/usr/bin/env python3
"""A notes server speaking MCP 2025-11-25 over stdio, standard library only.

Written by hand from the specification: newline-delimited JSON-RPC 2.0 on
stdin/stdout, the initialize handshake, ping, tools/list and tools/call.
Notes live in memory for the life of the process. Logs go to stderr.
"""

import json
import sys

PROTOCOL_VERSION = "2025-11-25"
SERVER_INFO = {"name": "notes-python", "version": "0.1.0"}

PARSE_ERROR = -32700
INVALID_REQUEST = -32600
METHOD_NOT_FOUND = -32601
INVALID_PARAMS = -32602
INTERNAL_ERROR = -32603

ID_PROPERTY = {"type": "string", "description": "Id returned by add_note"}

TOOLS = [
    {
        "name": "add_note",
        "title": "Add note",
        "description": "Store a new note and return its id",
        "inputSchema": {
            "type": "object",
            "properties": {
                "title": {"type": "string", "minLength": 1,
                          "description": "Short title of the note"},
                "body": {"type": "string", "description": "Text of the note"},
            },
            "required": ["title", "body"],
            "additionalProperties": False,
        },
        "annotations": {
            "readOnlyHint": False,
            "destructiveHint": False,
            "idempotentHint": False,
            "openWorldHint": False,
        },
    },
    {
        "name": "list_notes",
        "title": "List notes",
        "description": "List the ids and titles of all notes",
        "inputSchema": {"type": "object", "additionalProperties": False},
        "annotations": {"readOnlyHint": True, "openWorldHint": False},
    },
    {
        "name": "get_note",
        "title": "Get note",
        "description": "Return the title and body of one note",
        "inputSchema": {
            "type": "object",
            "properties": {"id": ID_PROPERTY},
            "required": ["id"],
            "additionalProperties": False,
        },
        "annotations": {"readOnlyHint": True, "openWorldHint": False},
    },
    {
        "name": "delete_note",
        "title": "Delete note",
        "description": "Delete one note by id",
        "inputSchema": {
            "type": "object",
            "properties": {"id": ID_PROPERTY},
            "required": ["id"],
            "additionalProperties": False,
        },
        "annotations": {
            "readOnlyHint": False,
            "destructiveHint": True,
            "idempotentHint": True,
            "openWorldHint": False,
        },
    },
]


class RpcError(Exception):
    """A JSON-RPC error to send back instead of a result."""

    def __init__(self, code, message, data=None):
        super().__init__(message)
        self.code = code
        self.message = message
        self.data = data


def log(*parts):
    print("notes-python:", *parts, file=sys.stderr, flush=True)


def text_result(text, is_error=False):
    result = {"content": [{"type": "text", "text": text}]}
    if is_error:
        result["isError"] = True
    return result


def check_arguments(tool, arguments):
    """Validates arguments against the tool's inputSchema (the subset it uses).

    Returns a message describing the first problem, or None.
    """
    schema = tool["inputSchema"]
    properties = schema.get("properties", {})
    for name in schema.get("required", []):
        if name not in arguments:
            return f"missing required argument '{name}'"
    for name, value in arguments.items():
        if name not in properties:
            return f"unexpected argument '{name}'"
        if not isinstance(value, str):
            return f"argument '{name}' must be a string"
        if len(value) < properties[name].get("minLength", 0):
            return f"argument '{name}' must not be empty"
    return None


class NotesServer:
    def __init__(self):
        self.notes = {}
        self.next_id = 1
        self.initialized = False
        self.tools = {tool["name"]: tool for tool in TOOLS}

    # Requests

    def initialize(self, params):
        if not isinstance(params.get("protocolVersion"), str):
            raise RpcError(INVALID_PARAMS, "protocolVersion must be a string")
        requested = params["protocolVersion"]
        if requested != PROTOCOL_VERSION:
            log(f"client asked for {requested}, answering {PROTOCOL_VERSION}")
        return {
            "protocolVersion": PROTOCOL_VERSION,
            "capabilities": {"tools": {"listChanged": False}},
            "serverInfo": SERVER_INFO,
        }

    def ping(self, params):
        return {}

    def tools_list(self, params):
        if "cursor" in params:
            # This server never hands out a cursor, so any cursor is invalid.
            raise RpcError(INVALID_PARAMS, "Invalid cursor")
        return {"tools": TOOLS}

    def tools_call(self, params):
        name = params.get("name")
        if not isinstance(name, str):
            raise RpcError(INVALID_PARAMS, "name must be a string")
        tool = self.tools.get(name)
        if tool is None:
            raise RpcError(INVALID_PARAMS, f"Unknown tool: {name}")
        arguments = params.get("arguments", {})
        if not isinstance(arguments, dict):
            raise RpcError(INVALID_PARAMS, "arguments must be an object")
        problem = check_arguments(tool, arguments)
        if problem:
            return text_result(f"Invalid arguments for {name}: {problem}", True)
        return getattr(self, "tool_" + name)(arguments)

    # Tools

    def tool_add_note(self, args):
        note_id = str(self.next_id)
        self.next_id += 1
        self.notes[note_id] = {"title": args["title"], "body": args["body"]}
        return text_result(f"Added note {note_id}: {args['title']}")

    def tool_list_notes(self, args):
        if not self.notes:
            return text_result("No notes yet.")
        lines = [f"{i}: {n['title']}" for i, n in self.notes.items()]
        return text_result("\n".join(lines))

    def tool_get_note(self, args):
        note = self.notes.get(args["id"])
        if note is None:
            return text_result(f"No note with id {args['id']}", True)
        return text_result(f"# {note['title']}\n\n{note['body']}")

    def tool_delete_note(self, args):
        if self.notes.pop(args["id"], None) is None:
            return text_result(f"No note with id {args['id']}", True)
        return text_result(f"Deleted note {args['id']}")

    # Dispatch

    REQUESTS = {
        "initialize": initialize,
        "ping": ping,
        "tools/list": tools_list,
        "tools/call": tools_call,
    }

    def handle(self, message):
        """Handles one decoded message; returns the response or None."""
        if not isinstance(message, dict):
            return error_response(None, INVALID_REQUEST, "Invalid Request")
        if message.get("jsonrpc") != "2.0":
            # Not JSON-RPC 2.0; answer with its id when it has a readable one.
            request_id = message.get("id")
            if isinstance(request_id, bool) or not isinstance(request_id, (str, int)):
                request_id = None
            return error_response(request_id, INVALID_REQUEST, "Invalid Request")
        method = message.get("method")
        if "id" not in message:
            if isinstance(method, str):
                self.notification(method, message.get("params"))
                return None
            # A response from the client: we never send requests, so ignore it.
            return None
        request_id = message["id"]
        if isinstance(request_id, bool) or not isinstance(request_id, (str, int)):
            return error_response(None, INVALID_REQUEST, "id must be a string or integer")
        if not isinstance(method, str):
            return error_response(request_id, INVALID_REQUEST, "method must be a string")
        params = message.get("params", {})
        if not isinstance(params, dict):
            return error_response(request_id, INVALID_PARAMS, "params must be an object")
        handler = self.REQUESTS.get(method)
        if handler is None:
            return error_response(request_id, METHOD_NOT_FOUND, f"Method not found: {method}")
        try:
            result = handler(self, params)
        except RpcError as e:
            return error_response(request_id, e.code, e.message, e.data)
        except Exception as e:  # a bug here must not take the server down
            log(f"internal error in {method}: {e!r}")
            return error_response(request_id, INTERNAL_ERROR, "Internal error")
        return {"jsonrpc": "2.0", "id": request_id, "result": result}

    def notification(self, method, params):
        if method == "notifications/initialized":
            self.initialized = True
        # notifications/cancelled and anything else: every request is answered
        # at once, so there is nothing to cancel or do.


def error_response(request_id, code, message, data=None):
    error = {"code": code, "message": message}
    if data is not None:
        error["data"] = data
    response = {"jsonrpc": "2.0", "error": error}
    if request_id is not None:
        response["id"] = request_id
    return response


def send(message):
    # json.dumps never emits a raw newline, so one message is one line.
    sys.stdout.write(json.dumps(message, ensure_ascii=False) + "\n")
    sys.stdout.flush()


def main():
    sys.stdout.reconfigure(encoding="utf-8")
    server = NotesServer()
    # Read bytes, not text: a line that is not UTF-8 must not end the loop.
    for raw in sys.stdin.buffer:
        raw = raw.strip()
        if not raw:
            continue
        try:
            message = json.loads(raw.decode("utf-8"))
        except ValueError:  # also UnicodeDecodeError
            send(error_response(None, PARSE_ERROR, "Parse error"))
            continue
        except RecursionError:
            # Valid JSON nested deeper than Python's parser goes: we cannot tell
            # what it is, so drop it rather than die.
            log(f"dropped a message nested too deep to parse ({len(raw)} bytes)")
            continue
        response = server.handle(message)
        if response is not None:
            send(response)
    return 0


if __name__ == "__main__":
    sys.exit(main())
