#!/usr/bin/env node
// weather-modern-node: a small MCP server of the modern era (revision 2026-07-28 only)
// over stdio, written from the specification text. Node.js standard library only.
//
// Stateless: there is no initialize handshake; every request carries its protocol version and
// the client's capabilities in params._meta, and is served from what it carries alone.
'use strict';

const crypto = require('node:crypto');

const SERVER_INFO = { name: 'weather-modern-node', title: 'Weather (modern MCP example)', version: '1.0.0' };
const SUPPORTED_VERSIONS = ['2026-07-28'];
const META_VERSION = 'io.modelcontextprotocol/protocolVersion';
const META_CAPS = 'io.modelcontextprotocol/clientCapabilities';
const META_LOG_LEVEL = 'io.modelcontextprotocol/logLevel';
const META_SERVER_INFO = 'io.modelcontextprotocol/serverInfo';
const META_SUBSCRIPTION = 'io.modelcontextprotocol/subscriptionId';
const LOG_LEVELS = ['debug', 'info', 'notice', 'warning', 'error', 'critical', 'alert', 'emergency'];
const PAGE_SIZE = { tools: 2, resources: 10, resourceTemplates: 10, prompts: 10 };
const STATE_TTL_MS = 10 * 60 * 1000;
// requestState is signed (HMAC-SHA256). Set WEATHER_STATE_KEY to keep state valid across restarts.
const STATE_KEY = process.env.WEATHER_STATE_KEY || crypto.randomBytes(32).toString('hex');

// ---------------------------------------------------------------- made-up weather data

const CITIES = {
  amsterdam: { name: 'Amsterdam', country: 'NL', tempC: 11, conditions: 'Drizzle', humidity: 87, windKph: 24 },
  cairo: { name: 'Cairo', country: 'EG', tempC: 29, conditions: 'Sunny', humidity: 21, windKph: 12 },
  lisbon: { name: 'Lisbon', country: 'PT', tempC: 19, conditions: 'Partly cloudy', humidity: 64, windKph: 18 },
  nairobi: { name: 'Nairobi', country: 'KE', tempC: 22, conditions: 'Scattered showers', humidity: 70, windKph: 10 },
  oslo: { name: 'Oslo', country: 'NO', tempC: 3, conditions: 'Light snow', humidity: 80, windKph: 15 },
  reykjavik: { name: 'Reykjavik', country: 'IS', tempC: 1, conditions: 'Gale', humidity: 76, windKph: 61 },
  santiago: { name: 'Santiago', country: 'CL', tempC: 24, conditions: 'Clear', humidity: 35, windKph: 8 },
  tokyo: { name: 'Tokyo', country: 'JP', tempC: 16, conditions: 'Overcast', humidity: 68, windKph: 14 },
};
const CONDITIONS = ['Clear', 'Partly cloudy', 'Overcast', 'Light rain', 'Showers', 'Windy'];
// A 1x1 PNG, standing in for the latest radar picture.
const RADAR_PNG = 'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==';

function slug(text) { return String(text).trim().toLowerCase().replace(/\s+/g, '-'); }
function findCity(text) { return typeof text === 'string' ? CITIES[slug(text)] : undefined; }
function cityNames() { return Object.values(CITIES).map((c) => c.name); }
function toF(c) { return Math.round((c * 9) / 5 + 32); }

function currentConditions(city, units) {
  const imperial = units === 'imperial';
  return {
    city: city.name, country: city.country, units: imperial ? 'imperial' : 'metric',
    temperature: imperial ? toF(city.tempC) : city.tempC, conditions: city.conditions,
    humidity: city.humidity, wind: imperial ? Math.round(city.windKph / 1.609) : city.windKph,
  };
}

function forecast(city, days) {
  const seed = [...city.name].reduce((sum, ch) => sum + ch.charCodeAt(0), 0);
  const start = new Date(Date.UTC(new Date().getUTCFullYear(), new Date().getUTCMonth(), new Date().getUTCDate()));
  const out = [];
  for (let i = 1; i <= days; i++) {
    const date = new Date(start.getTime() + i * 86400000).toISOString().slice(0, 10);
    const swing = ((seed + i * 3) % 7) - 3;
    out.push({ date, highC: city.tempC + swing + 3, lowC: city.tempC + swing - 4,
      conditions: CONDITIONS[(seed + i) % CONDITIONS.length] });
  }
  return { city: city.name, days: out };
}

