import { expect, test } from '@playwright/test';

import { full, prng, rawRequest, type RawResponse } from './lib';
import { recordFigure } from './record';

const PRIVATE_TEXT = 'Component registry';
const seed = Number(process.env.FUZZ_SEED ?? 20261122);

function pick<T>(random: () => number, items: readonly T[]): T {
  return items[Math.floor(random() * items.length)] as T;
}

function randomString(random: () => number, length: number, alphabet?: string): string {
  let out = '';
  for (let i = 0; i < length; i++) {
    out += alphabet
      ? alphabet[Math.floor(random() * alphabet.length)]
      : String.fromCharCode(Math.floor(random() * 0x2fff));
  }
  return out;
}

/** A body for POST /api/session: wrong types, sizes, encodings and shapes. */
function sessionBody(random: () => number): { body: string | Buffer; type: string } {
  const size = pick(random, [0, 1, 10, 100, 1000, 9000, 20_000]);
  const value = pick<unknown>(random, [
    randomString(random, size),
    randomString(random, size, 'abcdefghijklmnopqrstuvwxyz0123456789-_.'),
    Math.floor(random() * 1e9),
    null,
    true,
    [],
    {},
    ['a', 'b'],
    { idToken: 'x' },
    'eyJhbGciOiJub25lIn0.' + randomString(random, size, 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghij0123456789-_') + '.',
  ]);
  const shapes: (() => string | Buffer)[] = [
    () => JSON.stringify({ idToken: value }),
    () => JSON.stringify({ idToken: value, extra: value }),
    () => JSON.stringify({ idtoken: value }),
    () => JSON.stringify([value]),
    () => JSON.stringify(value),
    () => '{"idToken":' + randomString(random, 20),
    () => Buffer.from(randomString(random, size), 'utf16le'),
    () => Buffer.from(Array.from({ length: size }, () => Math.floor(random() * 256))),
    () => `{"idToken":"${'\\u0000'.repeat(5)}"}`,
    () => '{"__proto__":{"admin":true},"idToken":"x"}',
  ];
  const type = pick(random, [
    'application/json',
    'application/json; charset=utf-16',
    'text/plain',
    'application/x-www-form-urlencoded',
    'multipart/form-data; boundary=x',
    'application/json; charset=latin1',
    '',
  ]);
  return { body: pick(random, shapes)(), type };
}

function randomPath(random: () => number): string {
  const pieces = [
    'docs',
    'layout-engine',
    'Norigin-Spatial-Navigation',
    '..',
    '.',
    '%2e%2e',
    '%2f',
    '%00',
    '%5c',
    '%ff',
    '%',
    '%%',
    'assets',
    'js',
    '~',
    ';',
    '*',
    'login',
    'api',
    'session',
  ];
  const depth = 1 + Math.floor(random() * 6);
  let path = '';
  for (let i = 0; i < depth; i++) {
    path +=
      '/' +
      (random() < 0.7 ? pick(random, pieces) : encodeURIComponent(randomString(random, 1 + Math.floor(random() * 12))));
  }
  if (random() < 0.2) path += '?' + randomString(random, 10, 'abc=&%?#/');
  if (random() < 0.05) path += '/' + 'a'.repeat(3000);
  return path;
}

function randomCookie(random: () => number): string {
  const value = pick(random, [
    randomString(random, 50, 'abcdefghijklmnopqrstuvwxyz0123456789.-_%'),
    'eyJhbGciOiJub25lIn0.eyJzdWIiOiJkZW1vLXJlYWRlciJ9.',
    '',
    '"' + randomString(random, 20, 'abc;= ') + '"',
    randomString(random, 200, 'ABCDEFGHIJKLMNOPQRSTUVWXYZ%2F='),
  ]);
  return pick(random, [
    `__session=${value}`,
    `__session=${value}; __session=x`,
    `${value}`,
    `__Session=${value}`,
    `a=b; __session=${value}`,
  ]);
}

test('a bounded fuzz of session bodies, paths and cookies gets only client errors, and nothing leaks', async ({
  baseURL,
}) => {
  test.setTimeout(full ? 10 * 60_000 : 2 * 60_000);
  const base = String(baseURL);
  const random = prng(seed);
  const cases = full ? 3000 : 400;
  const failures: string[] = [];
  const counts = { body: 0, path: 0, cookie: 0 };
  const check = (what: string, response: RawResponse, allowed: number[]): void => {
    if (response.status >= 500 || !allowed.includes(response.status)) failures.push(`${response.status} ${what}`);
    if (response.body.includes(PRIVATE_TEXT)) failures.push(`leak ${what}`);
  };
  for (let i = 0; i < cases; i++) {
    const kind = pick(random, ['body', 'path', 'cookie'] as const);
    counts[kind] += 1;
    if (kind === 'body') {
      const { body, type } = sessionBody(random);
      const response = await rawRequest(base, {
        method: 'POST',
        path: '/api/session',
        headers: { origin: base, ...(type ? { 'content-type': type } : {}) },
        body,
      });
      check(`body #${i} (${type})`, response, [400, 401, 403, 413, 415]);
    } else if (kind === 'path') {
      const path = randomPath(random);
      const response = await rawRequest(base, { path });
      check(`path #${i} ${path.slice(0, 120)}`, response, [200, 302, 400, 401, 404, 405, 414, 431]);
    } else {
      const value = randomCookie(random);
      const response = await rawRequest(base, { path: '/docs/layout-engine/', headers: { cookie: value } });
      check(`cookie #${i}`, response, [302, 400, 431]);
    }
  }
  const health = await rawRequest(base, { path: '/healthz' });
  expect(health.status).toBe(200);
  recordFigure('fuzz', { seed, cases, ...counts, failures: failures.length });
  console.log(`fuzz: ${cases} cases (seed ${seed}: ${JSON.stringify(counts)}), ${failures.length} failures`);
  expect(failures).toEqual([]);
});
