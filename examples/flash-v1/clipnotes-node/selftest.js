#!/usr/bin/env node
'use strict';
// A small self-test for what a conformance harness may not reach: it plays the
// host over stdio, Node standard library only. Run: node selftest.js
const { spawn, spawnSync } = require('node:child_process');
const fs = require('node:fs');
const os = require('node:os');
const path = require('node:path');
const assert = require('node:assert/strict');

const PLUGIN = path.join(__dirname, 'clipnotes.js');

function start(config = {}, extraEnv = {}) {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'clipnotes-test-'));
  const child = spawn(PLUGIN, [], {
    env: {
      PATH: process.env.PATH,
      FLASH_PLUGIN_ID: 'clipnotes',
      FLASH_PLUGIN_VERSION: '1.0.0',
      FLASH_PLUGIN_DATA_DIR: dataDir,
      FLASH_PLUGIN_PARENT_PID: String(process.pid),
      FLASH_PLUGIN_CONFIG: JSON.stringify(config),
      ...extraEnv,
    },
    stdio: ['pipe', 'pipe', 'pipe'],
  });
  const frames = [];
  const waiters = [];
  let buf = '';
  child.stdout.setEncoding('utf8');
  child.stdout.on('data', (d) => {
    buf += d;
    let nl;
    while ((nl = buf.indexOf('\n')) !== -1) {
      const line = buf.slice(0, nl);
      buf = buf.slice(nl + 1);
      const f = JSON.parse(line);
      f._at = Date.now();
      frames.push(f);
      for (const w of [...waiters]) if (w.pred(f)) { waiters.splice(waiters.indexOf(w), 1); w.resolve(f); }
    }
  });
  let stderrBytes = 0;
  child.stderr.on('data', (d) => { stderrBytes += d.length; });
  let nextId = 1;
  const h = {
    child, frames, dataDir,
    stderrBytes: () => stderrBytes,
    send(obj) { child.stdin.write(JSON.stringify(obj) + '\n'); },
    raw(text) { child.stdin.write(text); },
    request(method, params = {}, extra = {}) { const id = nextId++; h.send({ id, method, params, deadline_ms: 10000, ...extra }); return id; },
    wait(pred, ms = 3000) {
      const hit = frames.find(pred);
      if (hit) return Promise.resolve(hit);
      return new Promise((resolve, reject) => {
        const w = { pred, resolve };
        waiters.push(w);
        setTimeout(() => { const i = waiters.indexOf(w); if (i !== -1) { waiters.splice(i, 1); reject(new Error('timeout waiting')); } }, ms);
      });
    },
    reply(id, ms) { return h.wait((f) => f.id === id && !('method' in f), ms).then((f) => f.result); },
    exited() { return new Promise((r) => (child.exitCode !== null ? r(child.exitCode) : child.on('exit', (c, s) => r(c === null ? s : c)))); },
    async init() { const r = await h.reply(h.request('initialize', { protocol_version: 1 })); assert.deepEqual(r, { ok: true, protocol_version: 1 }); },
  };
  return h;
}

const tests = [];
const test = (name, fn) => tests.push({ name, fn });

test('evaluate claims arithmetic and conversions, nothing else', async () => {
  const h = start();
  await h.init();
  const ev = async (q) => (await h.reply(h.request('evaluate', { query: q, scope: 'all', surface: 'flashlight' }))).answers;
  assert.equal((await ev('2+3*4'))[0].effect.copy_text, '14');
  assert.equal((await ev('2^10/4'))[0].title, '256');
  assert.equal((await ev('10 km to mi'))[0].effect.copy_text, '6.21371192237');
  assert.equal((await ev('212 f in c'))[0].title, '100 °C');
  for (const q of ['', '42', 'hello', '1/0', '10 km to kg', 'note add x', '(', '2+']) assert.deepEqual(await ev(q), [], q);
  h.child.stdin.end();
  assert.equal(await h.exited(), 0);
});

test('a traced perform logs with the trace; commands publish catalog and status', async () => {
  const h = start();
  await h.init();
  const id = h.request('perform', { kind: 'command', command: 'note', subcommand: 'add', args: ['buy', 'tea'], raw: 'note add buy  tea' }, { trace: 'abc123' });
  assert.equal((await h.reply(id)).ok, true);
  await h.wait((f) => f.method === 'log' && f.params.trace === 'abc123');
  const pub = await h.wait((f) => f.method === 'publish' && f.params.rows.length === 1);
  assert.equal(pub.params.rows[0].effect.copy_text, 'buy  tea');
  await h.wait((f) => f.method === 'status' && f.params.segments.notes === '1 note');
  // resolve the row; a foreign row is unhandled; a stale one an error
  assert.deepEqual(await h.reply(h.request('perform', { kind: 'resolve', row: pub.params.rows[0] })), { ok: true });
  assert.deepEqual(await h.reply(h.request('perform', { kind: 'resolve', row: { source: 'other', title: 'x' } })), { ok: false, unhandled: true });
  assert.equal((await h.reply(h.request('perform', { kind: 'resolve', row: { source: 'clipnotes.notes', title: 'x', metadata: { note_id: 'ffff' } } }))).ok, false);
  assert.deepEqual(await h.reply(h.request('perform', { kind: 'command', command: 'tmux', subcommand: 'x', args: [], raw: 'tmux x' })), { ok: false, unhandled: true });
  assert.equal((await h.reply(h.request('perform', { kind: 'navigate', url: pub.params.rows[0].url }))).ok, true);
  h.child.stdin.end();
  assert.equal(await h.exited(), 0);
  // persisted under the data dir
  assert.equal(JSON.parse(fs.readFileSync(path.join(h.dataDir, 'notes.json'), 'utf8')).notes.length, 1);
});