// ---------------------------------------------------------------- tools

const TOOLS = [
  {
    name: 'get_weather', title: 'Current weather',
    description: `Current weather for one city (made-up data). Known cities: ${cityNames().join(', ')}.`,
    inputSchema: {
      type: 'object',
      properties: {
        city: { type: 'string', minLength: 1, maxLength: 100, description: 'City name' },
        units: { type: 'string', enum: ['metric', 'imperial'], description: 'Default metric' },
      },
      required: ['city'], additionalProperties: false,
    },
    annotations: { readOnlyHint: true, openWorldHint: false },
    run: (args) => {
      const city = findCity(args.city);
      if (!city) return toolError(`Unknown city "${args.city}". Known cities: ${cityNames().join(', ')}.`);
      const w = currentConditions(city, args.units);
      const t = w.units === 'imperial' ? '°F' : '°C';
      const v = w.units === 'imperial' ? 'mph' : 'km/h';
      return { content: [{ type: 'text', text: `Current weather in ${w.city}: ${w.temperature}${t}, ${w.conditions}, humidity ${w.humidity}%, wind ${w.wind} ${v}.` }] };
    },
  },
  {
    name: 'get_forecast', title: 'Daily forecast',
    description: 'Daily forecast for one city, 1 to 5 days ahead, as structured data (made-up).',
    inputSchema: {
      type: 'object',
      properties: {
        city: { type: 'string', minLength: 1, maxLength: 100 },
        days: { type: 'integer', minimum: 1, maximum: 5, description: 'Default 3' },
      },
      required: ['city'], additionalProperties: false,
    },
    outputSchema: {
      type: 'object',
      properties: {
        city: { type: 'string' },
        days: {
          type: 'array',
          items: {
            type: 'object',
            properties: {
              date: { type: 'string', description: 'YYYY-MM-DD' },
              highC: { type: 'number' }, lowC: { type: 'number' }, conditions: { type: 'string' },
            },
            required: ['date', 'highC', 'lowC', 'conditions'],
          },
        },
      },
      required: ['city', 'days'],
    },
    annotations: { readOnlyHint: true, openWorldHint: false },
    run: (args) => {
      const city = findCity(args.city);
      if (!city) return toolError(`Unknown city "${args.city}". Known cities: ${cityNames().join(', ')}.`);
      const data = forecast(city, args.days === undefined ? 3 : args.days);
      return { content: [{ type: 'text', text: JSON.stringify(data) }], structuredContent: data };
    },
  },
  {
    name: 'survey_stations', title: 'Survey weather stations (slow)',
    description: 'Polls `count` weather stations, 400 ms each, and reports their status. Sends one progress notification per station when the request carries a progressToken.',
    inputSchema: {
      type: 'object',
      properties: { count: { type: 'integer', minimum: 1, maximum: 10, description: 'Default 2' } },
      additionalProperties: false,
    },
    annotations: { readOnlyHint: true, openWorldHint: false },
    run: async (args, ctx) => {
      const count = args.count === undefined ? 2 : args.count;
      const names = cityNames();
      const lines = [];
      for (let i = 1; i <= count; i++) {
        await ctx.sleep(400);
        const station = `${names[(i - 1) % names.length]} station ${i}`;
        lines.push(`${station}: online`);
        ctx.log('info', 'stations', `polled ${station}`);
        ctx.progress(i, count, `Polled ${i} of ${count} stations`);
      }
      return { content: [{ type: 'text', text: `Surveyed ${count} station(s):\n${lines.join('\n')}` }] };
    },
  },
  {
    name: 'weather_here', title: 'Weather where I am',
    description: 'Current weather for the user\'s city, which the server asks the user for (form elicitation through an InputRequiredResult).',
    inputSchema: {
      type: 'object',
      properties: { units: { type: 'string', enum: ['metric', 'imperial'] } },
      additionalProperties: false,
    },
    annotations: { readOnlyHint: true, openWorldHint: false },
    run: weatherHere,
  },
];
const TOOLS_BY_NAME = new Map(TOOLS.map((t) => [t.name, t]));

