import { vi } from 'vitest';

/** A call the site made to its API, as a stubbed `fetch` saw it. */
export interface RecordedCall {
  method: string;
  url: string;
  body: unknown;
}

/** For unit tests: stands in for the gate's JSON API, records each call and answers with `status` and `body`. */
export function stubApi(status = 200, body: unknown = {}): RecordedCall[] {
  const calls: RecordedCall[] = [];
  vi.stubGlobal('fetch', async (url: string, init: RequestInit) => {
    calls.push({
      method: String(init.method),
      url,
      body: init.body === undefined ? undefined : JSON.parse(String(init.body)),
    });
    return status === 204
      ? new Response(null, { status })
      : new Response(JSON.stringify(body), { status, headers: { 'Content-Type': 'application/json' } });
  });
  return calls;
}
