'use strict';
// The evaluator's parsers: arithmetic ("2*(3+4)", "2^10 / 3") and unit
// conversions ("10 km to mi", "72 f in c", "1.5 gib to mb"). Pure and CPU-only:
// evaluate must answer within 50 ms and do no I/O. Anything else is not claimed
// (returns null), including a bare number: a plain "42" is not a calculation.

const MAX_INPUT = 256;

// unit -> [dimension, factor to the base unit] (temperature is special-cased)
const UNITS = new Map();
function unit(dim, factor, ...names) {
  for (const n of names) UNITS.set(n, [dim, factor, names[0]]);
}
unit('length', 0.001, 'mm', 'millimeter', 'millimeters', 'millimetre', 'millimetres');
unit('length', 0.01, 'cm', 'centimeter', 'centimeters', 'centimetre', 'centimetres');
unit('length', 1, 'm', 'meter', 'meters', 'metre', 'metres');
unit('length', 1000, 'km', 'kilometer', 'kilometers', 'kilometre', 'kilometres');
unit('length', 0.0254, 'in', 'inch', 'inches');
unit('length', 0.3048, 'ft', 'foot', 'feet');
unit('length', 0.9144, 'yd', 'yard', 'yards');
unit('length', 1609.344, 'mi', 'mile', 'miles');
unit('mass', 0.001, 'g', 'gram', 'grams');
unit('mass', 0.000001, 'mg', 'milligram', 'milligrams');
unit('mass', 1, 'kg', 'kilogram', 'kilograms', 'kilo', 'kilos');
unit('mass', 0.028349523125, 'oz', 'ounce', 'ounces');
unit('mass', 0.45359237, 'lb', 'lbs', 'pound', 'pounds');
unit('volume', 0.001, 'ml', 'milliliter', 'milliliters', 'millilitre', 'millilitres');
unit('volume', 1, 'l', 'liter', 'liters', 'litre', 'litres');
unit('volume', 3.785411784, 'gal', 'gallon', 'gallons');
unit('data', 1, 'b', 'byte', 'bytes');
unit('data', 1e3, 'kb', 'kilobyte', 'kilobytes');
unit('data', 1e6, 'mb', 'megabyte', 'megabytes');
unit('data', 1e9, 'gb', 'gigabyte', 'gigabytes');
unit('data', 1e12, 'tb', 'terabyte', 'terabytes');
unit('data', 1024, 'kib', 'kibibyte', 'kibibytes');
unit('data', 1024 ** 2, 'mib', 'mebibyte', 'mebibytes');
unit('data', 1024 ** 3, 'gib', 'gibibyte', 'gibibytes');
unit('data', 1024 ** 4, 'tib', 'tebibyte', 'tebibytes');
unit('time', 0.001, 'ms', 'millisecond', 'milliseconds');
unit('time', 1, 's', 'sec', 'secs', 'second', 'seconds');
unit('time', 60, 'min', 'mins', 'minute', 'minutes');
unit('time', 3600, 'h', 'hr', 'hrs', 'hour', 'hours');
unit('time', 86400, 'd', 'day', 'days');
unit('temp', 0, 'c', '°c', 'celsius');
unit('temp', 0, 'f', '°f', 'fahrenheit');
unit('temp', 0, 'k', 'kelvin');

function format(x) {
  if (!Number.isFinite(x)) return null;
  if (Object.is(x, -0)) x = 0;
  const abs = Math.abs(x);
  if (abs !== 0 && (abs >= 1e15 || abs < 1e-9)) return x.toExponential(9).replace(/\.?0+e/, 'e');
  let s = x.toPrecision(12);
  if (s.includes('e')) return String(Number(s));
  if (s.includes('.')) s = s.replace(/0+$/, '').replace(/\.$/, '');
  return s;
}

