import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

import ts from 'typescript';
import { afterAll, describe, expect, it } from 'vitest';

const dir = mkdtempSync(join(tmpdir(), 'portal-warm-ticks-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/**
 * Runs warm-ticks.ts as the gate runs it, first thing in a fresh Node.js process, then
 * `body` (a module that may use V8's natives syntax and `gc`); returns what it printed.
 */
function inFreshProcess(body: string): unknown {
  const source = readFileSync(fileURLToPath(new URL('./warm-ticks.ts', import.meta.url)), 'utf8');
  const { outputText } = ts.transpileModule(source, {
    compilerOptions: { module: ts.ModuleKind.ESNext, target: ts.ScriptTarget.ES2022 },
  });
  writeFileSync(join(dir, 'warm-ticks.mjs'), outputText);
  writeFileSync(join(dir, 'check.mjs'), `import { keptTicks } from './warm-ticks.mjs';\n${body}`);
  const run = spawnSync(process.execPath, ['--allow-natives-syntax', '--expose-gc', join(dir, 'check.mjs')], {
    encoding: 'utf8',
    timeout: 15_000,
  });
  if (run.status !== 0) throw new Error(`the check exited with ${run.status}:\n${run.stderr}`);
  return JSON.parse(run.stdout);
}

describe('warm-ticks', () => {
  it('keeps tick objects of every argument list alive, with the map a tick made after full collections has', () => {
    const result = inFreshProcess(`
      import { createHook } from 'node:async_hooks';
      // Let the warm-up's queued ticks run, then collect as V8's memory reducer does when idle.
      await new Promise((resolve) => setImmediate(resolve));
      for (let i = 0; i < 4; i++) gc();
      const fresh = [];
      const hook = createHook({ init(_id, type, _trigger, resource) { if (type === 'TickObject') fresh.push(resource); } }).enable();
      process.nextTick(() => undefined);
      process.nextTick(() => undefined, 1, 2, 3);
      hook.disable();
      const asyncIdKey = (tick) => Object.getOwnPropertySymbols(tick).map((s) => s.description);
      console.log(JSON.stringify({
        kept: keptTicks.length,
        keys: keptTicks.map((tick) => [...asyncIdKey(tick), ...Object.keys(tick)].join(' ')),
        args: keptTicks.map((tick) => tick.args?.length ?? 0),
        sameMap: fresh.map((tick) => keptTicks.every((kept) => %HaveSameMap(tick, kept))),
      }));
    `);
    expect(result).toEqual({
      kept: 4,
      keys: Array(4).fill('async_id_symbol trigger_async_id_symbol callback args'),
      args: [0, 1, 2, 3],
      sameMap: [true, true],
    });
  });
});
