// `npm test`: every tier, in the order that keeps two cores busy. Lint and the type check are
// single-threaded, so the site build the browser tests need runs beside them; the tier that
// reaches the public registry mostly waits on the network, so it runs beside the unit tests.
// The server is built first, alone: the type check and the build both compile the packages.
// Each tier's time is printed at the end.
//
//   node scripts/test.mjs        (npm test)
import { spawn } from 'node:child_process';

/** Tiers run one group after the other; the tiers of a group side by side. */
const GROUPS = [
  [['server build', 'npm', 'run', 'build', '--workspace', 'server']],
  [
    ['lint', 'npm', 'run', 'lint'],
    ['typecheck', 'npm', 'run', 'typecheck'],
    ['site build', 'node', 'scripts/build-if-stale.mjs'],
  ],
  [
    ['unit', 'npm', 'run', 'test:unit'],
    ['public registry', 'npm', 'run', 'test:public-registry'],
  ],
  [['build', 'npm', 'run', 'test:build']],
  [['browser', 'npm', 'run', 'test:e2e']],
];

/**
 * Runs one tier. Alone, its output goes straight to the terminal; beside others, it is kept
 * and printed whole when the tier ends, so the tiers' lines never interleave.
 */
function run([name, command, ...args], alone) {
  const started = Date.now();
  return new Promise((resolve) => {
    const child = spawn(command, args, { stdio: alone ? 'inherit' : ['ignore', 'pipe', 'pipe'] });
    const chunks = [];
    child.stdout?.on('data', (chunk) => chunks.push(chunk));
    child.stderr?.on('data', (chunk) => chunks.push(chunk));
    child.on('error', (error) => chunks.push(Buffer.from(`${error.message}\n`)));
    child.on('close', (code) => {
      const seconds = Math.round((Date.now() - started) / 1000);
      if (!alone) process.stdout.write(`\n── ${name} (${seconds} s) ──\n${Buffer.concat(chunks).toString()}`);
      resolve({ name, code, seconds });
    });
  });
}

const times = [];
const total = Date.now();
let failed = null;
for (const group of GROUPS) {
  const results = await Promise.all(group.map((tier) => run(tier, group.length === 1)));
  times.push(...results);
  failed = results.find((result) => result.code !== 0) ?? null;
  if (failed) break;
}
console.log(
  `\nTiers: ${times.map(({ name, seconds }) => `${name} ${seconds} s`).join(', ')}; in all ${Math.round((Date.now() - total) / 1000)} s.`,
);
if (failed) {
  console.error(`The ${failed.name} tier failed (exit code ${failed.code}); its output is above.`);
  process.exit(1);
}
