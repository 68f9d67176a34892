import { existsSync, mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

import { describe, expect, it } from 'vitest';

import { siteSourceHash } from './site-hash.mjs';

const root = fileURLToPath(new URL('..', import.meta.url));

describe('the site build hash', () => {
  // The build writes the public address into every page's canonical link: a build for
  // another address is a stale build (npm start's SITE_URL follows its PORT).
  it('changes with the public address the build names, and not without a change', () => {
    const plain = siteSourceHash(root, {});
    expect(siteSourceHash(root, {})).toBe(plain);
    expect(siteSourceHash(root, { SITE_URL: 'http://localhost:3000' })).toBe(plain);
    expect(siteSourceHash(root, { SITE_URL: 'http://localhost:3411' })).not.toBe(plain);
    expect(siteSourceHash(root, { PUBLIC_URL: 'https://developers.norigin.example' })).not.toBe(plain);
  });

  it("does not change with the declarations the type check writes into a package's dist/", () => {
    const dist = join(root, 'packages', 'access', 'dist');
    const made = !existsSync(dist);
    const probe = join(dist, `site-hash-probe-${process.pid}.d.ts`);
    const before = siteSourceHash(root, {});
    mkdirSync(dist, { recursive: true });
    try {
      writeFileSync(probe, 'export declare const probe: 1;\n');
      expect(siteSourceHash(root, {})).toBe(before);
    } finally {
      rmSync(made ? dist : probe, { recursive: true, force: true });
    }
  });
});
