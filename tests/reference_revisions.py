#!/usr/bin/env python3
"""The MCP reference server answers each revision as that revision's official schema says.

fixtures/mcp-stdio/reference/server is dual-era: it speaks four legacy revisions (2024-11-05,
2025-03-26, 2025-06-18, 2025-11-25: initialize answers the one asked for, and the server then
serves what that revision has) and the modern one, 2026-07-28 (no handshake: every request
carries its version and capabilities in _meta). This test runs it in three modes, each from a
copy in a temporary folder with a `faults` file naming the mode: the default (dual-era),
`legacy-only` and `modern-only`.

Legacy, one process per revision, one fixed conversation:

    initialize (asking for the revision), notifications/initialized, tools/list (every page),
    tools/call of every listed tool (arguments made from its inputSchema, a progressToken on
    each; the tools that ask the client get their answer), resources/list, resources/read of
    each resource, of one instance of the template and of an unknown URI,
    resources/templates/list, prompts/list, prompts/get of each prompt, completion/complete
    (every revision has the request; 2024-11-05 has no capability for it), logging/setLevel,
    ping, a JSON-RPC batch [ping, tools/list] and a ping after it.

Everything the server writes is validated against SCHEMA_DIR/<REV>/schema.json (draft-07 up to
2025-06-18, 2020-12 from 2025-11-25), the definition resolved in that revision's own document:

- each response's envelope (JSONRPCResponse / JSONRPCError, 2025-11-25's JSONRPCResultResponse /
  JSONRPCErrorResponse) and its result against the request's *Result definition
  (InitializeResult, ListToolsResult, CallToolResult, ListResourcesResult, ReadResourceResult,
  ListResourceTemplatesResult, ListPromptsResult, GetPromptResult, CompleteResult, EmptyResult);
- each notification against JSONRPCNotification and ServerNotification, each request the server
  sends against JSONRPCRequest and ServerRequest;
- leanness: every schema here allows unknown members, so the schema alone would let a 2024-11-05
  server send `title` or `outputSchema`. Tool, ToolAnnotations, Resource, ResourceTemplate,
  Prompt, PromptArgument, Implementation, ServerCapabilities, CallToolResult, the content blocks,
  the resource contents, the progress notification's params and the elicitation request's
  params may hold only the members their definition in that revision lists.

And what the texts say of this conversation: initialize answers the revision asked for (Basic ›
Lifecycle › Version Negotiation); a read of an unknown resource is error -32002 (Server Features
› Resources › Error Handling, the same in all four); a tool with an outputSchema answers
structuredContent that conforms to it (2025-06-18 on, Server Features › Tools › Output Schema);
the batch is answered with one array holding both responses under 2025-03-26 (Basic › Messages ›
Batching: implementations MUST support receiving batches) and not at all under the others, which
have none; after stdin closes the server exits.

Modern (2026-07-28), one process, every request with _meta (protocolVersion, clientInfo,
clientCapabilities with roots, sampling and form elicitation):

    server/discover (supportedVersions: all five, or only 2026-07-28 in modern-only); the same
    without protocolVersion, without clientCapabilities, without _meta, and tools/list without
    params (-32602 each); one in version 1999-01-01 (-32022 whose data.supported is what
    discover listed, data.requested 1999-01-01); one with logLevel "verbose" (-32602); ping,
    logging/setLevel, resources/subscribe (-32601); tools/list (every page) twice, the same
    order; an invalid cursor (-32602); every tool called, the ones answering input_required
    retried with inputResponses and requestState until complete; emit_logs with logLevel info
    (log messages at info and error only); ask_user with clientCapabilities {roots} (-32021
    naming elicitation); a retry with a tampered requestState (-32602); an unknown tool
    (-32602); a sleep cancelled after its first progress (nothing more for it); resources,
    templates, each read, an unknown URI (-32602, not -32002); prompts, each get, an unknown
    prompt (-32602); completion/complete; subscriptions/listen (acknowledged first, with its
    subscriptionId), touch_resource (notifications/resources/updated on it), cancelled, touched
    again (nothing more on it).

Each message is validated against 2026-07-28's schema.json: results against their *Result (or
InputRequiredResult, allowed on tools/call, resources/read and prompts/get only, with
inputRequests or requestState), errors against UnsupportedProtocolVersionError,
MissingRequiredClientCapabilityError, InvalidParamsError, MethodNotFoundError, notifications
against ServerNotification; every result has resultType and _meta serverInfo, the cacheable ones
ttlMs and cacheScope (one scope across pages); no JSON-RPC request ever comes; notifications/
message only for a request with logLevel, at or above it; progress only for the token of the
request in flight; leanness as above.

Also: in the default mode, one process holding both eras (initialize 2025-11-25, then a modern
server/discover, then legacy tools/list and ping); in legacy-only, server/discover before
initialize is -32601 and the legacy conversations run as above; in modern-only, initialize is
refused with an error naming 2026-07-28, and the modern conversation runs.

Usage: reference_revisions.py SERVER SCHEMA_DIR   (SCHEMA_DIR: the folder of <REV>/schema.json)
Prints `MODE REV: problem` per problem, then a summary; exit 0 when all hold, 1 with problems, 2
on bad input.
"""

import json
import os
import pathlib
import queue
import shutil
import subprocess
import sys
import tempfile
import threading
import time

import jsonschema

REVISIONS = ["2024-11-05", "2025-03-26", "2025-06-18", "2025-11-25"]
ANSWER_TIMEOUT_S = 15.0  # the slowest call is the sleep tool (0 s here) or a client round trip

