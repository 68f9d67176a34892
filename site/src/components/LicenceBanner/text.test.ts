import { describe, expect, it } from 'vitest';

import { licenceEndingText } from './text';

const unit = (unitLabel: string, endsAt = '2026-12-12T23:59:59.999Z') => ({
  unit: unitLabel.toLowerCase(),
  unitLabel,
  endsAt,
});

describe('the licence banner', () => {
  it('names the organisation, the first day it stops and what it covers, in the site’s date format', () => {
    expect(licenceEndingText({ organisation: 'Lumen Media', units: [unit('Layout Engine')] })).toBe(
      'Lumen Media’s licence ends on 12 December 2026: after that day you can no longer read Layout Engine.',
    );
    expect(
      licenceEndingText({
        organisation: 'Lumen Media',
        units: [unit('UI toolkit', '2026-12-20T23:59:59.999Z'), unit('UI hooks'), unit('UI theme')],
      }),
    ).toBe(
      'Lumen Media’s licence ends on 12 December 2026: after that day you can no longer read UI toolkit, UI hooks and UI theme.',
    );
  });

  it('names three packages and counts the rest', () => {
    const units = ['A', 'B', 'C', 'D', 'E'].map((name) => unit(`Package ${name}`));
    expect(licenceEndingText({ organisation: 'Northwind', units })).toMatch(
      /read Package A, Package B, Package C and 2 more\.$/,
    );
  });
});
