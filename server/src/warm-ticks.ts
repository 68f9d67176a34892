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
 * 21 to 27 ms at start-up (10,000 ticks). The bench's gate figures are its test: a
 * unit test could only read V8's private feedback, which changes with every V8.
 */
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
