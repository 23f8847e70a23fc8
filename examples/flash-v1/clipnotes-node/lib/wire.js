'use strict';
// The Flash plugin protocol v1 transport: NDJSON over stdin/stdout.
//
// - one JSON object per \n-terminated line, lines capped at 10 MiB (10,485,760
//   bytes, the newline excluded) in both directions;
// - an oversized or undecodable inbound line (bad UTF-8, not JSON, not an
//   object, a bad id) is dropped, never fatal; the stream heals at the next \n;
// - id+method = request, id alone = response, method alone = notification;
//   ids are positive integers (a boolean, a float such as 3.0, a string or a
//   non-positive number is not an id: such a frame is noise and is dropped);
// - every request is answered exactly once; an outbound response over the cap
//   is replaced by {"ok": false, "error": "response exceeded outbound frame limit"};
// - plugin->host calls carry the plugin's own monotonic ids and their own
//   timeout ("host call timed out"); late or unknown replies are dropped;
// - a log notification emitted while serving a traced request carries the
//   trace back as params.trace (AsyncLocalStorage follows the handler's awaits).

const { AsyncLocalStorage } = require('node:async_hooks');
const { TextDecoder } = require('node:util');
const json = require('./json');

const LINE_CAP = 10485760;
const ID_RE = /^[1-9][0-9]*$/;
const TRACE_RE = /^[0-9a-z]{1,16}$/;

const E_OUTBOUND = 'response exceeded outbound frame limit';
const E_HOST_TIMEOUT = 'host call timed out';

class Wire {
  constructor({ onRequest, onNotification, onEof, diag }) {
    this.onRequest = onRequest;
    this.onNotification = onNotification;
    this.onEof = onEof;
    this.diag = diag;
    this.decoder = new TextDecoder('utf-8', { fatal: true, ignoreBOM: true });
    this.chunks = [];
    this.length = 0;
    this.discarding = false; // inside an oversized line
    this.nextId = 1;
    this.pending = new Map(); // our host-call id (string) -> {resolve, timer}
    this.als = new AsyncLocalStorage();
    this.closed = false;
    this.dropped = 0;
  }

  start() {
    process.stdin.on('data', (chunk) => this._data(chunk));
    process.stdin.on('end', () => this._eof());
    process.stdin.on('error', () => this._eof());
    process.stdout.on('error', () => {
      // The host stopped reading: nobody can hear us any more.
      this.closed = true;
      process.exit(0);
    });
  }

  _eof() {
    if (this.eofSeen) return;
    this.eofSeen = true;
    // A final line without its newline is not a whole frame: it is dropped.
    this.chunks = [];
    this.length = 0;
    for (const [, p] of this.pending) clearTimeout(p.timer);
    this.pending.clear();
    this.onEof();
  }

  _data(chunk) {
    let start = 0;
    for (;;) {
      const nl = chunk.indexOf(0x0a, start);
      if (nl === -1) {
        const rest = chunk.length - start;
        if (this.discarding) return;
        if (this.length + rest > LINE_CAP) {
          this._oversized();
          return;
        }
        if (rest > 0) {
          this.chunks.push(start === 0 ? chunk : chunk.subarray(start));
          this.length += rest;
        }
        return;
      }
      const piece = nl - start;
      if (this.discarding) {
        this.discarding = false;
      } else if (this.length + piece > LINE_CAP) {
        this._oversized();
        this.discarding = false;
      } else {
        let line;
        if (this.chunks.length === 0) line = chunk.subarray(start, nl);
        else {
          this.chunks.push(chunk.subarray(start, nl));
          line = Buffer.concat(this.chunks, this.length + piece);
        }
        this.chunks = [];
        this.length = 0;
        this._line(line);
      }
      start = nl + 1;
      if (this.eofSeen) return;
    }
  }

  _oversized() {
    this.chunks = [];
    this.length = 0;
    this.discarding = true;
    this._drop('oversized line');
  }

  _drop(why) {
    this.dropped++;
    this.diag('dropped inbound line: ' + why);
  }

