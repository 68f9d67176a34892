import { Counter, Gauge, Histogram, Registry, collectDefaultMetrics } from 'prom-client';

/**
 * The gate's Prometheus metrics (`GET /metrics`): requests by access class and status,
 * latency, the session cache, the identity service, the database, Redis and the audit
 * queue. One registry per app, so test servers in one process never share counters.
 */
export class Metrics {
  readonly registry = new Registry();
  readonly requests: Counter<'class' | 'status'>;
  readonly latency: Histogram<'class'>;
  readonly sessionChecks: Counter<'result'>;
  readonly identityCalls: Counter<'outcome'>;
  readonly fastPath: Counter;

  /** Label-bound children, made once per label set: the request path pays no label hashing. */
  private readonly requestChildren = new Map<string, { inc(): void }>();
  private readonly latencyChildren = new Map<string, { observe(value: number): void }>();

  /** Counts an answered request and its time, by access class and status. */
  observeRequest(access: string, status: number, seconds: number): void {
    const key = `${access} ${status}`;
    let counter = this.requestChildren.get(key);
    if (!counter) this.requestChildren.set(key, (counter = this.requests.labels(access, String(status))));
    counter.inc();
    let histogram = this.latencyChildren.get(access);
    if (!histogram) this.latencyChildren.set(access, (histogram = this.latency.labels(access)));
    histogram.observe(seconds);
  }

  constructor(sources: {
    store: () => { audit: { queued: number; dropped: number; failedWrites: number }; ready: boolean };
    redisErrors: () => number;
  }) {
    collectDefaultMetrics({ register: this.registry, prefix: 'portal_' });
    this.requests = new Counter({
      name: 'portal_http_requests_total',
      help: 'Requests answered, by access class (public, private, api, other) and status',
      labelNames: ['class', 'status'],
      registers: [this.registry],
    });
    this.latency = new Histogram({
      name: 'portal_http_request_duration_seconds',
      help: 'Time to answer a request, by access class',
      labelNames: ['class'],
      buckets: [0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5],
      registers: [this.registry],
    });
    this.sessionChecks = new Counter({
      name: 'portal_session_checks_total',
      help: 'Session checks: answered from the verification cache (hit) or by asking the identity service (miss)',
      labelNames: ['result'],
      registers: [this.registry],
    });
    this.identityCalls = new Counter({
      name: 'portal_identity_calls_total',
      help: 'Verifications that asked the identity service, by outcome (ok, refused, error)',
      labelNames: ['outcome'],
      registers: [this.registry],
    });
    this.fastPath = new Counter({
      name: 'portal_http_fast_path_requests_total',
      help: 'Requests answered by the hot path ahead of Fastify (a file, public or read with a cached session)',
      registers: [this.registry],
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