function toolError(text) { return { content: [{ type: 'text', text }], isError: true }; }

// The multi round-trip tool. The retry carries the original arguments, the user's answer in
// inputResponses and our signed requestState, which binds the answer to this tool and these
// arguments for ten minutes.
const ASK_KEY = 'home_city';
function weatherHere(args, ctx, params) {
  if (params.requestState !== undefined) {
    verifyState(params.requestState, { m: 'tools/call', t: 'weather_here', a: digest(args), k: ASK_KEY });
    const responses = isObject(params.inputResponses) ? params.inputResponses : {};
    const answer = responses[ASK_KEY];
    if (isObject(answer) && (answer.action === 'decline' || answer.action === 'cancel')) {
      return toolError(`No city was given (the user chose "${answer.action}"), so there is no weather to show.`);
    }
    if (isObject(answer) && answer.action === 'accept' && isObject(answer.content)) {
      const city = findCity(answer.content.city);
      if (city) return TOOLS_BY_NAME.get('get_weather').run({ city: city.name, units: args.units });
      return askForCity(args, ctx, `"${answer.content.city}" is not a city this server knows. Which city are you in?`);
    }
    // The answer is missing or malformed: ask again rather than fail (MRTR › Error Handling).
    return askForCity(args, ctx, 'Which city are you in?');
  }
  return askForCity(args, ctx, 'Which city are you in?');
}

function askForCity(args, ctx, message) {
  const elicitation = ctx.caps.elicitation;
  const formOk = isObject(elicitation) && (elicitation.form !== undefined || elicitation.url === undefined);
  if (!formOk) {
    throw new RpcError(-32021, 'weather_here needs form elicitation, which this request\'s client capabilities do not declare',
      { requiredCapabilities: { elicitation: { form: {} } } });
  }
  return {
    resultType: 'input_required',
    inputRequests: {
      [ASK_KEY]: {
        method: 'elicitation/create',
        params: {
          mode: 'form', message,
          requestedSchema: {
            type: 'object',
            properties: { city: { type: 'string', title: 'City', enum: cityNames() } },
            required: ['city'],
          },
        },
      },
    },
    requestState: signState({ m: 'tools/call', t: 'weather_here', a: digest(args), k: ASK_KEY, exp: Date.now() + STATE_TTL_MS }),
  };
}

// ---------------------------------------------------------------- requestState

function canonical(value) {
  if (Array.isArray(value)) return `[${value.map(canonical).join(',')}]`;
  if (isObject(value)) return `{${Object.keys(value).sort().map((k) => `${JSON.stringify(k)}:${canonical(value[k])}`).join(',')}}`;
  return JSON.stringify(value);
}
function digest(value) { return crypto.createHash('sha256').update(canonical(value)).digest('base64url'); }
function hmac(text) { return crypto.createHmac('sha256', STATE_KEY).update(text).digest(); }

function signState(payload) {
  const body = Buffer.from(JSON.stringify(payload)).toString('base64url');
  return `${body}.${hmac(body).toString('base64url')}`;
}

function verifyState(state, expected) {
  const refuse = (why) => { throw new RpcError(-32602, `Invalid requestState: ${why}`); };
  if (typeof state !== 'string') refuse('not a string');
  const [body, mac, extra] = state.split('.');
  if (!body || !mac || extra !== undefined) refuse('malformed');
  const given = Buffer.from(mac, 'base64url');
  const wanted = hmac(body);
  if (given.length !== wanted.length || !crypto.timingSafeEqual(given, wanted)) refuse('signature does not verify');
  let payload;
  try { payload = JSON.parse(Buffer.from(body, 'base64url').toString('utf8')); } catch { refuse('malformed'); }
  for (const [k, v] of Object.entries(expected)) if (!isObject(payload) || payload[k] !== v) refuse('issued for another request');
  if (typeof payload.exp !== 'number' || Date.now() > payload.exp) refuse('expired');
  return payload;
}

