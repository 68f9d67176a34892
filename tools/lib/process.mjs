// One way to start, wait for and stop the processes that `npm start`, the tests, the
// benchmark and `test:deploy` run beside them (the emulator, the gate, nginx, Redis, …).
import { spawn } from 'node:child_process';

/** Children still running, each with the signal to send it if this process exits first. */
const live = new Map();
let exitHookInstalled = false;

function signalChild(child, signal, group) {
  try {
    if (group) process.kill(-child.pid, signal);
    else child.kill(signal);
  } catch {
    // already gone
  }
}

/** Never leave a child behind, however this process ends (a crash, process.exit, a signal handled elsewhere). */
function installExitHook() {
  if (exitHookInstalled) return;
  exitHookInstalled = true;
  process.on('exit', () => {
    for (const [child, { signal, group }] of live) signalChild(child, signal, group);
  });
}

export const hasExited = (child) => child.exitCode !== null || child.signalCode !== null;
export const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * Starts `command` and returns a handle: `output()` (the tail of what it printed, for the
 * streams given as 'collect'), `exited` (its exit code, or null if a signal ended it),
 * `waitUntil(check)` and `stop()`.
 */
export function startProcess(
  command,
  args,
  {
    name = command,
    cwd,
    env,
    stdout = 'ignore',
    stderr = 'inherit',
    echo = false,
    group = false,
    stopSignal = 'SIGTERM',
    killAfterMs,
    onExitSignal = 'SIGKILL',
    keepChars = 64_000,
  } = {},
) {
  const child = spawn(command, args, {
    cwd,
    env: env && { ...process.env, ...env },
    stdio: ['ignore', stdout === 'collect' ? 'pipe' : stdout, stderr === 'collect' ? 'pipe' : stderr],
    // A process group of its own: a terminal's Ctrl-C does not reach it, and stop() ends everything it started.
    detached: group,
  });
  let output = '';
  const collect = (chunk) => {
    output = (output + chunk).slice(-keepChars);
    if (echo) process.stderr.write(chunk);
  };
  child.stdout?.on('data', collect);
  child.stderr?.on('data', collect);
  installExitHook();
  live.set(child, { signal: onExitSignal, group });
  const exited = new Promise((resolve) => {
    child.once('exit', (code) => {
      live.delete(child);
      resolve(code);
    });
    child.once('error', (error) => {
      live.delete(child);
      collect(`${error.message}\n`);
      resolve(null);
    });
  });

  let stopping;
  const handle = {
    name,
    child,
    pid: child.pid,
    exited,
    output: () => output,
    running: () => !hasExited(child) && live.has(child),
    signal: (signal) => signalChild(child, signal, group),
    /** Polls `check` until it returns true; throws if the process exits first or the time runs out. */
    waitUntil: (check, options = {}) => waitUntil(check, { ...options, process: handle }),
    /** Sends the stop signal (to the whole group if it has one) and resolves once it has exited. */
    stop: (signal = stopSignal) => {
      stopping ??= (async () => {
        if (!handle.running()) return;
        signalChild(child, signal, group);
        const timer = killAfterMs && setTimeout(() => signalChild(child, 'SIGKILL', group), killAfterMs).unref();
        await exited;
        if (timer) clearTimeout(timer);
      })();
      return stopping;
    },
  };
  return handle;
}

/**
 * Polls `check` (every `intervalMs`) until it resolves to true. A check that throws counts
 * as "not yet". Throws, with what the process printed, when `process` exits first or after `timeoutMs`.
 */
export async function waitUntil(check, { process: watched, what, timeoutMs = 60_000, intervalMs = 100 } = {}) {
  const name = what ?? watched?.name ?? 'The process';
  const printed = () => (watched?.output() ? `:\n${watched.output().slice(-8000)}` : '');
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    if (watched && !watched.running()) {
      throw new Error(
        `${name} exited (code ${watched.child.exitCode ?? watched.child.signalCode}) before it was ready${printed()}`,
      );
    }
    try {
      if (await check()) return;
    } catch {
      // not answering yet
    }
    if (Date.now() >= deadline) throw new Error(`${name} was not ready within ${timeoutMs / 1000} s${printed()}`);
    await sleep(intervalMs);
  }
}

/** A check for waitUntil: `url` answers, and `accept` (by default: a 2xx status) likes the answer. */
export const answers =
  (url, accept = (response) => response.ok) =>
  async () => {
    const response = await fetch(url, { redirect: 'manual' });
    try {
      return await accept(response);
    } finally {
      if (!response.bodyUsed) await response.body?.cancel();
    }
  };
