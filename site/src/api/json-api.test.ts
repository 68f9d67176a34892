import { afterEach, describe, expect, it, vi } from 'vitest';

import { ApiError, jsonRequest, messageOf, serverReason } from './json-api';

interface Sent {
  url: string;
  init: RequestInit;
}

/** Stands in for the portal: records what was sent and answers with `respond`. */
function portal(respond: () => Response | Promise<Response>): Sent[] {
  const sent: Sent[] = [];
  vi.stubGlobal('fetch', async (url: string, init: RequestInit) => {
    sent.push({ url, init });
    return respond();
  });
  return sent;
}

const json = (status: number, body: unknown): Response =>
  new Response(JSON.stringify(body), { status, headers: { 'Content-Type': 'application/json' } });

const words = (status: number, body: unknown): string => `failed ${status} ${JSON.stringify(body)}`;

afterEach(() => vi.unstubAllGlobals());

describe('jsonRequest', () => {
  it('asks with the session cookie, past the HTTP cache, for JSON', async () => {
    const sent = portal(() => json(200, { ok: true }));
    await expect(jsonRequest('GET', '/api/tokens', undefined, words)).resolves.toEqual({ ok: true });
    expect(sent).toHaveLength(1);
    expect(sent[0]?.url).toBe('/api/tokens');
    expect(sent[0]?.init).toMatchObject({ method: 'GET', credentials: 'same-origin', cache: 'no-store' });
    expect(sent[0]?.init.headers).toEqual({ Accept: 'application/json' });
    expect(sent[0]?.init.body).toBeUndefined();
  });

  it('sends a body as JSON, and says so', async () => {
    const sent = portal(() => json(201, { id: 't1' }));
    await jsonRequest('POST', '/api/tokens', { name: 'laptop', days: 30 }, words);
    expect(sent[0]?.init.headers).toEqual({ Accept: 'application/json', 'Content-Type': 'application/json' });
    expect(JSON.parse(String(sent[0]?.init.body))).toEqual({ name: 'laptop', days: 30 });
  });

  it('answers nothing for 204 No Content, without reading a body', async () => {
    portal(() => new Response(null, { status: 204 }));
    await expect(jsonRequest('DELETE', '/api/tokens/t1', undefined, words)).resolves.toBeUndefined();
  });

  it('fails with the caller’s words for the status and the parsed error body', async () => {
    portal(() => json(409, { error: 'already invited' }));
    const failure = await jsonRequest('POST', '/api/admin/invitations', {}, words).catch((caught: unknown) => caught);
    expect(failure).toBeInstanceOf(ApiError);
    expect(failure).toMatchObject({ status: 409, message: 'failed 409 {"error":"already invited"}' });
  });

  it('hands the caller null for an error body that is not JSON', async () => {
    portal(() => new Response('<html>Bad gateway</html>', { status: 502, headers: { 'Content-Type': 'text/html' } }));
    await expect(jsonRequest('GET', '/api/admin/readers', undefined, words)).rejects.toMatchObject({
      status: 502,
      message: 'failed 502 null',
    });
  });

  it('says the portal could not be reached when the request never got an answer', async () => {
    portal(() => Promise.reject(new TypeError('Failed to fetch')));
    await expect(jsonRequest('GET', '/api/tokens', undefined, words)).rejects.toMatchObject({
      name: 'ApiError',
      status: 0,
      message: 'Could not reach the portal. Check your connection and try again.',
    });
  });
});

describe('serverReason', () => {
  it('takes the string in `error`', () => {
    expect(serverReason({ error: 'the e-mail is not valid' })).toBe('the e-mail is not valid');
  });

  it.each([null, 'error', { error: 42 }, { message: 'x' }, []])('finds no reason in %j', (body) => {
    expect(serverReason(body)).toBeNull();
  });
});

describe('messageOf', () => {
  it('shows an API error’s own words and anything else as the fallback', () => {
    expect(messageOf(new ApiError('Your session has ended.', 401), 'fallback')).toBe('Your session has ended.');
    expect(messageOf(new Error('TypeError: x is undefined'), 'Could not load.')).toBe('Could not load.');
    expect(messageOf('thrown text', 'Could not load.')).toBe('Could not load.');
  });
});