// ---------------------------------------------------------------- resources and prompts

const RESOURCES = [
  { uri: 'weather://stations', name: 'stations', title: 'Weather stations', description: 'The cities this server knows, as JSON', mimeType: 'application/json' },
  { uri: 'weather://radar/latest.png', name: 'radar-latest', title: 'Latest radar picture', description: 'The latest radar picture (refreshed every 2 s for subscribers)', mimeType: 'image/png', size: Buffer.from(RADAR_PNG, 'base64').length },
];
const CITY_TEMPLATE = 'weather://city/{name}/current';
const RESOURCE_TEMPLATES = [
  { uriTemplate: CITY_TEMPLATE, name: 'city-current', title: 'Current conditions by city', description: `Current conditions as JSON; name is one of: ${Object.keys(CITIES).join(', ')}`, mimeType: 'application/json' },
];
const RADAR_URI = 'weather://radar/latest.png';

function readResource(uri) {
  if (uri === 'weather://stations') {
    const list = Object.entries(CITIES).map(([key, c]) => ({ id: key, city: c.name, country: c.country }));
    return { contents: [{ uri, mimeType: 'application/json', text: JSON.stringify(list) }], ttlMs: 300000 };
  }
  if (uri === RADAR_URI) return { contents: [{ uri, mimeType: 'image/png', blob: RADAR_PNG }], ttlMs: 2000 };
  const m = /^weather:\/\/city\/([a-z-]+)\/current$/.exec(uri);
  if (m && CITIES[m[1]]) {
    return { contents: [{ uri, mimeType: 'application/json', text: JSON.stringify(currentConditions(CITIES[m[1]])) }], ttlMs: 60000 };
  }
  return undefined;
}

const PROMPTS = [
  {
    name: 'weather_briefing', title: 'Weather briefing',
    description: 'Asks the model for a short weather briefing for a city, with its current conditions attached.',
    arguments: [
      { name: 'city', description: `One of: ${cityNames().join(', ')}`, required: true },
      { name: 'audience', description: 'Who the briefing is for (default: the general public)', required: false },
    ],
  },
];
const AUDIENCES = ['general public', 'farmers', 'mariners', 'pilots', 'runners'];

function getPrompt(params) {
  if (typeof params.name !== 'string') throw new RpcError(-32602, 'prompts/get needs a string name');
  if (params.name !== 'weather_briefing') throw new RpcError(-32602, `Unknown prompt: ${params.name}`);
  const args = params.arguments === undefined ? {} : params.arguments;
  if (!isObject(args) || Object.values(args).some((v) => typeof v !== 'string')) {
    throw new RpcError(-32602, 'Prompt arguments must be an object of strings');
  }
  if (args.city === undefined) throw new RpcError(-32602, 'Missing required argument: city');
  const city = findCity(args.city);
  if (!city) throw new RpcError(-32602, `Unknown city "${args.city}" (known: ${cityNames().join(', ')})`);
  const audience = args.audience || 'the general public';
  const uri = `weather://city/${slug(city.name)}/current`;
  return {
    description: `Weather briefing for ${city.name}`,
    messages: [
      { role: 'user', content: { type: 'text', text: `Write a three-sentence weather briefing for ${city.name}, for ${audience}. Use the attached current conditions.` } },
      { role: 'user', content: { type: 'resource', resource: readResource(uri).contents[0] } },
    ],
  };
}

function complete(params) {
  const ref = params.ref;
  const arg = params.argument;
  if (!isObject(ref) || !isObject(arg) || typeof arg.name !== 'string' || typeof arg.value !== 'string') {
    throw new RpcError(-32602, 'completion/complete needs ref and argument {name, value}');
  }
  let candidates;
  if (ref.type === 'ref/prompt') {
    if (ref.name !== 'weather_briefing') throw new RpcError(-32602, `Unknown prompt: ${ref.name}`);
    candidates = arg.name === 'city' ? cityNames() : arg.name === 'audience' ? AUDIENCES : [];
  } else if (ref.type === 'ref/resource') {
    if (ref.uri !== CITY_TEMPLATE) throw new RpcError(-32602, `Unknown resource template: ${ref.uri}`);
    candidates = arg.name === 'name' ? Object.keys(CITIES) : [];
  } else {
    throw new RpcError(-32602, 'ref.type must be ref/prompt or ref/resource');
  }
  const prefix = arg.value.toLowerCase();
  const values = candidates.filter((c) => c.toLowerCase().startsWith(prefix)).slice(0, 100);
  return { completion: { values, total: values.length, hasMore: false } };
}

