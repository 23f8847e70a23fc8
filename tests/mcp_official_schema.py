#!/usr/bin/env python3
"""fakehost's MCP frame schema agrees with the official MCP schemas.

fakehost's frame schemas (SOURCE_DIR/schema/mcp-stdio/plugin-protocol-v1.schema.json for revision
2025-11-25, mcp-2026-07-28.schema.json for 2026-07-28) are written by us; the official schemas
are only read, from SPECS_MCP_DIR/schema/<REV>/schema.json. This test checks, with
python3-jsonschema:

1. every `examples` frame of every fakehost entry validates against the official 2025-11-25
   schema as the frame it is: `<m>.request` against the official request definition whose
   `method` const is m, `<m>.notification` likewise, `<m>.response` as a JSONRPCResultResponse
   whose `result` validates against m's Result definition, or as a JSONRPCErrorResponse; the
   `envelope.*` entries against JSONRPCRequest / JSONRPCNotification / JSONRPCResponse. The
   method -> definition map is read from the official schema (each *Request / *Notification
   definition's `method` const; the Result by name, *Request -> *Result, else EmptyResult; a
   request whose params take `task` may also be answered with CreateTaskResult);
2. every `x-invalid-examples` frame is refused by the official schema too, at or around
   fakehost's `pointer` (one is the other or lies below it), unless a TEXT_ONLY row below
   covers it: refused by fakehost for a rule the official schema does not express (a sentence
   of the text, fakehost's closed JSON-RPC envelope), printed with fakehost's `why`;
3. a corpus: the official examples of 2026-07-28 (SPECS_MCP_DIR/schema/2026-07-28/examples/
   <Definition>/*.json) validate against the 2026-07-28 schema under their folder's definition;
   those whose definition 2025-11-25 also has are judged by the official 2025-11-25 schema and
   by fakehost's (as a frame, as a request's params or result, or as a piece under
   `definitions`), and a disagreement is reported (a REPORT line, not a failure: fakehost does
   not describe 2026-07-28; a definition unchanged in 2025-11-25, descriptions aside, must also
   pass 2025-11-25). And the frames fakehost itself sends: every `send:` / `notify:` body of
   SOURCE_DIR/scenarios/mcp-stdio/**/*.yaml without `invalid: true` (with jsonrpc and an id
   added as the profile does, ${...} filled with plausible values), the profile's trigger
   examples and its host replies: each must validate against the official 2025-11-25
   definition of its method (JSONRPCRequest / JSONRPCNotification for a method it has not)
   and against fakehost's entry;
4. a frame on which the two schemas disagree is a failure unless a DELIBERATE (fakehost
   accepts) or TEXT_ONLY (fakehost refuses) row gives its reason. The frames: the above, and
   variants of every example both accept (each member deleted, each value replaced by null,
   1.5, -1, "s", true, [] and {}); a variant the official schema refuses only for a `format`
   is listed too, since fakehost's schema asserts none. fakehost's own verdicts are taken with
   jsonschema (draft-07, `#/$defs/<entry>` resolved in fakehost's document: through a
   `referencing` registry where jsonschema has one (4.18 and later), else through its
   RefResolver, as Debian 12's python3-jsonschema 4.10 has only that), so every example must
   validate and every counterexample be refused by fakehost's schema as well.

The official schema's `format` values are asserted (2020-12 treats them as annotations, but they
are what the official schema says of a member): byte (RFC 4648 base64), uri (RFC 3986: a scheme
then ':', no spaces or control characters), uri-template (balanced braces).

5. the same for fakehost's 2026-07-28 schema (SOURCE_DIR/schema/mcp-stdio/mcp-2026-07-28.schema.json)
   against the official 2026-07-28 schema, with its own rows (MODERN_TEXT_ONLY,
   MODERN_DELIBERATE; a row matched only by variants counts as used): checks 1, 2 and 4, where a
   response is judged against the Result definitions its <X>ResultResponse names (an
   InputRequiredResult only when resultType is "input_required", the others otherwise: the
   official anyOf read with resultType as its discriminator) and an error whose code has an
   official definition (-32020, -32021, -32022) against that definition too; every official
   example (SPECS_MCP_DIR/schema/2026-07-28/examples/) is judged by fakehost's 2026-07-28 schema
   as the frame or piece it is (MODERN_ALIASES names the fakehost definition of a piece it holds
   under another name), and a refusal fails unless MODERN_EXAMPLES gives its reason; every
   send: / notify: body of SOURCE_DIR/scenarios/mcp-stdio/modern/*.yaml without `invalid: true`
   and the profile's example of every trigger they use, each request with the members the
   profile's 2026-07-28 revision adds (revisions.known[].request_members, a member the step
   writes itself winning), must validate against the official 2026-07-28 definition of its
   method and fakehost's 2026-07-28 entry, unless MODERN_SENT gives its reason.

Usage: mcp_official_schema.py SOURCE_DIR SPECS_MCP_DIR
Prints one line per problem (FAIL), per listed difference (LISTED), per 2026-07-28 report
(REPORT), then `N passed, M failed`; exit 1 when any check failed, 2 on bad input.
"""

import copy
import fnmatch
import json
import pathlib
import re
import sys

import jsonschema
import yaml

try:
    import referencing
    import referencing.jsonschema
except ImportError:  # jsonschema before 4.18 (Debian 12 has 4.10.3): RefResolver resolves $ref
    referencing = None

PINNED = "2025-11-25"   # the revision fakehost's frame schema describes
LATER = "2026-07-28"    # the revision whose official examples form the corpus

JSONRPC_MEMBERS = {"jsonrpc", "id", "method", "params", "result", "error"}


def _extra_member(frame):
    error = frame.get("error")
    return bool(set(frame) - JSONRPC_MEMBERS) or (
        isinstance(error, dict) and bool(set(error) - {"code", "message", "data"}))


def _non_file_root(frame):
    roots = (frame.get("result") or {}).get("roots") or []
    return any(isinstance(r, dict) and not str(r.get("uri", "")).startswith("file://")
               for r in roots)


# Counterexamples fakehost refuses for a rule the official schema does not express: rows of
# (entries, what the frame does, the rule and where it is written). A counterexample the
# official schema accepts must match a row (it is printed with fakehost's own `why`), else it
# is a failure; a row no counterexample matches is stale, a failure too.
TEXT_ONLY = [
    ("*.notification", lambda f: "id" in f, (
        "Basic › Messages › Notifications: 'Notifications MUST NOT include an ID.'; the "
        "official notification definitions do not forbid an id member")),
    ("*.response", lambda f: "result" in f and "error" in f, (
        "Basic › Messages › Responses: 'containing either the result or error of the "
        "operation', and JSON-RPC 2.0 §5, which 'All messages ... MUST follow': 'Either the "
        "result member or error member MUST be included, but both members MUST NOT be "
        "included'; the official JSONRPCResultResponse and JSONRPCErrorResponse are open, so "
        "a frame with both passes either")),
    ("ping.response", lambda f: bool(set(f.get("result") or {}) - {"_meta"}), (
        "Basic › Utilities › Ping › Behavior Requirements: 'The receiver MUST respond promptly "
        "with an empty response'; the official schema answers ping with EmptyResult = Result, "
        "an open object")),
    ("roots/list.response", _non_file_root, (
        "Client Features › Roots › Data Types › Root: 'uri: Unique identifier for the root. "
        "This MUST be a file:// URI in the current specification.'; the official Root.uri is "
        "only format uri (its description says 'must start with file:// for now')")),
    ("*", _extra_member, (
        "fakehost's closed envelope: a frame holds only the JSON-RPC 2.0 members (jsonrpc, id, "
        "method, params, result, error) and an error only code, message and data, as JSON-RPC "
        "2.0 lists them (§4, §5, §5.1); no sentence of the MCP text forbids another member and "
        "the official schema leaves every object open (fakehost's choice, schema $comment "
        "'only the JSON-RPC envelope and the error object are closed')")),
]

