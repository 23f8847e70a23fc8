#!/usr/bin/env python3
"""tasks-python: a to-do list MCP server over stdio (legacy era: the initialize handshake).

Written from the MCP specification text of revisions 2024-11-05, 2025-03-26, 2025-06-18 and
2025-11-25 and their schema.ts alone. Standard library only (Python 3.11).

stdin carries newline-delimited JSON-RPC messages, stdout carries only MCP messages, stderr
carries this server's own diagnostics.
"""
import base64
import datetime
import json
import re
import sys
import threading
import time

# Newest first: an unknown requested version is answered with the first one.
REVISIONS = ["2025-11-25", "2025-06-18", "2025-03-26", "2024-11-05"]
LEVELS = ["debug", "info", "notice", "warning", "error", "critical", "alert", "emergency"]
PAGE_SIZE = 3                    # every paginated list (tools, resources, templates, prompts)
RATE_WINDOW_S, RATE_MAX = 10.0, 200  # tools/call rate limit ("Rate limit tool invocations")

PARSE_ERROR, INVALID_REQUEST, METHOD_NOT_FOUND = -32700, -32600, -32601
INVALID_PARAMS, INTERNAL_ERROR, RESOURCE_NOT_FOUND = -32602, -32603, -32002


def say(text):
    """A diagnostic line on stderr (never stdout)."""
    try:
        sys.stderr.write("tasks-python: %s\n" % text)
        sys.stderr.flush()
    except OSError:
        pass


class RpcError(Exception):
    def __init__(self, code, message, data=None):
        super().__init__(message)
        self.code, self.message, self.data = code, message, data

    def body(self):
        err = {"code": self.code, "message": self.message}
        if self.data is not None:
            err["data"] = self.data
        return err


def id_key(rid):
    # 1 and "1" are different ids; True is no id at all (checked before this is used).
    return (type(rid).__name__, rid)


def is_request_id(value):
    return isinstance(value, str) or (isinstance(value, int) and not isinstance(value, bool))


# ---------------------------------------------------------------------------------------------
# A small JSON Schema checker for the keywords the tools' inputSchemas use.

def schema_problem(schema, value, where="arguments"):
    kind = schema.get("type")
    if kind == "object":
        if not isinstance(value, dict):
            return "%s must be an object" % where
        for name in schema.get("required", []):
            if name not in value:
                return "%s.%s is required" % (where, name)
        props = schema.get("properties", {})
        for name, item in value.items():
            if name in props:
                problem = schema_problem(props[name], item, "%s.%s" % (where, name))
                if problem:
                    return problem
            elif schema.get("additionalProperties") is False:
                return "%s.%s is not an argument of this tool" % (where, name)
        return None
    if kind == "string":
        if not isinstance(value, str):
            return "%s must be a string" % where
        if len(value) < schema.get("minLength", 0):
            return "%s must not be empty" % where
        if "pattern" in schema and not re.search(schema["pattern"], value):
            return "%s must match %s" % (where, schema["pattern"])
    elif kind == "integer":
        if not isinstance(value, int) or isinstance(value, bool):
            return "%s must be an integer" % where
        if value < schema.get("minimum", value) or value > schema.get("maximum", value):
            return "%s must be between %s and %s" % (
                where, schema.get("minimum", "-inf"), schema.get("maximum", "inf"))
    if "enum" in schema and value not in schema["enum"]:
        return "%s must be one of %s" % (where, ", ".join(map(str, schema["enum"])))
    return None


# ---------------------------------------------------------------------------------------------