RESULT_OF = {  # request method -> the definition its result must match
    "initialize": "InitializeResult",
    "tools/list": "ListToolsResult",
    "tools/call": "CallToolResult",
    "resources/list": "ListResourcesResult",
    "resources/read": "ReadResourceResult",
    "resources/templates/list": "ListResourceTemplatesResult",
    "prompts/list": "ListPromptsResult",
    "prompts/get": "GetPromptResult",
    "completion/complete": "CompleteResult",
    "logging/setLevel": "EmptyResult",
    "ping": "EmptyResult",
}
CONTENT_DEFINITION = {"text": "TextContent", "image": "ImageContent", "audio": "AudioContent",
                      "resource_link": "ResourceLink", "resource": "EmbeddedResource"}


class Schema:
    """One revision's official schema: validation against a definition, and its members."""

    def __init__(self, path):
        self.doc = json.loads(path.read_text(encoding="utf-8"))
        self.defs_key = "$defs" if "$defs" in self.doc else "definitions"
        self.defs = self.doc[self.defs_key]
        self.cls = jsonschema.validators.validator_for(self.doc)
        self.cls.check_schema(self.doc)

    def has(self, name):
        return name in self.defs

    def errors(self, instance, name):
        """Problems of `instance` as the definition `name`, resolved in this document."""
        root = dict(self.doc)
        root["$ref"] = "#/%s/%s" % (self.defs_key, name)
        validator = self.cls(root)
        return ["%s at /%s" % (e.message[:300], "/".join(str(p) for p in e.absolute_path))
                for e in validator.iter_errors(instance)]

    def members(self, name, *path):
        """The property names of a definition (or of a nested object in it, by `path`)."""
        node = self.defs[name]
        for key in path:
            node = node["properties"][key]
            if "$ref" in node:
                node = self.defs[node["$ref"].rsplit("/", 1)[1]]
        return set(node.get("properties", {}))


class Conversation:
    """One server process, one revision; collects problems instead of stopping."""

    def __init__(self, server, revision, schema, label=None):
        self.revision = revision
        self.label = label or revision
        self.schema = schema
        self.problems = []
        self.checked = 0
        self.next_id = 0
        self.inbox = queue.Queue()
        self.notifications = []
        self.stderr = tempfile.TemporaryFile()
        self.proc = subprocess.Popen([sys.executable, "-I", server], stdin=subprocess.PIPE,
                                     stdout=subprocess.PIPE, stderr=self.stderr)
        threading.Thread(target=self._read, daemon=True).start()

    def problem(self, text):
        self.problems.append("%s: %s" % (self.label, text))

    def _read(self):
        for line in self.proc.stdout:
            self.inbox.put(line)
        self.inbox.put(None)

    def write(self, msg):
        self.proc.stdin.write((json.dumps(msg) + "\n").encode("utf-8"))
        self.proc.stdin.flush()

    def validate(self, instance, name, what):
        self.checked += 1
        for e in self.schema.errors(instance, name):
            self.problem("%s is no %s: %s" % (what, name, e))

    def lean(self, obj, name, what, *path):
        """obj holds only members the definition lists (this revision's schema)."""
        if not isinstance(obj, dict) or not self.schema.has(name):
            return
        self.checked += 1
        extra = sorted(set(obj) - self.schema.members(name, *path))
        if extra:
            self.problem("%s has %s, which %s's %s does not have" % (
                what, ", ".join(extra), self.revision, ".".join((name,) + path)))

    # ------------------------------------------------------------------ reading what arrives

    def next_message(self, deadline_what):
        try:
            line = self.inbox.get(timeout=ANSWER_TIMEOUT_S)
        except queue.Empty:
            self.problem("no answer within %g s to %s" % (ANSWER_TIMEOUT_S, deadline_what))
            return None
        if line is None:
            self.problem("the server closed stdout waiting for %s" % deadline_what)
            return None
        try:
            return json.loads(line)
        except ValueError:
            self.problem("a line that is not JSON: %r" % line[:200])
            return {}

    def receive(self, want_id, what):
        """Reads until the response to want_id (or an array, for a batch) arrives."""
        while True:
            msg = self.next_message(what)
            if msg is None:
                return None
            if isinstance(msg, list):
                if want_id == "batch":
                    return msg
                self.problem("an array arrived while waiting for %s: %s" % (what, json.dumps(msg)[:200]))
                continue
            if not isinstance(msg, dict):
                self.problem("a message that is no object: %s" % json.dumps(msg)[:200])
                continue
            if "method" in msg and "id" in msg:
                self.answer_server_request(msg)
            elif "method" in msg:
                self.check_notification(msg)
            elif msg.get("id") == want_id:
                return msg
            else:
                self.problem("a response to no request of ours: %s" % json.dumps(msg)[:200])

    def check_envelope(self, msg, what):
        if "error" in msg:
            self.validate(msg, "JSONRPCError" if self.schema.has("JSONRPCError")
                          else "JSONRPCErrorResponse", what)
        else:
            self.validate(msg, "JSONRPCResultResponse" if self.schema.has("JSONRPCResultResponse")
                          else "JSONRPCResponse", what)

    def check_notification(self, msg):
        what = "notification %s" % msg.get("method")
        self.validate(msg, "JSONRPCNotification", what)
        self.validate(msg, "ServerNotification", what)
        if msg.get("method") == "notifications/progress":
            self.lean(msg.get("params"), "ProgressNotification", what + " params", "params")
        self.notifications.append(msg)

    def answer_server_request(self, msg):
        method = msg.get("method")
        what = "the server's request %s" % method
        self.validate(msg, "JSONRPCRequest", what)
        self.validate(msg, "ServerRequest", what)
        params = msg.get("params") or {}
        if method == "roots/list":
            result = {"roots": [{"uri": "file:///tmp/fakehost-roots", "name": "roots"}]}
        elif method == "sampling/createMessage":
            result = {"role": "assistant", "content": {"type": "text", "text": "A summary."},
                      "model": "test-model", "stopReason": "endTurn"}
        elif method == "elicitation/create":
            if self.schema.has("ElicitRequestFormParams"):
                if params.get("mode", "form") == "form":
                    self.lean(params, "ElicitRequestFormParams", what + " params")
            else:
                self.lean(params, "ElicitRequest", what + " params", "params")
            result = {"action": "accept", "content": {"colour": "blue"}}
        else:
            self.write({"jsonrpc": "2.0", "id": msg.get("id"),
                        "error": {"code": -32601, "message": "Method not found"}})
            return
        self.write({"jsonrpc": "2.0", "id": msg.get("id"), "result": result})

    # ------------------------------------------------------------------ requests

    def request(self, method, params=None, expect_error=None):
        """Sends a request and checks its answer; returns the result (None on an error)."""
        self.next_id += 1
        rid = self.next_id
        msg = {"jsonrpc": "2.0", "id": rid, "method": method}
        if params is not None:
            msg["params"] = params
        self.write(msg)
        what = "%s %s" % (method, json.dumps(params, sort_keys=True)[:120] if params else "")
        response = self.receive(rid, what.strip())
        if response is None:
            return None
        self.check_envelope(response, "the answer to " + what)
        if expect_error is not None:
            code = response.get("error", {}).get("code") if isinstance(response.get("error"), dict) else None
            if code != expect_error:
                self.problem("%s: wanted error %d, got %s" % (what, expect_error, json.dumps(response)[:200]))
            return None
        if "result" not in response:
            self.problem("%s: an error: %s" % (what, json.dumps(response.get("error"))[:200]))
            return None
        self.validate(response["result"], RESULT_OF[method], "the result of " + what)
        return response["result"]

    def list_all(self, method, key):
        items, params = [], {}
        for _ in range(20):
            result = self.request(method, params)
            if result is None:
                break
            items += result.get(key, [])
            if "nextCursor" not in result:
                break
            params = {"cursor": result["nextCursor"]}
        return items

    # ------------------------------------------------------------------ leanness of results

    def lean_content(self, block, what):
        name = CONTENT_DEFINITION.get(block.get("type") if isinstance(block, dict) else None)
        if name is None or not self.schema.has(name):
            return  # the schema check already refused it
        self.lean(block, name, what)
        if name == "EmbeddedResource":
            self.lean_contents(block.get("resource"), what + " resource")

    def lean_contents(self, contents, what):
        if isinstance(contents, dict):
            self.lean(contents, "BlobResourceContents" if "blob" in contents else "TextResourceContents", what)


