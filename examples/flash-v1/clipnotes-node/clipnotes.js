#!/usr/bin/env node
'use strict';
// clipnotes: notes and snippets for Flash, written against the Flash plugin
// protocol v1 text with Node's standard library only.
//
// Surfaces (see manifest.json):
//   sources  clipnotes.notes   warm catalog of notes, pushed with `publish`
//   query    {}                evaluator: arithmetic and unit conversions
//   status   notes             the note count, refreshed by a poll cadence
//   commands note add|rm|remind|sync|export|doctor
//   navigation clipnotes://note/<id>, clipnotes://add?text=...
//   listen   core:session.opened, core:status.observed

const fs = require('node:fs');
const path = require('node:path');
const crypto = require('node:crypto');
const { Wire, LINE_CAP } = require('./lib/wire');
const { evaluate, UNITS } = require('./lib/calc');
const json = require('./lib/json');

const PROTOCOL_VERSION = 1;
const SOURCE = 'clipnotes.notes';
const SEGMENT = 'notes';
const SCHEME = 'clipnotes';

// Catalog quotas (from the protocol's constants): rows are trimmed to fit
// rather than sent and rejected whole.
const MAX_ROWS = 10000;
const MAX_CATALOG_BYTES = 4 * 1024 * 1024;
const MAX_TITLE_BYTES = 4096;
const MAX_NOTE_BYTES = 65536; // effect text quota
const MAX_NOTIFY_BYTES = 1024;

// ---------------------------------------------------------------------------
// diagnostics: stderr is for humans only, and the host rate-limits it, so keep
// it sparse.
let diagCount = 0;
function diag(msg) {
  if (++diagCount > 50) return;
  try { process.stderr.write('clipnotes: ' + msg + '\n'); } catch (_) { /* ignore */ }
}

// ---------------------------------------------------------------------------
// configuration: the [plugin.clipnotes] table, as JSON in FLASH_PLUGIN_CONFIG.
function readConfig() {
  const text = process.env.FLASH_PLUGIN_CONFIG;
  let cfg = {};
  if (text) {
    try {
      const v = JSON.parse(text);
      if (v && typeof v === 'object' && !Array.isArray(v)) cfg = v;
      else diag('FLASH_PLUGIN_CONFIG is not a JSON object; using defaults');
    } catch (_) {
      diag('FLASH_PLUGIN_CONFIG is not valid JSON; using defaults');
    }
  }
  const int = (v, def, lo, hi) => (Number.isInteger(v) && v >= lo && v <= hi ? v : def);
  return {
    hostCallTimeoutMs: int(cfg.host_call_timeout_ms, 5000, 100, 60000),
    syncSettleMs: int(cfg.sync_settle_ms, 750, 0, 10000),
    syncDir: typeof cfg.sync_dir === 'string' && path.isAbsolute(cfg.sync_dir) ? cfg.sync_dir : null,
    refreshSeconds: int(cfg.refresh_seconds, 30, 1, 86400),
    maxNotes: int(cfg.max_notes, 5000, 1, MAX_ROWS),
    // Testing only: filler appended to `note export`, to check the outbound
    // frame limit (a padded export over 10 MiB must come back as
    // "response exceeded outbound frame limit").
    exportPaddingBytes: int(cfg.export_padding_bytes, 0, 0, 4 * LINE_CAP),
  };
}
const config = readConfig();

// ---------------------------------------------------------------------------
// storage: FLASH_PLUGIN_DATA_DIR/notes.json, written atomically.
const dataDir = process.env.FLASH_PLUGIN_DATA_DIR || null;
const notesFile = dataDir ? path.join(dataDir, 'notes.json') : null;
if (dataDir) {
  try { fs.mkdirSync(dataDir, { recursive: true }); } catch (_) { diag('cannot create the data directory'); }
} else {
  diag('FLASH_PLUGIN_DATA_DIR is not set; notes are kept in memory only');
}

// note: {id, text, created, updated, used, deleted?, remind_at?}
let notes = [];
let notesMtime = 0;

function readNotesFile(file) {
  const data = JSON.parse(fs.readFileSync(file, 'utf8'));
  if (!data || !Array.isArray(data.notes)) throw new Error('bad notes file');
  return data.notes.filter((n) => n && typeof n.id === 'string' && /^[0-9a-f]{1,32}$/.test(n.id) && typeof n.text === 'string');
}

