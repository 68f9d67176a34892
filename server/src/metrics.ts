import { Counter, Gauge, Registry, collectDefaultMetrics } from 'prom-client';

/** The upper bounds (seconds) of `portal_http_request_duration_seconds`. */
export const LATENCY_BUCKETS = [0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5] as const;

const LATENCY_NAME = 'portal_http_request_duration_seconds';

function add(table: Float64Array, index: number, value: number): void {
  table[index] = (table[index] as number) + value;
}

/**
 * Answered requests and their latency, counted in plain arrays on the request path and read
 * by prom-client at each scrape. prom-client's own `inc()` and `observe()` check and hash
 * their labels on every call, label-bound children included; on the hot path (fast-path.ts)
 * that cost several per cent of its requests per second. A request is counted in a slot,
 * one per access class and status, found once: `slot()` ahead of time, `count()` per request.
 */
export class RequestTally {
  private readonly slots = new Map<string, number>();
  private readonly slotLabels: { class: string; status: string }[] = [];
  private readonly counts: number[] = [];
  /** Per slot: where its class's row of the latency table starts. */
  private readonly rows: number[] = [];
  /** Access class → where its row of the latency table starts. */
  private readonly classes = new Map<string, number>();
  private readonly classNames: string[] = [];
  /** Per access class: a count per bucket (not cumulative), then the +Inf overflow, the sum and the count. */
  private latency = new Float64Array(0);
  private static readonly WIDTH = LATENCY_BUCKETS.length + 3;

  /** The slot of an access class and status, made on first use. */
  slot(access: string, status: number): number {
    const key = `${access} ${status}`;
    let slot = this.slots.get(key);
    if (slot === undefined) {
      let row = this.classes.get(access);
      if (row === undefined) {
        row = (this.classNames.push(access) - 1) * RequestTally.WIDTH;
        this.classes.set(access, row);
        const grown = new Float64Array(this.classNames.length * RequestTally.WIDTH);
        grown.set(this.latency);
        this.latency = grown;
      }
      slot = this.counts.push(0) - 1;
      this.rows.push(row);
      this.slots.set(key, slot);
      this.slotLabels.push({ class: access, status: String(status) });
    }
    return slot;
  }

  /** One answered request of a slot, and its time in seconds. */
  count(slot: number, seconds: number): void {
    this.counts[slot] = (this.counts[slot] as number) + 1;
    const row = this.rows[slot] as number;
    let b = 0;
    while (b < LATENCY_BUCKETS.length && seconds > (LATENCY_BUCKETS[b] as number)) b++;
    add(this.latency, row + b, 1);
    add(this.latency, row + LATENCY_BUCKETS.length + 1, seconds);
    add(this.latency, row + LATENCY_BUCKETS.length + 2, 1);
  }

  /** Every slot with its labels and count so far. */
  totals(): { labels: { class: string; status: string }; count: number }[] {
    return this.slotLabels.map((labels, slot) => ({ labels, count: this.counts[slot] as number }));
  }

  /**
   * The latency histogram as a prom-client metric (what its Histogram's `get()` gives):
   * cumulative buckets, +Inf, sum and count per access class.
   */
  latencyMetric(help: string) {
    return {
      name: LATENCY_NAME,
      help,
      type: 'histogram' as const,
      aggregator: 'sum' as const,
      // Registry.resetMetrics() calls this on every metric.
      reset: () => this.latency.fill(0),
      get: () => {
        const values: { labels: Record<string, string | number>; value: number; metricName: string }[] = [];
        this.classNames.forEach((access, index) => {
          const row = index * RequestTally.WIDTH;
          let cumulative = 0;
          LATENCY_BUCKETS.forEach((le, b) => {
            cumulative += this.latency[row + b] as number;
            values.push({ labels: { le, class: access }, value: cumulative, metricName: `${LATENCY_NAME}_bucket` });
          });
          const count = this.latency[row + LATENCY_BUCKETS.length + 2] as number;
          values.push(
            { labels: { le: '+Inf', class: access }, value: count, metricName: `${LATENCY_NAME}_bucket` },
            {
              labels: { class: access },
              value: this.latency[row + LATENCY_BUCKETS.length + 1] as number,
              metricName: `${LATENCY_NAME}_sum`,
            },
            { labels: { class: access }, value: count, metricName: `${LATENCY_NAME}_count` },
          );
        });
        return Promise.resolve({ name: LATENCY_NAME, help, type: 'histogram', values, aggregator: 'sum' });
      },
    };
  }
}

