// The fuzz corpus: for every route (routes.ts), malformed and hostile requests of the kinds issue
// 21 found, as raw bytes. Deterministic: the same seed gives the same cases in the same order, so
// a failing case is reproduced by its name.
import { brotliCompressSync, deflateSync, gzipSync } from 'node:zlib';
import type { FuzzPart, FuzzRoute } from './routes.js';
import { MULTIPART_BOUNDARY } from './routes.js';
import type { RawPiece } from './rawHttp.js';

/** One hostile request. */
export interface FuzzCase {
  /** Unique and stable: `<part> <method> <path> · <family>: <variant>`. */
  name: string;
  part: FuzzPart;
  /** The route it was made from. */
  route?: FuzzRoute;
  family: string;
  pieces: RawPiece[];
  /** A HEAD request (its answer has no body). */
  head?: boolean;
}

/** What the corpus needs besides the routes. */
export interface CorpusContext {
  /** `host:port` of each part, as a well-behaved client writes `Host`. */
  hostOf: (part: FuzzPart) => string;
  /** The shell's CSRF token and its cookie (`_csrf=…`), so bodies get past the edge to the service. */
  csrf: { token: string; cookie: string };
  /**
   * The real edge key to send to `part` with hostile edge headers: a team service's own key (the one
   * it believes); for the other parts, which must ignore edge headers whatever they hold, any real one.
   */
  edgeKeyOf: (part: FuzzPart) => string;
  seed: number;
  /**
   * Parts whose body deadline is shorter than the runner's hang time (set short for the run): each
   * of their routes that takes a body also gets an unfinished one (the body sent, 64 bytes fewer
   * than its `Content-Length` says, then nothing), which the part must answer (408) and close.
   */
  unfinishedBodyParts?: readonly FuzzPart[];
}

