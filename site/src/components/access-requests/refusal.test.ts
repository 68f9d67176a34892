import { describe, expect, it } from 'vitest';

import { askedPath, REFUSAL_SCRIPT, REFUSAL_PATH } from './refusal';

describe('the refusal page', () => {
  it('takes the asked address from the page script first, then from ?from=', () => {
    expect(askedPath('', '/docs/layout-engine/?tab=web#events')).toBe('/docs/layout-engine/?tab=web#events');
    expect(askedPath('?from=%2Fdocs%2Flayout-engine%2F', undefined)).toBe('/docs/layout-engine/');
    expect(askedPath('', undefined)).toBeNull();
  });

  it('never takes another site or a relative address', () => {
    expect(askedPath('?from=https%3A%2F%2Fevil.example%2F', undefined)).toBeNull();
    expect(askedPath('?from=%2F%2Fevil.example%2F', undefined)).toBeNull();
    expect(askedPath('?from=docs', undefined)).toBeNull();
  });

  it("moves the address to the refusal page's own once, and leaves that page itself alone", () => {
    const run = (pathname: string, kept?: string) => {
      const replaced: string[] = [];
      const window: { __portalRefused?: string } = kept === undefined ? {} : { __portalRefused: kept };
      const history = { state: null, replaceState: (_s: unknown, _t: string, url: string) => replaced.push(url) };
      const location = { pathname, search: '?a=1', hash: '#h' };
      new Function('window', 'history', 'location', REFUSAL_SCRIPT)(window, history, location);
      return { replaced, kept: window.__portalRefused };
    };
    expect(run('/docs/layout-engine/')).toEqual({
      replaced: [`${REFUSAL_PATH}?from=${encodeURIComponent('/docs/layout-engine/?a=1#h')}`],
      kept: '/docs/layout-engine/?a=1#h',
    });
    expect(run(`${REFUSAL_PATH}/`)).toEqual({ replaced: [], kept: undefined });
    expect(run('/docs/layout-engine/', '/docs/other/')).toEqual({ replaced: [], kept: '/docs/other/' });
  });
});
