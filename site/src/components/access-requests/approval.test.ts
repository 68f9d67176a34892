import { describe, expect, it } from 'vitest';

import { approvalChange, dayInWords, type QueuedAccessRequest } from './api';

const request = (organisation: QueuedAccessRequest['organisation']): QueuedAccessRequest => ({
  id: 'r1',
  unit: 'layout',
  unitLabel: 'Layout Engine',
  path: '/docs/layout-engine/',
  reason: 'Our guide is built on it',
  status: 'pending',
  createdAt: '2026-12-01T10:00:00.000Z',
  answeredAt: null,
  grantedTo: null,
  endsAt: null,
  answer: null,
  email: 'dev@lumen-media.example',
  organisation,
  answeredBy: null,
});

const lumen = { id: 'lumen-media', name: 'Lumen Media', licensed: [] };

describe('approving a request', () => {
  it('says a reader alone changes nobody else’s access, and leaves the licence as it is', () => {
    expect(approvalChange(request(lumen), 'reader', '2027-01-31')).toBe(
      'dev@lumen-media.example alone will read Layout Engine, until 31 January 2027. Nobody else’s access changes, and Lumen Media’s licence stays as it is.',
    );
    expect(approvalChange(request(null), 'reader', '')).toBe(
      'dev@lumen-media.example alone will read Layout Engine, with no end date. Nobody else’s access changes.',
    );
  });

  it('says an approval for the organisation reaches every reader of it, and that its licence grows', () => {
    expect(approvalChange(request(lumen), 'organisation', '')).toBe(
      'Every reader of Lumen Media, now and later, will read Layout Engine, with no end date: Lumen Media’s licence grows by this package.',
    );
  });

  it('writes a last day in the site’s words, and no day for what is not one', () => {
    expect(dayInWords('2027-02-28')).toBe('28 February 2027');
    expect(dayInWords('02/28/2027')).toBeNull();
    expect(dayInWords('')).toBeNull();
  });
});