def arguments_for(schema):
    """Arguments that satisfy a tool's inputSchema: every required member, the lowest value."""
    args = {}
    props = schema.get("properties", {}) if isinstance(schema, dict) else {}
    for name in schema.get("required", []) if isinstance(schema, dict) else []:
        prop = props.get(name, {})
        kind = prop.get("type")
        if kind in ("number", "integer"):
            args[name] = prop.get("minimum", 1)
        elif kind == "boolean":
            args[name] = True
        else:
            args[name] = "Oslo"
    return args


def converse(server, revision, schema, label=None, driver=None, cls=None):
    c = (cls or Conversation)(server, revision, schema, label)
    try:
        (driver or drive)(c)
    finally:
        try:
            c.proc.stdin.close()
        except OSError:
            pass
        try:
            c.proc.wait(timeout=5)
        except subprocess.TimeoutExpired:
            c.problem("still running 5 s after stdin closed")
            c.proc.kill()
            c.proc.wait()
        if c.problems:
            c.stderr.seek(0)
            tail = c.stderr.read().decode("utf-8", "replace").strip().splitlines()[-5:]
            c.problems += ["%s: (server stderr) %s" % (c.label, line) for line in tail]
    return c


def walk_resources(c, ask, list_all, unknown_code):
    """resources/list and resources/templates/list (every page, each item lean), a read of each
    resource and of one instance of each template with {id}, and a read of an unknown URI, which
    must get error `unknown_code`. `ask` and `list_all` send in the conversation's era."""
    resources = list_all("resources/list", "resources")
    for r in resources:
        c.lean(r, "Resource", "resource %s" % r.get("uri"))
    templates = list_all("resources/templates/list", "resourceTemplates")
    for t in templates:
        c.lean(t, "ResourceTemplate", "resource template %s" % t.get("uriTemplate"))
    uris = [r.get("uri") for r in resources]
    uris += [t["uriTemplate"].replace("{id}", "1") for t in templates if "{id}" in t.get("uriTemplate", "")]
    for uri in uris:
        result = ask("resources/read", {"uri": uri})
        for contents in (result or {}).get("contents", []):
            c.lean_contents(contents, "the contents of %s" % uri)
    ask("resources/read", {"uri": "fakehost://reference/no-such-resource"}, expect_error=unknown_code)


def walk_prompts(c, ask, list_all):
    """prompts/list (every page, each prompt and argument lean) and a prompts/get of each prompt
    with its required arguments (each message and its content lean): the prompts listed."""
    prompts = list_all("prompts/list", "prompts")
    for p in prompts:
        c.lean(p, "Prompt", "prompt %s" % p.get("name"))
        for a in p.get("arguments", []):
            c.lean(a, "PromptArgument", "argument %s of prompt %s" % (a.get("name"), p.get("name")))
    for p in prompts:
        args = {a["name"]: "Ada" for a in p.get("arguments", []) if a.get("required")}
        result = ask("prompts/get", {"name": p.get("name"), "arguments": args})
        for m in (result or {}).get("messages", []):
            c.lean(m, "PromptMessage", "a message of prompt %s" % p.get("name"))
            c.lean_content(m.get("content"), "the content of a message of prompt %s" % p.get("name"))
    return prompts