test('host call: denial is reported, requests served while held, own timeout', async () => {
  const h = start({ host_call_timeout_ms: 700 });
  await h.init();
  const p1 = h.request('perform', { kind: 'command', command: 'note', subcommand: 'remind', args: ['tea'], raw: 'note remind tea' });
  const call = await h.wait((f) => f.method === 'host.notify');
  assert.equal(typeof call.id, 'number');
  h.send({ id: call.id, result: { ok: false, error: 'missing notify capability' } });
  assert.deepEqual(await h.reply(p1), { ok: false, error: 'missing notify capability' });
  // held: the host never answers
  const p2 = h.request('perform', { kind: 'command', command: 'note', subcommand: 'remind', args: ['tea'], raw: 'note remind tea' });
  const call2 = await h.wait((f) => f.method === 'host.notify' && f.id !== call.id);
  assert.ok(call2.id > call.id, 'monotonic ids');
  // a host request reusing the pending call's id is a request, not a reply
  h.send({ id: call2.id, method: 'ping', params: {} });
  const t0 = Date.now();
  const e = h.request('evaluate', { query: '1+1', scope: 'all', surface: 'flashlight' });
  assert.equal((await h.reply(e)).answers[0].title, '2');
  assert.ok(Date.now() - t0 < 50, 'evaluate within 50 ms while a call is held');
  await h.wait((f) => f.id === call2.id && !('method' in f) && f.result.ok === true);
  assert.deepEqual(await h.reply(p2, 2000), { ok: false, error: 'host call timed out' });
  h.send({ id: call2.id, result: { ok: true } }); // late: dropped
  assert.deepEqual(await h.reply(h.request('ping')), { ok: true });
  h.child.stdin.end();
  assert.equal(await h.exited(), 0);
});

test('slow sync serves other requests meanwhile', async () => {
  const h = start();
  await h.init();
  const t0 = Date.now();
  const s = h.request('perform', { kind: 'command', command: 'note', subcommand: 'sync', args: [], raw: 'note sync' });
  assert.deepEqual(await h.reply(h.request('ping')), { ok: true });
  assert.ok(!h.frames.some((f) => f.id === s && !('method' in f)));
  const r = await h.reply(s);
  assert.equal(r.ok, true);
  assert.ok(Date.now() - t0 >= 500);
  h.child.stdin.end();
  assert.equal(await h.exited(), 0);
});

test('a delayed reminder arms a named one-shot poll deadline', async () => {
  const h = start();
  await h.init();
  const id = h.request('perform', { kind: 'command', command: 'note', subcommand: 'remind', args: ['in', '10m', 'stretch'], raw: 'note remind in 10m stretch' });
  assert.equal((await h.reply(id)).ok, true);
  const p = await h.wait((f) => f.method === 'poll' && Object.keys(f.params.registrations).some((k) => k.startsWith('remind-')));
  const [name, reg] = Object.entries(p.params.registrations).find(([k]) => k.startsWith('remind-'));
  assert.match(name, /^[a-z0-9_-]{1,64}$/);
  assert.equal(reg.after, 600);
  // the tick notifies through the host
  h.send({ method: 'event', params: { name: 'core:poll:' + name } });
  const call = await h.wait((f) => f.method === 'host.notify');
  h.send({ id: call.id, result: { ok: true } });
  await h.wait((f) => f.method === 'poll' && !Object.keys(f.params.registrations).some((k) => k.startsWith('remind-')));
  h.child.stdin.end();
  assert.equal(await h.exited(), 0);
});

test('stdin EOF with a host call pending: exit 0 promptly', async () => {
  const h = start();
  await h.init();
  h.request('perform', { kind: 'command', command: 'note', subcommand: 'remind', args: ['x'], raw: 'note remind x' });
  await h.wait((f) => f.method === 'host.notify');
  const t0 = Date.now();
  h.child.stdin.end();
  assert.equal(await h.exited(), 0);
  assert.ok(Date.now() - t0 < 1000);
});

test('version mismatch: canonical string, exit 0; 1.0 is not version 1', async () => {
  for (const [v, text] of [['2', '2'], ['1.0', '1.0']]) {
    const h = start();
    h.raw('{"id":1,"method":"initialize","params":{"protocol_version":' + v + '}}\n');
    assert.deepEqual(await h.reply(1), { ok: false, protocol_version: 1, error: 'protocol version mismatch: host v' + text + ', plugin v1' });
    assert.equal(await h.exited(), 0);
  }
});