# Examples fakehost accepts that the official schema refuses, on purpose: rows as above.
# An error response with id null, which fakehost accepts in every revision.
ERROR_ID_NULL = ("*.response", lambda f: "error" in f and "id" in f and f["id"] is None, (
    "an error response with id null: JSON-RPC 2.0 §5 says the id 'MUST be Null' when it "
    "could not be detected, and Basic › Messages › Error Responses ('Error responses MUST "
    "include the same ID as the request they correspond to (except in error cases where "
    "the ID could not be read due a malformed request)') names no form for that case; the "
    "official JSONRPCErrorResponse.id is an optional RequestId (string or integer). "
    "fakehost takes null as the answer to an unreadable line (profile "
    "envelope.error_without_id)"))

DELIBERATE = [
    ERROR_ID_NULL,
    ("elicitation/create.response", lambda f: any(
        isinstance(v, float) and not v.is_integer()
        for v in ((f.get("result") or {}).get("content") or {}).values()), (
        "a fractional number in an elicitation answer: schema.ts types the content values "
        "string | number | boolean | string[], and a form field may be of type number (Client "
        "Features › Elicitation › Protocol Messages › Form Mode Elicitation Requests › Requested "
        "Schema); the generated schema.json makes every bare TypeScript number an integer "
        "(fractional ones are marked @TJS-type number), which here refuses a number field's "
        "answer")),
]


# The rows for fakehost's 2026-07-28 schema (mcp-2026-07-28.schema.json), as above; an entry
# pattern may be a tuple of globs. Variants count as matches here.
MRTR = ("tools/call.response", "prompts/get.response", "resources/read.response")
NOT_MRTR = ("server/discover.response", "tools/list.response", "resources/list.response",
            "resources/templates/list.response", "prompts/list.response",
            "completion/complete.response", "subscriptions/listen.response", "envelope.response")
SUB_ID = "io.modelcontextprotocol/subscriptionId"
STREAM = ("notifications/tools/list_changed.notification",
          "notifications/prompts/list_changed.notification",
          "notifications/resources/list_changed.notification",
          "notifications/resources/updated.notification",
          "notifications/subscriptions/acknowledged.notification")
_MODERN = {}  # "official": the official 2026-07-28 schema, set by main()


def _result_type(frame):
    result = frame.get("result")
    return result.get("resultType") if isinstance(result, dict) else None


def _without_subscription_id(frame):
    params = frame.get("params")
    meta = params.get("_meta") if isinstance(params, dict) else None
    return not isinstance(meta, dict) or SUB_ID not in meta


def _bad_request_meta(frame):
    """The frame's params are no RequestParams of the official schema (the _meta fields)."""
    return _MODERN["official"].error("RequestParams", frame.get("params")) is not None


def _invalid_tool_schema(frame):
    """A tool's inputSchema or outputSchema whose properties or required is no valid 2020-12."""
    result = frame.get("result")
    tools = result.get("tools") if isinstance(result, dict) else None
    for tool in tools if isinstance(tools, list) else []:
        for key in ("inputSchema", "outputSchema"):
            schema = tool.get(key) if isinstance(tool, dict) else None
            if not isinstance(schema, dict):
                continue
            props = schema.get("properties", {})
            required = schema.get("required", [])
            if not isinstance(props, dict) or any(not isinstance(v, (dict, bool))
                                                  for v in props.values()):
                return True
            if not isinstance(required, list) or any(not isinstance(r, str) for r in required):
                return True
    return False


def _retired_code(frame):
    code = (frame.get("error") or {}).get("code") if isinstance(frame.get("error"), dict) else None
    return isinstance(code, int) and (code == -32002 or -32099 <= code <= -32023)


def _bad_extension_key(frame):
    caps = (frame.get("result") or {}).get("capabilities") if isinstance(frame.get("result"),
                                                                        dict) else None
    ext = caps.get("extensions") if isinstance(caps, dict) else None
    return isinstance(ext, dict) and any(not re.fullmatch(
        r"([A-Za-z]([A-Za-z0-9-]*[A-Za-z0-9])?\.)*[A-Za-z]([A-Za-z0-9-]*[A-Za-z0-9])?/"
        r"([A-Za-z0-9]([A-Za-z0-9._-]*[A-Za-z0-9])?)?", k) for k in ext)