def drive(c):
    rev, schema = c.revision, c.schema
    client_caps = {"roots": {"listChanged": True}, "sampling": {}}
    if "elicitation" in schema.members("ClientCapabilities"):
        client_caps["elicitation"] = {"form": {}} if schema.has("ElicitRequestFormParams") else {}
    init = c.request("initialize", {"protocolVersion": rev, "capabilities": client_caps,
                                    "clientInfo": {"name": "reference-revisions", "version": "1"}})
    if init is None:
        return
    if init.get("protocolVersion") != rev:
        c.problem("initialize asked for %s and was answered %s" % (rev, init.get("protocolVersion")))
    c.lean(init.get("serverInfo"), "Implementation", "serverInfo")
    caps = init.get("capabilities", {})
    c.lean(caps, "ServerCapabilities", "capabilities")
    c.write({"jsonrpc": "2.0", "method": "notifications/initialized"})

    tools = c.list_all("tools/list", "tools")
    for tool in tools:
        name = tool.get("name")
        c.lean(tool, "Tool", "tool %s" % name)
        c.lean(tool.get("annotations"), "ToolAnnotations", "tool %s annotations" % name)
    for i, tool in enumerate(tools):
        name = tool.get("name")
        result = c.request("tools/call", {"name": name, "arguments": arguments_for(tool.get("inputSchema")),
                                          "_meta": {"progressToken": "progress-%d" % i}})
        if result is None:
            continue
        c.lean(result, "CallToolResult", "the result of tool %s" % name)
        for block in result.get("content", []):
            c.lean_content(block, "a content block of tool %s" % name)
        if result.get("isError"):
            c.problem("tool %s answered isError: %s" % (name, json.dumps(result)[:200]))
        if "outputSchema" in tool:
            if "structuredContent" not in result:
                c.problem("tool %s has an outputSchema but answered no structuredContent" % name)
            else:
                validator = jsonschema.validators.validator_for(tool["outputSchema"])(tool["outputSchema"])
                for e in validator.iter_errors(result["structuredContent"]):
                    c.problem("tool %s: structuredContent does not conform to its outputSchema: %s"
                              % (name, e.message))

    if "resources" in caps:
        walk_resources(c, c.request, c.list_all, -32002)
    else:
        c.problem("the resources capability is not declared")

    if "prompts" in caps:
        prompts = walk_prompts(c, c.request, c.list_all)
        # completion/complete is a request of all four revisions; the capability for it came
        # with 2025-03-26 (whether the server may declare it, the capabilities leanness says).
        if "completions" in schema.members("ServerCapabilities") and "completions" not in caps:
            c.problem("completions is not declared, though %s has the capability" % rev)
        if prompts and schema.has("CompleteRequest"):
            p = prompts[0]
            argument = (p.get("arguments") or [{"name": "name"}])[0]["name"]
            c.request("completion/complete", {"ref": {"type": "ref/prompt", "name": p.get("name")},
                                              "argument": {"name": argument, "value": "n"}})
    else:
        c.problem("the prompts capability is not declared")

    if "logging" in caps:
        c.request("logging/setLevel", {"level": "debug"})
    c.request("ping")

    # A batch: answered with an array under 2025-03-26 only.
    c.write([{"jsonrpc": "2.0", "id": "batch-ping", "method": "ping"},
             {"jsonrpc": "2.0", "id": "batch-tools", "method": "tools/list"}])
    if rev == "2025-03-26":
        batch = c.receive("batch", "the batch [ping, tools/list]")
        if batch is not None:
            c.validate(batch, "JSONRPCBatchResponse", "the answer to the batch")
            by_id = {m.get("id"): m for m in batch if isinstance(m, dict)}
            if sorted(by_id) != ["batch-ping", "batch-tools"] or len(batch) != 2:
                c.problem("the batch was answered %s, not with the two responses" % json.dumps(batch)[:200])
            for rid, method in (("batch-ping", "ping"), ("batch-tools", "tools/list")):
                if "result" in by_id.get(rid, {}):
                    c.validate(by_id[rid]["result"], RESULT_OF[method], "the batched %s's result" % method)
        c.request("ping")
    else:
        c.request("ping")  # an array before this answer is reported by receive()


# ---------------------------------------------------------------------------------- the modern era

MODERN = "2026-07-28"
META = "io.modelcontextprotocol/"
MODERN_RESULT_OF = {
    "server/discover": "DiscoverResult",
    "tools/list": "ListToolsResult",
    "tools/call": "CallToolResult",
    "resources/list": "ListResourcesResult",
    "resources/read": "ReadResourceResult",
    "resources/templates/list": "ListResourceTemplatesResult",
    "prompts/list": "ListPromptsResult",
    "prompts/get": "GetPromptResult",
    "completion/complete": "CompleteResult",
}
# Basic › Message Patterns › Multi Round-Trip Requests › Supported Requests
INPUT_REQUIRED_ALLOWED = ("tools/call", "resources/read", "prompts/get")
# Server Features › Utilities › Caching › Cacheable Results
CACHEABLE = ("server/discover", "tools/list", "prompts/list", "resources/list",
             "resources/templates/list", "resources/read")
ERROR_DEFINITION = {-32022: "UnsupportedProtocolVersionError",
                    -32021: "MissingRequiredClientCapabilityError",
                    -32602: "InvalidParamsError", -32601: "MethodNotFoundError"}
