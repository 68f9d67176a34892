import { describe, expect, it } from 'vitest';

import { DEFAULT_SITE_URL, siteUrlFrom } from './site-url';

describe('siteUrlFrom', () => {
  it('is the development address when nothing is set', () => {
    expect(siteUrlFrom({})).toBe(DEFAULT_SITE_URL);
  });

  it('reads SITE_URL first, then the gate server’s PUBLIC_URL', () => {
    expect(siteUrlFrom({ SITE_URL: 'https://docs.example.com', PUBLIC_URL: 'https://other.example' })).toBe(
      'https://docs.example.com',
    );
    expect(siteUrlFrom({ PUBLIC_URL: 'https://developers.norigin.example/' })).toBe(
      'https://developers.norigin.example',
    );
  });

  it('names the setting and the expected form when the value is not an origin', () => {
    expect(() => siteUrlFrom({ SITE_URL: 'docs.example.com' })).toThrow(/SITE_URL must be an absolute URL/);
    expect(() => siteUrlFrom({ SITE_URL: 'https://docs.example.com/portal' })).toThrow(/SITE_URL must be an origin/);
    expect(() => siteUrlFrom({ PUBLIC_URL: 'ftp://docs.example.com' })).toThrow(/PUBLIC_URL must be an origin/);
  });
});