MODERN_TEXT_ONLY = [
    ("*.notification", lambda f: "id" in f, (
        "Basic › Messages › Notifications: 'Notifications MUST NOT include an ID.'; the "
        "official notification definitions do not forbid an id member")),
    ("*.response", lambda f: "result" in f and "error" in f, (
        "Basic › Messages › Responses: 'containing either the result or error of the "
        "operation', and JSON-RPC 2.0 §5: 'Either the result member or error member MUST be "
        "included, but both members MUST NOT be included'; the official JSONRPCResultResponse "
        "and JSONRPCErrorResponse are open")),
    ("*", _extra_member, (
        "fakehost's closed envelope: a frame holds only the JSON-RPC 2.0 members and an error "
        "only code, message and data (JSON-RPC 2.0 §4, §5, §5.1); the official schema leaves "
        "every object open")),
    ("*.response", lambda f: _result_type(f) not in (None, "complete", "input_required"), (
        "Basic › Messages › Result Responses › ResultType: 'The set of supported ResultType "
        "values MUST be created from the set defined in the core protocol and include any "
        "additional values of supported extensions that are advertised via capabilities' and "
        "'A resultType of any value unrecognized by the client MUST be considered invalid': "
        "fakehost advertises no extension, so \"complete\" and \"input_required\" are all it "
        "recognizes; the official ResultType is an open string")),
    (NOT_MRTR, lambda f: _result_type(f) == "input_required", (
        "Basic › Patterns › Multi Round-Trip Requests › Supported Requests: 'Servers MUST NOT "
        "send InputRequiredResult responses on any other client requests' than prompts/get, "
        "resources/read and tools/call; the official results of the others take any resultType "
        "string")),
    (MRTR, lambda f: (_result_type(f) == "input_required"
                      and not {"inputRequests", "requestState"} & set(f["result"])), (
        "Basic › Patterns › Multi Round-Trip Requests › Server Requirements: 'Servers MUST "
        "include at least one of inputRequests or requestState in every InputRequiredResult "
        "response.'; the official InputRequiredResult has both optional (its description says "
        "'At least one of inputRequests or requestState MUST be present')")),
    (STREAM, _without_subscription_id, (
        "Basic › Overview › General fields › _meta: 'On notifications delivered via a "
        "subscriptions/listen stream, the server MUST include "
        "io.modelcontextprotocol/subscriptionId in _meta' (the list_changed and "
        "resources/updated notifications are 'only delivered on a subscriptions/listen stream', "
        "schema.ts; the acknowledgment is 'the first message carrying the subscription's ID in "
        "_meta'); the official NotificationParams has _meta optional")),
    ("envelope.request", _bad_request_meta, (
        "Basic › Overview › General fields › _meta › Per-request protocol fields: 'fields "
        "marked as required MUST be included on every request' (protocolVersion: string, "
        "clientCapabilities: ClientCapabilities; clientInfo: Implementation when present), a "
        "method the revision does not define included; the official JSONRPCRequest's params "
        "are any object")),
    ("tools/list.response", _invalid_tool_schema, (
        "Basic › Overview › JSON Schema Usage › Schema Validation: 'Schemas MUST be valid "
        "according to their declared or default dialect' (2020-12: properties maps names to "
        "schemas, objects or booleans; required is an array of strings); the official Tool "
        "inputSchema and outputSchema check only $schema and type")),
    ("*.response", _retired_code, (
        "Basic › Messages › Error Codes: 'Implementations MUST NOT emit any code from this "
        "sub-range [-32020 to -32099] that is not defined by this specification' and "
        "'Implementations of this protocol version MUST NOT emit these codes: -32002 ... "
        "-32042'; the official Error.code is any integer")),
    ("server/discover.response", _bad_extension_key, (
        "Basic › Versioning and Compatibility › Extension Negotiation: 'Extension identifiers "
        "MUST follow the _meta key naming rules, with a mandatory prefix'; the official "
        "extensions map takes any key")),
]

MODERN_DELIBERATE = [
    ERROR_ID_NULL,
    ("tools/call.request", lambda f: any(
        isinstance(v, float) and not v.is_integer()
        for r in ((f.get("params") or {}).get("inputResponses") or {}).values()
        if isinstance(r, dict) for v in (r.get("content") or {}).values()), (
        "a fractional number in an ElicitResult: schema.ts types the content values string | "
        "number | boolean | string[] and a form field may be of type number (Client Features › "
        "Elicitation › Requested Schema); the generated schema.json makes that number an "
        "integer")),
    ("completion/complete.response", lambda f: len(
        (((f.get("result") or {}).get("completion") or {}).get("values") or [])) > 100, (
        "Server Features › Utilities › Completion › Completion Results: 'Maximum 100 items per "
        "response' has no RFC 2119 keyword, so it is no requirement (2025-11-25 alike); the "
        "official schema.json has maxItems 100 from schema.ts's '@maxItems 100'")),
]

# Official 2026-07-28 examples fakehost's schema refuses, on purpose: (folder/file glob, reason).
MODERN_EXAMPLES = [
    ("ReadResourceResultResponse/read-resource-result-response.json", (
        "a complete resources/read result without ttlMs and cacheScope: Server Features › "
        "Utilities › Caching › Cacheable Results: 'Servers MUST include caching hints on "
        "results with resultType: \"complete\" returned by the following operations: ... "
        "resources/read'; the official ReadResourceResultResponse takes it only because its "
        "InputRequiredResult branch takes any result")),
    ("ResourceUpdatedNotificationParams/file-resource-updated.json", (
        "the params alone, without the _meta the notification carries on its stream: 'On "
        "notifications delivered via a subscriptions/listen stream, the server MUST include "
        "io.modelcontextprotocol/subscriptionId in _meta' (Basic › Overview › General fields › "
        "_meta); the official notification example has it")),
]

# Frames the modern scenarios make fakehost send that a schema refuses, on purpose: (where glob,
# reason).
MODERN_SENT = [
]


def related(a, b):
    """Whether one JSON pointer is the other or lies below it."""
    return a == b or b.startswith(a + "/") or a.startswith(b + "/") or not a or not b


def matching_row(rows, entry, frame):
    """The first row whose entry pattern (a glob, or a tuple of globs) matches and whose test
    holds for the frame."""
    for i, (pattern, applies, reason) in enumerate(rows):
        patterns = pattern if isinstance(pattern, tuple) else (pattern,)
        if (any(fnmatch.fnmatchcase(entry, p) for p in patterns) and isinstance(frame, dict)
                and applies(frame)):
            return i, reason
    return None, None


class Tally:
    def __init__(self):
        self.passed = 0
        self.failed = 0

    def check(self, ok, where, what):
        if ok:
            self.passed += 1
        else:
            self.failed += 1
            print(f"FAIL {where}: {what}")
        return ok


def short(value, limit=160):
    text = json.dumps(value, ensure_ascii=False, sort_keys=True)
    return text if len(text) <= limit else text[:limit] + "..."


def first_error(validator, instance, prefix=""):
    """The first error of the instance, as 'pointer: message', or None when it is valid."""
    errors = sorted(validator.iter_errors(instance), key=lambda e: list(e.absolute_path))
    if not errors:
        return None
    e = errors[0]
    pointer = prefix + "".join("/" + str(p).replace("~", "~0").replace("/", "~1")
                               for p in e.absolute_path)
    return f"{pointer or '(root)'}: {e.message[:200]}"


# --- the official schema ---------------------------------------------------------------------

def _is_base64(s):
    return re.fullmatch(r"(?:[A-Za-z0-9+/]{4})*(?:[A-Za-z0-9+/]{2}==|[A-Za-z0-9+/]{3}=)?", s)


FORMATS = jsonschema.FormatChecker(formats=())
FORMATS.checks("byte")(lambda s: not isinstance(s, str) or bool(_is_base64(s)))
FORMATS.checks("uri")(lambda s: not isinstance(s, str) or bool(
    re.fullmatch(r"[A-Za-z][A-Za-z0-9+.-]*:[^\x00-\x20\x7f]*", s)))
FORMATS.checks("uri-template")(lambda s: not isinstance(s, str) or bool(
    re.fullmatch(r"(?:[^{}]|\{[^{}]+\})*", s)))