LEVELS = ["debug", "info", "notice", "warning", "error", "critical", "alert", "emergency"]
FULL_CAPS = {"roots": {}, "sampling": {}, "elicitation": {"form": {}}}


def modern_meta(caps=None, **extra):
    meta = {META + "protocolVersion": MODERN,
            META + "clientInfo": {"name": "reference-revisions", "version": "1"},
            META + "clientCapabilities": FULL_CAPS if caps is None else caps}
    meta.update({META + k: v for k, v in extra.items()})
    return meta


class ModernConversation(Conversation):
    """One server process spoken to as 2026-07-28: every request carries its _meta, nothing of
    the legacy era is sent, and what arrives is judged by 2026-07-28's text and schema."""

    def __init__(self, server, revision, schema, label=None):
        super().__init__(server, revision, schema, label)
        self.awaiting = None  # (id, method, logLevel, progressToken) of the request in flight
        self.subscriptions = {}  # open subscriptions/listen id -> ["acknowledged", ...]
        self.closed_subscriptions = set()
        self.answered_tokens = set()
        self.log_notes = []  # notifications/message seen while awaiting the last request

    def answer_server_request(self, msg):
        # 'The server MUST NOT write JSON-RPC requests to stdout.' (Basic › Transports › stdio)
        self.problem("the server wrote a JSON-RPC request (%s): %s" % (msg.get("method"), json.dumps(msg)[:200]))

    def check_notification(self, msg):
        what = "notification %s" % msg.get("method")
        self.validate(msg, "JSONRPCNotification", what)
        self.validate(msg, "ServerNotification", what)
        self.notifications.append(msg)
        method, params = msg.get("method"), msg.get("params") or {}
        meta = params.get("_meta") or {}
        sub = meta.get(META + "subscriptionId")
        if method == "notifications/subscriptions/acknowledged":
            if sub not in self.subscriptions:
                self.problem("an acknowledgement for no open subscriptions/listen: %s" % json.dumps(msg)[:200])
            elif self.subscriptions[sub]:
                self.problem("subscription %s acknowledged twice, or after a notification" % sub)
            else:
                self.subscriptions[sub].append(method)
            return
        if method in ("notifications/resources/updated", "notifications/tools/list_changed",
                      "notifications/prompts/list_changed", "notifications/resources/list_changed"):
            # 'All notifications delivered on the stream carry io.modelcontextprotocol/subscriptionId'
            if sub is None:
                self.problem("%s without io.modelcontextprotocol/subscriptionId" % what)
            elif sub in self.closed_subscriptions:
                self.problem("%s for subscription %s after it was cancelled" % (what, sub))
            elif not self.subscriptions.get(sub):
                self.problem("%s on subscription %s before its acknowledgement" % (what, sub))
            else:
                self.subscriptions[sub].append(method)
            return
        rid, _, level, token = self.awaiting or (None, None, None, None)
        if method == "notifications/message":
            # 'The server MUST NOT emit notifications/message for a request that does not
            # include this field.' ... 'at or above the requested level'
            self.log_notes.append(params.get("level"))
            if level is None:
                self.problem("notifications/message for a request without logLevel: %s" % json.dumps(msg)[:200])
            elif params.get("level") in LEVELS and LEVELS.index(params["level"]) < LEVELS.index(level):
                self.problem("notifications/message at %s below the level asked, %s" % (params["level"], level))
        elif method == "notifications/progress":
            tok = params.get("progressToken")
            if tok in self.answered_tokens:
                self.problem("notifications/progress for token %s after its request was answered" % tok)
            elif tok != token:
                self.problem("notifications/progress for token %s, which no request in flight gave" % tok)
        elif method == "notifications/cancelled":
            self.problem("notifications/cancelled for %s, which is no subscription the server tore down"
                         % params.get("requestId"))

    def send(self, method, params, rid=None):
        self.next_id += 1
        rid = rid if rid is not None else "m-%d" % self.next_id
        msg = {"jsonrpc": "2.0", "id": rid, "method": method}
        if params is not None:
            msg["params"] = params
        self.write(msg)
        return rid

    def mrequest(self, method, params=None, caps=None, expect_error=None, meta=None, **meta_extra):
        """A modern request: params with _meta (meta=False: params as given); returns the
        result, or the error object when expect_error is given."""
        params = dict(params or {})
        if meta is None:
            params["_meta"] = dict(modern_meta(caps, **meta_extra), **params.get("_meta", {}))
        level = (params.get("_meta") or {}).get(META + "logLevel")
        token = (params.get("_meta") or {}).get("progressToken")
        self.next_id += 1
        rid = "m-%d" % self.next_id
        self.awaiting = (rid, method, level, token)
        self.log_notes = []
        self.write({"jsonrpc": "2.0", "id": rid, "method": method, "params": params})
        what = "%s %s" % (method, json.dumps({k: v for k, v in params.items() if k != "_meta"}, sort_keys=True)[:120])
        response = self.receive(rid, what)
        self.awaiting = None
        if token is not None:
            self.answered_tokens.add(token)
        if response is None:
            return None
        if "error" in response:
            self.validate(response, "JSONRPCErrorResponse", "the answer to " + what)
            code = response["error"].get("code") if isinstance(response["error"], dict) else None
            if code in ERROR_DEFINITION:  # the first two are envelopes, the others error objects
                whole = code in (-32022, -32021)
                self.validate(response if whole else response["error"], ERROR_DEFINITION[code],
                              "the answer to " + what)
            if expect_error is None:
                self.problem("%s: an error: %s" % (what, json.dumps(response["error"])[:200]))
                return None
            if code != expect_error:
                self.problem("%s: wanted error %d, got %s" % (what, expect_error, json.dumps(response)[:200]))
            return response["error"]
        self.validate(response, "JSONRPCResultResponse", "the answer to " + what)
        if expect_error is not None:
            self.problem("%s: wanted error %d, got a result: %s" % (what, expect_error, json.dumps(response)[:200]))
            return None
        result = response.get("result")
        if not isinstance(result, dict):
            return None
        kind = result.get("resultType")
        if kind == "input_required":
            if method not in INPUT_REQUIRED_ALLOWED:
                self.problem("%s answered input_required, which only %s may" % (what, ", ".join(INPUT_REQUIRED_ALLOWED)))
            self.validate(result, "InputRequiredResult", "the result of " + what)
            if "inputRequests" not in result and "requestState" not in result:
                self.problem("%s: an InputRequiredResult with neither inputRequests nor requestState" % what)
        elif kind == "complete":
            self.validate(result, MODERN_RESULT_OF[method], "the result of " + what)
            if method in CACHEABLE and ("ttlMs" not in result or "cacheScope" not in result):
                self.problem("%s: a cacheable result without ttlMs and cacheScope" % what)
        else:
            self.problem("%s: resultType %s, not complete or input_required" % (what, json.dumps(kind)))
        info = (result.get("_meta") or {}).get(META + "serverInfo")
        if info is None:
            self.problem("%s: no io.modelcontextprotocol/serverInfo in the result's _meta" % what)
        else:
            self.validate(info, "Implementation", "the serverInfo of " + what)
            self.lean(info, "Implementation", "the serverInfo of " + what)
        return result

    def mlist_all(self, method, key):
        items, params, scopes = [], {}, set()
        for _ in range(20):
            result = self.mrequest(method, params)
            if result is None:
                break
            items += result.get(key, [])
            scopes.add(result.get("cacheScope"))
            if "nextCursor" not in result:
                break
            params = {"cursor": result["nextCursor"]}
        if len(scopes) > 1:  # 'Servers MUST apply the same cacheScope to all response pages'
            self.problem("%s: pages with different cacheScope: %s" % (method, sorted(map(str, scopes))))
        return items


