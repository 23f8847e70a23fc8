#!/usr/bin/env python3
"""slowsnips: a Flash plugin (protocol v1) that serves text snippets.

Written from flash-plugin-protocol-v1.txt and flash-manifest.md alone, standard library only.
It is deliberately a *slow, blocking, single-threaded* reader, the kind the protocol text calls
"fully conformant": it reads stdin 4 KiB at a time, throttled to a fixed rate, takes a
fixed time over every line before handling it, and handles one line at a time. Every pause is
well inside the deadlines (ping 10 s, perform 10 s, startup 5 s); the plugin declares no
evaluator, hints or live source, whose deadlines (50 ms, 500 ms, 1 s) a slow reader could miss.
"""
import json
import os
import select
import sys
import time

PROTOCOL_VERSION = 1
LINE_CAP = 10 * 1024 * 1024  # bytes, excluding the newline, both directions
SOURCE = "slowsnips.snippets"
SEGMENT = "snippets"
CONFIG_DEFAULTS = {
    "read_chunk": 4096,      # bytes per read(2)
    "read_kib_per_s": 2560,  # reading never goes faster than this: 10 MiB take 4 s
    "line_delay_ms": 20,     # time taken over every line before it is handled
    "reload_seconds": 60,    # cadence of the 'reload' poll registration
}
BUILTIN = {
    "shrug": "\u00af\\_(\u30c4)_/\u00af",
    "lgtm": "Looks good to me, thanks!",
    "sig": "Best regards,",
}


def log_stderr(message):
    try:
        sys.stderr.write("slowsnips: " + message + "\n")
        sys.stderr.flush()
    except OSError:
        pass


def load_config():
    config = dict(CONFIG_DEFAULTS)
    try:
        given = json.loads(os.environ.get("FLASH_PLUGIN_CONFIG") or "{}")
    except ValueError:
        given = {}
    if isinstance(given, dict):
        for key, default in CONFIG_DEFAULTS.items():
            value = given.get(key)
            if isinstance(value, (int, float)) and not isinstance(value, bool) and value >= 0:
                config[key] = type(default)(value)
    config["read_chunk"] = max(1, int(config["read_chunk"]))
    config["reload_seconds"] = min(86400, max(1, int(config["reload_seconds"])))
    return config


class Wire:
    """NDJSON over fds 0 and 1, read with plain blocking read(2) calls."""

    def __init__(self, chunk, bytes_per_s):
        self.chunk = chunk
        self.bytes_per_s = bytes_per_s
        self.started = time.monotonic()
        self.total = 0  # bytes read since start, for the throttle
        self.buffer = bytearray()
        self.scanned = 0  # bytes of buffer known to hold no newline
        self.discarding = False  # inside a line already over the cap: drop to its newline
        self.dropped = 0

    def lines(self, parent_alive):
        """Yields each complete line (bytes, without its newline); returns at EOF."""
        while True:
            newline = self.buffer.find(b"\n", self.scanned)
            while newline >= 0:
                line = bytes(self.buffer[:newline])
                del self.buffer[: newline + 1]
                self.scanned = 0
                if self.discarding:
                    self.discarding = False
                    self.dropped += 1
                elif len(line) > LINE_CAP:
                    self.dropped += 1
                else:
                    yield line
                newline = self.buffer.find(b"\n")
            self.scanned = len(self.buffer)
            if len(self.buffer) > LINE_CAP:  # no newline yet and already too long
                self.buffer.clear()
                self.scanned = 0
                self.discarding = True
            # Wake once a second while idle so the death of the parent is noticed.
            ready, _, _ = select.select([0], [], [], 1.0)
            if not ready:
                self.total = 0  # idle: the throttle starts afresh with the next burst
                if not parent_alive():
                    return
                continue
            data = os.read(0, self.chunk)
            if not data:
                return  # EOF: an unterminated last line is not a frame
            self.throttle(len(data))
            if self.discarding:
                cut = data.find(b"\n")
                if cut < 0:
                    data = b""
                else:
                    self.discarding = False
                    self.dropped += 1
                    data = data[cut + 1 :]
            self.buffer += data

    def throttle(self, count):
        """Sleeps as long as reading has run ahead of bytes_per_s (since the last idle wait)."""
        if not self.bytes_per_s:
            return
        now = time.monotonic()
        if self.total == 0:
            self.started = now
        self.total += count
        ahead = self.total / self.bytes_per_s - (now - self.started)
        if ahead > 0:
            time.sleep(ahead)

    def send(self, message):
        data = json.dumps(message, ensure_ascii=False, separators=(",", ":")).encode("utf-8")
        if len(data) > LINE_CAP and "id" in message and "result" in message:
            data = json.dumps({"id": message["id"], "result": {
                "ok": False, "error": "response exceeded outbound frame limit"}}).encode()
        elif len(data) > LINE_CAP:
            log_stderr("dropped an outbound notification over the line cap")
            return
        view = memoryview(data + b"\n")
        while view:
            written = os.write(1, view)
            view = view[written:]


