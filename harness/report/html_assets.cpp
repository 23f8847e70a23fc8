#include "harness/report/html_assets.hpp"

namespace fakehost::report {

namespace {

// The HTML report's whole stylesheet: data, one raw string.
constexpr std::string_view kStyle =
    R"CSS(:root{--fail:#c62828;--error:#8e24aa;--warn:#ef6c00;--pass:#2e7d32;--skip:#00838f;
--notrun:#616161;--xfail:#1565c0;--line:#9e9e9e;--bg:#fafafa}
*{box-sizing:border-box}
body{font:14px/1.45 system-ui,sans-serif;margin:0;background:var(--bg);color:#212121}
header{padding:12px 20px;background:#263238;color:#eceff1}
header h1{font-size:18px;margin:0 0 4px}
.meta{font-size:12px;opacity:.85;word-break:break-all}
.counts{display:flex;flex-wrap:wrap;gap:8px;padding:12px 20px;align-items:center}
.count{border:2px solid currentColor;border-radius:6px;background:#fff;padding:4px 10px;
cursor:pointer;font:inherit;display:flex;gap:6px;align-items:baseline}
.count .n{font-size:20px;font-weight:700}
.count[aria-pressed=false]{opacity:.35;text-decoration:line-through}
.total{margin-left:8px;color:#455a64}
.filters{display:flex;flex-wrap:wrap;gap:12px;padding:0 20px 10px;align-items:center}
.filters label{display:flex;gap:4px;align-items:center}
.s-fail{color:var(--fail)}.s-error{color:var(--error)}.s-warn{color:var(--warn)}
.s-pass{color:var(--pass)}.s-skip{color:var(--skip)}.s-untested{color:var(--skip)}.s-not-run{color:var(--notrun)}
.s-xfail{color:var(--xfail)}.s-stale{color:var(--fail)}
main{padding:0 20px 40px}
details.scenario{background:#fff;border:1px solid #ddd;border-left:6px solid currentColor;
border-radius:4px;margin:6px 0}
details.scenario>summary{cursor:pointer;padding:6px 10px;display:flex;gap:10px;align-items:baseline;
color:#212121}
.badge{font-weight:700;min-width:5.5em;display:inline-block}
.badge.s-fail{color:var(--fail)}.badge.s-error{color:var(--error)}.badge.s-warn{color:var(--warn)}
.badge.s-pass{color:var(--pass)}.badge.s-skip{color:var(--skip)}.badge.s-untested{color:var(--skip)}.badge.s-not-run{color:var(--notrun)}
.badge.s-xfail{color:var(--xfail)}.badge.s-stale{color:var(--fail)}
.expected{margin:6px 0;padding:4px 8px;border-left:3px solid var(--xfail);background:#e3f2fd}
.id{font-family:ui-monospace,monospace;font-weight:600}
.title{color:#546e7a;flex:1}.dur{color:#78909c;font-size:12px}
.body{padding:4px 14px 12px;color:#212121}
.req{margin:6px 0}.loc{font-family:ui-monospace,monospace;font-size:12px;color:#607d8b}
.tags span{display:inline-block;background:#eceff1;border-radius:10px;padding:0 8px;margin-right:4px;
font-size:12px}
ul.failures{padding-left:18px}
ul.failures li{margin:4px 0}
.mark{font-weight:700;margin-right:6px}
.mark.m-must{color:var(--fail)}.mark.m-should{color:var(--warn)}.mark.m-error{color:var(--error)}
.mark.m-may{color:var(--notrun)}
pre{background:#f5f5f5;border:1px solid #e0e0e0;padding:6px 8px;overflow:auto;max-height:28em;
white-space:pre-wrap;word-break:break-all;margin:4px 0;font-size:12px}
button.link{border:none;background:none;color:#1565c0;cursor:pointer;text-decoration:underline;
font:inherit;padding:0 4px}
h3{font-size:14px;margin:14px 0 4px}
.seq{border:1px solid #e0e0e0;background:#fff}
.seq .lanes,.seq .frame,.seq .exit{display:grid;grid-template-columns:6.5em 1fr}
.seq .lanes{font-weight:700;border-bottom:1px solid #e0e0e0;background:#f5f5f5}
.seq .lanes div:last-child{display:flex;justify-content:space-between;padding:2px 6px}
.frame{cursor:pointer}
.frame:hover{background:#f1f8ff}
.frame .t{font-family:ui-monospace,monospace;font-size:11px;color:#78909c;text-align:right;
padding:4px 8px 0 0}
.frame .cell{border-left:3px solid var(--line);border-right:3px solid var(--line);padding:2px 10px}
.frame .label{font-family:ui-monospace,monospace;font-size:12px;white-space:nowrap;overflow:hidden;
text-overflow:ellipsis}
.p2h .label{text-align:right}
.arrow{position:relative;height:2px;background:#455a64;margin:2px 0 4px}
.h2p .arrow::after,.p2h .arrow::after{content:"";position:absolute;top:-5px;border-top:6px solid
transparent;border-bottom:6px solid transparent}
.h2p .arrow::after{right:-2px;border-left:10px solid #455a64}
.p2h .arrow::after{left:-2px;border-right:10px solid #455a64}
.frame.problem .arrow,.frame.bad .arrow{background:var(--fail)}
.frame.problem.h2p .arrow::after,.frame.bad.h2p .arrow::after{border-left-color:var(--fail)}
.frame.problem.p2h .arrow::after,.frame.bad.p2h .arrow::after{border-right-color:var(--fail)}
.frame.bad{background:#ffebee;outline:2px solid var(--fail)}
.frame.flash{animation:flash 1.2s}
@keyframes flash{from{background:#ffcdd2}to{background:#ffebee}}
.finding{color:var(--fail);font-size:12px}
.note{color:#607d8b;font-size:12px}
.exit .cell{border-top:3px double var(--line);padding:4px 10px;font-weight:600}
.empty{color:#78909c;font-style:italic;padding:6px}
.cause{background:#fff;border:1px solid #ddd;border-left:6px solid var(--fail);border-radius:4px;
margin:6px 0;padding:6px 10px}
.cause h3{margin:0 0 4px}
.shared-ref{color:#546e7a}
)CSS";

// The HTML report's whole script: data, one raw string.
constexpr std::string_view kScript = R"JS((function () {
  'use strict';
  var t0 = performance.now();
  var data = JSON.parse(document.getElementById('fakehost-data').textContent);
  var ORDER = {error: 0, fail: 1, stale: 1, warn: 2, xfail: 3, untested: 4, 'not-run': 4, skip: 5,
               pass: 6};
  var LABEL = {error: 'ERROR', fail: 'FAIL', warn: 'WARN', 'not-run': 'NOT RUN', skip: 'SKIP',
               pass: 'PASS', xfail: 'XFAIL', stale: 'STALE', untested: 'UNTESTED'};
  var PROBLEM = {'not-json': 1, invalid: 1, oversized: 1, truncated: 1};

  function el(tag, cls, text) {
    var e = document.createElement(tag);
    if (cls) e.className = cls;
    if (text !== undefined && text !== null) e.textContent = String(text);
    return e;
  }
  function add(parent, child) { parent.appendChild(child); return child; }
  function dur(ms) { return ms < 1000 ? Math.round(ms) + ' ms' : (ms / 1000).toFixed(2) + ' s'; }
  // An entry's bytes as received: `text`, or `base64` when they are not UTF-8 (decoded with
  // U+FFFD for each sequence that is not).
  function payload(e) {
    if (e.base64 === undefined) return e.text;
    var bin = atob(e.base64), bytes = new Uint8Array(bin.length);
    for (var k = 0; k < bin.length; ++k) bytes[k] = bin.charCodeAt(k);
    return new TextDecoder('utf-8').decode(bytes);
  }
  function lastLines(text, n) {
    var lines = text.split('\n').filter(function (l) { return l.length > 0; });
    return lines.slice(Math.max(0, lines.length - n)).join('\n');
  }

  var app = document.getElementById('app');
  app.textContent = '';
  var header = add(app, el('header'));
  add(header, el('h1', null, 'fakehost report'));
  var p = data.plugin;
  var protocol = data.protocol_title ? data.protocol_title + ' (' + data.protocol + ')' :
      data.protocol;
  add(header, el('div', 'meta', protocol + ' · plugin ' + p.id +
      (p.version ? ' ' + p.version : '') + ' · fakehost ' + data.tool.version + ' · ' +
      data.started_at + (data.strict ? ' · strict' : '')));
  add(header, el('div', 'meta', 'suite ' + data.suite + ' · ' +
      (p.dir ? p.dir : p.argv.join(' '))));
  if (p.probe) add(header, el('div', 'meta', 'probed: ' + p.probe));
  if (p.derived) add(header, el('div', 'meta', p.derived));
  var judged = {};
  data.scenarios.forEach(function (s) {
    var played = ['skip', 'not-run', 'untested'].indexOf(s.status) < 0;
    if (s.revision && played) judged[s.revision] = (judged[s.revision] || 0) + 1;
  });
  var revisions = Object.keys(judged).sort(function (a, b) { return judged[b] - judged[a]; });
  if (revisions.length)
    add(header, el('div', 'meta', 'judged under ' + revisions.map(function (r) {
      return 'revision ' + r + ' (' + judged[r] + (judged[r] === 1 ? ' scenario)' : ' scenarios)');
    }).join(', ')));

  var state = {status: {}, level: '', tag: '', text: ''};
  var S = data.summary;
  var counts = add(app, el('div', 'counts'));
  [['fail', S.failed, 'failed'], ['error', S.errored, 'errored'], ['warn', S.warned, 'warned'],
   ['pass', S.passed, 'passed'], ['untested', S.untested || 0, 'untested'],
   ['skip', S.skipped, 'not applicable'],
   ['not-run', S.not_run || 0, 'not run'], ['xfail', S.xfailed || 0, 'expected failures'],
   ['stale', S.stale || 0, 'stale']].forEach(function (k) {
    // The expected-failure counts only where a baseline was in play.
    if ((k[0] === 'xfail' || k[0] === 'stale') && !S.xfailed && !S.stale) return;
    state.status[k[0]] = true;
    var b = add(counts, el('button', 'count s-' + k[0]));
    b.type = 'button';
    b.setAttribute('aria-pressed', 'true');
    b.title = 'show or hide ' + k[2];
    add(b, el('span', 'n', k[1]));
    add(b, el('span', 'l', k[2]));
    b.addEventListener('click', function () {
      state.status[k[0]] = !state.status[k[0]];
      b.setAttribute('aria-pressed', String(state.status[k[0]]));
      apply();
    });
  });
  add(counts, el('span', 'total', S.total + ' scenarios in ' + dur(S.duration_ms)));

  var filters = add(app, el('div', 'filters'));
  function select(label, values, key) {
    var l = add(filters, el('label', null, label + ' '));
    var s = add(l, el('select'));
    add(s, el('option', null, 'all')).value = '';
    values.forEach(function (v) { add(s, el('option', null, v)).value = v; });
    s.addEventListener('change', function () { state[key] = s.value; apply(); });
  }
  select('level', ['must', 'should', 'may'], 'level');
  var tags = {};
  data.scenarios.forEach(function (s) { s.tags.forEach(function (t) { tags[t] = 1; }); });
  select('tag', Object.keys(tags).sort(), 'tag');
  var search = add(add(filters, el('label', null, 'id ')), el('input'));
  search.type = 'search';
  search.placeholder = 'handshake/';
  search.addEventListener('input', function () { state.text = search.value; apply(); });
  var shown = add(filters, el('span', 'total'));

  var main = add(app, el('main'));
  // Causes that failed several scenarios (shared_causes): each once, before the scenarios. A
  // scenario failed by them alone starts folded; its failures name the cause.
  var shared = data.shared_causes || [];
  var sharedOf = {};
  var spread = shared.map(function (c, k) {
    var seen = {};
    c.roots.forEach(function (r) { sharedOf[r.scenario + '/' + r.failure] = k; seen[r.scenario] = 1; });
    return Object.keys(seen).length;
  });
  function onlyShared(s, i) {
    return s.failures.length > 0 && s.failures.every(function (f, j) {
      return f.caused_by !== undefined || sharedOf[i + '/' + j] !== undefined;
    });
  }
  function where(f) {
    return f.check === 'step' ? 'step ' + f.step + (f.step_kind ? ' ' + f.step_kind : '') +
        (f.location ? ' (' + f.location + ')' : '') : f.check;
  }
  function open(i) {
    var d = document.getElementById('scenario-' + i);
    if (!d) return;
    d.open = true;
    d.scrollIntoView({block: 'start'});
  }
  if (shared.length) {
    add(main, el('h3', null, 'Causes shared by several scenarios (' + shared.length + ')'));
    shared.forEach(function (c, k) {
      var first = data.scenarios[c.roots[0].scenario];
      var f = first.failures[c.roots[0].failure];
      var box = add(main, el('div', 'cause'));
      add(box, el('h3', null, 'Cause ' + (k + 1) + ' — one failure in ' + spread[k] + ' scenarios'));
      var line = add(box, el('div'));
      var level = f.harness_error ? 'error' : f.level;
      add(line, el('span', 'mark m-' + level, '[' + level + ']'));
      add(line, document.createTextNode(where(f) + ': ' + f.message));
      if (f.expected !== undefined) add(box, el('pre', null, 'expected: ' + f.expected));
      if (f.actual !== undefined) add(box, el('pre', null, 'actual:   ' + f.actual));
      (first.transcript || []).forEach(function (e) {
        if (e.index === f.frame)
          add(box, el('pre', null, '#' + e.index + '  ' + (e.direction === 'host-to-plugin' ?
              'host → plugin' : 'plugin → host') + '  ' + e.kind +
              (e.method ? ' ' + e.method : '') + '  ' + payload(e)));
      });
      var list = add(box, el('div', null, 'in:'));
      var last = -1;
      c.roots.forEach(function (r) {
        if (r.scenario === last) return;
        last = r.scenario;
        var go = add(list, el('button', 'link', data.scenarios[r.scenario].id));
        go.type = 'button';
        go.addEventListener('click', function () { open(r.scenario); });
      });
    });
  }
  var rows = data.scenarios.map(function (s, i) { return {s: s, i: i}; });
  rows.sort(function (a, b) { return (ORDER[a.s.status] - ORDER[b.s.status]) || (a.i - b.i); });
  var firstBad = null;
  rows.forEach(function (row) { row.node = add(main, scenario(row.s, row.i)); });

  function apply() {
    var n = 0;
    rows.forEach(function (row) {
      var s = row.s;
      var visible = state.status[s.status] !== false && (!state.level || s.level === state.level) &&
          (!state.tag || s.tags.indexOf(state.tag) >= 0) &&
          (!state.text || s.id.indexOf(state.text) >= 0);
      row.node.hidden = !visible;
      if (visible) n++;
    });
    shown.textContent = n + ' shown';
  }
  apply();

  function scenario(s, i) {
    var d = el('details', 'scenario s-' + s.status);
    d.id = 'scenario-' + i;
    var sum = add(d, el('summary'));
    add(sum, el('span', 'badge s-' + s.status, LABEL[s.status] || s.status));
    add(sum, el('span', 'id', s.id));
    add(sum, el('span', 'title', s.title));
    add(sum, el('span', 'dur', dur(s.duration_ms)));
    var drawn = false;
    function draw() { if (!drawn) { drawn = true; body(d, s, i); } }
    d.addEventListener('toggle', function () { if (d.open) draw(); });
    if ((s.status === 'fail' || s.status === 'error' || s.status === 'warn' || s.status === 'stale') &&
        !onlyShared(s, i)) {
      d.open = true;
      draw();
    }
    return d;
  }

  function body(d, s, i) {
    s.transcript = s.transcript || [];
    var b = add(d, el('div', 'body'));
    var req = add(b, el('div', 'req'));
    add(req, el('strong', null, s.spec));
    add(req, document.createTextNode(' (' + s.level + '): ' +
        (s.sentence ? '"' + s.sentence + '" ' : '') + s.requirement));
    add(b, el('div', 'loc', s.file));
    if (s.tags.length) {
      var tg = add(b, el('div', 'tags'));
      s.tags.forEach(function (t) { add(tg, el('span', null, t)); });
    }
    if (s.status === 'skip' || s.status === 'not-run')
      add(b, el('p', null, (s.status === 'not-run' ? 'Not run: ' : 'Skipped: ') +
          (s.reason || 'the run ended first')));
    var x = s.expected_failure;
    if (x)
      add(b, el('div', 'expected', (x.expired ? 'Expected failure (expired ' + x.until + ') ' :
          'Expected failure ') + x.file + ':' + x.line + ' (' + x.id + '): ' + x.reason));
    var marked = {};
    if (s.failures.length) {
      add(b, el('h3', null, 'Failures'));
      var ul = add(b, el('ul', 'failures'));
      s.failures.forEach(function (f, j) {
        var li = add(ul, el('li'));
        var level = f.harness_error ? 'error' : f.level;
        add(li, el('span', 'mark m-' + level, '[' + level + ']'));
        add(li, document.createTextNode(where(f) + ': ' + f.message));
        var k = sharedOf[i + '/' + j];
        if (k !== undefined)
          add(li, el('span', 'shared-ref', ' (cause ' + (k + 1) + ' above, in ' + spread[k] +
              ' scenarios)'));
        if (f.frame !== undefined) {
          (marked[f.frame] = marked[f.frame] || []).push(f);
          var go = add(li, el('button', 'link', 'frame #' + f.frame));
          go.type = 'button';
          go.addEventListener('click', function () { focusFrame(i, f.frame); });
        }
        if (f.expected !== undefined) add(li, el('pre', null, 'expected: ' + f.expected));
        if (f.actual !== undefined) add(li, el('pre', null, 'actual:   ' + f.actual));
      });
    }
    if (s.stderr_tail) {
      add(b, el('h3', null, 'stderr (last lines' +
          (s.stderr_bytes_dropped ? ', ' + s.stderr_bytes_dropped + ' bytes dropped' : '') + ')'));
      add(b, el('pre', null, lastLines(s.stderr_tail, 40)));
    }
    if (s.transcript.length || s.exit.exited || s.exit.stop_stage) {
      // A tallied transcript, or one a merge did not keep, draws fewer frames than there were.
      var n = s.transcript.length;
      add(b, el('h3', null, 'Transcript (' + (n === s.frames ? n : n + ' of ' + s.frames) +
          ' frames; click a frame for its JSON)'));
      add(b, sequence(s, i, marked));
    }
  }

  function sequence(s, i, marked) {
    var seq = el('div', 'seq');
    var lanes = add(seq, el('div', 'lanes'));
    add(lanes, el('div', 't', 'time'));
    var names = add(lanes, el('div'));
    add(names, el('span', null, 'host (fakehost)'));
    add(names, el('span', null, 'plugin'));
    s.transcript.forEach(function (e) {
      var bad = marked[e.index];
      var problem = PROBLEM[e.kind] || (e.violations && e.violations.length);
      var lane = e.direction === 'host-to-plugin' ? 'h2p' : 'p2h';
      var row = add(seq, el('div', 'frame ' + lane + (bad ? ' bad' : '') +
          (problem ? ' problem' : '')));
      row.id = 'frame-' + i + '-' + e.index;
      add(row, el('div', 't', '+' + e.t_ms.toFixed(1) + ' ms'));
      var cell = add(row, el('div', 'cell'));
      var label = (bad ? '▶ ' : '') + '#' + e.index + ' ' + e.kind + (e.method ? ' ' + e.method : '') +
          (e.id !== undefined ? ' id ' + e.id : '') + '  · ' + e.size + ' B' +
          (e.clipped ? ' (clipped)' : '');
      add(cell, el('div', 'label', label)).title = label;
      add(cell, el('div', 'arrow'));
      (bad || []).forEach(function (f) {
        add(cell, el('div', 'finding', '✗ [' + (f.harness_error ? 'error' : f.level) + '] ' + f.message));
      });
      (e.violations || []).forEach(function (v) {
        add(cell, el('div', 'finding', 'schema ' + (e.schema_def || '') + ' ' + (v.pointer || '(frame)') +
            ': ' + v.message));
      });
      (e.notes || []).forEach(function (n) { add(cell, el('div', 'note', n)); });
      var pre = null;
      row.addEventListener('click', function () {
        if (pre) { pre.hidden = !pre.hidden; return; }
        var text = payload(e);
        try { text = JSON.stringify(JSON.parse(text), null, 2); } catch (err) { /* as sent */ }
        pre = add(cell, el('pre', null, text + (e.clipped ? '\n… (clipped; ' + e.size + ' bytes)' : '') +
            (e.base64 !== undefined ? '\n… (not UTF-8: each byte that is not shows as \ufffd)' : '')));
      });
      if (bad && !firstBad) firstBad = row;
    });
    var x = s.exit;
    var exit = add(seq, el('div', 'exit'));
    add(exit, el('div', 't', x.exited ? '+' + x.at_ms.toFixed(1) + ' ms' : ''));
    add(exit, el('div', 'cell', (x.exited ? 'plugin ended: ' + x.description : 'plugin still running') +
        (x.stop_stage ? ' · stop stage ' + x.stop_stage + ' after ' + dur(x.stop_ms) :
         (x.exited ? ' · on its own' : ''))));
    return seq;
  }

  function focusFrame(i, n) {
    var row = document.getElementById('frame-' + i + '-' + n);
    if (!row) return;
    row.scrollIntoView({block: 'center'});
    row.classList.remove('flash');
    void row.offsetWidth;
    row.classList.add('flash');
  }

  if (firstBad) {
    var jump = add(counts, el('button', 'link', 'jump to the first failing frame'));
    jump.type = 'button';
    jump.addEventListener('click', function () { firstBad.scrollIntoView({block: 'center'}); });
  }
  document.body.setAttribute('data-render-ms', (performance.now() - t0).toFixed(1));
  document.body.setAttribute('data-rendered', String(rows.length));
})();
)JS";

}  // namespace

std::string_view HtmlStyle() { return kStyle; }
std::string_view HtmlScript() { return kScript; }

}  // namespace fakehost::report