function writeFileAtomic(file, text) {
  const tmp = file + '.' + process.pid + '.tmp';
  fs.writeFileSync(tmp, text);
  fs.renameSync(tmp, file);
}

function loadNotes() {
  if (!notesFile) return false;
  let st;
  try { st = fs.statSync(notesFile); } catch (_) { return false; }
  if (st.mtimeMs === notesMtime) return false;
  try {
    notes = readNotesFile(notesFile);
    notesMtime = st.mtimeMs;
    return true;
  } catch (_) {
    diag('notes.json is unreadable; keeping the notes in memory');
    return false;
  }
}

function saveNotes() {
  if (!notesFile) return;
  try {
    writeFileAtomic(notesFile, JSON.stringify({ version: 1, notes }, null, 1));
    notesMtime = fs.statSync(notesFile).mtimeMs;
  } catch (_) {
    diag('cannot write notes.json');
  }
}

const live = () => notes.filter((n) => !n.deleted);
const newId = () => crypto.randomBytes(6).toString('hex');

function utf8Truncate(s, maxBytes) {
  if (Buffer.byteLength(s, 'utf8') <= maxBytes) return s;
  let out = '';
  let bytes = 0;
  for (const ch of s) {
    const b = Buffer.byteLength(ch, 'utf8');
    if (bytes + b + 3 > maxBytes) break;
    out += ch;
    bytes += b;
  }
  return out + '…';
}

// ---------------------------------------------------------------------------
// the wire
const wire = new Wire({ onRequest, onNotification, onEof, diag });
const log = (level, message, fields) => wire.log(level, message, fields);

let initialized = false;
let exiting = false;

function onEof() {
  // stdin EOF is the shutdown signal: clean up, exit 0.
  exiting = true;
  wire.exit(0);
}

// ---------------------------------------------------------------------------
// publishing: catalog, status, poll registrations
function noteRow(n) {
  const firstLine = n.text.split('\n', 1)[0].trim() || '(empty note)';
  return {
    source: SOURCE,
    title: utf8Truncate(firstLine, Math.min(MAX_TITLE_BYTES, 512)),
    url: SCHEME + '://note/' + n.id,
    metadata: { note_id: n.id, created: new Date(n.created).toISOString() },
    effect: { copy_text: n.text },
  };
}

function publishCatalog() {
  // Most recently used first; cut to the row and byte quotas.
  const ordered = live().sort((a, b) => (b.used || b.updated) - (a.used || a.updated));
  const rows = [];
  let bytes = 20;
  for (const n of ordered) {
    if (rows.length >= MAX_ROWS) break;
    const row = noteRow(n);
    const size = Buffer.byteLength(JSON.stringify(row), 'utf8') + 1;
    if (bytes + size > MAX_CATALOG_BYTES) break;
    rows.push(row);
    bytes += size;
  }
  wire.notify('publish', { rows });
}

function publishStatus() {
  const count = live().length;
  wire.notify('status', { segments: { [SEGMENT]: count === 1 ? '1 note' : count + ' notes' } });
}

let statusObserved = true; // until the host says otherwise
const reminderArmings = new Map(); // poll name -> note id

function pollSet() {
  const regs = {
    refresh: statusObserved
      ? { every: config.refreshSeconds, priority: 'normal' }
      : { every: Math.max(config.refreshSeconds, 300), priority: 'low' },
  };
  const now = Date.now();
  for (const [name, id] of reminderArmings) {
    const n = notes.find((x) => x.id === id);
    if (!n || n.deleted || !n.remind_at) { reminderArmings.delete(name); continue; }
    regs[name] = { after: Math.min(86400, Math.max(1, Math.ceil((n.remind_at - now) / 1000))), priority: 'normal' };
    if (Object.keys(regs).length >= 64) break;
  }
  return regs;
}

let lastPollSet = '';
function publishPoll() {
  const regs = pollSet();
  const text = JSON.stringify(regs);
  if (text === lastPollSet) return;
  lastPollSet = text;
  wire.notify('poll', { registrations: regs });
}

function armReminder(n) {
  // Each arming gets its own name: a repeated deadline never re-arms.
  const name = 'remind-' + n.id + '-' + Math.floor(n.remind_at / 1000).toString(36);
  reminderArmings.set(name, n.id);
}

