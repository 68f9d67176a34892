import { describe, expect, it } from 'vitest';

import { ageRefusal, deliveryDate } from './delivery-date.js';

const NOW = Date.UTC(2026, 10, 30, 10, 0, 0);
const iso = (minutesAgo: number) => new Date(NOW - minutesAgo * 60_000).toISOString();

describe('the date of a release-hook delivery', () => {
  it('is the newest of the dates the event carries: a release published now of an old commit is recent', () => {
    const payload = { release: { created_at: iso(3 * 24 * 60), published_at: iso(1) } };
    expect(deliveryDate('release', payload)).toEqual({ at: NOW - 60_000, field: 'release.published_at' });
    expect(ageRefusal('release', payload, NOW, 300)).toBeNull();
  });

  it('takes a tag pushed now on an old commit by the push’s own time, which GitHub gives in seconds', () => {
    const payload = { head_commit: { timestamp: iso(2 * 24 * 60) }, repository: { pushed_at: NOW / 1000 - 30 } };
    expect(deliveryDate('push', payload)).toEqual({ at: NOW - 30_000, field: 'repository.pushed_at' });
    expect(ageRefusal('push', { head_commit: { timestamp: iso(10) } }, NOW, 300)).toMatch(
      /\(head_commit\.timestamp\), more than 300 seconds ago/,
    );
  });

  it("reads a package event's version dates, and a sender's own sent_at", () => {
    const published = { package: { package_version: { created_at: iso(2), updated_at: iso(1) } } };
    expect(deliveryDate('package', published)).toMatchObject({ field: 'package.package_version.updated_at' });
    const registry = { registry_package: { package_version: { created_at: iso(20) } } };
    expect(ageRefusal('registry_package', registry, NOW, 300)).toMatch(/registry_package\.package_version\.created_at/);
    expect(deliveryDate('package', { sent_at: iso(0) })).toEqual({ at: NOW, field: 'sent_at' });
  });

  it('allows a sender’s clock a minute ahead of the gate’s, and refuses one further ahead', () => {
    expect(ageRefusal('release', { sent_at: new Date(NOW + 50_000).toISOString() }, NOW, 300)).toBeNull();
    expect(ageRefusal('release', { sent_at: new Date(NOW + 90_000).toISOString() }, NOW, 300)).toMatch(
      /ahead of the portal's clock/,
    );
  });

  it('lets an undated delivery through to the delivery memory, and refuses a sent_at that is no date', () => {
    expect(deliveryDate('release', { release: { tag_name: 'v1.0.0' } })).toEqual({ undated: true });
    expect(ageRefusal('ping', { hook: { created_at: iso(60 * 24) } }, NOW, 300)).toBeNull();
    for (const sent of ['yesterday', 1764496800, '2026-13-45T99:99:99Z'])
      expect(ageRefusal('release', { sent_at: sent }, NOW, 300)).toMatch(/^sent_at must be a date and time/);
  });
});