/** mulberry32: a small seeded generator, so "random" junk is the same on every run. */
export function seededRandom(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

type Header = [string, string | Buffer];

interface RequestShape {
  method: string;
  target: string | Buffer;
  version?: string;
  headers: Header[];
  body?: Buffer;
  /** Leave `Content-Length` out (the headers frame the body themselves, or it is deliberately unframed). */
  noLength?: boolean;
}

/** The request's bytes: request line, headers, blank line, body. */
function encode(shape: RequestShape): Buffer {
  const lines: Buffer[] = [Buffer.concat([Buffer.from(`${shape.method} `, 'latin1'), Buffer.isBuffer(shape.target) ? shape.target : Buffer.from(shape.target, 'latin1'), Buffer.from(` ${shape.version ?? 'HTTP/1.1'}`, 'latin1')])];
  const headers = [...shape.headers];
  if (shape.body && !shape.noLength && !headers.some(([name]) => /^(content-length|transfer-encoding)$/i.test(name))) headers.push(['Content-Length', String(shape.body.length)]);
  for (const [name, value] of headers) lines.push(Buffer.concat([Buffer.from(`${name}: `, 'latin1'), Buffer.isBuffer(value) ? value : Buffer.from(value, 'latin1')]));
  return Buffer.concat([Buffer.concat(lines.flatMap((line) => [line, Buffer.from('\r\n')])), Buffer.from('\r\n'), shape.body ?? Buffer.alloc(0)]);
}

/** A body as chunked transfer coding, in pieces of `size` bytes. */
function chunked(body: Buffer, size: number): Buffer {
  const parts: Buffer[] = [];
  for (let offset = 0; offset < body.length; offset += size) {
    const piece = body.subarray(offset, offset + size);
    parts.push(Buffer.from(`${piece.length.toString(16)}\r\n`), piece, Buffer.from('\r\n'));
  }
  parts.push(Buffer.from('0\r\n\r\n'));
  return Buffer.concat(parts);
}

/** `count` made-up words of 5 to 9 letters: none in the index, so each one is looked up with typos. */
const madeUpWords = (count: number, random: () => number) =>
  Array.from({ length: count }, () => Array.from({ length: 5 + Math.floor(random() * 5) }, () => String.fromCharCode(97 + Math.floor(random() * 26))).join('')).join(' ');

const words = (count: number, random: () => number) => {
  const vocabulary = ['leadership', 'team', 'supplier', 'negotiation', 'remote', 'feedback', 'budget', 'meeting', 'goals', 'trust', 'conflict', 'hiring', 'coaching', 'strategy'];
  return Array.from({ length: count }, () => vocabulary[Math.floor(random() * vocabulary.length)]).join(' ');
};

/** The families every route gets alike, of which a route with `sample` gets a share. */
const SAMPLED_FAMILIES = new Set(['method', 'protocol', 'host', 'origin', 'headers', 'edge', 'path', 'query', 'body']);

/** Builds every case for `routes`. */
export function buildCorpus(routes: FuzzRoute[], context: CorpusContext): FuzzCase[] {
  const random = seededRandom(context.seed);
  const cases: FuzzCase[] = [];
  const names = new Set<string>();

  for (const route of routes) {
    const host = context.hostOf(route.part);
    const baseHeaders = (): Header[] => [
      ['Host', host],
      ...(route.headers ?? []),
      ...(route.csrf ? ([['Cookie', context.csrf.cookie], ['X-CSRF-Token', context.csrf.token]] as Header[]) : []),
    ];
    const contentType = route.body?.kind === 'multipart' ? `multipart/form-data; boundary=${MULTIPART_BOUNDARY}` : route.body?.kind === 'ndjson' ? 'text/plain' : 'application/json';
    const validBody = route.body ? Buffer.from(route.body.valid) : undefined;
    const withBody = (headers: Header[]): Header[] => (route.body ? [...headers, ['Content-Type', contentType]] : headers);
    const add = (family: string, variant: string, shape: RequestShape | RawPiece[], head = false) => {
      if (route.sample !== undefined && SAMPLED_FAMILIES.has(family) && random() >= route.sample) return;
      let name = `${route.part} ${route.method} ${route.path.length > 80 ? `${route.path.slice(0, 77)}...` : route.path} · ${family}: ${variant}`;
      for (let n = 2; names.has(name); n++) name = `${name} #${n}`;
      names.add(name);
      cases.push({ name, part: route.part, route, family, pieces: Array.isArray(shape) ? shape : [encode(shape)], ...(head ? { head } : {}) });
    };
    const request = (overrides: Partial<RequestShape> = {}): RequestShape => ({
      method: route.method,
      target: route.path,
      headers: withBody(baseHeaders()),
      ...(validBody ? { body: validBody } : {}),
      ...overrides,
    });

    // The well-behaved request itself: the baseline every variant departs from.
    add('baseline', 'as a browser sends it', request());

    // Methods the route does not have, odd spellings, and ones Node treats specially.
    for (const method of ['PUT', 'DELETE', 'PATCH', 'OPTIONS', 'TRACE', 'PROPFIND', 'FOO', 'get', 'HEAD', 'CONNECT']) {
      if (method === route.method) continue;
      const keyless = route.readOnlyKey && !['HEAD', 'OPTIONS', 'get'].includes(method);
      add('method', method, request({ method, ...(method === 'CONNECT' ? { target: host } : {}), ...(keyless ? { headers: withBody([['Host', host]]) } : {}) }), method === 'HEAD');
    }

    // Protocol framing: HTTP/1.0, no Host, Connection: close, unknown versions, pipelining.
    add('protocol', 'HTTP/1.0 without Host', request({ version: 'HTTP/1.0', headers: withBody((route.headers ?? []).slice()) }));
    add('protocol', 'HTTP/1.0 with Host and keep-alive', request({ version: 'HTTP/1.0', headers: [...withBody(baseHeaders()), ['Connection', 'keep-alive']] }));
    add('protocol', 'HTTP/1.1 without Host', request({ headers: withBody([...(route.headers ?? [])]) }));
    add('protocol', 'Connection: close', request({ headers: [...withBody(baseHeaders()), ['Connection', 'close']] }));
    add('protocol', 'HTTP/2.0 request line', request({ version: 'HTTP/2.0' }));
    add('protocol', 'garbage version', request({ version: 'HTTP/1.1x' }));
    add('protocol', 'bare LF line endings', [Buffer.from(encode(request()).toString('latin1').replaceAll('\r\n', '\n'), 'latin1')]);
    add('protocol', 'two pipelined requests', [Buffer.concat([encode(request()), encode(request())])]);
    add('protocol', 'Expect: 100-continue', request({ headers: [...withBody(baseHeaders()), ['Expect', '100-continue']] }));
    add('protocol', 'Expect: unknown', request({ headers: [...withBody(baseHeaders()), ['Expect', 'x-fuzz']] }));
    add('protocol', 'Upgrade: websocket', request({ headers: [...withBody(baseHeaders()), ['Connection', 'Upgrade'], ['Upgrade', 'websocket'], ['Sec-WebSocket-Key', 'dGhlIHNhbXBsZSBub25jZQ=='], ['Sec-WebSocket-Version', '13']] }));

    // Host, Origin and fetch metadata a browser would never send together.
    const others = (headers: Header[]) => withBody([...headers, ...(route.headers ?? []), ...(route.csrf ? ([['Cookie', context.csrf.cookie], ['X-CSRF-Token', context.csrf.token]] as Header[]) : [])]);
    add('host', 'foreign Host', request({ headers: others([['Host', 'evil.example']]) }));
    add('host', 'empty Host', request({ headers: others([['Host', '']]) }));
    add('host', 'two Host headers', request({ headers: others([['Host', host], ['Host', 'evil.example']]) }));
    add('host', 'Host with port 99999', request({ headers: others([['Host', '127.0.0.1:99999']]) }));
    add('host', 'Host of 300 characters', request({ headers: others([['Host', `${'a'.repeat(290)}.example`]]) }));
    add('host', 'Host with userinfo and path', request({ headers: others([['Host', 'user:pw@127.0.0.1/x']]) }));
    add('host', 'two X-Forwarded-Host', request({ headers: [...withBody(baseHeaders()), ['X-Forwarded-Host', 'a.example'], ['X-Forwarded-Host', 'b.example']] }));
    add('origin', 'foreign Origin', request({ headers: [...withBody(baseHeaders()), ['Origin', 'http://evil.example']] }));
    add('origin', 'Origin: null', request({ headers: [...withBody(baseHeaders()), ['Origin', 'null']] }));
    add('origin', 'malformed Origin', request({ headers: [...withBody(baseHeaders()), ['Origin', 'http://[::1']] }));
    add('origin', 'Sec-Fetch-Site cross-site', request({ headers: [...withBody(baseHeaders()), ['Sec-Fetch-Site', 'cross-site'], ['Sec-Fetch-Mode', 'no-cors'], ['Sec-Fetch-Dest', 'script']] }));
    add('origin', 'Sec-Fetch-Site garbage', request({ headers: [...withBody(baseHeaders()), ['Sec-Fetch-Site', 'same-origin, cross-site'], ['Sec-Fetch-User', '?9']] }));

    // Headers: too big, too many, malformed, odd values.
    add('headers', 'one header of 20 KB', request({ headers: [...withBody(baseHeaders()), ['X-Fuzz', 'x'.repeat(20 * 1024)]] }));
    add('headers', 'one header of 12 KB', request({ headers: [...withBody(baseHeaders()), ['X-Fuzz', 'x'.repeat(12 * 1024)]] }));
    add('headers', '300 headers', request({ headers: [...withBody(baseHeaders()), ...Array.from({ length: 300 }, (_, index): Header => [`X-Fuzz-${index}`, 'x'])] }));
    add('headers', 'invalid header name', request({ headers: [...withBody(baseHeaders()), ['Bad Header', 'x']] }));
    add('headers', 'obsolete line folding', [Buffer.from(encode(request()).toString('latin1').replace('\r\n\r\n', '\r\nX-Fuzz: a\r\n  folded\r\n\r\n'), 'latin1')]);
    add('headers', 'NUL in a header value', request({ headers: [...withBody(baseHeaders()), ['X-Fuzz', Buffer.from([0x61, 0x00, 0x62])]] }));
    add('headers', 'bytes 0x80-0xff in a header value', request({ headers: [...withBody(baseHeaders()), ['X-Fuzz', Buffer.from([0xc3, 0x28, 0xff, 0xfe])], ['Accept-Language', Buffer.from([0xff, 0xfe, 0x3b])]] }));
    add('headers', 'odd Accept and Accept-Encoding', request({ headers: [...withBody(baseHeaders()), ['Accept', 'application/json;q=abc, */*;q=9'], ['Accept-Encoding', 'br;q=x, gzip;q=-1, *;q=2, zstd']] }));
    add('headers', 'malformed and huge cookies', request({ headers: [...withBody(baseHeaders()).filter(([name]) => name !== 'Cookie'), ['Cookie', `_csrf=%%%; a; =b; ${'c'.repeat(4000)}=1; _csrf=s%3Aforged.sig`]] }));
    add('headers', 'conditional headers with junk', request({ headers: [...withBody(baseHeaders()), ['If-None-Match', '"a", W/junk, *'], ['If-Modified-Since', 'not a date'], ['If-Range', 'Tue, 99 Foo 2099']] }));
    add('headers', 'Authorization malformed', request({ headers: [...withBody(baseHeaders()).filter(([name]) => name !== 'authorization'), ['Authorization', 'Basic %%%not-base64']] }));
    add('headers', 'X-Forwarded-* and Forwarded spoofed', request({ headers: [...withBody(baseHeaders()), ['X-Forwarded-For', '1.2.3.4, ::1, garbage'], ['X-Forwarded-Proto', 'gopher'], ['Forwarded', 'for="[::1]";proto=https;host=evil.example'], ['X-Real-IP', '999.1.1.1']] }));

    // Edge headers only the shell may set: forged, well-formed and not.
    add('edge', 'forged edge key and visitor id', request({ headers: [...withBody(baseHeaders()), ['X-KHS-Edge-Key', 'forged'], ['X-KHS-Visitor-Id', 'AAAAAAAAAAAAAAAAAAAAAA'], ['X-KHS-Link-Origin', 'javascript:alert(1)']] }));
    add('edge', 'the real edge key with hostile values', request({ headers: [...withBody(baseHeaders()), ['X-KHS-Edge-Key', context.edgeKeyOf(route.part)], ['X-KHS-Visitor-Id', `${'v'.repeat(200)}<>`], ['X-KHS-Link-Origin', 'http://user@evil.example/?x#y']] }));
    add('edge', 'the real edge key, edge headers twice', request({ headers: [...withBody(baseHeaders()), ['X-KHS-Edge-Key', context.edgeKeyOf(route.part)], ['X-KHS-Edge-Key', 'x'], ['X-KHS-Visitor-Id', 'AAAAAAAAAAAAAAAAAAAAAA'], ['X-KHS-Visitor-Id', 'BBBBBBBBBBBBBBBBBBBBBB']] }));

    // Paths: traversal, encodings, invalid UTF-8, overlong URLs and query strings.
    const [pathOnly, query = ''] = route.path.split('?');
    const prefix = pathOnly!.replace(/[^/]*$/, '');
    const withQuery = (path: string) => (query ? `${path}?${query}` : path);
    const traversals = [
      `${prefix}../../../../etc/passwd`,
      `${prefix}..%2f..%2f..%2f..%2fetc%2fpasswd`,
      `${prefix}%2e%2e/%2e%2e/%2e%2e/package.json`,
      `${prefix}%252e%252e%252f%252e%252e%252fpackage.json`,
      `${prefix}..%5c..%5c..%5cpackage.json`,
      `${prefix}..\\..\\package.json`,
      `${pathOnly}%00.js`,
      `${pathOnly}/%00`,
      `//${pathOnly}`,
      `${pathOnly}//..//..//`,
      `${pathOnly}/.`,
      `${pathOnly};jsessionid=1`,
      `${pathOnly}%ff%fe`,
      `${pathOnly}%c3%28`,
      `${pathOnly}%`,
      `${pathOnly}%zz`,
      `${pathOnly}%u002e`,
    ];
    for (const target of traversals) add('path', target.length > 60 ? `${target.slice(0, 57)}...` : target, request({ target: withQuery(target) }));
    add('path', 'raw bytes 0xff 0xfe in the path', request({ target: Buffer.concat([Buffer.from(pathOnly!), Buffer.from([0xff, 0xfe])]) }));
    add('path', 'raw space and tab in the path', [Buffer.from(encode(request()).toString('latin1').replace(` ${pathOnly} `, ` ${pathOnly}\ta b `), 'latin1')]);
    add('path', 'fragment in the request line', request({ target: `${route.path}#fragment` }));
    add('path', 'absolute-form target, foreign host', request({ target: `http://evil.example${route.path}` }));
    add('path', 'absolute-form target, own host', request({ target: `http://${host}${route.path}` }));
    add('path', 'asterisk-form target', request({ target: '*' }));
    add('path', 'empty target', request({ target: '' }));
    add('path', 'path of 8 KB', request({ target: withQuery(`${pathOnly}/${'a'.repeat(8 * 1024)}`) }));
    add('path', 'path of 70 KB', request({ target: withQuery(`${pathOnly}/${'a'.repeat(70 * 1024)}`) }));
    add('path', 'path of 1000 segments', request({ target: withQuery(`${pathOnly}${'/a'.repeat(1000)}`) }));
    const separator = query ? '&' : '?';
    add('query', 'query string of 12 KB', request({ target: `${route.path}${separator}x=${'q'.repeat(12 * 1024)}` }));
    add('query', '4000 parameters', request({ target: `${route.path}${separator}${Array.from({ length: 4000 }, (_, index) => `p${index}=1`).join('&')}` }));
    add('query', 'one parameter 3000 times', request({ target: `${route.path}${separator}${'q=a&'.repeat(3000)}` }));
    add('query', 'invalid percent-encoding', request({ target: `${route.path}${separator}q=%E0%A4%A&x=%zz&%=1` }));
    add('query', 'invalid UTF-8', request({ target: `${route.path}${separator}q=%ff%fe%c3%28&%c0%af=1` }));
    add('query', 'prototype keys', request({ target: `${route.path}${separator}__proto__[x]=1&constructor[prototype][y]=2&q[]=a&q[b]=c` }));
    add('query', 'control characters', request({ target: `${route.path}${separator}q=%00%01%1b%7f%0d%0aX-Injected:%201` }));

    // Long search queries: 12 made-up words (the most the search server takes, each looked up with
    // typos), 13 (one past it), 100 and 300 words, one word of 1000 letters; in the URL or in a
    // multi-search body (one search, or 50).
    const longQueries: Array<[string, string]> = [
      ['12 made-up words (the most the search server takes)', madeUpWords(12, random)],
      ['13 words', words(13, random)],
      ['13 made-up words', madeUpWords(13, random)],
      ['100 words', words(100, random)],
      ['100 made-up words', madeUpWords(100, random)],
      ['300 words', words(300, random)],
      ['one word of 1000 letters', 'l'.repeat(1000)],
    ];
    if (/[?&]q=/.test(route.path)) {
      for (const [label, text] of longQueries) add('long query', label, request({ target: route.path.replace(/([?&]q=)[^&]*/, `$1${encodeURIComponent(text)}`) }));
    }
    if (route.body?.kind === 'json' && route.body.valid.includes('"q":')) {
      for (const [label, text] of longQueries) {
        const body = JSON.parse(route.body.valid) as { searches: Array<Record<string, unknown>> };
        for (const search of body.searches) Object.assign(search, { q: text, num_typos: 2, prefix: true });
        add('long query', label, request({ body: Buffer.from(JSON.stringify(body)) }));
      }
      const many = JSON.parse(route.body.valid) as { searches: Array<Record<string, unknown>> };
      many.searches = Array.from({ length: 50 }, () => ({ ...many.searches[0], q: madeUpWords(12, random), num_typos: 2, prefix: true }));
      add('long query', '50 searches of 12 made-up words', request({ body: Buffer.from(JSON.stringify(many)) }));
    }

    // Ranges, on every file and page a GET answers.
    if (route.method === 'GET') {
      const ranges = [
        'bytes=0-0',
        'bytes=5-2',
        'bytes=999999999-',
        'bytes=0-18446744073709551616',
        'bytes=-0',
        'bytes=-99999999999',
        'bytes=--1',
        'bytes=abc',
        'items=0-10',
        'bytes=0-1,2-3,4-5',
        'bytes=0-0,0-0,0-0,0-0,0-0,0-0,0-0,0-0,0-0,0-0,0-0,0-0,0-0,0-0,0-0,0-0,0-0,0-0,0-0,0-0',
        `bytes=${Array.from({ length: 400 }, (_, index) => `${index}-${index}`).join(',')}`,
        'bytes=10-5, 0-1',
        'bytes= 0 - 1',
        'bytes=0-1;bytes=2-3',
      ];
      if (route.file || random() < 0.5) {
        for (const range of ranges) add('range', range.length > 50 ? `${range.slice(0, 47)}...` : range, request({ headers: [...baseHeaders(), ['Range', range]] }));
        add('range', 'Range with If-Range junk', request({ headers: [...baseHeaders(), ['Range', 'bytes=0-10'], ['If-Range', '"nope"']] }));
        add('range', 'two Range headers', request({ headers: [...baseHeaders(), ['Range', 'bytes=0-1'], ['Range', 'bytes=5-9']] }));
      } else {
        for (const range of ['bytes=5-2', 'bytes=999999999-', 'bytes=0-1,2-3,4-5']) add('range', range, request({ headers: [...baseHeaders(), ['Range', range]] }));
      }
    }

    // Bodies, on every route that takes one (and a body where none is expected).
    if (!route.body) {
      add('body', 'JSON body on a GET route', request({ headers: [...baseHeaders(), ['Content-Type', 'application/json']], body: Buffer.from('{"x":1}') }));
      add('body', 'chunked junk on a GET route', request({ headers: [...baseHeaders(), ['Transfer-Encoding', 'chunked']], body: chunked(Buffer.from('x'.repeat(5000)), 1000), noLength: true }));
      continue;
    }
    const limit = route.body.limitBytes;
    const bodyHeaders = (type: string | undefined, extra: Header[] = []): Header[] => [...baseHeaders(), ...(type === undefined ? [] : ([['Content-Type', type]] as Header[])), ...extra];
    const withJson = (body: string | Buffer, type = contentType, extra: Header[] = []) => request({ headers: bodyHeaders(type, extra), body: Buffer.isBuffer(body) ? body : Buffer.from(body) });

    // Malformed and hostile JSON.
    const badJson: Array<[string, string | Buffer]> = [
      ['empty body', ''],
      ['truncated object', '{"answerPosition":'],
      ['not JSON', 'hello'],
      ['null', 'null'],
      ['a bare string', '"x"'],
      ['an array', '[1,2,3]'],
      ['a huge number', `{"answerPosition":1e999999,"x":${'9'.repeat(5000)}}`],
      ['prototype pollution keys', '{"__proto__":{"polluted":true},"constructor":{"prototype":{"polluted":true}},"storedWatchlist":{"articles":{"__proto__":{"title":"x"}}}}'],
      ['deeply nested (20000 levels)', `${'['.repeat(20000)}${']'.repeat(20000)}`],
      ['deeply nested objects (5000 levels)', `${'{"a":'.repeat(5000)}1${'}'.repeat(5000)}`],
      ['duplicate keys', `${route.body.valid.slice(0, -1)},"answerPosition":"dup","events":"dup"}`],
      ['NUL and lone surrogates', '{"x":"\\u0000\\ud800\\udfff\\ud800","events":["\\ud800"]}'],
      ['invalid UTF-8 bytes', Buffer.concat([Buffer.from('{"x":"'), Buffer.from([0xff, 0xfe, 0xc3, 0x28]), Buffer.from('"}')])],
      ['UTF-8 BOM before valid JSON', Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), Buffer.from(route.body.valid)])],
      ['valid JSON then junk', `${route.body.valid}}}}garbage`],
      ['long strings in every field', route.body.valid.replace(/"([^"]*)"/g, (_, text: string) => `"${text}${'x'.repeat(2000)}"`)],
      ['numbers where strings go and back', route.body.valid.replace(/"[^"]*"(?=\s*[,}\]])/g, '1e308').replace(/:\s*(\d+)/g, ':"$1"')],
    ];
    for (const [label, body] of badJson) add('json', label, withJson(body));

    // Wrong and odd content types.
    const types: Array<[string, string | undefined]> = [
      ['no Content-Type', undefined],
      ['text/plain', 'text/plain'],
      ['form-urlencoded', 'application/x-www-form-urlencoded'],
      ['multipart without boundary', 'multipart/form-data'],
      ['multipart with a wrong boundary', 'multipart/form-data; boundary=nope'],
      ['JSON as latin1', 'application/json; charset=latin1'],
      ['JSON as UTF-16', 'application/json; charset=utf-16'],
      ['a type with 500 parameters', `application/json${'; p=1'.repeat(500)}`],
      ['garbage type', '%%%/;;;=='],
      ['application/xml', 'application/xml'],
    ];
    for (const [label, type] of types) add('content type', label, withJson(route.body.valid, type as string));
    add('content type', 'two Content-Type headers', withJson(route.body.valid, contentType, [['Content-Type', 'text/plain']]));

    // Content-Encoding: valid gzip/br/deflate, junk claiming to be each, unknown and stacked codings.
    const valid = Buffer.from(route.body.valid);
    const encodings: Array<[string, string, Buffer]> = [
      ['valid gzip', 'gzip', gzipSync(valid)],
      ['valid br', 'br', brotliCompressSync(valid)],
      ['valid deflate', 'deflate', deflateSync(valid)],
      ['junk as gzip', 'gzip', Buffer.from('this is not gzip at all')],
      ['junk as br', 'br', Buffer.from([0xff, 0xff, 0xff, 0x00, 0x01])],
      ['junk as deflate', 'deflate', Buffer.from('nope')],
      ['truncated gzip', 'gzip', gzipSync(valid).subarray(0, 12)],
      ['gzip bomb (8 MB of zeros)', 'gzip', gzipSync(Buffer.alloc(8 * 1024 * 1024))],
      ['unknown coding', 'zstd', valid],
      ['stacked gzip, br', 'gzip, br', brotliCompressSync(gzipSync(valid))],
      ['GZIP in capitals', 'GZIP', gzipSync(valid)],
      ['identity', 'identity', valid],
      ['empty coding list', ', ,', valid],
    ];
    for (const [label, coding, body] of encodings) add('content encoding', label, withJson(body, contentType, [['Content-Encoding', coding]]));

    // A body that never arrives whole: the part's body deadline must answer it.
    if (context.unfinishedBodyParts?.includes(route.part)) {
      add('unfinished body', 'the body, 64 bytes short of its Content-Length, then nothing', request({ headers: bodyHeaders(contentType, [['Content-Length', String(valid.length + 64)]]), body: valid, noLength: true }));
    }

    // Framing: chunked past the limit, malformed chunks, smuggling shapes, lying lengths.
    const overLimit = Buffer.alloc(limit + 64 * 1024, 'x');
    add('framing', 'chunked, under the limit', request({ headers: bodyHeaders(contentType, [['Transfer-Encoding', 'chunked']]), body: chunked(valid, 7), noLength: true }));
    add('framing', `chunked, ${Math.round(overLimit.length / 1024)} KB (over the limit)`, request({ headers: bodyHeaders(contentType, [['Transfer-Encoding', 'chunked']]), body: chunked(overLimit, 16 * 1024), noLength: true }));
    add('framing', 'chunked, gzip, over the limit once inflated', request({ headers: bodyHeaders(contentType, [['Transfer-Encoding', 'chunked'], ['Content-Encoding', 'gzip']]), body: chunked(gzipSync(overLimit), 4096), noLength: true }));
    add('framing', 'Content-Length over the limit', request({ headers: bodyHeaders(contentType), body: overLimit }));
    add('framing', 'Content-Length of a terabyte, 10 bytes sent', request({ headers: bodyHeaders(contentType, [['Content-Length', String(1024 ** 4)]]), body: Buffer.from('{"x":1234}'), noLength: true }));
    add('framing', 'malformed chunk size', request({ headers: bodyHeaders(contentType, [['Transfer-Encoding', 'chunked']]), body: Buffer.from('zz\r\nabc\r\n0\r\n\r\n'), noLength: true }));
    add('framing', 'chunk size overflowing 64 bits', request({ headers: bodyHeaders(contentType, [['Transfer-Encoding', 'chunked']]), body: Buffer.from('fffffffffffffffffff\r\nabc\r\n0\r\n\r\n'), noLength: true }));
    add('framing', 'chunk extensions and trailers', request({ headers: bodyHeaders(contentType, [['Transfer-Encoding', 'chunked']]), body: Buffer.from(`${valid.length.toString(16)};ext="v";x\r\n${route.body.valid}\r\n0\r\nX-Trailer: 1\r\n\r\n`), noLength: true }));
    add('framing', 'Transfer-Encoding and Content-Length together', request({ headers: bodyHeaders(contentType, [['Content-Length', String(valid.length)], ['Transfer-Encoding', 'chunked']]), body: chunked(valid, 5), noLength: true }));
    add('framing', 'Transfer-Encoding: gzip, chunked', request({ headers: bodyHeaders(contentType, [['Transfer-Encoding', 'gzip, chunked']]), body: chunked(gzipSync(valid), 64), noLength: true }));
    add('framing', 'Transfer-Encoding: chunked, identity', request({ headers: bodyHeaders(contentType, [['Transfer-Encoding', 'chunked, identity']]), body: valid, noLength: true }));
    add('framing', 'two different Content-Length', request({ headers: bodyHeaders(contentType, [['Content-Length', String(valid.length)], ['Content-Length', String(valid.length + 1)]]), body: valid, noLength: true }));
    add('framing', 'negative Content-Length', request({ headers: bodyHeaders(contentType, [['Content-Length', '-1']]), body: valid, noLength: true }));
    add('framing', 'Content-Length not a number', request({ headers: bodyHeaders(contentType, [['Content-Length', '12abc']]), body: valid, noLength: true }));
    add('framing', 'Content-Length shorter than the body', request({ headers: bodyHeaders(contentType, [['Content-Length', String(Math.max(1, valid.length - 5))]]), body: Buffer.concat([valid, Buffer.from('\r\n\r\n')]), noLength: true }));
    add('framing', 'body sent without Content-Length', request({ headers: bodyHeaders(contentType, [['Connection', 'close']]), body: valid, noLength: true }));
    add('framing', 'body in an HTTP/1.0 request', request({ version: 'HTTP/1.0', headers: bodyHeaders(contentType) }));
    add('framing', 'Expect: 100-continue then over the limit', request({ headers: bodyHeaders(contentType, [['Expect', '100-continue']]), body: overLimit }));

    if (route.body.kind === 'multipart') {
      const b = MULTIPART_BOUNDARY;
      const multipart: Array<[string, string]> = [
        ['no closing boundary', `--${b}\r\nContent-Disposition: form-data; name="name"\r\n\r\nx\r\n`],
        ['part without headers', `--${b}\r\n\r\nx\r\n--${b}--\r\n`],
        ['file with a traversal name', `--${b}\r\nContent-Disposition: form-data; name="attachment"; filename="../../../etc/passwd"\r\nContent-Type: application/pdf\r\n\r\n%PDF-1.4 x\r\n--${b}--\r\n`],
        ['2000 fields', `${Array.from({ length: 2000 }, (_, index) => `--${b}\r\nContent-Disposition: form-data; name="f${index}"\r\n\r\nv\r\n`).join('')}--${b}--\r\n`],
        ['one field of 2 MB', `--${b}\r\nContent-Disposition: form-data; name="message"\r\n\r\n${'m'.repeat(2 * 1024 * 1024)}\r\n--${b}--\r\n`],
        ['header line of 100 KB', `--${b}\r\nContent-Disposition: form-data; name="${'n'.repeat(100 * 1024)}"\r\n\r\nx\r\n--${b}--\r\n`],
      ];
      for (const [label, body] of multipart) add('multipart', label, withJson(body));
    }
  }

  // A few trickling clients (few and short): headers, then the body a few bytes at a time.
  const trickleRoutes = routes.filter((route) => route.body).filter((_, index) => index % 4 === 0);
  for (const route of trickleRoutes) {
    const host = context.hostOf(route.part);
    const body = Buffer.from(route.body!.valid);
    const type = route.body!.kind === 'multipart' ? `multipart/form-data; boundary=${MULTIPART_BOUNDARY}` : 'application/json';
    const head = encode({
      method: route.method,
      target: route.path,
      headers: [['Host', host], ...(route.headers ?? []), ...(route.csrf ? ([['Cookie', context.csrf.cookie], ['X-CSRF-Token', context.csrf.token]] as Header[]) : []), ['Content-Type', type], ['Content-Length', String(body.length)]],
    });
    const pieces: RawPiece[] = [head];
    const step = Math.ceil(body.length / 8);
    for (let offset = 0; offset < body.length; offset += step) pieces.push({ pauseMs: 250 }, body.subarray(offset, offset + step));
    cases.push({ name: `${route.part} ${route.method} ${route.path} · slow body: 8 pieces 250 ms apart`, part: route.part, route, family: 'slow body', pieces });
  }
  return cases;
}