function publishAll() {
  publishCatalog();
  publishStatus();
  publishPoll();
}

// ---------------------------------------------------------------------------
// requests
function onRequest(req) {
  if (exiting) return new Promise(() => {}); // shutting down: no more answers
  const params = req.params && typeof req.params === 'object' && !Array.isArray(req.params) ? req.params : {};
  switch (req.method) {
    case 'initialize': return initialize(req, params);
    case 'ping': return { ok: true };
    case 'evaluate': return { ok: true, answers: evaluate(params.query) };
    case 'search': return { ok: true, rows: [] }; // no live sources
    case 'hints': return { ok: true, targets: [] }; // no hints provider
    case 'perform': return perform(req, params);
    default: return { ok: false, error: 'unknown method: ' + req.method };
  }
}

function initialize(req, params) {
  if (initialized) return { ok: false, error: 'initialize may only be called once' };
  const raw = json.rawNumber(params, 'protocol_version');
  if (raw === undefined || raw !== String(PROTOCOL_VERSION)) {
    // Only the integer 1 is version 1 (not 1.0, not true, not "1").
    let host = raw !== undefined ? raw : JSON.stringify(params.protocol_version === undefined ? null : params.protocol_version);
    if (host.length > 32) host = host.slice(0, 32);
    exiting = true;
    setImmediate(() => wire.exit(0)); // after the reply is written
    return { ok: false, protocol_version: PROTOCOL_VERSION, error: 'protocol version mismatch: host v' + host + ', plugin v1' };
  }
  initialized = true;
  // Reply first; warm the catalog right after.
  setImmediate(() => {
    loadNotes();
    for (const n of live()) if (n.remind_at) armReminder(n);
    publishAll();
    log('info', 'started', { notes: live().length });
  });
  return { ok: true, protocol_version: PROTOCOL_VERSION };
}

function hostCallTimeout(req) {
  let t = config.hostCallTimeoutMs;
  if (req.deadline !== undefined) t = Math.min(t, Math.max(100, req.deadline - 250 - (Date.now() - req.received)));
  return t;
}

async function perform(req, params) {
  const started = Date.now();
  const kind = params.kind;
  let result;
  switch (kind) {
    case 'command': result = await performCommand(req, params); break;
    case 'resolve': result = performResolve(params.row); break;
    case 'navigate': result = performNavigate(params.url); break;
    case 'action': result = { ok: false, unhandled: true }; break; // no actions declared
    default: result = { ok: false, error: 'unknown perform kind' };
  }
  log(result.ok ? 'info' : 'warn', 'perform', {
    kind: typeof kind === 'string' ? kind.slice(0, 32) : 'invalid',
    outcome: result.ok ? 'ok' : result.unhandled ? 'unhandled' : 'error',
    elapsed_ms: Date.now() - started,
  });
  return result;
}

function commandText(params, sub) {
  // The typed text after "note <sub>", spacing preserved; else the args.
  if (typeof params.raw === 'string') {
    const m = new RegExp('^\\s*\\S+\\s+' + sub.replace(/[^a-z]/g, '') + '(?:\\s+|$)([\\s\\S]*)$').exec(params.raw);
    if (m) return m[1].trim();
  }
  return Array.isArray(params.args) ? params.args.filter((a) => typeof a === 'string').join(' ').trim() : '';
}

async function performCommand(req, params) {
  if (params.command !== 'note') return { ok: false, unhandled: true };
  const sub = params.subcommand;
  switch (sub) {
    case 'add': return addNote(commandText(params, 'add'));
    case 'rm': return removeNote(commandText(params, 'rm'));
    case 'remind': return remind(req, commandText(params, 'remind'));
    case 'sync': return sync();
    case 'export': return exportNotes();
    case 'doctor': return doctor();
    default: return { ok: false, error: 'unknown note subcommand' };
  }
}

function addNote(text) {
  if (!text) return { ok: false, error: 'note text is empty' };
  if (Buffer.byteLength(text, 'utf8') > MAX_NOTE_BYTES) return { ok: false, error: 'note is longer than 64 KiB' };
  if (live().length >= config.maxNotes) return { ok: false, error: 'note limit reached' };
  const now = Date.now();
  const n = { id: newId(), text, created: now, updated: now, used: now };
  notes.push(n);
  saveNotes();
  publishCatalog();
  publishStatus();
  return { ok: true, message: 'Note added (' + live().length + ' total)' };
}