// ---------------------------------------------------------------- method handlers

function paged(listName, items, params, ttlMs) {
  const size = PAGE_SIZE[listName];
  let start = 0;
  if (params.cursor !== undefined) {
    let pos;
    try { pos = JSON.parse(Buffer.from(String(params.cursor), 'base64url').toString('utf8')); } catch { pos = undefined; }
    if (typeof params.cursor !== 'string' || !isObject(pos) || pos.l !== listName ||
        !Number.isInteger(pos.o) || pos.o <= 0 || pos.o >= items.length) {
      throw new RpcError(-32602, 'Invalid cursor', { cursor: params.cursor });
    }
    start = pos.o;
  }
  const result = { [listName]: items.slice(start, start + size) };
  if (start + size < items.length) {
    result.nextCursor = Buffer.from(JSON.stringify({ l: listName, o: start + size })).toString('base64url');
  }
  return Object.assign(result, { ttlMs, cacheScope: 'public' });
}

function publicTool(tool) {
  const { run, ...definition } = tool; // eslint-disable-line no-unused-vars
  return definition;
}

const METHODS = {
  'server/discover': () => ({
    supportedVersions: SUPPORTED_VERSIONS,
    capabilities: { tools: {}, resources: { subscribe: true }, prompts: {}, completions: {}, logging: {} },
    instructions: 'Made-up weather for a few cities: get_weather for now, get_forecast for the coming days, weather_here to ask the user where they are.',
    ttlMs: 3600000, cacheScope: 'public',
  }),
  'tools/list': (params) => paged('tools', TOOLS.map(publicTool), params, 300000),
  'tools/call': (params, ctx) => {
    if (typeof params.name !== 'string') throw new RpcError(-32602, 'tools/call needs a string name');
    const tool = TOOLS_BY_NAME.get(params.name);
    if (!tool) throw new RpcError(-32602, `Unknown tool: ${params.name}`);
    const args = params.arguments === undefined ? {} : params.arguments;
    if (!isObject(args)) throw new RpcError(-32602, 'tools/call arguments must be an object');
    const problems = validate(tool.inputSchema, args, 'arguments');
    if (problems.length) return toolError(`Invalid arguments for ${tool.name}: ${problems.join('; ')}`);
    ctx.log('debug', 'tools', { tool: tool.name, arguments: args });
    return tool.run(args, ctx, params);
  },
  'resources/list': (params) => paged('resources', RESOURCES, params, 300000),
  'resources/templates/list': (params) => paged('resourceTemplates', RESOURCE_TEMPLATES, params, 300000),
  'resources/read': (params) => {
    if (typeof params.uri !== 'string') throw new RpcError(-32602, 'resources/read needs a string uri');
    const found = readResource(params.uri);
    if (!found) throw new RpcError(-32602, 'Resource not found', { uri: params.uri });
    return Object.assign(found, { cacheScope: 'public' });
  },
  'prompts/list': (params) => paged('prompts', PROMPTS, params, 300000),
  'prompts/get': getPrompt,
  'completion/complete': complete,
  'subscriptions/listen': listen,
};

// subscriptions/listen: the tool, prompt and resource lists never change, so only
// resourceSubscriptions is honoured; the radar picture is "refreshed" every 2 s.
function listen(params, ctx) {
  const filter = params.notifications;
  if (!isObject(filter)) throw new RpcError(-32602, 'subscriptions/listen needs a notifications filter object');
  const honoured = {};
  if (Array.isArray(filter.resourceSubscriptions)) {
    const uris = filter.resourceSubscriptions.filter((u) => typeof u === 'string' && readResource(u));
    if (uris.length) honoured.resourceSubscriptions = uris;
  }
  const tag = { [META_SUBSCRIPTION]: ctx.id };
  ctx.notify('notifications/subscriptions/acknowledged', { _meta: tag, notifications: honoured });
  if ((honoured.resourceSubscriptions || []).includes(RADAR_URI)) {
    ctx.every(2000, () => ctx.notify('notifications/resources/updated', { _meta: tag, uri: RADAR_URI }));
  }
  ctx.subscription = true;
  return new Promise(() => {}); // answered only when the server ends it (see shutdown)
}