test('outbound responses over 10 MiB are replaced under the same id', async () => {
  const code = `
    const { Wire } = require(${JSON.stringify(path.join(__dirname, 'lib', 'wire.js'))});
    const w = new Wire({ onRequest() {}, onNotification() {}, onEof() {}, diag() {} });
    w._respond('42', { ok: true, blob: 'x'.repeat(10485760) });
    w._respond('43', { ok: true });`;
  const r = spawnSync(process.execPath, ['-e', code], { maxBuffer: 64 << 20, encoding: 'utf8' });
  const lines = r.stdout.trim().split('\n').map((l) => JSON.parse(l));
  const resp = lines.filter((f) => 'id' in f);
  assert.deepEqual(resp[0], { id: 42, result: { ok: false, error: 'response exceeded outbound frame limit' } });
  assert.deepEqual(resp[1], { id: 43, result: { ok: true } });
});

test('note export: the store as its message; padded past 10 MiB, replaced by the wire under the same id', async () => {
  const cmd = (sub, args = []) => ({ kind: 'command', command: 'note', subcommand: sub, args, raw: ['note', sub, ...args].join(' ') });
  let h = start();
  await h.init();
  assert.equal((await h.reply(h.request('perform', cmd('add', ['buy', 'tea'])))).ok, true);
  const r = await h.reply(h.request('perform', cmd('export')));
  assert.equal(r.ok, true);
  assert.deepEqual(JSON.parse(r.message).notes.map((n) => n.text), ['buy tea']);
  h.child.stdin.end();
  assert.equal(await h.exited(), 0);
  h = start({ export_padding_bytes: 10485760 });
  await h.init();
  const id = h.request('perform', cmd('export'));
  assert.deepEqual(await h.reply(id, 10000), { ok: false, error: 'response exceeded outbound frame limit' });
  assert.deepEqual(await h.reply(h.request('ping')), { ok: true }); // still serving
  h.child.stdin.end();
  assert.equal(await h.exited(), 0);
});

test('note doctor: over 64 KiB of report on stderr only, a one-line summary as the answer', async () => {
  const h = start();
  await h.init();
  const id = h.request('perform', { kind: 'command', command: 'note', subcommand: 'doctor', args: [], raw: 'note doctor' });
  const r = await h.reply(id, 10000);
  assert.equal(r.ok, true);
  assert.match(r.message, /^Doctor: \d+ checks, no problems \(full report on stderr and doctor\.txt\)$/);
  await new Promise((res) => setTimeout(res, 100)); // let the stderr pipe drain
  assert.ok(h.stderrBytes() >= 65536, 'stderr ' + h.stderrBytes() + ' bytes');
  assert.ok(fs.readFileSync(path.join(h.dataDir, 'doctor.txt'), 'utf8').length >= 65536);
  h.child.stdin.end();
  assert.equal(await h.exited(), 0);
});

test('exits when FLASH_PLUGIN_PARENT_PID dies', async () => {
  // A parent shell starts the plugin with its own pid, then dies. The
  // plugin's stdin is a FIFO this test holds open, so it never sees EOF: only
  // the parent's death can end it. (A 'pipe' stdin would not do: Node closes
  // it when the child exits. And sh points an async command's stdin at
  // /dev/null before its own redirections, hence the detour through fd 3.)
  const fifo = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'clipnotes-fifo-')), 'stdin');
  spawnSync('mkfifo', [fifo]);
  const fd = fs.openSync(fifo, 'r+');
  const sh = spawn('/bin/sh', ['-c', 'exec 3<&0; FLASH_PLUGIN_PARENT_PID=$$ "$0" <&3 3<&- & echo $!; sleep 0.3', PLUGIN], { stdio: [fd, 'pipe', 'ignore'] });
  let out = '';
  sh.stdout.on('data', (d) => (out += d));
  await new Promise((r) => sh.on('exit', r));
  const pid = Number(out.trim().split('\n')[0]);
  const t0 = Date.now();
  while (Date.now() - t0 < 3000) {
    try { process.kill(pid, 0); } catch (_) { fs.closeSync(fd); return; }
    await new Promise((r) => setTimeout(r, 100));
  }
  try { process.kill(pid, 'SIGKILL'); } catch (_) { /* gone */ }
  assert.fail('plugin still running 3 s after its parent died');
});

(async () => {
  let failed = 0;
  for (const t of tests) {
    try {
      await t.fn();
      console.log('ok   ' + t.name);
    } catch (e) {
      failed++;
      console.log('FAIL ' + t.name + '\n     ' + (e && e.stack ? e.stack.split('\n').slice(0, 3).join('\n     ') : e));
    }
  }
  console.log(failed ? failed + ' failed' : 'all passed');
  process.exit(failed ? 1 : 0);
})();