class Official:
    """One revision's schema.json: validators for its definitions, and the method map."""

    def __init__(self, path, formats=True, label=PINNED, by_code=False):
        self.formats = FORMATS if formats else None
        self.label = label
        self.doc = json.loads(path.read_text())
        self.defs = self.doc.get("$defs") or self.doc.get("definitions")
        self.key = "$defs" if "$defs" in self.doc else "definitions"
        cls = jsonschema.validators.validator_for(self.doc)
        self.cls = cls
        self.cache = {}
        self.requests, self.notifications = {}, {}
        self.error_defs = {}  # error code -> the response definition for it (by_code)
        for name, d in self.defs.items():
            error = d.get("properties", {}).get("error", {})
            for part in error.get("allOf", []) if by_code else []:
                code = part.get("properties", {}).get("code", {}).get("const")
                if isinstance(code, int):
                    self.error_defs[code] = name
            method = d.get("properties", {}).get("method", {}).get("const")
            # Only JSON-RPC messages: 2026-07-28's ElicitRequest, CreateMessageRequest and
            # ListRootsRequest have a method but are objects inside an InputRequiredResult.
            if method is None or "jsonrpc" not in d.get("properties", {}):
                continue
            table = self.requests if "id" in d.get("properties", {}) else self.notifications
            other = table.get(method)
            if other is not None and self.defs[other] != d:
                raise SystemExit(f"{path}: method {method} in {other} and {name}")
            # A union of one member (2026-07-28's ClientNotification) is a copy of that member:
            # keep the member's own name.
            if other is None or other.startswith(("Client", "Server")):
                table[method] = name

    def validator(self, name):
        if name not in self.cache:
            schema = dict(self.doc)
            schema["$ref"] = f"#/{self.key}/{name}"
            self.cache[name] = self.cls(schema, format_checker=self.formats)
        return self.cache[name]

    def error(self, name, instance, prefix=""):
        return first_error(self.validator(name), instance, prefix)

    def params_take_task(self, request):
        """Whether the request's params (or one of their anyOf branches) have a `task` member."""
        params = self.defs[request].get("properties", {}).get("params", {})
        todo, seen = [params], set()
        while todo:
            s = todo.pop()
            if "task" in s.get("properties", {}):
                return True
            for key in ("anyOf", "oneOf", "allOf"):
                todo.extend(s.get(key, []))
            ref = s.get("$ref", "")
            if ref and ref not in seen:
                seen.add(ref)
                todo.append(self.defs[ref.rsplit("/", 1)[1]])
        return False

    def results(self, method):
        """The Result definitions that may answer the method: those its <X>ResultResponse names
        (2026-07-28: CallToolResult or InputRequiredResult, ...), else by name, and
        CreateTaskResult."""
        request = self.requests[method]
        response = self.defs.get(request[: -len("Request")] + "ResultResponse")
        if response is not None:
            result = response.get("properties", {}).get("result", {})
            return [r["$ref"].rsplit("/", 1)[1] for r in result.get("anyOf", [result])
                    if "$ref" in r]
        name = request[: -len("Request")] + "Result"
        out = [name if name in self.defs else "EmptyResult"]
        if self.params_take_task(request) and "CreateTaskResult" in self.defs:
            out.append("CreateTaskResult")
        return out

    def judge_response(self, method, frame):
        """None when the official schema accepts the frame as an answer to method (None: any
        method), else the reason."""
        if isinstance(frame, dict) and "result" in frame:
            err = self.error("JSONRPCResultResponse", frame)
            if err:
                return f"JSONRPCResultResponse {err}"
            names = self.results(method) if method in self.requests else ["Result"]
            if "InputRequiredResult" in names and len(names) > 1:
                # 2026-07-28's anyOf [InputRequiredResult, CallToolResult] read with resultType
                # as its discriminator (Basic › Messages › Result Responses › ResultType: "A
                # resultType of "input_required" indicates ... The result contains an
                # InputRequiredResult"; "complete" ... "the result contains the final
                # content"): the official InputRequiredResult has every member optional and an
                # open resultType, so it alone would take any result at all.
                rt = frame["result"].get("resultType") if isinstance(frame["result"], dict) else None
                names = (["InputRequiredResult"] if rt == "input_required"
                         else [n for n in names if n != "InputRequiredResult"])
            errs = [f"{n} {self.error(n, frame['result'], '/result')}" for n in names
                    if self.error(n, frame["result"])]
            return None if len(errs) < len(names) else "; ".join(errs)
        err = self.error("JSONRPCErrorResponse", frame)
        if err:
            return f"JSONRPCErrorResponse {err}"
        code = (frame.get("error") or {}).get("code") if isinstance(frame, dict) else None
        name = self.error_defs.get(code) if isinstance(code, int) else None
        err = name and self.error(name, frame)
        return f"{name} {err}" if err else None

    def judge(self, entry, frame):
        """None when the official schema accepts the frame as fakehost's entry names it."""
        method, _, kind = entry.rpartition(".")
        if method == "envelope":
            if kind == "response":
                return self.judge_response(None, frame)
            name = "JSONRPCRequest" if kind == "request" else "JSONRPCNotification"
        elif kind == "response":
            return self.judge_response(method, frame)
        else:
            table = self.requests if kind == "request" else self.notifications
            if method not in table:
                return f"the official {self.label} schema has no {kind} {method}"
            name = table[method]
        err = self.error(name, frame)
        return f"{name} {err}" if err else None


# --- fakehost's schema -----------------------------------------------------------------------

class Fakehost:
    """fakehost's frame schema: draft-07, entries under $defs, pieces under definitions."""

    def __init__(self, path, formats=True):
        self.formats = FORMATS if formats else None
        self.URI = "urn:fakehost:mcp-stdio:" + path.name.split(".")[0]
        self.doc = json.loads(path.read_text())
        self.entries = self.doc["$defs"]
        if referencing is not None:
            resource = referencing.Resource.from_contents(
                self.doc, default_specification=referencing.jsonschema.DRAFT7)
            self.registry = referencing.Registry().with_resource(self.URI, resource)
        else:
            self.registry = None
        self.cache = {}

    def route(self, kind, method):
        entry = f"{method}.{kind}"
        return entry if entry in self.entries else f"envelope.{kind}"

    def error(self, section, name, instance):
        """None when instance validates against #/<section>/<name> (e.g. $defs, ping.request)."""
        key = (section, name)
        if key not in self.cache:
            escaped = name.replace("~", "~0").replace("/", "~1")
            if self.registry is not None:
                self.cache[key] = jsonschema.Draft7Validator(
                    {"$ref": f"{self.URI}#/{section}/{escaped}"}, registry=self.registry)
            else:
                # The wrapper's "#/..." and the document's own "#/definitions/..." resolve
                # against the referrer, the document, stored under the empty base URI.
                resolver = jsonschema.RefResolver("", self.doc)
                self.cache[key] = jsonschema.Draft7Validator(
                    {"$ref": f"#/{section}/{escaped}"}, resolver=resolver)
        return first_error(self.cache[key], instance)

    def judge(self, entry, frame):
        return self.error("$defs", entry, frame)


# --- 1, 2: fakehost's examples and counterexamples ---------------------------------------------

