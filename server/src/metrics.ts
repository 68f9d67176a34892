import { Counter, Gauge, Registry, collectDefaultMetrics } from 'prom-client';

/**
 * What a request was for, the `surface` label of the request metrics: a file of the site
 * (a page, its Markdown, an llms.txt fragment, any other asset), or an API the gate answers.
 */
export type Surface =
  | 'page'
  | 'markdown'
  | 'llms'
  | 'asset'
  | 'search'
  | 'mcp'
  | 'session'
  | 'admin'
  | 'tokens'
  | 'feedback'
  | 'operations'
  | 'other';

/** Whether the answer was a public or a private file of the site, or no file at all (an API). */
export type Access = 'public' | 'private' | 'none';

/** The surface of a file of the site, by its kind, type and place. */
export function surfaceOfFile(file: { url: string; kind: 'page' | 'file'; contentType: string }): Surface {
  if (file.url.startsWith('/llms/')) return 'llms';
  if (file.contentType.startsWith('text/markdown')) return 'markdown';
  return file.kind === 'page' ? 'page' : 'asset';
}

/** Route patterns (Fastify's `routeOptions.url`) by the surface they serve; the first match counts. */
const ROUTE_SURFACES: readonly [prefix: string, surface: Surface][] = [
  ['/api/admin/', 'admin'],
  ['/api/openapi', 'admin'],
  ['/api/session', 'session'],
  ['/api/logout', 'session'],
  ['/api/auth-config', 'session'],
  ['/api/sign-in-options', 'session'],
  ['/scim/', 'admin'],
  ['/api/search', 'search'],
  ['/api/tokens', 'tokens'],
  ['/api/feedback', 'feedback'],
  ['/mcp', 'mcp'],
  ['/.well-known/oauth', 'mcp'],
  ['/llms', 'llms'],
  ['/healthz', 'operations'],
  ['/readyz', 'operations'],
  ['/metrics', 'operations'],
];

/** The surface of a route the gate answers itself (not a file): by its pattern; `other` when none matches. */
export function surfaceOfRoute(pattern: string | undefined): Surface {
  if (pattern === undefined) return 'other';
  for (const [prefix, surface] of ROUTE_SURFACES) if (pattern.startsWith(prefix)) return surface;
  return 'other';
}

/** The upper bounds (seconds) of `portal_http_request_duration_seconds`. */
export const LATENCY_BUCKETS = [0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5] as const;

const LATENCY_NAME = 'portal_http_request_duration_seconds';

function add(table: Float64Array, index: number, value: number): void {
  table[index] = (table[index] as number) + value;
}

/** The labels of `portal_http_requests_total`. */
export interface RequestLabels {
  surface: Surface;
  access: Access;
  status: string;
}

/**
 * Answered requests and their latency, counted in plain arrays on the request path and read
 * by prom-client at each scrape. prom-client's own `inc()` and `observe()` check and hash
 * their labels on every call, label-bound children included; on the hot path (fast-path.ts)
 * that cost several per cent of its requests per second. A request is counted in a slot,
 * one per surface, access and status, found once: `slot()` ahead of time, `count()` per request.
 */
export class RequestTally {
  private readonly slots = new Map<string, number>();
  private readonly slotLabels: RequestLabels[] = [];
  private readonly counts: number[] = [];
  /** Per slot: where its surface and access's row of the latency table starts. */
  private readonly rows: number[] = [];
  /** Surface and access → where their row of the latency table starts. */
  private readonly rowsByLabels = new Map<string, number>();
  private readonly classLabels: { surface: Surface; access: Access }[] = [];
  /** Per surface and access: a count per bucket (not cumulative), then the +Inf overflow, the sum and the count. */
  private latency = new Float64Array(0);
  private static readonly WIDTH = LATENCY_BUCKETS.length + 3;