def input_responses_for(c, requests):
    """The client's answers to an InputRequiredResult's inputRequests."""
    responses = {}
    for key, req in (requests or {}).items():
        method = req.get("method") if isinstance(req, dict) else None
        if method == "roots/list":
            responses[key] = {"roots": [{"uri": "file:///tmp/fakehost-roots", "name": "roots"}]}
        elif method == "sampling/createMessage":
            responses[key] = {"role": "assistant", "content": {"type": "text", "text": "A summary."},
                              "model": "test-model", "stopReason": "endTurn"}
        elif method == "elicitation/create":
            params = req.get("params") or {}
            if params.get("mode", "form") == "form":
                c.lean(params, "ElicitRequestFormParams", "the elicitation/create input request's params")
            else:
                c.problem("an elicitation/create input request in mode %s to a client of form mode only"
                          % params.get("mode"))
            responses[key] = {"action": "accept", "content": {"colour": "blue"}}
        else:
            c.problem("an input request of method %s" % method)
    c.validate(responses, "InputResponses", "the test's own inputResponses")
    return responses


def modern_drive(c, supported):
    """The conversation of modern requests; `supported`: what server/discover must list."""
    discover = c.mrequest("server/discover")
    if discover is None:
        return
    if discover.get("supportedVersions") != supported:
        c.problem("server/discover lists %s, not %s" % (discover.get("supportedVersions"), supported))
    caps = discover.get("capabilities", {})
    c.lean(caps, "ServerCapabilities", "capabilities")
    c.checked += 1
    if not isinstance(discover.get("ttlMs"), int) or discover["ttlMs"] < 0:
        c.problem("server/discover's ttlMs is %s, not an integer >= 0" % discover.get("ttlMs"))

    # _meta refused: a required field missing, an unsupported version, an unknown log level.
    full = modern_meta()
    for drop in ("protocolVersion", "clientCapabilities"):
        meta = {k: v for k, v in full.items() if k != META + drop}
        c.mrequest("server/discover", {"_meta": meta}, meta=False, expect_error=-32602)
    c.mrequest("server/discover", {}, meta=False, expect_error=-32602)
    c.mrequest("tools/list", None, meta=False, expect_error=-32602)
    error = c.mrequest("server/discover", {"_meta": dict(full, **{META + "protocolVersion": "1999-01-01"})},
                       meta=False, expect_error=-32022)
    if isinstance(error, dict):
        data = error.get("data") or {}
        if data.get("supported") != supported or data.get("requested") != "1999-01-01":
            c.problem("-32022's data is %s, not supported %s and requested 1999-01-01" % (json.dumps(data), supported))
    c.mrequest("server/discover", logLevel="verbose", expect_error=-32602)
    # Methods 2026-07-28 no longer has (Key Changes: 'Remove ping, logging/setLevel ...',
    # subscriptions/listen replaces resources/subscribe) are unknown methods.
    for method, params in (("ping", None), ("logging/setLevel", {"level": "debug"}),
                           ("resources/subscribe", {"uri": "fakehost://reference/readme"})):
        c.mrequest(method, params, expect_error=-32601)

    # tools: every page, twice in the same order ('Servers SHOULD return tools in a
    # deterministic order'), a cursor it never gave refused.
    tools = c.mlist_all("tools/list", "tools")
    again = c.mlist_all("tools/list", "tools")
    c.checked += 1
    if [t.get("name") for t in tools] != [t.get("name") for t in again]:
        c.problem("tools/list ordered the tools differently the second time: %s then %s"
                  % ([t.get("name") for t in tools], [t.get("name") for t in again]))
    c.mrequest("tools/list", {"cursor": "not-a-cursor-it-gave"}, expect_error=-32602)
    for tool in tools:
        c.lean(tool, "Tool", "tool %s" % tool.get("name"))
        c.lean(tool.get("annotations"), "ToolAnnotations", "tool %s annotations" % tool.get("name"))
    for i, tool in enumerate(tools):
        name = tool.get("name")
        args = arguments_for(tool.get("inputSchema"))
        token = "progress-%d" % i
        result = c.mrequest("tools/call", {"name": name, "arguments": args, "_meta": {"progressToken": token}})
        if result is None:
            continue
        rounds = 0
        while result is not None and result.get("resultType") == "input_required" and rounds < 3:
            rounds += 1
            params = {"name": name, "arguments": args,
                      "inputResponses": input_responses_for(c, result.get("inputRequests"))}
            if "requestState" in result:
                params["requestState"] = result["requestState"]
            result = c.mrequest("tools/call", params)
        if result is None or result.get("resultType") != "complete":
            if result is not None:
                c.problem("tool %s still wants input after %d round trips" % (name, rounds))
            continue
        c.lean(result, "CallToolResult", "the result of tool %s" % name)
        for block in result.get("content", []):
            c.lean_content(block, "a content block of tool %s" % name)
        if result.get("isError"):
            c.problem("tool %s answered isError: %s" % (name, json.dumps(result)[:200]))
        if name == "sleep" and not any(n.get("method") == "notifications/progress" for n in c.notifications):
            c.problem("the sleep tool sent no progress for a call with a progressToken")
        if "outputSchema" in tool:
            if "structuredContent" not in result:
                c.problem("tool %s has an outputSchema but answered no structuredContent" % name)
            else:
                validator = jsonschema.validators.validator_for(tool["outputSchema"])(tool["outputSchema"])
                for e in validator.iter_errors(result["structuredContent"]):
                    c.problem("tool %s: structuredContent does not conform to its outputSchema: %s" % (name, e.message))
    names = [t.get("name") for t in tools]
    if "emit_logs" in names:
        c.mrequest("tools/call", {"name": "emit_logs", "arguments": {}}, logLevel="info")
        if sorted(c.log_notes) != ["error", "info"]:
            c.problem("emit_logs with logLevel info sent log messages at %s, not info and error" % c.log_notes)
    # A capability the request does not declare: -32021 naming it.
    if "ask_user" in names:
        error = c.mrequest("tools/call", {"name": "ask_user", "arguments": {}}, caps={"roots": {}},
                           expect_error=-32021)
        if isinstance(error, dict) and "elicitation" not in ((error.get("data") or {}).get("requiredCapabilities") or {}):
            c.problem("-32021 for ask_user does not name elicitation: %s" % json.dumps(error)[:200])
    # A requestState it did not issue is refused.
    if "list_roots" in names:
        first = c.mrequest("tools/call", {"name": "list_roots", "arguments": {}})
        if isinstance(first, dict) and isinstance(first.get("requestState"), str):
            c.mrequest("tools/call", {"name": "list_roots", "arguments": {},
                                      "inputResponses": input_responses_for(c, first.get("inputRequests")),
                                      "requestState": first["requestState"][:-4] + "0000"},
                       expect_error=-32602)
    c.mrequest("tools/call", {"name": "no_such_tool", "arguments": {}}, expect_error=-32602)
    # Cancellation (Basic › Transports › stdio › Cancellation: 'MUST NOT send any further
    # messages for it'): a sleep cancelled after its first progress sends nothing more; what
    # comes later is flagged by receive() and check_notification().
    if "sleep" in names:
        rid = c.send("tools/call", {"name": "sleep", "arguments": {"seconds": 1, "steps": 4},
                                    "_meta": dict(modern_meta(), progressToken="cancelled")})
        c.awaiting = (rid, "tools/call", None, "cancelled")
        while True:
            msg = c.next_message("the first progress of the sleep to cancel")
            if msg is None or (isinstance(msg, dict) and msg.get("method") == "notifications/progress"):
                break
            c.problem("while waiting for the sleep's first progress: %s" % json.dumps(msg)[:200])
        c.awaiting = None
        c.answered_tokens.add("cancelled")  # not answered, but over: nothing more may come for it
        c.write({"jsonrpc": "2.0", "method": "notifications/cancelled", "params": {"requestId": rid}})
        c.mrequest("server/discover")
        time.sleep(1.2)
        c.mrequest("server/discover")

    if "resources" in caps:
        # 2026-07-28, Server Features › Resources › Error Handling: -32602, not -32002.
        walk_resources(c, c.mrequest, c.mlist_all, -32602)
    else:
        c.problem("the resources capability is not declared")

    if "prompts" in caps:
        prompts = walk_prompts(c, c.mrequest, c.mlist_all)
        c.mrequest("prompts/get", {"name": "no_such_prompt"}, expect_error=-32602)
        if "completions" not in caps:
            c.problem("completions is not declared")
        elif prompts:
            p = prompts[0]
            argument = (p.get("arguments") or [{"name": "name"}])[0]["name"]
            c.mrequest("completion/complete", {"ref": {"type": "ref/prompt", "name": p.get("name")},
                                               "argument": {"name": argument, "value": "n"}})
    else:
        c.problem("the prompts capability is not declared")

    # subscriptions/listen: acknowledged first, its notifications tagged with its id; after
    # notifications/cancelled nothing more for it, and never a response.
    if "touch_resource" in names:
        listen = {"notifications": {"toolsListChanged": True, "resourceSubscriptions": ["fakehost://reference/readme"]},
                  "_meta": modern_meta()}
        c.subscriptions["listen-1"] = []
        c.send("subscriptions/listen", listen, rid="listen-1")
        c.validate({"jsonrpc": "2.0", "id": "listen-1", "method": "subscriptions/listen", "params": listen},
                   "SubscriptionsListenRequest", "the test's own subscriptions/listen")
        c.mrequest("tools/call", {"name": "touch_resource", "arguments": {}})
        got = c.subscriptions["listen-1"]
        if got != ["notifications/subscriptions/acknowledged", "notifications/resources/updated"]:
            c.problem("subscription listen-1 got %s, not the acknowledgement then one resources/updated" % got)
        c.write({"jsonrpc": "2.0", "method": "notifications/cancelled", "params": {"requestId": "listen-1"}})
        c.closed_subscriptions.add("listen-1")
        c.mrequest("tools/call", {"name": "touch_resource", "arguments": {}})
    else:
        c.problem("no touch_resource tool to drive subscriptions/listen with")