def check_entries(tally, fakehost, official, text_only=TEXT_ONLY, deliberate=DELIBERATE,
                  label=""):
    """Checks 1 and 2; label prefixes every line (the 2026-07-28 schema's), and the rows are the
    revision's."""
    rev = official.label
    used = set()
    for entry, schema in fakehost.entries.items():
        for i, frame in enumerate(schema.get("examples", [])):
            where = f"{label}{entry} example {i}"
            mine = fakehost.judge(entry, frame)
            tally.check(mine is None, where, f"fakehost's own schema refuses it: {mine}")
            theirs = official.judge(entry, frame)
            row, reason = matching_row(deliberate, entry, frame)
            if theirs is not None and reason is not None:
                used.add(("DELIBERATE", row))
                print(f"LISTED {where}: fakehost accepts {short(frame)}, the official "
                      f"{rev} schema refuses it ({theirs}); deliberate: {reason}")
                tally.passed += 1
                continue
            tally.check(theirs is None, where,
                        f"the official {rev} schema refuses {short(frame)}: {theirs}")
        for i, bad in enumerate(schema.get("x-invalid-examples", [])):
            frame, pointer, why = bad["frame"], bad["pointer"], bad.get("why", "")
            where = f"{label}{entry} counterexample {i} ({pointer or '(root)'})"
            mine = fakehost.judge(entry, frame)
            tally.check(mine is not None, where, "fakehost's own schema accepts it")
            theirs = official.judge(entry, frame)
            row, reason = matching_row(text_only, entry, frame)
            if theirs is None and reason is not None:
                used.add(("TEXT_ONLY", row))
                print(f"LISTED {where}: fakehost refuses {short(frame, 100)}, the official "
                      f"{rev} schema accepts it; fakehost's why: {why}; the rule: {reason}")
                tally.passed += 1
                continue
            if tally.check(theirs is not None, where,
                           f"the official {rev} schema accepts {short(frame)}, which "
                           f"fakehost refuses ({why})"):
                at = re.match(r"\S+ (/\S*|\(root\)):", theirs)
                at = "" if not at or at.group(1) == "(root)" else at.group(1)
                tally.check(related(at, pointer), where,
                            f"the official schema refuses it at {at or '(root)'}, away from "
                            f"fakehost's pointer {pointer or '(root)'}: {theirs}")
    return used


def check_rows_used(tally, used, text_only=TEXT_ONLY, deliberate=DELIBERATE, label=""):
    """A row that matches no frame the two schemas judge differently is stale."""
    for table, rows in (("DELIBERATE", deliberate), ("TEXT_ONLY", text_only)):
        for row, (pattern, _, reason) in enumerate(rows):
            tally.check((table, row) in used, f"{label}{table} row {row} ({pattern})",
                        f"matches no frame the two schemas judge differently: {reason[:80]}")


# --- 4: variants of fakehost's examples --------------------------------------------------------

VARIANT_VALUES = [None, 1.5, -1, "s", True, [], {}]
FORMAT_ONLY = ("the official schema refuses it only for a `format` (uri, byte, uri-template): "
               "fakehost's schema asserts no format (valijson implements none; in JSON Schema "
               "2020-12 `format` is an annotation unless asked for), only the patterns of the "
               "URLs and base64 fields it names")


def variants(frame, path=()):
    """(path, variant) for each member of the frame deleted and each value replaced by each of
    VARIANT_VALUES (the first two items of an array only)."""
    children = (frame.items() if isinstance(frame, dict)
                else enumerate(frame[:2]) if isinstance(frame, list) else ())
    for key, value in children:
        here = path + (key,)
        options = ([("delete", None)] if isinstance(frame, dict) else []) + [
            ("set", v) for v in VARIANT_VALUES]
        for how, v in options:
            variant = copy.deepcopy(frame)
            if how == "delete":
                del variant[key]
            else:
                variant[key] = copy.deepcopy(v)
            yield here, f"{how} {json.dumps(v)}" if how == "set" else how, variant
        for sub, what, changed in variants(value, here):
            variant = copy.deepcopy(frame)
            variant[key] = changed
            yield sub, what, variant


def check_variants(tally, fakehost, official, lax, text_only=TEXT_ONLY, deliberate=DELIBERATE,
                   label="", used=None):
    """Both schemas judge alike each variant of each example they both accept."""
    listed, count = {}, 0
    used = set() if used is None else used
    for entry, schema in fakehost.entries.items():
        for i, example in enumerate(schema.get("examples", [])):
            if official.judge(entry, example) is not None:
                continue
            for path, what, frame in variants(example):
                count += 1
                mine, theirs = fakehost.judge(entry, frame), official.judge(entry, frame)
                where = (f"{label}{entry} example {i} variant {'/' + '/'.join(map(str, path))} "
                         f"{what}")
                if (mine is None) == (theirs is None):
                    tally.passed += 1
                    continue
                rows = text_only if mine is not None else deliberate
                row, reason = matching_row(rows, entry, frame)
                if reason is not None and label:  # the 2026-07-28 rows count variants too
                    used.add(("TEXT_ONLY" if mine is not None else "DELIBERATE", row))
                if reason is None and mine is None and lax.judge(entry, frame) is None:
                    reason = FORMAT_ONLY
                if reason is not None:
                    tally.passed += 1
                    key = (entry, "/".join("*" if isinstance(k, int) else k for k in path))
                    listed.setdefault(key, (reason, theirs or mine))
                    continue
                tally.check(False, where, f"fakehost {'accepts' if mine is None else 'refuses'}"
                            f" {short(frame)}, the official {official.label} schema "
                            f"{'accepts it' if theirs is None else 'refuses it: ' + theirs}")
    for (entry, path), (reason, detail) in sorted(listed.items()):
        print(f"LISTED {label}{entry} variants at /{path}: {detail}; {reason[:120]}")
    print(f"REPORT {label}variants of fakehost's examples: {count} judged")


# --- 3: the 2026-07-28 examples ----------------------------------------------------------------

def closure(official, name):
    """The definition and every definition it reaches, without descriptions."""
    out, todo = {}, [name]
    while todo:
        n = todo.pop()
        if n in out or n not in official.defs:
            out.setdefault(n, None)
            continue
        d = strip(official.defs[n])
        out[n] = d
        todo.extend(r.rsplit("/", 1)[1] for r in refs(d))
    return out


def strip(schema):
    if isinstance(schema, dict):
        return {k: strip(v) for k, v in schema.items() if k not in ("description", "$comment")}
    if isinstance(schema, list):
        return [strip(v) for v in schema]
    return schema


def refs(schema):
    if isinstance(schema, dict):
        if isinstance(schema.get("$ref"), str):
            yield schema["$ref"]
        for v in schema.values():
            yield from refs(v)
    elif isinstance(schema, list):
        for v in schema:
            yield from refs(v)


def as_fakehost_frame(fakehost, official, name, example):
    """(what, verdict) of fakehost's schema on an example of the official definition, or None
    when fakehost's schema has no counterpart for it."""
    for kind, table in (("request", official.requests),
                        ("notification", official.notifications)):
        for method, n in table.items():
            if n == name:
                entry = fakehost.route(kind, method)
                return entry, fakehost.judge(entry, example)
            params = official.defs[n].get("properties", {}).get("params", {}).get("$ref", "")
            if params.endswith("/" + name) and method:
                frame = {"jsonrpc": "2.0", "method": method, "params": example}
                if kind == "request":
                    frame["id"] = 1
                entry = fakehost.route(kind, method)
                return f"{entry} (as its params)", fakehost.judge(entry, frame)
    for method in official.requests:
        if name in official.results(method):
            entry = fakehost.route("response", method)
            frame = {"jsonrpc": "2.0", "id": 1, "result": example}
            return f"{entry} (as its result)", fakehost.judge(entry, frame)
    if name in fakehost.doc.get("definitions", {}):
        return f"definitions/{name}", fakehost.error("definitions", name, example)
    return None