  /** The slot of a surface, access and status, made on first use. */
  slot(surface: Surface, access: Access, status: number): number {
    const key = `${surface} ${access} ${status}`;
    let slot = this.slots.get(key);
    if (slot === undefined) {
      const rowKey = `${surface} ${access}`;
      let row = this.rowsByLabels.get(rowKey);
      if (row === undefined) {
        row = (this.classLabels.push({ surface, access }) - 1) * RequestTally.WIDTH;
        this.rowsByLabels.set(rowKey, row);
        const grown = new Float64Array(this.classLabels.length * RequestTally.WIDTH);
        grown.set(this.latency);
        this.latency = grown;
      }
      slot = this.counts.push(0) - 1;
      this.rows.push(row);
      this.slots.set(key, slot);
      this.slotLabels.push({ surface, access, status: String(status) });
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
  totals(): { labels: RequestLabels; count: number }[] {
    return this.slotLabels.map((labels, slot) => ({ labels, count: this.counts[slot] as number }));
  }

  /**
   * The latency histogram as a prom-client metric (what its Histogram's `get()` gives):
   * cumulative buckets, +Inf, sum and count per surface and access.
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
        this.classLabels.forEach(({ surface, access }, index) => {
          const row = index * RequestTally.WIDTH;
          let cumulative = 0;
          LATENCY_BUCKETS.forEach((le, b) => {
            cumulative += this.latency[row + b] as number;
            values.push({ labels: { le, surface, access }, value: cumulative, metricName: `${LATENCY_NAME}_bucket` });
          });
          const count = this.latency[row + LATENCY_BUCKETS.length + 2] as number;
          values.push(
            { labels: { le: '+Inf', surface, access }, value: count, metricName: `${LATENCY_NAME}_bucket` },
            {
              labels: { surface, access },
              value: this.latency[row + LATENCY_BUCKETS.length + 1] as number,
              metricName: `${LATENCY_NAME}_sum`,
            },
            { labels: { surface, access }, value: count, metricName: `${LATENCY_NAME}_count` },
          );
        });
        return Promise.resolve({ name: LATENCY_NAME, help, type: 'histogram', values, aggregator: 'sum' });
      },
    };
  }
}

/**
 * A Counter for a running total that another part keeps (the audit recorder's dropped
 * events, Redis errors): each scrape adds what the total grew by since the last one. The
 * count stays where each event is known, and Prometheus gets a counter's type, so `rate()`
 * and `increase()` apply. A total that falls (its owner was remade) is taken as the new base.
 */
function runningTotal(name: string, help: string, registry: Registry, read: () => number): Counter {
  let reported = 0;
  return new Counter({
    name,
    help,
    registers: [registry],
    collect() {
      const total = read();
      if (total > reported) this.inc(total - reported);
      reported = total;
    },
  });
}

/**
 * The gate's Prometheus metrics (`GET /metrics`): requests by surface, access and status,
 * latency, the session cache, the identity service, the database, Redis and the audit
 * queue, and Node's default process metrics under their standard names. One registry per
 * app, so test servers in one process never share counters.
 */
export class Metrics {
  readonly registry = new Registry();
  readonly requests: Counter<'surface' | 'access' | 'status'>;
  readonly sessionChecks: Counter<'result'>;
  readonly identityCalls: Counter<'outcome'>;
  /** Requests and latency as the request path counts them (RequestTally). */
  readonly tally = new RequestTally();
  /** Session-cache hits and fast-path answers, counted as plain numbers and added at each scrape. */
  readonly hot = { sessionHits: 0, fastPathAnswers: 0 };

  /** Counts an answered request and its time, by surface, access and status. */
  observeRequest(surface: Surface, access: Access, status: number, seconds: number): void {
    this.tally.count(this.tally.slot(surface, access, status), seconds);
  }

  constructor(sources: {
    store: () => { audit: { queued: number; dropped: number; failedWrites: number }; ready: boolean };
    redisErrors: () => number;
  }) {
    // Standard names (process_cpu_seconds_total, nodejs_heap_size_used_bytes, …), so the
    // dashboards and alerts written for any Node service apply unchanged.
    collectDefaultMetrics({ register: this.registry });
    const tally = this.tally;
    const reported = new Map<string, number>();
    this.requests = new Counter({
      name: 'portal_http_requests_total',
      help: 'Requests answered, by surface (page, markdown, llms, asset, search, mcp, session, admin, tokens, feedback, operations, other), access (public, private or none) and status',
      labelNames: ['surface', 'access', 'status'],
      registers: [this.registry],
      collect() {
        for (const { labels, count } of tally.totals()) {
          const key = `${labels.surface} ${labels.access} ${labels.status}`;
          const delta = count - (reported.get(key) ?? 0);
          if (delta > 0) this.inc({ ...labels }, delta);
          reported.set(key, count);
        }
      },
    });
    this.registry.registerMetric(
      tally.latencyMetric('Time to answer a request, by surface and access') as unknown as Parameters<
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
    runningTotal(
      'portal_audit_dropped_events_total',
      'Audit events dropped because the database could not be reached and the queue was full',
      this.registry,
      () => sources.store().audit.dropped,
    );
    runningTotal(
      'portal_database_errors_total',
      'Failed writes of audit events to the database',
      this.registry,
      () => sources.store().audit.failedWrites,
    );
    new Gauge({
      name: 'portal_database_ready',
      help: '1 when the database schema is ready',
      registers,
      collect() {
        this.set(sources.store().ready ? 1 : 0);
      },
    });
    runningTotal('portal_redis_errors_total', 'Errors talking to Redis', this.registry, () => sources.redisErrors());
  }
}
