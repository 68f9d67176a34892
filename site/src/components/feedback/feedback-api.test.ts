import { describe, expect, it } from 'vitest';

import { parseFeedback } from './feedback-api';

describe("reading the gate's answer about feedback", () => {
  it('takes a well-formed answer', () => {
    expect(
      parseFeedback({
        feedback: { path: '/docs/whitelabel/', helpful: false, comment: 'More examples', updatedAt: 'x' },
      }),
    ).toEqual({ path: '/docs/whitelabel/', helpful: false, comment: 'More examples', updatedAt: 'x' });
  });

  it.each([null, {}, { feedback: null }, { feedback: { path: '/', helpful: 'yes', updatedAt: 'x' } }, 'text'])(
    'reads %j as no answer',
    (body) => {
      expect(parseFeedback(body)).toBeNull();
    },
  );
});