// --- arithmetic: + - * / ^ (right-assoc), unary minus, parentheses ----------
function tokenize(s) {
  const toks = [];
  const re = /\s*(?:(\d+(?:\.\d*)?|\.\d+)|([-+*\/^()×÷]))/y;
  let pos = 0;
  s = s.trimEnd();
  while (pos < s.length) {
    re.lastIndex = pos;
    const m = re.exec(s);
    if (!m) return null;
    pos = re.lastIndex;
    if (m[1] !== undefined) toks.push({ num: Number(m[1]) });
    else toks.push({ op: m[2] === '×' ? '*' : m[2] === '÷' ? '/' : m[2] });
  }
  return toks;
}

function arithmetic(s) {
  const toks = tokenize(s);
  if (!toks || toks.length === 0) return null;
  let i = 0;
  let binaryOps = 0;
  const peek = () => toks[i];
  function primary(depth) {
    if (depth > 64) throw new Error('deep');
    const t = toks[i++];
    if (!t) throw new Error('eof');
    if (t.num !== undefined) return t.num;
    if (t.op === '(') {
      const v = sum(depth + 1);
      if (!peek() || peek().op !== ')') throw new Error('paren');
      i++;
      return v;
    }
    if (t.op === '-') return -unary(depth + 1);
    if (t.op === '+') return unary(depth + 1);
    throw new Error('unexpected');
  }
  function unary(depth) { return power(depth); }
  function power(depth) {
    const base = primary(depth);
    if (peek() && peek().op === '^') { i++; binaryOps++; return Math.pow(base, unary(depth + 1)); }
    return base;
  }
  function product(depth) {
    let v = power(depth);
    while (peek() && (peek().op === '*' || peek().op === '/')) {
      const op = toks[i++].op;
      binaryOps++;
      const r = power(depth);
      v = op === '*' ? v * r : v / r;
    }
    return v;
  }
  function sum(depth) {
    let v = product(depth);
    while (peek() && (peek().op === '+' || peek().op === '-')) {
      const op = toks[i++].op;
      binaryOps++;
      const r = product(depth);
      v = op === '+' ? v + r : v - r;
    }
    return v;
  }
  let v;
  try {
    v = sum(0);
  } catch (_) {
    return null;
  }
  if (i !== toks.length || binaryOps === 0) return null; // a bare number is not ours
  return Number.isFinite(v) ? v : null;
}

// --- conversions ---------------------------------------------------------------
function toKelvin(v, u) { return u === 'c' ? v + 273.15 : u === 'f' ? (v - 32) * 5 / 9 + 273.15 : v; }
function fromKelvin(v, u) { return u === 'c' ? v - 273.15 : u === 'f' ? (v - 273.15) * 9 / 5 + 32 : v; }

function conversion(s) {
  const m = /^\s*(-?(?:\d+(?:\.\d*)?|\.\d+))\s*([a-z°]+)\s+(?:to|in|as|->|=)\s+([a-z°]+)\s*$/i.exec(s);
  if (!m) return null;
  const from = UNITS.get(m[2].toLowerCase());
  const to = UNITS.get(m[3].toLowerCase());
  if (!from || !to || from[0] !== to[0]) return null;
  const v = Number(m[1]);
  let r;
  if (from[0] === 'temp') {
    r = fromKelvin(toKelvin(v, from[2]), to[2]);
    if (toKelvin(v, from[2]) < 0) return null; // below absolute zero: not a real answer
  } else {
    r = v * from[1] / to[1];
  }
  const text = format(r);
  if (text === null) return null;
  const label = to[0] === 'temp' ? '°' + to[2].toUpperCase() : to[2];
  return { value: text, title: text + ' ' + label };
}

// evaluate(query) -> [{title, effect}] (possibly empty). Never throws.
function evaluate(query) {
  if (typeof query !== 'string') return [];
  const q = query.trim();
  if (q.length === 0 || q.length > MAX_INPUT) return [];
  try {
    const conv = conversion(q);
    if (conv) return [{ title: conv.title, effect: { copy_text: conv.value } }];
    const expr = q.replace(/^=\s*/, '');
    const v = arithmetic(expr);
    if (v !== null) {
      const text = format(v);
      if (text !== null) return [{ title: text, effect: { copy_text: text } }];
    }
  } catch (_) {
    // an evaluator is an additive parser, never an error path
  }
  return [];
}

module.exports = { evaluate, format, UNITS };