function findNote(idOrText) {
  const l = live();
  return l.find((n) => n.id === idOrText) || l.find((n) => n.text === idOrText);
}

function removeNote(key) {
  if (!key) return { ok: false, error: 'which note? give its id or its exact text' };
  const n = findNote(key);
  if (!n) return { ok: false, error: 'no such note' };
  n.deleted = true;
  n.updated = Date.now();
  n.text = '';
  delete n.remind_at;
  saveNotes();
  publishAll();
  return { ok: true, message: 'Note removed' };
}

// note remind <text>            notify now (waits for the host's answer)
// note remind in <N>[smhd] <text>  a one-shot poll deadline notifies later
async function remind(req, text) {
  let delay = 0;
  const m = /^in\s+(\d{1,6})\s*(s|sec|secs|m|min|mins|h|hr|hrs|d)\b\s*([\s\S]*)$/i.exec(text);
  if (m) {
    const unit = m[2].toLowerCase()[0];
    delay = Number(m[1]) * (unit === 's' ? 1 : unit === 'm' ? 60 : unit === 'h' ? 3600 : 86400);
    text = m[3].trim();
    if (delay < 1 || delay > 86400) return { ok: false, error: 'a reminder can be 1 s to 1 day away' };
  }
  if (!text) return { ok: false, error: 'reminder text is empty' };
  if (Buffer.byteLength(text, 'utf8') > MAX_NOTE_BYTES) return { ok: false, error: 'reminder is longer than 64 KiB' };
  const now = Date.now();
  const n = { id: newId(), text, created: now, updated: now, used: now };
  notes.push(n);
  if (delay > 0) {
    n.remind_at = now + delay * 1000;
    armReminder(n);
    saveNotes();
    publishAll(); // the poll set now holds the deadline
    return { ok: true, message: 'Reminder set' };
  }
  saveNotes();
  publishCatalog();
  publishStatus();
  const r = await wire.call('host.notify', { message: utf8Truncate(text, MAX_NOTIFY_BYTES) }, hostCallTimeout(req));
  if (r.ok === true) return { ok: true, message: 'Reminder sent' };
  // The note is kept; the notification failed. Report the host's (content-free) reason.
  const why = typeof r.error === 'string' && r.error ? r.error : 'notification failed';
  log('warn', 'host.notify failed', { method: 'host.notify' });
  return { ok: false, error: why };
}

async function fireReminder(name) {
  const id = reminderArmings.get(name);
  reminderArmings.delete(name);
  const n = notes.find((x) => x.id === id);
  if (!n || n.deleted || !n.remind_at) { publishPoll(); return; }
  delete n.remind_at;
  saveNotes();
  publishPoll();
  const r = await wire.call('host.notify', { message: utf8Truncate(n.text, MAX_NOTIFY_BYTES) }, config.hostCallTimeoutMs);
  if (r.ok !== true) log('warn', 'host.notify failed', { method: 'host.notify' });
}

// note sync: two-way merge with <sync_dir>/clipnotes.json (a folder another
// machine also syncs, e.g. a cloud drive). After writing, it waits for the
// file to settle (sync_settle_ms) and re-reads it, so a concurrent writer is
// detected instead of silently overwritten. Other requests are served meanwhile.
let syncing = false;
async function sync() {
  if (syncing) return { ok: false, error: 'a sync is already running' };
  const dir = config.syncDir || (dataDir ? path.join(dataDir, 'sync') : null);
  if (!dir) return { ok: false, error: 'no sync directory (set sync_dir)' };
  syncing = true;
  try {
    const file = path.join(dir, 'clipnotes.json');
    await fs.promises.mkdir(dir, { recursive: true });
    let remote = [];
    try { remote = readNotesFile(file); } catch (e) { if (e.code !== 'ENOENT') return { ok: false, error: 'the sync file is unreadable' }; }
    const merged = new Map();
    for (const n of notes) merged.set(n.id, n);
    for (const r of remote) {
      const l = merged.get(r.id);
      if (!l || (r.updated || 0) > (l.updated || 0)) merged.set(r.id, r);
    }
    const out = JSON.stringify({ version: 1, notes: [...merged.values()] }, null, 1);
    const tmp = file + '.' + process.pid + '.tmp';
    await fs.promises.writeFile(tmp, out);
    await fs.promises.rename(tmp, file);
    await new Promise((r) => setTimeout(r, config.syncSettleMs));
    const back = await fs.promises.readFile(file, 'utf8');
    if (back !== out) return { ok: false, error: 'the sync file changed during sync; run note sync again' };
    notes = [...merged.values()];
    saveNotes();
    publishAll();
    return { ok: true, message: 'Synced ' + live().length + ' notes' };
  } catch (e) {
    return { ok: false, error: 'sync failed (' + (e && e.code ? e.code : 'error') + ')' };
  } finally {
    syncing = false;
  }
}

