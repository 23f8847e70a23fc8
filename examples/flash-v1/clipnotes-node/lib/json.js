'use strict';
// A strict RFC 8259 JSON parser that also remembers the source text of every
// number member. The Flash text says "Booleans and floating-point values are
// never integer IDs or protocol versions": JSON.parse turns `3.0` into 3, so the
// plugin needs the lexeme to tell `3` from `3.0`, and to echo an id exactly.
//
// Objects are created without a prototype (no `__proto__` surprises). For each
// object, obj[RAW] is a Map key -> number lexeme (only for number members).

const RAW = Symbol('rawNumbers');

const NUMBER = /-?(?:0|[1-9][0-9]*)(?:\.[0-9]+)?(?:[eE][+-]?[0-9]+)?/y;
const PLAIN = /[^"\\\u0000-\u001f]*/y;
const WS = /[ \t\n\r]*/y;

class JsonError extends Error {}

function parse(text) {
  let pos = 0;

  function ws() {
    WS.lastIndex = pos;
    WS.exec(text);
    pos = WS.lastIndex;
  }

  function fail() {
    throw new JsonError('invalid JSON at ' + pos);
  }

  function str() {
    // text[pos] === '"'
    pos++;
    let out = '';
    for (;;) {
      PLAIN.lastIndex = pos;
      const m = PLAIN.exec(text);
      out += m[0];
      pos = PLAIN.lastIndex;
      if (pos >= text.length) fail();
      const c = text.charCodeAt(pos);
      if (c === 0x22) { pos++; return out; }
      if (c !== 0x5c) fail(); // control character
      pos++;
      const e = text[pos++];
      switch (e) {
        case '"': out += '"'; break;
        case '\\': out += '\\'; break;
        case '/': out += '/'; break;
        case 'b': out += '\b'; break;
        case 'f': out += '\f'; break;
        case 'n': out += '\n'; break;
        case 'r': out += '\r'; break;
        case 't': out += '\t'; break;
        case 'u': {
          const h = text.slice(pos, pos + 4);
          if (!/^[0-9a-fA-F]{4}$/.test(h)) fail();
          out += String.fromCharCode(parseInt(h, 16)); // lone surrogates allowed
          pos += 4;
          break;
        }
        default: fail();
      }
    }
  }

  function value() {
    ws();
    const c = text[pos];
    if (c === '{') {
      pos++;
      const obj = Object.create(null);
      const raw = new Map();
      obj[RAW] = raw;
      ws();
      if (text[pos] === '}') { pos++; return obj; }
      for (;;) {
        ws();
        if (text[pos] !== '"') fail();
        const k = str();
        ws();
        if (text[pos] !== ':') fail();
        pos++;
        ws();
        const start = pos;
        const v = value();
        obj[k] = v; // last duplicate wins, like JSON.parse
        if (typeof v === 'number') raw.set(k, text.slice(start, pos)); else raw.delete(k);
        ws();
        if (text[pos] === ',') { pos++; continue; }
        if (text[pos] === '}') { pos++; return obj; }
        fail();
      }
    }
    if (c === '[') {
      pos++;
      const arr = [];
      ws();
      if (text[pos] === ']') { pos++; return arr; }
      for (;;) {
        arr.push(value());
        ws();
        if (text[pos] === ',') { pos++; continue; }
        if (text[pos] === ']') { pos++; return arr; }
        fail();
      }
    }
    if (c === '"') return str();
    if (text.startsWith('true', pos)) { pos += 4; return true; }
    if (text.startsWith('false', pos)) { pos += 5; return false; }
    if (text.startsWith('null', pos)) { pos += 4; return null; }
    NUMBER.lastIndex = pos;
    const m = NUMBER.exec(text);
    if (!m) fail();
    pos = NUMBER.lastIndex;
    return Number(m[0]);
  }

  const v = value();
  ws();
  if (pos !== text.length) fail();
  return v;
}

// The source text of a number member, or undefined.
function rawNumber(obj, key) {
  if (obj === null || typeof obj !== 'object' || !obj[RAW]) return undefined;
  return obj[RAW].get(key);
}

function has(obj, key) {
  return obj !== null && typeof obj === 'object' && Object.prototype.hasOwnProperty.call(obj, key);
}

module.exports = { parse, rawNumber, has, JsonError };