def check_later_examples(tally, fakehost, pinned, later, root):
    """Each example validates under 2026-07-28; one whose definition 2025-11-25 also has is
    judged by the official 2025-11-25 schema and by fakehost's, and a difference is reported."""
    folders = sorted(p for p in root.iterdir() if p.is_dir()) if root.is_dir() else []
    tally.check(bool(folders), str(root), "no examples found")
    counts = dict.fromkeys(("examples", "in pinned", "unchanged", "judged", "agree"), 0)
    for folder in folders:
        name = folder.name
        if not tally.check(name in later.defs, str(folder),
                           f"the {LATER} schema has no definition {name}"):
            continue
        unchanged = closure(pinned, name) == closure(later, name)
        for path in sorted(folder.glob("*.json")):
            example = json.loads(path.read_text())
            where = f"{LATER} example {name}/{path.name}"
            counts["examples"] += 1
            err = later.error(name, example)
            tally.check(err is None, where, f"refused by the {LATER} schema: {err}")
            if name not in pinned.defs:
                continue
            counts["in pinned"] += 1
            theirs = pinned.error(name, example)
            if unchanged:
                counts["unchanged"] += 1
                tally.check(theirs is None, where, f"{name} is unchanged in {PINNED} but that "
                            f"schema refuses it: {theirs}")
            judged = as_fakehost_frame(fakehost, pinned, name, example)
            if judged is None:
                continue
            counts["judged"] += 1
            what, mine = judged
            if (mine is None) == (theirs is None):
                counts["agree"] += 1
                continue
            state = "unchanged" if unchanged else f"changed in {LATER}"
            print(f"REPORT {where} ({name} {state}): the official {PINNED} schema "
                  f"{'accepts it' if theirs is None else 'refuses it: ' + theirs}; fakehost's "
                  f"{what} {'accepts it' if mine is None else 'refuses it: ' + mine}")
    print(f"REPORT {LATER} examples: {counts['examples']} read, {counts['in pinned']} of a "
          f"definition {PINNED} has ({counts['unchanged']} unchanged), {counts['judged']} judged "
          f"by fakehost's schema, {counts['judged'] - counts['agree']} of them differently from "
          f"the official {PINNED} schema")


# --- 3: the frames fakehost sends ---------------------------------------------------------------

PLACEHOLDER = re.compile(r"\$\{([^}]+)\}")


def fill(value, bindings):
    """The value with its ${...} filled, or raises KeyError naming one it cannot fill. A whole
    "${NAME.id}" is a host request id (an integer); other names come from bindings."""
    if isinstance(value, dict):
        return {k: fill(v, bindings) for k, v in value.items()}
    if isinstance(value, list):
        return [fill(v, bindings) for v in value]
    if isinstance(value, str):
        whole = PLACEHOLDER.fullmatch(value)
        if whole and whole.group(1).endswith(".id"):
            return 7
        return PLACEHOLDER.sub(lambda m: str(bindings[m.group(1)]), value)
    return value


def flatten(prefix, value, out):
    if isinstance(value, dict):
        for k, v in value.items():
            flatten(f"{prefix}.{k}" if prefix else k, v, out)
    else:
        out[prefix] = value
    return out


# Values for the names a step's body may use that only a run binds (an earlier answer, a
# for_each item): plausible ones, of the type the run would bind.
RUN_BINDINGS = {
    "item.name": "fakehost_prompt",
    "item.arguments.0.name": "topic",
    "page1.result.nextCursor": "cursor-page-2",
    "page1.result.tools.0.name": "get_time",
    "first.params.progress": 1,
    "revision.offered": PINNED,
}


def steps_of(steps):
    for step in steps or []:
        if not isinstance(step, dict):
            continue
        yield step
        loop = step.get("for_each")
        if isinstance(loop, dict):
            yield from steps_of(loop.get("steps"))


def sent_frames(source, profile):
    """(where, kind, frame, bindings-error) for every frame fakehost sends on its own."""
    base = flatten("", profile.get("vars", {}), {})
    base.update(RUN_BINDINGS)
    triggers = {k: v for k, v in profile.get("triggers", {}).items() if isinstance(v, dict)}
    used_vars = {}
    suite = source / "scenarios" / "mcp-stdio"
    for path in sorted(suite.rglob("*.yaml")):
        try:
            doc = yaml.safe_load(path.read_text())
        except FileNotFoundError:
            continue  # removed since the listing (the suite is being edited)
        except yaml.YAMLError as e:
            yield f"{path}", "unreadable", str(e).replace("\n", " "), None
            continue
        steps = doc if isinstance(doc, list) else (doc or {}).get("steps", [])
        bindings = dict(base)
        if isinstance(doc, dict):
            bindings.update(flatten("", doc.get("vars", {}), {}))
        rel = path.relative_to(suite).as_posix()
        n = 0
        for step in steps_of(steps):
            for kind in ("send", "notify"):
                body = step.get(kind)
                if not isinstance(body, dict) or step.get("invalid") is True:
                    continue
                n += 1
                where = f"{rel} {kind} #{n}"
                if "trigger" in body:
                    used_vars.setdefault(body["trigger"], bindings)
                    continue  # the profile's trigger examples are checked below
                if "retry" in body:
                    continue  # built at run time from the answer it retries (see below)
                frame = {"jsonrpc": "2.0", "method": body.get("method")}
                if kind == "send":
                    frame["id"] = body.get("id", 2)
                if "params" in body:
                    frame["params"] = body["params"]
                yield where, "request" if kind == "send" else "notification", frame, bindings
    for name, trigger in triggers.items():
        example = trigger.get("example")
        if isinstance(example, dict) and "method" in example:
            frame = {"jsonrpc": "2.0", "id": 2, **example}
            yield (f"profile trigger {name} example", "request", frame,
                   used_vars.get(name, base))
    replies = profile.get("host", {})
    for method, reply in replies.get("replies", {}).items():
        if isinstance(reply, dict) and ("result" in reply or "error" in reply):
            frame = {"jsonrpc": "2.0", "id": 3}
            frame.update({k: reply[k] for k in ("result", "error") if k in reply})
            yield f"profile host reply to {method}", ("response", method), frame, base
    for name in ("denied", "unknown", "unimplemented_granted"):
        reply = replies.get(name)
        if isinstance(reply, dict) and "error" in reply:
            frame = {"jsonrpc": "2.0", "id": 3, "error": reply["error"]}
            yield (f"profile host answer '{name}'", ("response", None), frame,
                   dict(base, method="tasks/get", capability="tasks"))


