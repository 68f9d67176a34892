/**
 * Builds Node's own tick objects (`process.nextTick`) with every kind of callback and
 * argument list, before any other module of the gate runs.
 *
 * Why: a tick object is an object literal with computed keys (its async ids), so V8 builds
 * it through property-definition ICs that learn the object's map as it goes. The gate's
 * start-up calls `nextTick` from many places while those maps still change (which call
 * tips it was not found), and in 11 of 21 starts measured on 2026-11-24 two of those ICs
 * ended megamorphic: from then on every tick object, five or so per request inside
 * Node's HTTP and stream code, was built in V8's runtime with a map migration each, some
 * 2 µs per request for the life of the process (perf: 0.6 to 1.2 % of samples in
 * `Runtime_DefineKeyedOwnPropertyInLiteral` alone). Node's bare `http`
 * peer, which runs nothing before its requests, never showed it. With this warm-up first,
 * 0 of 10 starts did (and 0 of 9 with a tenfold one): the fields reach their final
 * representation and the ICs their final maps while nothing else is running. It costs
 * 21 to 27 ms at start-up (10,000 ticks).
 *
 * And it keeps a few tick objects alive for the life of the process. V8's memory reducer
 * runs full collections once a process falls idle, and with no tick queued nothing holds
 * the tick objects' maps: they were collected, and the next requests built them again
 * from scratch, through the same changes of field representation, until the ICs were
 * megamorphic once more. Measured on 2026-11-25 (the gate and Node's bare `http` side by
 * side under wrk, 4 rounds of 4 s; see docs/performance.md): after 30 s idle the gate used
 * 34.6 µs a private page and answered 0.62 of the peer's requests, against 27.3 µs and
 * 0.80 with no idle time; with the ticks kept, 27.8 µs and 0.77 after the same idle
 * time. `--no-memory-reducer` on the command line did as well (28.0 µs), but would have
 * to be given at every start; set from code it is too late (the reducer is made with the
 * heap).
 * `warm-ticks.test.ts` checks in a child process that the kept ticks share their map with
 * a tick made after forced full collections.
 */
import { createHook } from 'node:async_hooks';

const arrow = (): void => undefined;
function plain(): void {}
const bound = plain.bind(null);
const method = { run(): void {} }.run;
for (let i = 0; i < 2000; i++) {
  process.nextTick(arrow);
  process.nextTick(plain, 1);
  process.nextTick(bound, 1, 2);
  process.nextTick(method, 1, 2, 3);
  process.nextTick(async () => undefined);
}

/**
 * Tick objects made now, after the warm-up, held for the life of the process: they hold
 * the maps the warm-up settled on, so a full collection cannot take them. An async hook's
 * `init` is the one place Node hands out a tick object; it is on for these four ticks only.
 */
export const keptTicks: object[] = [];
const hook = createHook({
  init(_asyncId, type, _triggerAsyncId, resource) {
    if (type === 'TickObject') keptTicks.push(resource);
  },
}).enable();
try {
  process.nextTick(arrow);
  process.nextTick(plain, 1);
  process.nextTick(bound, 1, 2);
  process.nextTick(method, 1, 2, 3);
} finally {
  hook.disable();
}
