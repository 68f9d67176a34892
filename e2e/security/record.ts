import { mkdirSync, writeFileSync } from 'node:fs';

import { full } from './lib';

/**
 * Keeps a figure the suite measured, for docs/security.md: `e2e/security/results/<name>.json`,
 * with the form (bounded or full) and the time. One file per figure, so parallel workers
 * never overwrite each other.
 */
export function recordFigure(name: string, value: Record<string, unknown>): void {
  mkdirSync(new URL('./results/', import.meta.url), { recursive: true });
  const record = { ...value, form: full ? 'full' : 'bounded', measuredAt: new Date().toISOString() };
  writeFileSync(new URL(`./results/${name}.json`, import.meta.url), JSON.stringify(record, null, 2) + '\n');
}
