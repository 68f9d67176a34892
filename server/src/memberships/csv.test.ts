import { monitorEventLoopDelay } from 'node:perf_hooks';

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

const plan = async (text: string) => planImport(await readMembershipCsv(text), state);

describe('reading a CSV of memberships', () => {
  it('reads rows with their lines, trimmed, after a header in any case and a byte-order mark', async () => {
    expect(
      await readMembershipCsv('\uFEFFEmail, Organisation ,GROUPS\n\n a@b.example ,lumen,"ui-basic player-basic"\n'),
    ).toEqual([{ line: 3, cells: ['a@b.example', 'lumen', 'ui-basic player-basic'] }]);
  });

  it.each([
    ['', /empty/],
    ['a@b.example,lumen,\n', /first line must be the header email,organisation,groups/],
    ['email;organisation;groups\na@b.example;lumen;\n', /Separate the columns with commas/],
    ['email,organisation,groups\n"a@b.example,lumen,\n', /a quoted value is never closed/],
    ['PK\u0003\u0004\u0000\u0000binary', /not CSV text/],
    ['email,organisation,groups\n\uFFFD\uFFFD,x,y\n', /not CSV text/],
  ])('refuses the whole file %j', async (text, reason) => {
    await expect(readMembershipCsv(text)).rejects.toThrow(CsvFileError);
    await expect(readMembershipCsv(text)).rejects.toThrow(reason);
  });

  it('refuses a file of more than 10,000 rows at the row past the limit', async () => {
    const rows = Array.from({ length: 10_001 }, (_, i) => `r${i}@x.example,,`).join('\n');
    await expect(readMembershipCsv(`email,organisation,groups\n${rows}\n`)).rejects.toThrow(
      'The file has more than 10,000 rows (line 10002 is row 10,001); one import takes at most 10,000: split it',
    );
  });
});

const MiB = 1024 * 1024;
const HEADER = 'email,organisation,groups\n';

/** The longest time the event loop was held up, in ms, while `work` ran. */
async function longestStall(work: () => Promise<unknown>): Promise<number> {
  const delay = monitorEventLoopDelay({ resolution: 5 });
  delay.enable();
  await work().catch(() => undefined);
  delay.disable();
  return delay.max / 1e6;
}

describe('the limits of a CSV of memberships', () => {
  it('refuses a row of more than 10 cells, naming its line', async () => {
    const row = Array.from({ length: 11 }, (_, i) => `c${i}`).join(',');
    await expect(readMembershipCsv(`${HEADER}a@b.example,,\n${row}\n`)).rejects.toThrow(
      'Line 3 has more than 10 cells; a row has 3: email,organisation,groups',
    );
    // Ten cells are a row planImport refuses alone.
    const ten = await readMembershipCsv(`${HEADER}${Array.from({ length: 10 }, () => 'x').join(',')}\n`);
    expect(ten[0]?.cells).toHaveLength(10);
  });

  it('refuses a cell of more than 1,000 characters, naming its line', async () => {
    await expect(readMembershipCsv(`${HEADER}a@b.example,${'o'.repeat(1001)},\n`)).rejects.toThrow(
      'Line 2: a cell is longer than 1,000 characters',
    );
    const fits = await readMembershipCsv(`${HEADER}a@b.example,${'é'.repeat(1000)},\n`);
    expect(fits[0]?.cells[1]).toHaveLength(1000);
  });

  // Each file is made inside its test: five of 4 MiB held at once would weigh on the collector.
  it.each([
    ['a row of four million commas', () => `${HEADER}${','.repeat(4 * MiB - 64)}`, /^Line 2 has more than 10 cells/],
    [
      'one quoted cell of 4 MiB',
      () => `${HEADER}"${'a'.repeat(4 * MiB - 64)}"\n`,
      /^Line 2: a cell is longer than 1,000/,
    ],
    ['a cell of 4 MiB over many lines', () => `${HEADER}"${'a\n'.repeat(2 * MiB - 64)}"`, /a cell is longer than/],
    ['200,000 short rows', () => `${HEADER}${'a@b.example,,\n'.repeat((4 * MiB) / 14 - 4)}`, /more than 10,000 rows/],
    ['rows of ten empty cells', () => `${HEADER}${',,,,,,,,,\n'.repeat((4 * MiB) / 10 - 4)}`, /more than 10,000 rows/],
  ])('refuses %s without holding up the event loop', async (_name, make, reason) => {
    const text = make();
    expect(text.length).toBeLessThanOrEqual(4 * MiB);
    let refusal: unknown;
    const stall = await longestStall(() => readMembershipCsv(text).catch((error: unknown) => (refusal = error)));
    expect(refusal).toBeInstanceOf(CsvFileError);
    expect((refusal as Error).message).toMatch(reason);
    expect(stall).toBeLessThan(200);
  });

  it('reads 4 MiB of 10,000 long rows a slice at a time, the event loop never held up for long', async () => {
    const rows = Array.from(
      { length: 10_000 },
      (_, i) => `${String(i).padStart(5, '0')}${'e'.repeat(240)}@b.example,${'o'.repeat(60)},${'g'.repeat(100)}`,
    );
    const text = `${HEADER}${rows.join('\n')}\n`;
    expect(text.length).toBeGreaterThan(4 * 1_000_000);
    let read: Awaited<ReturnType<typeof readMembershipCsv>> = [];
    const stall = await longestStall(async () => (read = await readMembershipCsv(text)));
    expect(read).toHaveLength(10_000);
    expect(read[9_999]?.line).toBe(10_001);
    expect(stall).toBeLessThan(200);
  });
});

describe('planning an import', () => {
  it('says per row what changes: new, moved, groups, removed, unchanged', async () => {
    const result = await plan(
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

  it('names no change for a row that says what is already there', async () => {
    const result = await plan('email,organisation,groups\nana@northwind.example,Northwind,player-basic\n');
    expect(result.changes.map((c) => c.change)).toEqual(['unchanged']);
    expect(result.writes).toEqual([]);
  });

  it('refuses each bad row with its reason, and keeps the good ones apart', async () => {
    const result = await plan(
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

  it('reads back what it exports', async () => {
    const text = membershipCsv([
      { email: 'ana@northwind.example', organisationId: 'northwind', groups: ['player-basic', 'ui-basic'] },
      { email: 'cy@solo.example', organisationId: null, groups: ['ui-basic'] },
    ]);
    expect(text).toBe(
      'email,organisation,groups\nana@northwind.example,northwind,player-basic ui-basic\ncy@solo.example,,ui-basic\n',
    );
    const again = await plan(text);
    expect(again.refused).toEqual([]);
    expect(again.changes.map((c) => c.change)).toEqual(['groups', 'unchanged']);
  });

  it('exports an address that starts like a formula with a leading quote, and reads it back as it was', async () => {
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
    expect((await readMembershipCsv(text)).map((row) => row.cells[0])).toEqual([
      '=hyperlink(x)@evil.example',
      '+1@x.example',
      '-2@x.example',
    ]);
  });
});