// ---------------------------------------------------------------- a small JSON Schema check
// Enough for this server's own input schemas: object, string, integer, enum, bounds.

function validate(schema, value, path) {
  const problems = [];
  if (schema.enum && !schema.enum.includes(value)) problems.push(`${path} must be one of ${schema.enum.join(', ')}`);
  if (schema.type === 'object') {
    if (!isObject(value)) return [`${path} must be an object`];
    for (const key of schema.required || []) if (value[key] === undefined) problems.push(`${path}.${key} is required`);
    for (const [key, v] of Object.entries(value)) {
      const sub = (schema.properties || {})[key];
      if (sub) problems.push(...validate(sub, v, `${path}.${key}`));
      else if (schema.additionalProperties === false) problems.push(`${path}.${key} is not a known argument`);
    }
  } else if (schema.type === 'string') {
    if (typeof value !== 'string') return [`${path} must be a string`];
    if (schema.minLength !== undefined && value.length < schema.minLength) problems.push(`${path} is too short`);
    if (schema.maxLength !== undefined && value.length > schema.maxLength) problems.push(`${path} is too long`);
  } else if (schema.type === 'integer') {
    if (!Number.isInteger(value)) return [`${path} must be an integer`];
    if (schema.minimum !== undefined && value < schema.minimum) problems.push(`${path} must be at least ${schema.minimum}`);
    if (schema.maximum !== undefined && value > schema.maximum) problems.push(`${path} must be at most ${schema.maximum}`);
  }
  return problems;
}

// ---------------------------------------------------------------- JSON-RPC plumbing

class RpcError extends Error {
  constructor(code, message, data) { super(message); this.code = code; this.data = data; }
}
function isObject(v) { return v !== null && typeof v === 'object' && !Array.isArray(v); }

// Integer ids beyond 2^53 keep their digits: JSON.parse would round them.
class BigId { constructor(digits) { this.digits = digits; } }
function exactId(id, line) {
  if (typeof id !== 'number' || !Number.isInteger(id) || Number.isSafeInteger(id)) return id;
  for (const m of line.matchAll(/"(?:id|requestId)"\s*:\s*(-?\d+)\s*[,}]/g)) if (Number(m[1]) === id) return new BigId(m[1]);
  return id;
}
function idKey(id) { return id instanceof BigId ? `n:${id.digits}` : `${typeof id}:${id}`; }
function validId(id) { return typeof id === 'string' || id instanceof BigId || Number.isSafeInteger(id); }

let stdoutClosed = false;
function send(message) {
  if (stdoutClosed) return;
  const big = [];
  let line = JSON.stringify(message, (k, v) => {
    if (v instanceof BigId) { big.push(v.digits); return `\u0000big${big.length - 1}`; }
    return v;
  });
  line = line.replace(/"\\u0000big(\d+)"/g, (_, i) => big[Number(i)]);
  process.stdout.write(`${line}\n`);
}
function sendError(id, code, message, data) {
  const error = data === undefined ? { code, message } : { code, message, data };
  send(id === undefined ? { jsonrpc: '2.0', error } : { jsonrpc: '2.0', id, error });
}

const inFlight = new Map(); // idKey -> context of a request not yet answered
let shuttingDown = false;

