import { createRequire } from 'node:module';

import type { FastifyRateLimitStore, FastifyRateLimitOptions } from '@fastify/rate-limit';
import type { Redis } from 'ioredis';

type Callback = (error: Error | null, result: { current: number; ttl: number } | null) => void;
interface Store {
  incr(key: string, callback: Callback, timeWindow: number, max: number): void;
  read(key: string, callback: Callback, timeWindow: number, max: number): void;
  child(options: RouteOptions): Store;
}
interface RouteOptions {
  continueExceeding: boolean;
  exponentialBackoff: boolean;
  routeInfo: { method: string; url: string };
}
type StoreClass = new (...args: unknown[]) => Store;

// @fastify/rate-limit's own stores (it exports no types for them).
const require = createRequire(import.meta.url);
const RedisStore = require('@fastify/rate-limit/store/RedisStore.js') as StoreClass;
const LocalStore = require('@fastify/rate-limit/store/LocalStore.js') as StoreClass;

/**
 * The sign-in rate limit shared by every replica through Redis, and kept per replica in
 * memory while Redis cannot be reached (so sign-ins keep working, each replica limiting on
 * its own), back on Redis by itself when it answers again.
 */
export function sharedRateLimitStore(redis: Redis): new (options: FastifyRateLimitOptions) => FastifyRateLimitStore {
  class FallbackStore implements Store {
    private readonly shared: Store;
    private readonly local: Store;

    constructor(params: { continueExceeding: boolean; exponentialBackoff: boolean }, shared?: Store, local?: Store) {
      this.shared =
        shared ?? new RedisStore(params.continueExceeding, params.exponentialBackoff, redis, 'portal-rate-');
      this.local = local ?? new LocalStore(params.continueExceeding, params.exponentialBackoff);
    }

    incr(key: string, callback: Callback, timeWindow: number, max: number): void {
      if (redis.status !== 'ready') return this.local.incr(key, callback, timeWindow, max);
      this.shared.incr(
        key,
        (error, result) => (error ? this.local.incr(key, callback, timeWindow, max) : callback(null, result)),
        timeWindow,
        max,
      );
    }

    /** The count without adding to it (a limiter's `{ increment: false }`: the agent meter). */
    read(key: string, callback: Callback, timeWindow: number, max: number): void {
      if (redis.status !== 'ready') return this.local.read(key, callback, timeWindow, max);
      this.shared.read(
        key,
        (error, result) => (error ? this.local.read(key, callback, timeWindow, max) : callback(null, result)),
        timeWindow,
        max,
      );
    }

    child(options: RouteOptions): Store {
      return new FallbackStore(options, this.shared.child(options), this.local.child(options));
    }
  }
  return FallbackStore as unknown as new (options: FastifyRateLimitOptions) => FastifyRateLimitStore;
}