def check_sent_frames(tally, fakehost, official, source):
    profile = json.loads((source / "schema" / "mcp-stdio" / "profile.json").read_text())
    count = skipped = 0
    for where, kind, frame, bindings in sent_frames(source, profile):
        if kind == "unreadable":
            tally.check(False, where, f"not YAML: {frame}")
            continue
        try:
            frame = fill(frame, bindings)
        except KeyError as e:
            skipped += 1
            print(f"SKIPPED {where}: cannot fill ${{{e.args[0]}}}")
            continue
        count += 1
        if isinstance(kind, tuple):
            method = kind[1]
            entry = fakehost.route("response", method) if method else "envelope.response"
            theirs = official.judge_response(method, frame)
        else:
            method = frame.get("method")
            table = official.requests if kind == "request" else official.notifications
            entry = fakehost.route(kind, method)
            if method in table:
                name = table[method]
            else:
                name = "JSONRPCRequest" if kind == "request" else "JSONRPCNotification"
            err = official.error(name, frame)
            theirs = f"{name} {err}" if err else None
        tally.check(theirs is None, where,
                    f"the official {PINNED} schema refuses {short(frame)}: {theirs}")
        mine = fakehost.judge(entry, frame)
        tally.check(mine is None, where, f"fakehost's {entry} refuses {short(frame)}: {mine}")
    print(f"REPORT frames fakehost sends: {count} checked, {skipped} skipped")


# --- the 2026-07-28 schema -------------------------------------------------------------------

MODERN_LABEL = f"{LATER} "

# The official examples' folders whose definition fakehost's schema holds under another name.
MODERN_ALIASES = {
    "BooleanSchema": "PrimitiveSchemaDefinition", "NumberSchema": "PrimitiveSchemaDefinition",
    "StringSchema": "PrimitiveSchemaDefinition",
    "TitledMultiSelectEnumSchema": "PrimitiveSchemaDefinition",
    "TitledSingleSelectEnumSchema": "PrimitiveSchemaDefinition",
    "UntitledMultiSelectEnumSchema": "PrimitiveSchemaDefinition",
    "UntitledSingleSelectEnumSchema": "PrimitiveSchemaDefinition",
    "BlobResourceContents": "ResourceContents", "TextResourceContents": "ResourceContents",
    "ToolUseContent": "SamplingContent", "ToolResultContent": "SamplingContent",
}


def as_modern_frame(fakehost, official, name, example):
    """(what, fakehost's verdict) on an official 2026-07-28 example of the definition `name`, or
    None when fakehost's schema has no counterpart for it. A piece is judged as the frame that
    carries it (params in a request or notification, a result or an error in a response), else
    as the fakehost definition of its name (or MODERN_ALIASES')."""
    defs = official.defs
    for kind, table in (("request", official.requests),
                        ("notification", official.notifications)):
        for method, n in table.items():
            entry = fakehost.route(kind, method)
            if n == name:
                return entry, fakehost.judge(entry, example)
            params = defs[n].get("properties", {}).get("params", {}).get("$ref", "")
            if params.endswith("/" + name):
                frame = {"jsonrpc": "2.0", "method": method, "params": example}
                if kind == "request":
                    frame["id"] = 1
                return f"{entry} (as its params)", fakehost.judge(entry, frame)
    for method, n in official.requests.items():
        entry = fakehost.route("response", method)
        if name == n[: -len("Request")] + "ResultResponse":
            return entry, fakehost.judge(entry, example)
        if name in official.results(method):
            frame = {"jsonrpc": "2.0", "id": 1, "result": example}
            return f"{entry} (as its result)", fakehost.judge(entry, frame)
    props = defs[name].get("properties", {})
    if "error" in props and "jsonrpc" in props:  # a whole error response
        return "envelope.response", fakehost.judge("envelope.response", example)
    if "const" in props.get("code", {}):  # an error object
        frame = {"jsonrpc": "2.0", "id": 1, "error": example}
        return "envelope.response (as its error)", fakehost.judge("envelope.response", frame)
    mine = MODERN_ALIASES.get(name, name)
    if mine in fakehost.doc.get("definitions", {}):
        return f"definitions/{mine}", fakehost.error("definitions", mine, example)
    return None


def check_modern_examples(tally, fakehost, official, root):
    """Each official 2026-07-28 example that the official schema accepts under its folder's
    definition (check_later_examples fails the others) is judged by fakehost's 2026-07-28 schema
    as the frame (or piece) it is: fakehost's refusal fails unless MODERN_EXAMPLES lists it."""
    used, counts = set(), dict.fromkeys(("examples", "judged", "listed"), 0)
    folders = sorted(p for p in root.iterdir() if p.is_dir()) if root.is_dir() else []
    for folder in folders:
        name = folder.name
        if name not in official.defs:
            continue  # failed above, in check_later_examples
        for path in sorted(folder.glob("*.json")):
            counts["examples"] += 1
            example = json.loads(path.read_text())
            judged = as_modern_frame(fakehost, official, name, example)
            if judged is None:
                continue
            counts["judged"] += 1
            what, mine = judged
            theirs = official.error(name, example)
            theirs = theirs and f"{name} {theirs}"
            if (mine is None) == (theirs is None):
                tally.passed += 1
                continue
            where = f"{LATER} example {name}/{path.name}"
            for i, (pattern, reason) in enumerate(MODERN_EXAMPLES):
                if fnmatch.fnmatchcase(f"{name}/{path.name}", pattern):
                    used.add(i)
                    counts["listed"] += 1
                    tally.passed += 1
                    print(f"LISTED {where}: fakehost's {what} "
                          f"{'accepts it' if mine is None else 'refuses it: ' + mine}, the "
                          f"official {LATER} schema "
                          f"{'accepts it' if theirs is None else 'refuses it: ' + theirs}; "
                          f"{reason}")
                    break
            else:
                tally.check(False, where, f"fakehost's {what} "
                            f"{'accepts it' if mine is None else 'refuses it: ' + mine}, the "
                            f"official {LATER} schema "
                            f"{'accepts it' if theirs is None else 'refuses it: ' + theirs}")
    for i, (pattern, reason) in enumerate(MODERN_EXAMPLES):
        tally.check(i in used, f"MODERN_EXAMPLES row {i} ({pattern})",
                    f"matches no example the two schemas judge differently: {reason[:80]}")
    print(f"REPORT {LATER} examples judged by fakehost's {LATER} schema: {counts['judged']} of "
          f"{counts['examples']}, {counts['listed']} listed differences")


def modern_request_members(profile):
    """The members the profile's 2026-07-28 revision adds to every request: {pointer: value}."""
    for known in (profile.get("revisions") or {}).get("known", []):
        if isinstance(known, dict) and known.get("name") == LATER:
            return known.get("request_members") or {}
    return None


def with_members(frame, members):
    """The request with each member of the revision added where the step wrote none: member by
    member at each pointer (a member the step writes itself wins)."""
    frame = copy.deepcopy(frame)
    for pointer, value in members.items():
        at = frame
        for token in pointer.strip("/").split("/"):
            token = token.replace("~1", "/").replace("~0", "~")
            if not isinstance(at.get(token), dict):
                at[token] = {}
            at = at[token]
        for k, v in value.items():
            at.setdefault(k, copy.deepcopy(v))
    return frame