def modern_only_extra(c):
    """modern-only: initialize refused, naming the versions it supports (Basic › Versioning and
    Compatibility: 'A server that supports only modern versions SHOULD name the protocol
    versions it supports in any error it returns to an initialize request')."""
    c.write({"jsonrpc": "2.0", "id": "init", "method": "initialize",
             "params": {"protocolVersion": "2025-11-25", "capabilities": {},
                        "clientInfo": {"name": "reference-revisions", "version": "1"}}})
    response = c.receive("init", "initialize")
    if response is None:
        return
    c.validate(response, "JSONRPCErrorResponse", "the answer to initialize")
    if MODERN not in json.dumps(response.get("error")):
        c.problem("initialize was answered %s, which names no supported version" % json.dumps(response)[:200])
    modern_drive(c, [MODERN])


def dual_drive(schemas):
    """Both eras in one process: after initialize (2025-11-25) a request with modern _meta is
    still served as 2026-07-28, and the legacy requests as 2025-11-25."""
    def driver(c):
        init = c.request("initialize", {"protocolVersion": "2025-11-25", "capabilities": {},
                                        "clientInfo": {"name": "reference-revisions", "version": "1"}})
        if init is None:
            return
        c.write({"jsonrpc": "2.0", "method": "notifications/initialized"})
        c.write({"jsonrpc": "2.0", "id": "modern-discover", "method": "server/discover",
                 "params": {"_meta": modern_meta()}})
        response = c.receive("modern-discover", "server/discover after initialize")
        if response is not None:
            for e in schemas[MODERN].errors(response, "DiscoverResultResponse"):
                c.problem("server/discover after initialize is no DiscoverResultResponse: %s" % e)
        legacy = c.request("tools/list")
        if isinstance(legacy, dict) and "resultType" in legacy:
            c.problem("a legacy tools/list after a modern request carries resultType")
        c.request("ping")
    return driver


