#!/usr/bin/env python3
"""The MCP reference server answers each legacy revision as that revision's official schema says.

fixtures/mcp-stdio/reference/server speaks four revisions (2024-11-05, 2025-03-26, 2025-06-18,
2025-11-25): initialize answers the one asked for, and the server then serves what that
revision has. This test starts the server once per revision and drives one fixed conversation:

    initialize (asking for the revision), notifications/initialized, tools/list (every page),
    tools/call of every listed tool (arguments made from its inputSchema, a progressToken on
    each; the tools that ask the client get their answer), resources/list, resources/read of
    each resource, of one instance of the template and of an unknown URI,
    resources/templates/list, prompts/list, prompts/get of each prompt, completion/complete
    (every revision has the request; 2024-11-05 has no capability for it), logging/setLevel,
    ping, a JSON-RPC batch [ping, tools/list] and a ping after it.

Everything the server writes is validated against SCHEMA_DIR/<REV>/schema.json (draft-07 up to
2025-06-18, 2020-12 for 2025-11-25), the definition resolved in that revision's own document:

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

Usage: reference_revisions.py SERVER SCHEMA_DIR   (SCHEMA_DIR: the folder of <REV>/schema.json)
Prints `REV: problem` per problem, then a summary; exit 0 when all hold, 1 with problems, 2 on
bad input.
"""

import json
import os
import pathlib
import queue
import subprocess
import sys
import tempfile
import threading

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

    def __init__(self, server, revision, schema):
        self.revision = revision
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
        self.problems.append("%s: %s" % (self.revision, text))

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


def converse(server, revision, schema):
    c = Conversation(server, revision, schema)
    try:
        drive(c)
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
            c.problems += ["%s: (server stderr) %s" % (revision, line) for line in tail]
    return c


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
        resources = c.list_all("resources/list", "resources")
        for r in resources:
            c.lean(r, "Resource", "resource %s" % r.get("uri"))
        templates = c.list_all("resources/templates/list", "resourceTemplates")
        for t in templates:
            c.lean(t, "ResourceTemplate", "resource template %s" % t.get("uriTemplate"))
        uris = [r.get("uri") for r in resources]
        uris += [t["uriTemplate"].replace("{id}", "1") for t in templates if "{id}" in t.get("uriTemplate", "")]
        for uri in uris:
            result = c.request("resources/read", {"uri": uri})
            for contents in (result or {}).get("contents", []):
                c.lean_contents(contents, "the contents of %s" % uri)
        c.request("resources/read", {"uri": "fakehost://reference/no-such-resource"}, expect_error=-32002)
    else:
        c.problem("the resources capability is not declared")

    if "prompts" in caps:
        prompts = c.list_all("prompts/list", "prompts")
        for p in prompts:
            c.lean(p, "Prompt", "prompt %s" % p.get("name"))
            for a in p.get("arguments", []):
                c.lean(a, "PromptArgument", "argument %s of prompt %s" % (a.get("name"), p.get("name")))
        for p in prompts:
            args = {a["name"]: "Ada" for a in p.get("arguments", []) if a.get("required")}
            result = c.request("prompts/get", {"name": p.get("name"), "arguments": args})
            for m in (result or {}).get("messages", []):
                c.lean(m, "PromptMessage", "a message of prompt %s" % p.get("name"))
                c.lean_content(m.get("content"), "the content of a message of prompt %s" % p.get("name"))
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


def main(argv):
    if len(argv) != 3:
        sys.stderr.write("usage: reference_revisions.py SERVER SCHEMA_DIR\n")
        return 2
    server, schema_dir = argv[1], pathlib.Path(argv[2])
    if not os.path.isfile(server):
        sys.stderr.write("%s: no such server\n" % server)
        return 2
    problems, checked = [], 0
    for rev in REVISIONS:
        path = schema_dir / rev / "schema.json"
        if not path.is_file():
            sys.stderr.write("%s: no such schema\n" % path)
            return 2
        c = converse(server, rev, Schema(path))
        problems += c.problems
        checked += c.checked
        print("%s: %d checks, %d problems, %d notifications" % (rev, c.checked, len(c.problems),
                                                                len(c.notifications)))
    for p in problems:
        print(p)
    print("%d checks over %d revisions, %d problems" % (checked, len(REVISIONS), len(problems)))
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