def modern_sent_frames(source, profile):
    """(where, kind, frame, bindings) for every send: / notify: body of the modern scenarios and
    the profile's example of every trigger they use."""
    base = flatten("", profile.get("vars", {}), {})
    base.update(RUN_BINDINGS)
    base["revision.offered"] = LATER
    base["progress_token"] = "fakehost-progress-1"
    triggers = {k: v for k, v in profile.get("triggers", {}).items() if isinstance(v, dict)}
    used = {}
    suite = source / "scenarios" / "mcp-stdio" / "modern"
    for path in sorted(suite.glob("*.yaml")):
        try:
            doc = yaml.safe_load(path.read_text())
        except FileNotFoundError:
            continue
        except yaml.YAMLError as e:
            yield f"modern/{path.name}", "unreadable", str(e).replace("\n", " "), None
            continue
        steps = doc if isinstance(doc, list) else (doc or {}).get("steps", [])
        bindings = dict(base)
        if isinstance(doc, dict):
            bindings.update(flatten("", doc.get("vars", {}), {}))
        n = 0
        for step in steps_of(steps):
            for kind in ("send", "notify"):
                body = step.get(kind)
                if not isinstance(body, dict) or step.get("invalid") is True:
                    continue
                n += 1
                where = f"modern/{path.name} {kind} #{n}"
                if "trigger" in body:
                    used.setdefault(body["trigger"], bindings)
                    continue
                if "retry" in body:
                    # Built at run time from the request and the answer it retries: the engine
                    # validates it when it is sent (host-frame-invalid), in every reference run.
                    continue
                frame = {"jsonrpc": "2.0", "method": body.get("method")}
                if kind == "send":
                    frame["id"] = body.get("id", 2)
                if "params" in body:
                    frame["params"] = body["params"]
                yield where, "request" if kind == "send" else "notification", frame, bindings
    for name in sorted(used):
        example = triggers.get(name, {}).get("example")
        if isinstance(example, dict) and "method" in example:
            yield (f"profile trigger {name} example", "request",
                   {"jsonrpc": "2.0", "id": 2, **example}, used[name])


def check_modern_sent(tally, fakehost, official, source):
    """Every frame a modern scenario makes fakehost send, with the revision's request members,
    validates against the official 2026-07-28 definition of its method (JSONRPCRequest /
    JSONRPCNotification for a method it has not) and against fakehost's 2026-07-28 entry, unless
    MODERN_SENT lists it."""
    profile = json.loads((source / "schema" / "mcp-stdio" / "profile.json").read_text())
    members = modern_request_members(profile)
    if not tally.check(members is not None, "profile.json",
                       f"revisions.known has no {LATER} entry with request_members"):
        return
    used, count, skipped = set(), 0, 0
    for where, kind, frame, bindings in modern_sent_frames(source, profile):
        if kind == "unreadable":
            tally.check(False, where, f"not YAML: {frame}")
            continue
        try:
            if kind == "request":
                frame = with_members(frame, members)
            frame = fill(frame, bindings)
        except KeyError as e:
            skipped += 1
            print(f"SKIPPED {where}: cannot fill ${{{e.args[0]}}}")
            continue
        count += 1
        method = frame.get("method")
        table = official.requests if kind == "request" else official.notifications
        name = table.get(method) or ("JSONRPCRequest" if kind == "request"
                                     else "JSONRPCNotification")
        err = official.error(name, frame)
        theirs = f"{name} {err}" if err else None
        entry = fakehost.route(kind, method)
        mine = fakehost.judge(entry, frame)
        for problem, what in ((theirs, f"the official {LATER} schema"),
                              (mine, f"fakehost's {LATER} {entry}")):
            if problem is None:
                tally.passed += 1
                continue
            for i, (pattern, reason) in enumerate(MODERN_SENT):
                if fnmatch.fnmatchcase(where, pattern):
                    used.add(i)
                    tally.passed += 1
                    print(f"LISTED {LATER} {where}: {what} refuses {short(frame, 100)} "
                          f"({problem}); {reason}")
                    break
            else:
                tally.check(False, f"{LATER} {where}", f"{what} refuses {short(frame)}: "
                            f"{problem}")
    for i, (pattern, reason) in enumerate(MODERN_SENT):
        tally.check(i in used, f"MODERN_SENT row {i} ({pattern})",
                    f"matches no frame either schema refuses: {reason[:80]}")
    print(f"REPORT frames fakehost sends under {LATER}: {count} checked, {skipped} skipped")


def main(argv):
    if len(argv) != 3:
        print(__doc__.strip().splitlines()[0])
        print("usage: mcp_official_schema.py SOURCE_DIR SPECS_MCP_DIR", file=sys.stderr)
        return 2
    source, specs = pathlib.Path(argv[1]), pathlib.Path(argv[2])
    mine = source / "schema" / "mcp-stdio" / "plugin-protocol-v1.schema.json"
    modern = source / "schema" / "mcp-stdio" / f"mcp-{LATER}.schema.json"
    for p in (mine, modern, specs / "schema" / PINNED / "schema.json",
              specs / "schema" / LATER / "schema.json"):
        if not p.is_file():
            print(f"{p}: no such file", file=sys.stderr)
            return 2
    fakehost = Fakehost(mine)
    pinned = Official(specs / "schema" / PINNED / "schema.json")
    later = Official(specs / "schema" / LATER / "schema.json")
    lax = Official(specs / "schema" / PINNED / "schema.json", formats=False)
    tally = Tally()
    check_rows_used(tally, check_entries(tally, fakehost, pinned))
    check_variants(tally, fakehost, pinned, lax)
    check_later_examples(tally, fakehost, pinned, later, specs / "schema" / LATER / "examples")
    check_sent_frames(tally, fakehost, pinned, source)
    # The same for fakehost's 2026-07-28 schema against the official 2026-07-28 one.
    fakehost26 = Fakehost(modern)
    official26 = Official(specs / "schema" / LATER / "schema.json", label=LATER, by_code=True)
    lax26 = Official(specs / "schema" / LATER / "schema.json", formats=False, label=LATER,
                     by_code=True)
    _MODERN["official"] = official26
    used = check_entries(tally, fakehost26, official26, MODERN_TEXT_ONLY, MODERN_DELIBERATE,
                         MODERN_LABEL)
    check_variants(tally, fakehost26, official26, lax26, MODERN_TEXT_ONLY, MODERN_DELIBERATE,
                   MODERN_LABEL, used)
    check_rows_used(tally, used, MODERN_TEXT_ONLY, MODERN_DELIBERATE, MODERN_LABEL)
    check_modern_examples(tally, fakehost26, official26, specs / "schema" / LATER / "examples")
    check_modern_sent(tally, fakehost26, official26, source)
    print(f"{tally.passed} passed, {tally.failed} failed")
    return 1 if tally.failed else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