// note export: the whole store (live notes) as JSON, in the reply's message.
// Nothing here checks the size: the wire's outbound limit replaces a reply
// over 10 MiB with "response exceeded outbound frame limit" under the same id.
function exportNotes() {
  const out = {
    version: 1,
    exported: new Date().toISOString(),
    notes: live().map((n) => ({ id: n.id, text: n.text, created: n.created, updated: n.updated })),
  };
  if (config.exportPaddingBytes > 0) out.padding = '.'.repeat(config.exportPaddingBytes);
  return { ok: true, message: JSON.stringify(out) };
}

// note doctor: a verbose, content-free diagnostic report on stderr (never on
// stdout: that is the protocol stream) and, when there is a data directory,
// in <data dir>/doctor.txt, since Flash logs only 20 stderr lines per 10 s.
// The reply is a one-line summary. It yields between evaluator dimensions so
// other requests (evaluate's 50 ms deadline) are served meanwhile.
async function doctor() {
  const started = Date.now();
  const lines = [];
  let checks = 0;
  let problems = 0;
  const check = (ok, what, detail) => {
    checks++;
    if (!ok) problems++;
    lines.push((ok ? 'ok    ' : 'FAIL  ') + what + (detail ? '  (' + detail + ')' : ''));
  };
  const problem = (ok, what, detail) => {
    check(ok, what, ok ? '' : detail);
  };
  const info = (text) => lines.push('      ' + text);
  lines.push('clipnotes doctor ' + new Date(started).toISOString());

  lines.push('== environment');
  info('node ' + process.version + ' on ' + process.platform + '/' + process.arch + ', pid ' + process.pid);
  for (const k of ['FLASH_PLUGIN_ID', 'FLASH_PLUGIN_VERSION', 'FLASH_PLUGIN_DATA_DIR', 'FLASH_PLUGIN_PARENT_PID', 'FLASH_PLUGIN_CONFIG']) {
    check(typeof process.env[k] === 'string' && process.env[k] !== '', k + ' is set');
  }
  check(process.env.FLASH_PLUGIN_ID === undefined || process.env.FLASH_PLUGIN_ID === 'clipnotes', 'FLASH_PLUGIN_ID is clipnotes');
  const ppid = process.env.FLASH_PLUGIN_PARENT_PID;
  let parentAlive = false;
  if (ppid && /^[1-9][0-9]{0,9}$/.test(ppid)) { try { process.kill(Number(ppid), 0); parentAlive = true; } catch (e) { parentAlive = e.code === 'EPERM'; } }
  check(parentAlive, 'the host process (FLASH_PLUGIN_PARENT_PID) is alive');
  info('environment keys: ' + Object.keys(process.env).sort().join(' '));

  lines.push('== settings (values are not shown)');
  let cfg = null;
  try { cfg = JSON.parse(process.env.FLASH_PLUGIN_CONFIG || '{}'); } catch (_) { /* reported below */ }
  check(cfg !== null && typeof cfg === 'object' && !Array.isArray(cfg), 'FLASH_PLUGIN_CONFIG is a JSON object');
  const known = { host_call_timeout_ms: 'hostCallTimeoutMs', sync_settle_ms: 'syncSettleMs', sync_dir: 'syncDir', refresh_seconds: 'refreshSeconds', max_notes: 'maxNotes', export_padding_bytes: 'exportPaddingBytes' };
  const defaults = { hostCallTimeoutMs: 5000, syncSettleMs: 750, syncDir: null, refreshSeconds: 30, maxNotes: 5000, exportPaddingBytes: 0 };
  for (const [key, field] of Object.entries(known)) {
    const given = cfg && typeof cfg === 'object' && Object.prototype.hasOwnProperty.call(cfg, key);
    if (!given) { info(key + ': not set, default in use'); continue; }
    problem(config[field] !== defaults[field] || cfg[key] === defaults[field], key + ' is valid', 'invalid: the default is used');
  }
  for (const key of cfg && typeof cfg === 'object' ? Object.keys(cfg) : []) {
    if (!Object.prototype.hasOwnProperty.call(known, key)) info('unknown setting ignored: ' + key.slice(0, 64));
  }

  lines.push('== storage');
  check(dataDir !== null, 'a data directory is configured');
  if (dataDir) {
    let writable = false;
    try { fs.accessSync(dataDir, fs.constants.W_OK); writable = true; } catch (_) { /* reported */ }
    check(writable, 'the data directory is writable');
    let st = null;
    try { st = fs.statSync(notesFile); } catch (_) { /* none yet */ }
    if (!st) info('notes.json does not exist yet');
    else {
      let readable = true;
      try { readNotesFile(notesFile); } catch (_) { readable = false; }
      check(readable, 'notes.json parses', st.size + ' bytes');
      check(st.mtimeMs === notesMtime, 'notes.json matches what is loaded', st.mtimeMs === notesMtime ? '' : 'changed on disk; the next refresh re-reads it');
    }
  }
  const sdir = config.syncDir || (dataDir ? path.join(dataDir, 'sync') : null);
  check(sdir !== null, 'a sync directory is available');

  lines.push('== store');
  const l = live();
  info(notes.length + ' notes, ' + l.length + ' live, ' + (notes.length - l.length) + ' deleted, ' + l.filter((n) => n.remind_at).length + ' reminders pending');
  check(l.length <= config.maxNotes, 'within max_notes');
  const ids = new Set();
  for (const n of notes) {
    const bytes = Buffer.byteLength(n.text, 'utf8');
    const dup = ids.has(n.id);
    ids.add(n.id);
    info('note ' + n.id + '  ' + bytes + ' B  created ' + new Date(n.created || 0).toISOString() + '  updated ' + new Date(n.updated || 0).toISOString()
      + (n.used ? '  used ' + new Date(n.used).toISOString() : '') + (n.deleted ? '  deleted' : '') + (n.remind_at ? '  remind ' + new Date(n.remind_at).toISOString() : ''));
    if (dup || bytes > MAX_NOTE_BYTES) check(false, 'note ' + n.id + ' is sound', dup ? 'duplicate id' : 'over 64 KiB');
  }
  const catalogBytes = l.reduce((sum, n) => sum + Buffer.byteLength(JSON.stringify(noteRow(n)), 'utf8') + 1, 20);
  check(l.length <= MAX_ROWS && catalogBytes <= MAX_CATALOG_BYTES, 'the catalog fits its quotas', l.length + ' rows, ' + catalogBytes + ' bytes');
  const exportBytes = Buffer.byteLength(exportNotes().message, 'utf8');
  check(exportBytes + 64 <= LINE_CAP, 'note export fits in one 10 MiB line', exportBytes + ' bytes');
  info('poll set: ' + Object.keys(pollSet()).length + ' registrations; status observed: ' + statusObserved);

  // Every unit spelling against every other of its dimension, through the real
  // evaluator: each must be claimed, agree with the canonical units' result,
  // and answer well inside the 50 ms query deadline.
  lines.push('== evaluator');
  const byDim = new Map();
  for (const [name, [dim, , canon]] of UNITS) {
    if (!byDim.has(dim)) byDim.set(dim, []);
    byDim.get(dim).push([name, canon]);
  }
  let slowest = 0;
  for (const [dim, names] of byDim) {
    await new Promise((r) => setImmediate(r));
    let ok = 0;
    for (const [a, ca] of names) {
      for (const [b, cb] of names) {
        const q = '1 ' + a + ' to ' + b;
        const t0 = process.hrtime.bigint();
        const got = evaluate(q);
        const ms = Number(process.hrtime.bigint() - t0) / 1e6;
        slowest = Math.max(slowest, ms);
        const want = evaluate('1 ' + ca + ' to ' + cb);
        const good = got.length === 1 && want.length === 1 && got[0].title === want[0].title;
        if (good) ok++;
        lines.push((good ? 'ok    ' : 'FAIL  ') + dim + ': ' + q + ' = ' + (got.length ? got[0].title : '(not claimed)') + '  ' + ms.toFixed(3) + ' ms');
      }
    }
    check(ok === names.length * names.length, dim + ': every spelling converts', ok + '/' + names.length * names.length);
  }
  check(slowest < 50, 'the slowest evaluation is inside the 50 ms query deadline', slowest.toFixed(3) + ' ms');

  const summary = 'Doctor: ' + checks + ' checks, ' + (problems === 0 ? 'no problems' : problems + (problems === 1 ? ' problem' : ' problems'));
  lines.push('== ' + summary + ' in ' + (Date.now() - started) + ' ms');
  const report = lines.map((x) => 'clipnotes doctor: ' + x).join('\n') + '\n';
  let where = 'stderr';
  if (dataDir) {
    try { writeFileAtomic(path.join(dataDir, 'doctor.txt'), report); where += ' and doctor.txt'; } catch (_) { /* stderr still has it */ }
  }
  try { process.stderr.write(report); } catch (_) { /* nobody reads stderr */ }
  return { ok: true, message: summary + ' (full report on ' + where + ')' };
}