def legacy_only_drive(c):
    """legacy-only: server/discover is an unknown method, before initialize and after."""
    c.write({"jsonrpc": "2.0", "id": "discover", "method": "server/discover", "params": {"_meta": modern_meta()}})
    response = c.receive("discover", "server/discover")
    if response is not None and (response.get("error") or {}).get("code") != -32601:
        c.problem("server/discover was answered %s, not -32601" % json.dumps(response)[:200])
    drive(c)


def with_faults(server, tmp, mode):
    """The server in a folder of its own, with a faults file naming the mode (none: default)."""
    folder = pathlib.Path(tmp) / mode
    folder.mkdir()
    shutil.copy(server, folder / "server")
    if mode != "default":
        (folder / "faults").write_text(mode + "\n", encoding="utf-8")
    return str(folder / "server")


def main(argv):
    if len(argv) != 3:
        sys.stderr.write("usage: reference_revisions.py SERVER SCHEMA_DIR\n")
        return 2
    server, schema_dir = argv[1], pathlib.Path(argv[2])
    if not os.path.isfile(server):
        sys.stderr.write("%s: no such server\n" % server)
        return 2
    schemas = {}
    for rev in REVISIONS + [MODERN]:
        path = schema_dir / rev / "schema.json"
        if not path.is_file():
            sys.stderr.write("%s: no such schema\n" % path)
            return 2
        schemas[rev] = Schema(path)
    every = [MODERN] + list(reversed(REVISIONS))
    problems, checked, runs = [], 0, 0
    with tempfile.TemporaryDirectory(prefix="reference-revisions-") as tmp:
        plan = []  # (mode, label, revision, driver, class)
        for rev in REVISIONS:
            plan.append(("default", rev, rev, drive, Conversation))
        plan.append(("default", MODERN, MODERN, lambda c: modern_drive(c, every), ModernConversation))
        plan.append(("default", "both eras", "2025-11-25", dual_drive(schemas), Conversation))
        for rev in REVISIONS:
            plan.append(("legacy-only", rev, rev, legacy_only_drive, Conversation))
        plan.append(("modern-only", MODERN, MODERN, modern_only_extra, ModernConversation))
        servers = {}
        for mode, label, rev, driver, cls in plan:
            if mode not in servers:
                servers[mode] = with_faults(server, tmp, mode)
            name = "%s %s" % (mode, label)
            c = converse(servers[mode], rev, schemas[rev], name, driver, cls)
            problems += c.problems
            checked += c.checked
            runs += 1
            print("%s: %d checks, %d problems, %d notifications" % (name, c.checked, len(c.problems),
                                                                    len(c.notifications)))
    for p in problems:
        print(p)
    print("%d checks over %d conversations (3 modes, 5 revisions), %d problems" % (checked, runs, len(problems)))
    return 1 if problems else 0

if __name__ == "__main__":
    sys.exit(main(sys.argv))
