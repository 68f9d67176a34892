import * as pagefind from 'pagefind';
import { beforeAll, describe, expect, it } from 'vitest';

import { EXCERPT_VERSION, fastBuildExcerpt, pagefindBuildExcerpt, withFastExcerpts } from './pagefind-excerpt.js';

type BuildExcerpt = ReturnType<typeof fastBuildExcerpt>;

/** The scripts the installed Pagefind writes for a bundle, by name. */
const scripts = new Map<string, string>();

beforeAll(async () => {
  const { index } = await pagefind.createIndex({ forceLanguage: 'en' });
  if (!index) throw new Error('Pagefind did not start');
  try {
    await index.addHTMLFile({ url: '/docs/a/', content: '<html lang="en"><body><h1>Rails</h1></body></html>' });
    for (const file of (await index.getFiles()).files)
      if (/^pagefind(-worker)?\.js$/.test(file.path))
        scripts.set(file.path, Buffer.from(file.content).toString('utf8'));
  } finally {
    await pagefind.close();
  }
}, 60_000);

/** A small deterministic generator (mulberry32), so a failure names a case that can be run again. */
function random(seed: number): () => number {
  let state = seed;
  return () => {
    state = (state + 0x6d2b79f5) | 0;
    let t = Math.imul(state ^ (state >>> 15), 1 | state);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const WORDS = ['useFocusable', 'focus', 'rails', '&lt;Button&gt;', 'x.y.z', 'é', '<mark>kept</mark>', 'setFocus()'];
const SPACES = [' ', ' ', '  ', '\n', '\t', ' \n ', '\r\n'];

function page(next: () => number, words: number): string {
  const pick = <T>(list: readonly T[]): T => list[Math.floor(next() * list.length)] as T;
  if (next() < 0.15) return Array.from({ length: words }, () => pick(WORDS)).join('\u200B');
  const text = Array.from({ length: words }, () => pick(WORDS) + pick(SPACES)).join('');
  return next() < 0.3 ? ` ${text}` : text;
}

describe("the search bundles' excerpt builder", () => {
  it("answers what Pagefind's own answers, call after call, as pages and sub-results alternate", () => {
    // Pagefind's own function, from the worker script it writes (where a browser reads results).
    const source = pagefindBuildExcerpt(scripts.get('pagefind-worker.js') ?? '');
    if (source === null) throw new Error("Pagefind's worker script has no build_excerpt");
    const original = new Function(`${source} return build_excerpt;`)() as BuildExcerpt;
    expect(pagefindBuildExcerpt(scripts.get('pagefind.js') ?? '')).toBe(source);
    const fast = fastBuildExcerpt();
    const next = random(20261128);
    const pages = Array.from({ length: 5 }, (_, i) => page(next, i === 0 ? 0 : Math.floor(next() * 80) + 1));
    const int = (from: number, to: number): number => from + Math.floor(next() * (to - from + 1));
    for (let call = 0; call < 4000; call++) {
      const content = pages[int(0, pages.length - 1)] as string;
      const words = content.split(/[\r\n\s\u200B]+/).length;
      const locations = Array.from({ length: int(0, 12) }, () => int(-2, words + 3));
      const args = [
        content,
        int(-3, words + 3),
        int(0, 30),
        locations,
        next() < 0.5 ? undefined : int(0, words),
        next() < 0.5 ? undefined : int(0, words + 4),
      ] as const;
      expect(fast(...args), `call ${call}: ${JSON.stringify(args)}`).toEqual(original(...args));
    }
  });

  it("replaces Pagefind's own in the scripts Pagefind writes, and refuses a script without it", () => {
    expect([...scripts.keys()].sort()).toEqual(['pagefind-worker.js', 'pagefind.js']);
    for (const [name, script] of scripts) {
      const original = pagefindBuildExcerpt(script) ?? '';
      const replaced = withFastExcerpts(script);
      expect(replaced, name).not.toContain(original);
      expect(pagefindBuildExcerpt(replaced), name).toMatch(/^var build_excerpt=\(function fastBuildExcerpt\(\)/);
      expect(replaced.length - script.length, name).toBeLessThan(1500);
      expect(() => withFastExcerpts(replaced), name).toThrow(/Pagefind changed/);
      expect(() => withFastExcerpts(script.replace('not_from??', 'not_from||')), name).toThrow(/Pagefind changed/);
    }
    expect(EXCERPT_VERSION).toMatch(/^[0-9a-f]{16}$/);
  });
});