function touch(n) {
  n.used = Date.now();
  saveNotes();
  publishCatalog(); // most recently used first
}

function performResolve(row) {
  if (!row || typeof row !== 'object' || row.source !== SOURCE) return { ok: false, unhandled: true };
  const id = row.metadata && typeof row.metadata.note_id === 'string' ? row.metadata.note_id : null;
  const n = id && live().find((x) => x.id === id);
  if (!n) return { ok: false, error: 'this note no longer exists' };
  touch(n);
  return { ok: true };
}

function performNavigate(url) {
  if (typeof url !== 'string') return { ok: false, error: 'navigate needs a url' };
  let u;
  try { u = new URL(url); } catch (_) { return { ok: false, unhandled: true }; }
  if (u.protocol !== SCHEME + ':') return { ok: false, unhandled: true }; // not our scheme
  if (u.host === 'note') {
    const n = live().find((x) => x.id === u.pathname.replace(/^\//, ''));
    if (!n) return { ok: false, error: 'this note no longer exists' };
    touch(n);
    return { ok: true, message: 'Note opened' };
  }
  if (u.host === 'add') return addNote((u.searchParams.get('text') || '').trim());
  return { ok: false, error: 'unknown clipnotes link' };
}

// ---------------------------------------------------------------------------
// notifications from the host
function onNotification(method, params) {
  if (method !== 'event' || exiting) return; // unknown notifications are ignored
  if (!params || typeof params !== 'object' || typeof params.name !== 'string') return;
  const name = params.name;
  if (name === 'core:poll:refresh' || name === 'core:session.opened') {
    if (loadNotes()) publishAll();
    return;
  }
  if (name.startsWith('core:poll:remind-')) {
    fireReminder(name.slice('core:poll:'.length));
    return;
  }
  if (name === 'core:status.observed') {
    const segs = params.payload && params.payload.segments;
    if (!Array.isArray(segs) || !segs.every((s) => typeof s === 'string' && s) || new Set(segs).size !== segs.length) {
      log('warn', 'malformed core:status.observed dropped', {});
      return;
    }
    const observed = segs.includes(SEGMENT);
    if (observed !== statusObserved) {
      statusObserved = observed;
      if (initialized) publishPoll(); // slower cadence while nobody looks
    }
  }
}

// ---------------------------------------------------------------------------
// exit when the host dies (FLASH_PLUGIN_PARENT_PID), even if stdin stays open
function watchParent() {
  const raw = process.env.FLASH_PLUGIN_PARENT_PID;
  if (!raw || !/^[1-9][0-9]{0,9}$/.test(raw) || Number(raw) > 2147483647) return;
  const pid = Number(raw);
  const wasParent = process.ppid === pid;
  setInterval(() => {
    let gone = wasParent && process.ppid !== pid; // re-parented: the host died
    if (!gone) {
      try { process.kill(pid, 0); } catch (e) { gone = e.code === 'ESRCH'; }
    }
    if (gone) { exiting = true; wire.exit(0); }
  }, 1000).unref();
}

watchParent();
wire.start();