// Checks the per-request protocol fields. Order: version present, version supported, then the
// rest (a version we do not speak is answered -32022 whatever else the request lacks).
function readMeta(params) {
  if (!isObject(params) || !isObject(params._meta)) {
    throw new RpcError(-32602, `Invalid params: every request must carry params._meta with ${META_VERSION} and ${META_CAPS}`);
  }
  const meta = params._meta;
  const version = meta[META_VERSION];
  if (typeof version !== 'string') throw new RpcError(-32602, `Invalid params: _meta.${META_VERSION} is required and must be a string`);
  if (!SUPPORTED_VERSIONS.includes(version)) {
    throw new RpcError(-32022, 'Unsupported protocol version', { supported: SUPPORTED_VERSIONS, requested: version });
  }
  if (!isObject(meta[META_CAPS])) throw new RpcError(-32602, `Invalid params: _meta.${META_CAPS} is required and must be an object`);
  const level = meta[META_LOG_LEVEL];
  if (level !== undefined && !LOG_LEVELS.includes(level)) {
    throw new RpcError(-32602, `Invalid params: unknown log level ${JSON.stringify(level)}`, { levels: LOG_LEVELS });
  }
  const token = meta.progressToken;
  if (token !== undefined && typeof token !== 'string' && !Number.isInteger(token)) {
    throw new RpcError(-32602, 'Invalid params: progressToken must be a string or an integer');
  }
  return { caps: meta[META_CAPS], logLevel: level, progressToken: token };
}

function makeContext(id, method) {
  const ctx = {
    id, method, key: idKey(id), caps: {}, logLevel: undefined, progressToken: undefined,
    done: false, cancelled: false, subscription: false, timers: new Set(), lastProgress: -Infinity,
    live() { return !ctx.done && !ctx.cancelled && !stdoutClosed; },
    notify(notifyMethod, params) { if (ctx.live()) send({ jsonrpc: '2.0', method: notifyMethod, params }); },
    // notifications/message only when this request asked for a level, at or above it.
    log(level, logger, data) {
      if (ctx.logLevel === undefined || ctx.method === 'subscriptions/listen') return;
      if (LOG_LEVELS.indexOf(level) < LOG_LEVELS.indexOf(ctx.logLevel)) return;
      ctx.notify('notifications/message', { level, logger, data });
    },
    progress(progress, total, message) {
      if (ctx.progressToken === undefined || progress <= ctx.lastProgress) return;
      ctx.lastProgress = progress;
      ctx.notify('notifications/progress', { progressToken: ctx.progressToken, progress, total, message });
    },
    sleep(ms) {
      return new Promise((resolve) => {
        const t = setTimeout(() => { ctx.timers.delete(t); resolve(); }, ms);
        ctx.timers.add(t); // a cancelled request's sleep never resolves: its work stops there
      });
    },
    every(ms, fn) { const t = setInterval(fn, ms); ctx.timers.add(t); },
    stop() {
      for (const t of ctx.timers) { clearTimeout(t); clearInterval(t); }
      ctx.timers.clear();
      inFlight.delete(ctx.key);
    },
    reply(result) {
      if (!ctx.live()) return;
      const full = Object.assign({ resultType: 'complete' }, result);
      full._meta = Object.assign({ [META_SERVER_INFO]: SERVER_INFO }, result._meta);
      send({ jsonrpc: '2.0', id, result: full });
      ctx.done = true;
      ctx.stop();
    },
    fail(err) {
      if (!ctx.live()) return;
      if (err instanceof RpcError) sendError(id, err.code, err.message, err.data);
      else { process.stderr.write(`internal error in ${method}: ${err && err.stack}\n`); sendError(id, -32603, 'Internal error'); }
      ctx.done = true;
      ctx.stop();
    },
  };
  return ctx;
}

function handleRequest(msg, id) {
  const ctx = makeContext(id, msg.method);
  inFlight.set(ctx.key, ctx);
  Promise.resolve().then(() => {
    let meta;
    try { meta = readMeta(msg.params); } catch (err) {
      if (msg.method === 'initialize') throw legacyInitializeError(err, msg.params);
      throw err;
    }
    Object.assign(ctx, meta);
    const handler = METHODS[msg.method];
    if (!handler) {
      if (msg.method === 'initialize') throw legacyInitializeError(new RpcError(-32601, 'Method not found'), msg.params);
      throw new RpcError(-32601, `Method not found: ${msg.method}`);
    }
    ctx.log('debug', 'server', { request: msg.method });
    return handler(msg.params, ctx);
  }).then((result) => ctx.reply(result), (err) => ctx.fail(err));
}