  _line(buf) {
    if (buf.length === 0 || (buf.length === 1 && buf[0] === 0x0d)) return; // blank line
    let text;
    try {
      text = this.decoder.decode(buf);
    } catch (_) {
      return this._drop('invalid UTF-8');
    }
    let msg;
    try {
      msg = json.parse(text);
    } catch (_) {
      return this._drop('not JSON');
    }
    if (msg === null || typeof msg !== 'object' || Array.isArray(msg)) return this._drop('not an object');
    const hasId = json.has(msg, 'id');
    const hasMethod = json.has(msg, 'method');
    let id;
    if (hasId) {
      const raw = json.rawNumber(msg, 'id');
      if (raw === undefined || !ID_RE.test(raw)) return this._drop('id is not a positive integer');
      id = raw;
    }
    if (hasMethod && typeof msg.method !== 'string') return this._drop('method is not a string');
    if (hasId && hasMethod) return this._request(id, msg);
    if (hasId) return this._response(id, msg);
    if (hasMethod) {
      try {
        this.onNotification(msg.method, msg.params);
      } catch (e) {
        this.diag('notification handler failed: ' + (e && e.name));
      }
      return;
    }
    this._drop('neither request, response nor notification');
  }

  _request(id, msg) {
    const trace = typeof msg.trace === 'string' && TRACE_RE.test(msg.trace) ? msg.trace : undefined;
    const deadlineRaw = json.rawNumber(msg, 'deadline_ms');
    const deadline = deadlineRaw !== undefined && /^[0-9]+$/.test(deadlineRaw) ? Number(deadlineRaw) : undefined;
    let answered = false;
    const reply = (result) => {
      if (answered) return;
      answered = true;
      this._respond(id, result);
    };
    const req = { id, method: msg.method, params: msg.params, rawParams: msg.params, trace, deadline, received: Date.now() };
    this.als.run({ trace }, () => {
      let out;
      try {
        out = this.onRequest(req);
      } catch (e) {
        this.diag('request handler threw: ' + (e && e.name));
        return reply({ ok: false, error: 'internal error' });
      }
      Promise.resolve(out).then(
        (result) => reply(result),
        (e) => {
          this.diag('request handler failed: ' + (e && e.name));
          reply({ ok: false, error: 'internal error' });
        },
      );
    });
  }

  _respond(id, result) {
    if (this.closed) return;
    let body;
    try {
      body = JSON.stringify(result);
    } catch (_) {
      body = JSON.stringify({ ok: false, error: 'internal error' });
    }
    let line = '{"id":' + id + ',"result":' + body + '}';
    if (Buffer.byteLength(line, 'utf8') > LINE_CAP) {
      line = '{"id":' + id + ',"result":' + JSON.stringify({ ok: false, error: E_OUTBOUND }) + '}';
      this.log('warn', 'response replaced: over the outbound frame limit', { method: 'response' });
    }
    this._write(line);
  }

  _response(id, msg) {
    const p = this.pending.get(id);
    if (!p) return; // a reply nobody waits for (late, or never asked): dropped
    this.pending.delete(id);
    clearTimeout(p.timer);
    const r = msg.result;
    if (r === null || typeof r !== 'object' || Array.isArray(r) || typeof r.ok !== 'boolean') {
      p.resolve({ ok: false, error: 'malformed host reply' });
    } else {
      p.resolve(r);
    }
  }

  _write(line) {
    if (this.closed) return false;
    process.stdout.write(line + '\n');
    return true;
  }

  // A notification; dropped (with a diagnostic) if it would break the cap.
  notify(method, params) {
    const line = JSON.stringify({ method, params });
    if (Buffer.byteLength(line, 'utf8') > LINE_CAP) {
      this.diag('notification ' + method + ' not sent: over the outbound frame limit');
      return false;
    }
    return this._write(line);
  }

  // A content-free structured log; carries the serving request's trace.
  log(level, message, fields) {
    const params = { level, message, fields: fields || {} };
    const store = this.als.getStore();
    if (store && store.trace) params.trace = store.trace;
    this.notify('log', params);
  }

  // Call the host. Resolves with the host's result object, or with
  // {ok: false, error: "host call timed out"}; never rejects.
  call(method, params, timeoutMs) {
    const id = String(this.nextId++);
    return new Promise((resolve) => {
      const timer = setTimeout(() => {
        if (this.pending.delete(id)) resolve({ ok: false, error: E_HOST_TIMEOUT });
      }, timeoutMs);
      this.pending.set(id, { resolve, timer });
      this._write('{"id":' + id + ',"method":' + JSON.stringify(method) + ',"params":' + JSON.stringify(params) + '}');
    });
  }

  // Flush stdout, then exit with code.
  exit(code) {
    this.closed = true;
    if (process.stdout.writableLength === 0) process.exit(code);
    process.stdout.write('', () => process.exit(code));
    setTimeout(() => process.exit(code), 500).unref();
  }
}

module.exports = { Wire, LINE_CAP, E_HOST_TIMEOUT };
