import { describe, expect, it } from 'vitest';

import { CsvFileError, membershipCsv, planImport, readMembershipCsv, type ImportState } from './csv.js';

const state: ImportState = {
  organisations: new Set(['northwind', 'lumen']),
  groups: new Set(['player-basic', 'ui-basic']),
  policyGroups: new Set(['staff', 'partner', 'admin']),
  memberships: new Map([
    ['ana@northwind.example', { organisationId: 'northwind', groups: ['player-basic'] }],
    ['bo@lumen.example', { organisationId: 'lumen', groups: [] }],
    ['cy@solo.example', { organisationId: null, groups: ['ui-basic'] }],
  ]),
};

const plan = (text: string) => planImport(readMembershipCsv(text), state);

describe('reading a CSV of memberships', () => {
  it('reads rows with their lines, trimmed, after a header in any case and a byte-order mark', () => {
    expect(
      readMembershipCsv('\uFEFFEmail, Organisation ,GROUPS\n\n a@b.example ,lumen,"ui-basic player-basic"\n'),
    ).toEqual([{ line: 3, cells: ['a@b.example', 'lumen', 'ui-basic player-basic'] }]);
  });

  it.each([
    ['', /empty/],
    ['a@b.example,lumen,\n', /first line must be the header email,organisation,groups/],
    ['email;organisation;groups\na@b.example;lumen;\n', /Separate the columns with commas/],
    ['email,organisation,groups\n"a@b.example,lumen,\n', /a quoted value is never closed/],
    ['PK\u0003\u0004\u0000\u0000binary', /not CSV text/],
    ['email,organisation,groups\n\uFFFD\uFFFD,x,y\n', /not CSV text/],
  ])('refuses the whole file %j', (text, reason) => {
    expect(() => readMembershipCsv(text)).toThrow(CsvFileError);
    expect(() => readMembershipCsv(text)).toThrow(reason);
  });

  it('refuses a file of more than 10,000 rows', () => {
    const rows = Array.from({ length: 10_001 }, (_, i) => `r${i}@x.example,,`).join('\n');
    expect(() => readMembershipCsv(`email,organisation,groups\n${rows}\n`)).toThrow(
      /10,001 rows; one import takes at most 10,000/,
    );
  });
});

describe('planning an import', () => {
  it('says per row what changes: new, moved, groups, removed, unchanged', () => {
    const result = plan(
      [
        'email,organisation,groups',
        'new@lumen.example,lumen,ui-basic',
        'ana@northwind.example,lumen,player-basic',
        'bo@lumen.example,lumen,ui-basic',
        'cy@solo.example,,',
        'NoBody@else.example,,',
        'ana2@northwind.example,northwind,',
      ].join('\n'),
    );
    expect(result.refused).toEqual([]);
    expect(result.changes.map((c) => [c.line, c.email, c.change])).toEqual([
      [2, 'new@lumen.example', 'new'],
      [3, 'ana@northwind.example', 'moved'],
      [4, 'bo@lumen.example', 'groups'],
      [5, 'cy@solo.example', 'removed'],
      [6, 'nobody@else.example', 'unchanged'],
      [7, 'ana2@northwind.example', 'new'],
    ]);
    expect(result.changes[1]?.organisation).toEqual({ before: 'northwind', after: 'lumen' });
    expect(result.changes[2]).toMatchObject({ groupsAdded: ['ui-basic'], groupsRemoved: [] });
    expect(result.changes[3]).toMatchObject({ groupsAdded: [], groupsRemoved: ['ui-basic'] });
    expect(result.counts).toEqual({ new: 2, moved: 1, groups: 1, removed: 1, unchanged: 1, refused: 0 });
    expect(result.writes).toEqual([
      { email: 'new@lumen.example', placement: { organisationId: 'lumen', groups: ['ui-basic'] } },
      { email: 'ana@northwind.example', placement: { organisationId: 'lumen', groups: ['player-basic'] } },
      { email: 'bo@lumen.example', placement: { organisationId: 'lumen', groups: ['ui-basic'] } },
      { email: 'cy@solo.example', placement: null },
      { email: 'ana2@northwind.example', placement: { organisationId: 'northwind', groups: [] } },
    ]);
  });

  it('names no change for a row that says what is already there', () => {
    const result = plan('email,organisation,groups\nana@northwind.example,Northwind,player-basic\n');
    expect(result.changes.map((c) => c.change)).toEqual(['unchanged']);
    expect(result.writes).toEqual([]);
  });

  it('refuses each bad row with its reason, and keeps the good ones apart', () => {
    const result = plan(
      [
        'email,organisation,groups',
        'not-an-address,lumen,',
        'a@b.example,acme,',
        'c@d.example,lumen,ghosts',
        'e@f.example,,staff',
        'g@h.example,lumen,,extra',
        'i@j.example',
        'k@l.example,lumen,',
        'K@L.example,northwind,',
        ',lumen,',
      ].join('\n'),
    );
    expect(result.refused).toEqual([
      { line: 2, email: 'not-an-address', reason: '"not-an-address" is not an e-mail address' },
      { line: 3, email: 'a@b.example', reason: expect.stringContaining('no organisation "acme"') },
      { line: 4, email: 'c@d.example', reason: 'no group "ghosts"' },
      { line: 5, email: 'e@f.example', reason: expect.stringContaining('"staff": a group of the access policy') },
      { line: 6, email: 'g@h.example', reason: expect.stringContaining('too many columns (4') },
      { line: 7, email: 'i@j.example', reason: expect.stringContaining('too few columns (1') },
      { line: 9, email: 'k@l.example', reason: 'the same e-mail as line 8: one row per reader' },
      { line: 10, email: null, reason: 'no e-mail address' },
    ]);
    expect(result.changes.map((c) => c.line)).toEqual([8]);
    expect(result.counts.refused).toBe(8);
  });

  it('reads back what it exports', () => {
    const text = membershipCsv([
      { email: 'ana@northwind.example', organisationId: 'northwind', groups: ['player-basic', 'ui-basic'] },
      { email: 'cy@solo.example', organisationId: null, groups: ['ui-basic'] },
    ]);
    expect(text).toBe(
      'email,organisation,groups\nana@northwind.example,northwind,player-basic ui-basic\ncy@solo.example,,ui-basic\n',
    );
    const again = plan(text);
    expect(again.refused).toEqual([]);
    expect(again.changes.map((c) => c.change)).toEqual(['groups', 'unchanged']);
  });

  it('exports an address that starts like a formula with a leading quote, and reads it back as it was', () => {
    const text = membershipCsv([
      { email: '=hyperlink(x)@evil.example', organisationId: null, groups: [] },
      { email: '+1@x.example', organisationId: 'lumen', groups: [] },
      { email: '-2@x.example', organisationId: null, groups: ['ui-basic'] },
    ]);
    expect(text.split('\n').slice(1, 4)).toEqual([
      "'=hyperlink(x)@evil.example,,",
      "'+1@x.example,lumen,",
      "'-2@x.example,,ui-basic",
    ]);
    expect(readMembershipCsv(text).map((row) => row.cells[0])).toEqual([
      '=hyperlink(x)@evil.example',
      '+1@x.example',
      '-2@x.example',
    ]);
  });
});