class TaskServer:
    def __init__(self):
        self.wire = threading.RLock()   # guards stdout and self.inflight
        self.inflight = {}              # id_key -> threading.Event (set = cancelled)
        self.data = threading.Lock()    # guards the task list
        self.rev = None                 # the negotiated revision, once initialize is answered
        self.initialized = False        # notifications/initialized received
        self.log_level = "info"         # until logging/setLevel says otherwise
        self.subscriptions = set()
        self.calls = []                 # times of recent tools/call, for the rate limit
        self.tasks = {}
        self.next_id = 1
        for title, due in (("Buy oat milk", "2025-01-10"), ("Renew passport", "2025-02-01"),
                           ("Call the plumber", None)):
            self.add(title, due)
        self.tasks[2]["done"] = True

    # -- output -------------------------------------------------------------------------------

    def send(self, message):
        try:
            line = json.dumps(message, ensure_ascii=False, separators=(",", ":")).encode("utf-8")
        except UnicodeEncodeError:      # a lone surrogate from a \ud800 escape: keep it escaped
            line = json.dumps(message, separators=(",", ":")).encode("ascii")
        with self.wire:
            try:
                sys.stdout.buffer.write(line + b"\n")
                sys.stdout.buffer.flush()
            except OSError:
                say("stdout closed")

    def notify(self, method, params=None, cancelled=None):
        message = {"jsonrpc": "2.0", "method": method}
        if params is not None:
            message["params"] = params
        with self.wire:
            if cancelled is None or not cancelled.is_set():
                self.send(message)

    def log(self, level, data):
        if self.rev and LEVELS.index(level) >= LEVELS.index(self.log_level):
            self.notify("notifications/message", {"level": level, "logger": "tasks", "data": data})

    def since(self, revision):
        return self.rev is not None and self.rev >= revision   # dates compare as strings

    def unreadable(self, code, message):
        """An error for a line whose id cannot be read. Only 2025-11-25's schema has an error
        response without an id; under the earlier revisions no valid MCP message can answer
        such a line, so it is only reported on stderr."""
        say("unreadable line: %s" % message)
        if self.rev == "2025-11-25":
            return {"jsonrpc": "2.0", "error": {"code": code, "message": message}}
        return None

    # -- the task list ------------------------------------------------------------------------

    def add(self, title, due=None):
        task = {"id": self.next_id, "title": title, "done": False}
        if due:
            task["due"] = due
        self.tasks[task["id"]] = task
        self.next_id += 1
        return task

    def changed(self, task_id):
        for uri in ("tasks://task/%d" % task_id, "tasks://summary"):
            if uri in self.subscriptions:
                self.notify("notifications/resources/updated", {"uri": uri})

    # -- reading ------------------------------------------------------------------------------

    def handle_line(self, raw):
        try:
            text = raw.decode("utf-8")
        except UnicodeDecodeError:
            reply = self.unreadable(PARSE_ERROR, "Parse error: the line is not UTF-8")
        else:
            if not text.strip():
                return
            try:
                message = json.loads(text)
            except (ValueError, RecursionError):
                reply = self.unreadable(PARSE_ERROR, "Parse error: the line is not JSON")
            else:
                reply = self.batch(message) if isinstance(message, list) \
                    else self.handle_message(message, inline=False)
        if reply is not None:
            self.send(reply)

    def batch(self, messages):
        if self.rev != "2025-03-26":
            return self.unreadable(INVALID_REQUEST, "Invalid Request: a JSON array is not a "
                                   "message in this revision")
        if not messages:
            return self.unreadable(INVALID_REQUEST, "Invalid Request: an empty batch")
        replies = [self.handle_message(m, inline=True) for m in messages]
        replies = [r for r in replies if r is not None]
        return replies or None

    def handle_message(self, msg, inline):
        if not isinstance(msg, dict):
            return self.unreadable(INVALID_REQUEST, "Invalid Request: not a JSON object")
        if "method" not in msg:
            if "result" in msg or "error" in msg:
                return None             # an answer to a request of ours: this server sends none
            if is_request_id(msg.get("id")):
                return self.error(msg["id"], RpcError(INVALID_REQUEST, "Invalid Request: no method"))
            return self.unreadable(INVALID_REQUEST, "Invalid Request: no method")
        if "id" not in msg:
            if msg.get("jsonrpc") == "2.0" and isinstance(msg["method"], str):
                self.notification(msg["method"], msg.get("params"))
            return None
        rid = msg["id"]
        if not is_request_id(rid):
            # null, 1.5, true, {}: no MCP id ("a string or integer ID"), so no response can
            # carry it (schema.json: RequestId is a string or an integer).
            return self.unreadable(INVALID_REQUEST,
                                   "Invalid Request: an id must be a string or an integer")
        if msg.get("jsonrpc") != "2.0" or not isinstance(msg["method"], str):
            return self.error(rid, RpcError(INVALID_REQUEST, 'Invalid Request: needs "jsonrpc": '
                                            '"2.0" and a string method'))
        params = msg.get("params", {})
        if not isinstance(params, dict):
            return self.error(rid, RpcError(INVALID_PARAMS, "Invalid params: not an object"))
        try:
            result = self.request(rid, msg["method"], params, inline)
        except RpcError as e:
            return self.error(rid, e)
        except Exception as e:          # a bug of ours must not stop the server
            say("internal error: %r" % e)
            return self.error(rid, RpcError(INTERNAL_ERROR, "Internal error"))
        if result is None:              # answered later by a worker thread
            return None
        return {"jsonrpc": "2.0", "id": rid, "result": result}

    @staticmethod
    def error(rid, e):
        return {"jsonrpc": "2.0", "id": rid, "error": e.body()}

    def notification(self, method, params):
        if method == "notifications/initialized":
            self.initialized = True
        elif method == "notifications/cancelled" and isinstance(params, dict):
            rid = params.get("requestId")
            if is_request_id(rid):
                with self.wire:
                    cancelled = self.inflight.get(id_key(rid))
                    if cancelled is not None:
                        cancelled.set()
                        say("request %r cancelled: %s" % (rid, params.get("reason", "no reason")))
        # Any other notification (unknown, list_changed of roots...) is ignored.

    # -- requests -----------------------------------------------------------------------------

    def request(self, rid, method, params, inline):
        if method == "initialize":
            return self.initialize(params)
        if method == "ping":
            return {}
        if self.rev is None:
            raise RpcError(INVALID_REQUEST, "Server not initialized: send initialize first")
        handler = {
            "tools/list": lambda p: self.page("tools", self.tool_list(), p),
            "tools/call": lambda p: self.call_tool(rid, p, inline),
            "resources/list": lambda p: self.page("resources", self.resource_list(), p),
            "resources/templates/list":
                lambda p: self.page("resourceTemplates", self.template_list(), p),
            "resources/read": self.read_resource,
            "resources/subscribe": self.subscribe,
            "resources/unsubscribe": self.unsubscribe,
            "prompts/list": lambda p: self.page("prompts", self.prompt_list(), p),
            "prompts/get": self.get_prompt,
            "logging/setLevel": self.set_level,
            "completion/complete": self.complete,
        }.get(method)
        if handler is None:
            raise RpcError(METHOD_NOT_FOUND, "Method not found: %s" % method)
        return handler(params)

    def initialize(self, params):
        if self.rev is not None:
            raise RpcError(INVALID_REQUEST, "initialize was already answered")
        requested = params.get("protocolVersion")
        if not isinstance(requested, str):
            raise RpcError(INVALID_PARAMS, "Invalid params: protocolVersion must be a string")
        self.rev = requested if requested in REVISIONS else REVISIONS[0]
        say("client asked for %s, speaking %s" % (requested, self.rev))
        caps = {"logging": {}, "prompts": {}, "resources": {"subscribe": True, "listChanged": True},
                "tools": {}}
        if self.since("2025-03-26"):
            caps["completions"] = {}
        info = {"name": "tasks-python", "version": "1.0.0"}
        if self.since("2025-06-18"):
            info["title"] = "Tasks (Python example)"
        if self.since("2025-11-25"):
            info["description"] = "A small to-do list served over stdio"
        return {"protocolVersion": self.rev, "capabilities": caps, "serverInfo": info,
                "instructions": "A to-do list. add_task adds, complete_task closes, list_tasks "
                                "lists; every task is also the resource tasks://task/{id}."}

    # -- pagination ---------------------------------------------------------------------------

    def page(self, key, items, params):
        start = 0
        if "cursor" in params:
            start = self.cursor_offset(key, params["cursor"], len(items))
        result = {key: items[start:start + PAGE_SIZE]}
        if start + PAGE_SIZE < len(items):
            token = "%s:%d" % (key, start + PAGE_SIZE)
            result["nextCursor"] = base64.urlsafe_b64encode(token.encode()).decode()
        return result

    @staticmethod
    def cursor_offset(key, cursor, count):
        try:
            kind, _, offset = base64.urlsafe_b64decode(cursor.encode("ascii")).decode().partition(":")
            offset = int(offset)
        except (AttributeError, ValueError, UnicodeError):
            kind, offset = None, -1
        if kind != key or offset <= 0 or offset % PAGE_SIZE or offset > count:
            raise RpcError(INVALID_PARAMS, "Invalid params: unknown cursor")
        return offset

    # -- tools --------------------------------------------------------------------------------

    TOOLS = [
        {"name": "add_task", "title": "Add a task",
         "description": "Add a task to the to-do list.",
         "inputSchema": {"type": "object", "properties": {
             "title": {"type": "string", "minLength": 1, "description": "What to do"},
             "due": {"type": "string", "pattern": r"^\d{4}-\d{2}-\d{2}$",
                     "description": "Due date, YYYY-MM-DD"}},
             "required": ["title"], "additionalProperties": False},
         "annotations": {"readOnlyHint": False, "destructiveHint": False,
                         "idempotentHint": False, "openWorldHint": False}},
        {"name": "list_tasks", "title": "List tasks",
         "description": "List the tasks, open ones by default.",
         "inputSchema": {"type": "object", "properties": {
             "status": {"type": "string", "enum": ["open", "done", "all"]}},
             "additionalProperties": False},
         "outputSchema": {"type": "object", "properties": {
             "tasks": {"type": "array", "items": {"type": "object", "properties": {
                 "id": {"type": "integer"}, "title": {"type": "string"},
                 "done": {"type": "boolean"}, "due": {"type": "string"}},
                 "required": ["id", "title", "done"]}},
             "count": {"type": "integer"}}, "required": ["tasks", "count"]},
         "annotations": {"readOnlyHint": True, "openWorldHint": False}},
        {"name": "complete_task", "title": "Complete a task",
         "description": "Mark a task as done.",
         "inputSchema": {"type": "object", "properties": {
             "id": {"type": "integer", "minimum": 1, "description": "The task's number"}},
             "required": ["id"], "additionalProperties": False},
         "annotations": {"readOnlyHint": False, "destructiveHint": False,
                         "idempotentHint": True, "openWorldHint": False}},
        {"name": "review_tasks", "title": "Review tasks",
         "description": "Review the list slowly, one step at a time (about a second); sends "
                        "progress when the request carries a progressToken.",
         "inputSchema": {"type": "object", "properties": {
             "steps": {"type": "integer", "minimum": 1, "maximum": 10},
             "step_ms": {"type": "integer", "minimum": 100, "maximum": 2000}},
             "additionalProperties": False},
         "annotations": {"readOnlyHint": True, "openWorldHint": False}},
    ]

    def tool_list(self):
        tools = []
        for tool in self.TOOLS:
            tool = dict(tool)
            if not self.since("2025-06-18"):   # title and outputSchema came in 2025-06-18
                tool.pop("title")
                tool.pop("outputSchema", None)
            if not self.since("2025-03-26"):   # tool annotations came in 2025-03-26
                tool.pop("annotations")
            tools.append(tool)
        return tools

    def call_tool(self, rid, params, inline):
        name, args = params.get("name"), params.get("arguments", {})
        if not isinstance(name, str) or not isinstance(args, dict):
            raise RpcError(INVALID_PARAMS, "Invalid params: needs a string name and an "
                                           "arguments object")
        tool = next((t for t in self.TOOLS if t["name"] == name), None)
        if tool is None:
            raise RpcError(INVALID_PARAMS, "Unknown tool: %s" % name)
        problem = schema_problem(tool["inputSchema"], args)
        if problem:
            # 2024-11-05 to 2025-06-18 list "Invalid arguments" under protocol errors;
            # 2025-11-25 lists "Input validation errors" under tool execution errors.
            if self.since("2025-11-25"):
                return self.tool_error("Invalid arguments: %s" % problem)
            raise RpcError(INVALID_PARAMS, "Invalid arguments: %s" % problem)
        now = time.monotonic()
        with self.data:
            self.calls = [t for t in self.calls if now - t < RATE_WINDOW_S] + [now]
            limited = len(self.calls) > RATE_MAX
        if limited:
            return self.tool_error("Rate limit: at most %d calls in %d s, try again later"
                                   % (RATE_MAX, RATE_WINDOW_S))
        if name == "review_tasks":
            token = (params.get("_meta") or {}).get("progressToken") \
                if isinstance(params.get("_meta"), dict) else None
            work = lambda cancelled: self.review(args, token, cancelled)
            if inline:                  # inside a batch: the answer belongs in the batch's array
                return work(threading.Event())
            self.in_background(rid, work)
            return None
        return getattr(self, "tool_" + name)(args)

    @staticmethod
    def tool_error(text):
        return {"content": [{"type": "text", "text": text}], "isError": True}

    def tool_add_task(self, args):
        if "due" in args:
            try:
                datetime.date.fromisoformat(args["due"])
            except ValueError:      # "Invalid input data": a tool execution error in every revision
                return self.tool_error("Invalid due date %s: no such day" % args["due"])
        with self.data:
            task = self.add(args["title"], args.get("due"))
        self.log("info", {"event": "task added", "id": task["id"]})
        self.notify("notifications/resources/list_changed")
        content = [{"type": "text", "text": "Added task #%d: %s" % (task["id"], task["title"])}]
        if self.since("2025-06-18"):
            content.append({"type": "resource_link", "uri": "tasks://task/%d" % task["id"],
                            "name": "task-%d" % task["id"], "mimeType": "application/json"})
        return {"content": content}

    def tool_list_tasks(self, args):
        status = args.get("status", "open")
        with self.data:
            chosen = [dict(t) for t in self.tasks.values()
                      if status == "all" or t["done"] == (status == "done")]
        if self.since("2025-06-18"):
            structured = {"tasks": chosen, "count": len(chosen)}
            return {"content": [{"type": "text", "text": json.dumps(structured, ensure_ascii=False)}],
                    "structuredContent": structured}
        lines = ["#%d [%s] %s%s" % (t["id"], "x" if t["done"] else " ", t["title"],
                                    " (due %s)" % t["due"] if "due" in t else "") for t in chosen]
        return {"content": [{"type": "text", "text": "\n".join(lines) or "No %s tasks." % status}]}

    def tool_complete_task(self, args):
        with self.data:
            task = self.tasks.get(args["id"])
            was_done = task is not None and task["done"]
            if task is not None:
                task["done"] = True
        if task is None:
            return self.tool_error("There is no task #%d." % args["id"])
        if was_done:
            return {"content": [{"type": "text", "text": "Task #%d was already done." % task["id"]}]}
        self.log("info", {"event": "task completed", "id": task["id"]})
        self.changed(task["id"])
        return {"content": [{"type": "text", "text": "Completed task #%d: %s"
                             % (task["id"], task["title"])}]}

    def review(self, args, token, cancelled):
        steps, step_s = args.get("steps", 2), args.get("step_ms", 600) / 1000.0
        for step in range(1, steps + 1):
            if cancelled.wait(step_s):
                return None
            if token is not None and is_request_id(token):
                progress = {"progressToken": token, "progress": step, "total": steps}
                if self.since("2025-03-26"):
                    progress["message"] = "Reviewed part %d of %d" % (step, steps)
                self.notify("notifications/progress", progress, cancelled)
        with self.data:
            done = sum(1 for t in self.tasks.values() if t["done"])
            total = len(self.tasks)
        self.log("debug", {"event": "review finished", "steps": steps})
        return {"content": [{"type": "text", "text": "Reviewed %d tasks: %d open, %d done."
                             % (total, total - done, done)}]}

    def in_background(self, rid, work):
        cancelled = threading.Event()
        with self.wire:
            self.inflight[id_key(rid)] = cancelled

        def run():
            try:
                reply = {"jsonrpc": "2.0", "id": rid, "result": work(cancelled)}
            except Exception as e:
                say("internal error: %r" % e)
                reply = self.error(rid, RpcError(INTERNAL_ERROR, "Internal error"))
            with self.wire:
                del self.inflight[id_key(rid)]
                if not cancelled.is_set():      # a cancelled request gets no answer
                    self.send(reply)

        threading.Thread(target=run, daemon=True).start()

    # -- resources ----------------------------------------------------------------------------

    def resource_list(self):
        items = [{"uri": "tasks://summary", "name": "summary", "title": "Task summary",
                  "description": "Every task, as Markdown", "mimeType": "text/markdown"}]
        with self.data:
            for t in self.tasks.values():
                items.append({"uri": "tasks://task/%d" % t["id"], "name": "task-%d" % t["id"],
                              "title": t["title"], "mimeType": "application/json"})
        if not self.since("2025-06-18"):
            for item in items:
                item.pop("title")
        return items

    def template_list(self):
        template = {"uriTemplate": "tasks://task/{id}", "name": "task", "title": "A task by number",
                    "description": "One task as JSON", "mimeType": "application/json"}
        if not self.since("2025-06-18"):
            template.pop("title")
        return [template]

    def resource_text(self, uri):
        """(mimeType, text) of a resource, or None when there is no such resource."""
        with self.data:
            if uri == "tasks://summary":
                lines = ["# Tasks", ""] + ["- [%s] #%d %s" % ("x" if t["done"] else " ", t["id"],
                                                              t["title"]) for t in self.tasks.values()]
                return "text/markdown", "\n".join(lines) + "\n"
            match = re.fullmatch(r"tasks://task/([1-9][0-9]{0,8})", uri)
            task = self.tasks.get(int(match.group(1))) if match else None
            if task is None:
                return None
            return "application/json", json.dumps(task, ensure_ascii=False)

    def known_uri(self, params):
        uri = params.get("uri")
        if not isinstance(uri, str):
            raise RpcError(INVALID_PARAMS, "Invalid params: uri must be a string")
        found = self.resource_text(uri)
        if found is None:
            raise RpcError(RESOURCE_NOT_FOUND, "Resource not found", {"uri": uri})
        return uri, found

    def read_resource(self, params):
        uri, (mime, text) = self.known_uri(params)
        return {"contents": [{"uri": uri, "mimeType": mime, "text": text}]}

    def subscribe(self, params):
        uri, _ = self.known_uri(params)
        self.subscriptions.add(uri)
        return {}

    def unsubscribe(self, params):
        uri = params.get("uri")
        if not isinstance(uri, str):
            raise RpcError(INVALID_PARAMS, "Invalid params: uri must be a string")
        self.subscriptions.discard(uri)
        return {}

    # -- prompts ------------------------------------------------------------------------------

    PROMPTS = [
        {"name": "plan_day", "title": "Plan my day",
         "description": "Plan the day around a focus, from the open tasks.",
         "arguments": [{"name": "focus", "description": "What the day is about (work, home...)",
                        "required": True},
                       {"name": "hours", "description": "Hours available", "required": False}]},
        {"name": "review_task", "title": "Review one task",
         "description": "Ask for advice on one task.",
         "arguments": [{"name": "id", "description": "The task's number", "required": True}]},
    ]
    FOCUSES = ["errands", "family", "health", "home", "paperwork", "work"]

    def prompt_list(self):
        prompts = json.loads(json.dumps(self.PROMPTS))
        if not self.since("2025-06-18"):
            for p in prompts:
                p.pop("title")
        return prompts

    def find_prompt(self, name):
        prompt = next((p for p in self.PROMPTS if p["name"] == name), None)
        if prompt is None:
            raise RpcError(INVALID_PARAMS, "Invalid params: unknown prompt %r" % (name,))
        return prompt

    def get_prompt(self, params):
        prompt = self.find_prompt(params.get("name"))
        args = params.get("arguments", {})
        if not isinstance(args, dict) or not all(isinstance(v, str) for v in args.values()):
            raise RpcError(INVALID_PARAMS, "Invalid params: arguments must be strings")
        for arg in prompt["arguments"]:
            if arg["required"] and not args.get(arg["name"]):
                raise RpcError(INVALID_PARAMS, "Invalid params: missing argument %s" % arg["name"])
        if prompt["name"] == "plan_day":
            hours = args.get("hours")
            text = "Plan my day around %s%s. Use the open tasks below; say what to do first." % (
                args["focus"], " with %s hours available" % hours if hours else "")
            uri = "tasks://summary"
        else:
            uri = "tasks://task/%s" % args["id"]
            text = "Help me get task %s done: break it into small steps." % args["id"]
        found = self.resource_text(uri)
        if found is None:
            raise RpcError(INVALID_PARAMS, "Invalid params: there is no task %s" % args["id"])
        return {"description": prompt["description"], "messages": [
            {"role": "user", "content": {"type": "text", "text": text}},
            {"role": "user", "content": {"type": "resource", "resource": {
                "uri": uri, "mimeType": found[0], "text": found[1]}}}]}

    # -- logging and completion ---------------------------------------------------------------

    def set_level(self, params):
        level = params.get("level")
        if level not in LEVELS:
            raise RpcError(INVALID_PARAMS, "Invalid params: level must be one of %s"
                           % ", ".join(LEVELS))
        self.log_level = level
        return {}

    def complete(self, params):
        ref, argument = params.get("ref"), params.get("argument")
        if not isinstance(ref, dict) or not isinstance(argument, dict) \
                or not isinstance(argument.get("name"), str) \
                or not isinstance(argument.get("value"), str):
            raise RpcError(INVALID_PARAMS, "Invalid params: needs ref and argument {name, value}")
        name, value = argument["name"], argument["value"]
        with self.data:
            ids = [str(t["id"]) for t in self.tasks.values()]
        if ref.get("type") == "ref/prompt":
            prompt = self.find_prompt(ref.get("name"))
            choices = {"focus": self.FOCUSES, "hours": ["1", "2", "4", "8"], "id": ids}
            if name not in [a["name"] for a in prompt["arguments"]]:
                raise RpcError(INVALID_PARAMS, "Invalid params: prompt %s has no argument %s"
                               % (prompt["name"], name))
            candidates = choices[name]
        elif ref.get("type") == "ref/resource":
            if ref.get("uri") != "tasks://task/{id}" or name != "id":
                raise RpcError(INVALID_PARAMS, "Invalid params: no such template argument")
            candidates = ids
        else:
            raise RpcError(INVALID_PARAMS, "Invalid params: ref.type must be ref/prompt or "
                                           "ref/resource")
        values = [c for c in candidates if c.lower().startswith(value.lower())]
        return {"completion": {"values": values[:100], "total": len(values),
                               "hasMore": len(values) > 100}}


def main():
    server = TaskServer()
    stdin = sys.stdin.buffer
    while True:
        try:
            line = stdin.readline()
        except OSError:
            break
        if not line:
            break                       # the client closed our stdin: shut down
        if not line.endswith(b"\n"):
            break                       # an unterminated last line is no message
        server.handle_line(line[:-1])
    say("stdin closed, exiting")


if __name__ == "__main__":
    # A valid message may nest 10,000 deep: read on a thread with room for json's recursion.
    sys.setrecursionlimit(30000)
    threading.stack_size(128 * 1024 * 1024)
    reader = threading.Thread(target=main)
    reader.start()
    reader.join()
    sys.stdout.flush()