// A legacy client's initialize: there is no handshake in 2026-07-28. The error is the one the
// request earns anyway (it lacks the _meta fields), and names the versions this server speaks.
function legacyInitializeError(err, params) {
  const requested = isObject(params) && typeof params.protocolVersion === 'string' ? params.protocolVersion : undefined;
  return new RpcError(err.code,
    `This server speaks only MCP ${SUPPORTED_VERSIONS.join(', ')}, which has no initialize handshake: send server/discover, or any request with params._meta (${err.message})`,
    { supported: SUPPORTED_VERSIONS, requested });
}

function handleNotification(msg, line) {
  if (msg.method !== 'notifications/cancelled' || !isObject(msg.params)) return; // others: ignored
  const ctx = inFlight.get(idKey(exactId(msg.params.requestId, line)));
  if (!ctx || ctx.done) return; // unknown or finished: ignored
  const reason = typeof msg.params.reason === 'string' ? `: ${msg.params.reason}` : '';
  process.stderr.write(`request ${ctx.key} (${ctx.method}) cancelled by the client${reason}\n`);
  ctx.cancelled = true;
  ctx.stop();
}

function handleMessage(msg, line) {
  if (!isObject(msg)) {
    return sendError(undefined, -32600, 'Invalid Request: one JSON-RPC message object per line (MCP has no batches)');
  }
  const hasId = Object.prototype.hasOwnProperty.call(msg, 'id');
  if (typeof msg.method !== 'string') {
    if (hasId && ('result' in msg || 'error' in msg)) return; // a response: this server sends no requests
    return sendError(hasId && validId(msg.id) ? exactId(msg.id, line) : undefined, -32600, 'Invalid Request: no method');
  }
  if (!hasId) {
    if (msg.jsonrpc === '2.0') handleNotification(msg, line);
    return undefined;
  }
  const id = exactId(msg.id, line);
  if (!validId(id)) return sendError(undefined, -32600, 'Invalid Request: the id must be a string or an integer');
  if (msg.jsonrpc !== '2.0') return sendError(id, -32600, 'Invalid Request: jsonrpc must be "2.0"');
  if (shuttingDown) return undefined;
  return handleRequest(msg, id);
}

function handleLine(line) {
  if (line.endsWith('\r')) line = line.slice(0, -1);
  if (line.trim() === '') return;
  let msg;
  try { msg = JSON.parse(line); } catch { sendError(undefined, -32700, 'Parse error'); return; }
  try { handleMessage(msg, line); } catch (err) {
    process.stderr.write(`could not handle a message: ${err && err.message}\n`);
    const id = isObject(msg) && validId(msg.id) ? msg.id : undefined;
    sendError(id, -32603, 'Internal error');
  }
}

// Shutdown: stdin closed. Subscriptions are ended by the server (cancelled notification, then
// the graceful result); other work in flight is dropped; the process then exits by itself.
function shutdown() {
  if (shuttingDown) return;
  shuttingDown = true;
  for (const ctx of [...inFlight.values()]) {
    if (ctx.subscription && ctx.live()) {
      send({ jsonrpc: '2.0', method: 'notifications/cancelled', params: { requestId: ctx.id, reason: 'server shutting down' } });
      ctx.reply({ _meta: { [META_SUBSCRIPTION]: ctx.id } });
    }
    ctx.cancelled = true;
    ctx.stop();
  }
}

let pending = [];
process.stdin.setEncoding('utf8');
process.stdin.on('data', (chunk) => {
  let start = 0;
  let nl;
  while ((nl = chunk.indexOf('\n', start)) !== -1) {
    pending.push(chunk.slice(start, nl));
    const line = pending.join('');
    pending = [];
    handleLine(line);
    start = nl + 1;
  }
  if (start < chunk.length) pending.push(chunk.slice(start));
});
process.stdin.on('end', () => {
  if (pending.length) { const line = pending.join(''); pending = []; handleLine(line); }
  shutdown();
});
process.stdout.on('error', () => { stdoutClosed = true; shutdown(); });