/**
 * The gate's Prometheus metrics (`GET /metrics`): requests by access class and status,
 * latency, the session cache, the identity service, the database, Redis and the audit
 * queue. One registry per app, so test servers in one process never share counters.
 */
export class Metrics {
  readonly registry = new Registry();
  readonly requests: Counter<'class' | 'status'>;
  readonly sessionChecks: Counter<'result'>;
  readonly identityCalls: Counter<'outcome'>;
  /** Requests and latency as the request path counts them (RequestTally). */
  readonly tally = new RequestTally();
  /** Session-cache hits and fast-path answers, counted as plain numbers and added at each scrape. */
  readonly hot = { sessionHits: 0, fastPathAnswers: 0 };

  /** Counts an answered request and its time, by access class and status. */
  observeRequest(access: string, status: number, seconds: number): void {
    this.tally.count(this.tally.slot(access, status), seconds);
  }

  constructor(sources: {
    store: () => { audit: { queued: number; dropped: number; failedWrites: number }; ready: boolean };
    redisErrors: () => number;
  }) {
    collectDefaultMetrics({ register: this.registry, prefix: 'portal_' });
    const tally = this.tally;
    const reported = new Map<string, number>();
    this.requests = new Counter({
      name: 'portal_http_requests_total',
      help: 'Requests answered, by access class (public, private, api, other) and status',
      labelNames: ['class', 'status'],
      registers: [this.registry],
      collect() {
        for (const { labels, count } of tally.totals()) {
          const key = `${labels.class} ${labels.status}`;
          const delta = count - (reported.get(key) ?? 0);
          if (delta > 0) this.inc(labels, delta);
          reported.set(key, count);
        }
      },
    });
    this.registry.registerMetric(
      tally.latencyMetric('Time to answer a request, by access class') as unknown as Parameters<
        Registry['registerMetric']
      >[0],
    );
    let hitsReported = 0;
    const hot = this.hot;
    this.sessionChecks = new Counter({
      name: 'portal_session_checks_total',
      help: 'Session checks: answered from the verification cache (hit) or by asking the identity service (miss)',
      labelNames: ['result'],
      registers: [this.registry],
      collect() {
        if (hot.sessionHits > hitsReported) this.inc({ result: 'hit' }, hot.sessionHits - hitsReported);
        hitsReported = hot.sessionHits;
      },
    });
    this.identityCalls = new Counter({
      name: 'portal_identity_calls_total',
      help: 'Verifications that asked the identity service, by outcome (ok, refused, error)',
      labelNames: ['outcome'],
      registers: [this.registry],
    });
    let fastReported = 0;
    new Counter({
      name: 'portal_http_fast_path_requests_total',
      help: 'Requests answered by the hot path ahead of Fastify (a file, public or read with a cached session)',
      registers: [this.registry],
      collect() {
        this.inc(hot.fastPathAnswers - fastReported);
        fastReported = hot.fastPathAnswers;
      },
    });
    const registers = [this.registry];
    new Gauge({
      name: 'portal_audit_queue_events',
      help: 'Audit events waiting to be written',
      registers,
      collect() {
        this.set(sources.store().audit.queued);
      },
    });
    new Gauge({
      name: 'portal_audit_dropped_events_total',
      help: 'Audit events dropped because the database could not be reached and the queue was full',
      registers,
      collect() {
        this.set(sources.store().audit.dropped);
      },
    });
    new Gauge({
      name: 'portal_database_errors_total',
      help: 'Failed writes of audit events to the database',
      registers,
      collect() {
        this.set(sources.store().audit.failedWrites);
      },
    });
    new Gauge({
      name: 'portal_database_ready',
      help: '1 when the database schema is ready',
      registers,
      collect() {
        this.set(sources.store().ready ? 1 : 0);
      },
    });
    new Gauge({
      name: 'portal_redis_errors_total',
      help: 'Errors talking to Redis',
      registers,
      collect() {
        this.set(sources.redisErrors());
      },
    });
  }
}