def reject_constant(name):
    raise ValueError("not JSON: " + name)  # NaN and Infinity are Python's, not JSON's


def positive_int(value):
    return isinstance(value, int) and not isinstance(value, bool) and value > 0


class Plugin:
    def __init__(self, wire, config):
        self.wire = wire
        self.config = config
        self.initialized = False
        self.trace = None  # the trace of the request being served, if any
        data_dir = os.environ.get("FLASH_PLUGIN_DATA_DIR")
        self.path = os.path.join(data_dir, "snippets.json") if data_dir else None
        self.mtime = None
        self.snippets = dict(BUILTIN)
        self.reload_seconds = config["reload_seconds"]
        self.load()

    # -- storage --------------------------------------------------------------------------------
    def load(self):
        if not self.path:
            return
        try:
            mtime = os.stat(self.path).st_mtime_ns
        except OSError:
            return
        if mtime == self.mtime:
            return
        try:
            with open(self.path, encoding="utf-8") as f:
                stored = json.load(f)
        except (OSError, ValueError):
            log_stderr("snippets.json unreadable; keeping what is loaded")
            return
        if isinstance(stored, dict):
            self.snippets = {k: v for k, v in stored.items()
                             if isinstance(k, str) and isinstance(v, str) and k and v}
            self.mtime = mtime

    def save(self):
        if not self.path:
            return
        tmp = self.path + ".tmp"
        try:
            os.makedirs(os.path.dirname(self.path), exist_ok=True)
            with open(tmp, "w", encoding="utf-8") as f:
                json.dump(self.snippets, f, ensure_ascii=False, indent=1)
            os.replace(tmp, self.path)
            self.mtime = os.stat(self.path).st_mtime_ns
        except OSError:
            log_stderr("could not write snippets.json")

    # -- outbound -------------------------------------------------------------------------------
    def notify(self, method, params):
        self.wire.send({"method": method, "params": params})

    def log(self, level, message, **fields):
        params = {"level": level, "message": message,
                  "fields": {k: str(v) for k, v in fields.items()}}
        if self.trace is not None:
            params["trace"] = self.trace
        self.notify("log", params)

    def publish(self):
        rows = [{"source": SOURCE, "title": name, "effect": {"insert_text": text}}
                for name, text in sorted(self.snippets.items())]
        self.notify("publish", {"rows": rows})
        count = len(self.snippets)
        self.notify("status", {"segments": {SEGMENT: "%d snippet%s" % (count, "" if count == 1 else "s")}})

    def register_polls(self):
        self.notify("poll", {"registrations": {
            "reload": {"every": self.reload_seconds, "priority": "low"}}})

    # -- inbound --------------------------------------------------------------------------------
    def handle_line(self, line):
        try:
            message = json.loads(line.decode("utf-8"), parse_constant=reject_constant)
        except (UnicodeDecodeError, ValueError, RecursionError):
            return  # undecodable: dropped, the stream heals at the next newline
        if not isinstance(message, dict):
            return
        method = message.get("method")
        if "id" in message:
            if not positive_int(message["id"]):
                return  # an id that is not a positive integer is noise
            if isinstance(method, str):
                self.serve(message)
            # a response: this plugin never calls the host, so it answers nothing of ours
        elif isinstance(method, str):
            self.on_notification(method, message.get("params"))

    def serve(self, request):
        rid, method = request["id"], request["method"]
        params = request.get("params")
        params = params if isinstance(params, dict) else {}
        trace = request.get("trace")
        self.trace = trace if isinstance(trace, str) else None
        try:
            if method == "initialize":
                result, after = self.initialize(params)
            elif method == "ping":
                result, after = {"ok": True}, None
            elif method == "perform":
                result, after = self.perform(params), None
            else:
                result, after = {"ok": False, "error": "unknown method: " + method}, None
            self.wire.send({"id": rid, "result": result})
        finally:
            self.trace = None
        if after:
            after()

    def initialize(self, params):
        version = params.get("protocol_version")
        if self.initialized:
            return {"ok": False, "error": "initialize may only be called once"}, None
        if not (isinstance(version, int) and not isinstance(version, bool) and version == PROTOCOL_VERSION):
            shown = version if positive_int(version) else json.dumps(version)
            error = "protocol version mismatch: host v%s, plugin v1" % shown
            return {"ok": False, "protocol_version": PROTOCOL_VERSION, "error": error}, self.refuse
        self.initialized = True
        return {"ok": True, "protocol_version": PROTOCOL_VERSION}, self.start

    def refuse(self):
        sys.stdout.flush()
        sys.exit(0)

    def start(self):
        self.publish()
        self.register_polls()

    def perform(self, params):
        started = time.monotonic()
        kind = params.get("kind")
        if kind == "command":
            result = self.command(params)
        elif kind == "resolve":
            row = params.get("row")
            ours = isinstance(row, dict) and row.get("source") == SOURCE and row.get("title") in self.snippets
            result = {"ok": True} if ours else {"ok": False, "unhandled": True}
        elif kind in ("action", "navigate"):
            result = {"ok": False, "unhandled": True}
        else:
            result = {"ok": False, "error": "unknown perform kind"}
        outcome = "ok" if result.get("ok") else ("unhandled" if result.get("unhandled") else "error")
        self.log("info", "perform", kind=kind if isinstance(kind, str) else "?", outcome=outcome,
                 elapsed_ms=int((time.monotonic() - started) * 1000))
        return result

    def command(self, params):
        if params.get("command") != "snip":
            return {"ok": False, "unhandled": True}
        sub = params.get("subcommand")
        args = params.get("args")
        args = [a for a in args if isinstance(a, str)] if isinstance(args, list) else []
        if sub == "add":
            if len(args) < 2 or not args[0]:
                return {"ok": False, "error": "usage: snip add <name> <text>"}
            self.snippets[args[0]] = " ".join(args[1:])
            self.save()
            self.publish()
            return {"ok": True, "message": "snippet saved"}
        if sub == "rm":
            if not args or args[0] not in self.snippets:
                return {"ok": False, "error": "no such snippet"}
            del self.snippets[args[0]]
            self.save()
            self.publish()
            return {"ok": True, "message": "snippet removed"}
        if sub == "count":
            return {"ok": True, "message": "%d snippets" % len(self.snippets)}
        if sub == "every":
            try:
                seconds = int(args[0])
            except (IndexError, ValueError):
                return {"ok": False, "error": "usage: snip every <seconds>"}
            if not 1 <= seconds <= 86400:
                return {"ok": False, "error": "seconds must be 1..86400"}
            self.reload_seconds = seconds
            self.register_polls()
            return {"ok": True, "message": "reload cadence set"}
        return {"ok": False, "unhandled": True}

    def on_notification(self, method, params):
        if method != "event" or not isinstance(params, dict):
            return  # unknown notifications are ignored
        if params.get("name") == "core:poll:reload":
            before = dict(self.snippets)
            self.load()
            if self.snippets != before:
                self.publish()


def main():
    config = load_config()
    wire = Wire(config["read_chunk"], config["read_kib_per_s"] * 1024)
    plugin = Plugin(wire, config)
    parent = os.environ.get("FLASH_PLUGIN_PARENT_PID", "")

    def parent_alive():
        if not parent.isdigit():
            return True
        try:
            os.kill(int(parent), 0)
        except ProcessLookupError:
            return False
        except OSError:
            return True
        return True

    delay = config["line_delay_ms"] / 1000.0
    try:
        for line in wire.lines(parent_alive):
            if delay:
                time.sleep(delay)
            plugin.handle_line(line)
    except BrokenPipeError:
        pass  # the host stopped reading: nothing more to say
    if wire.dropped:
        log_stderr("dropped %d oversized line(s)" % wire.dropped)
    sys.exit(0)


if __name__ == "__main__":
    main()
