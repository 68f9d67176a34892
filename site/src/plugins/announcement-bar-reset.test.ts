import { runInNewContext } from 'node:vm';

import { describe, expect, it } from 'vitest';

import announcementBarReset, { announcementResetScript, dismissKey, idKey } from './announcement-bar-reset';

function run(script: string, stored: Record<string, string>): Record<string, string> {
  const data = new Map(Object.entries(stored));
  const localStorage = {
    getItem: (key: string) => data.get(key) ?? null,
    removeItem: (key: string) => void data.delete(key),
  };
  runInNewContext(script, { window: { localStorage } });
  return Object.fromEntries(data);
}

describe('the announcement bar reset script', () => {
  it('forgets a dismissal made for another announcement', () => {
    const after = run(announcementResetScript('new-id'), { [idKey]: 'old-id', [dismissKey]: 'true' });
    expect(after).toEqual({ [idKey]: 'old-id' });
  });

  it('keeps a dismissal of the current announcement', () => {
    const stored = { [idKey]: 'new-id', [dismissKey]: 'true' };
    expect(run(announcementResetScript('new-id'), stored)).toEqual(stored);
  });

  it('does not throw when storage is unavailable', () => {
    expect(() => runInNewContext(announcementResetScript('x'), { window: {} })).not.toThrow();
  });

  it('escapes the id it embeds', () => {
    const id = `"); alert(1); ("`;
    const after = run(announcementResetScript(id), { [idKey]: id, [dismissKey]: 'true' });
    expect(after[dismissKey]).toBe('true');
  });

  it('is injected into the head of every page', () => {
    const plugin = announcementBarReset('abc');
    const tags = plugin.injectHtmlTags?.({ content: undefined });
    expect(tags).toEqual({ headTags: [{ tagName: 'script', innerHTML: announcementResetScript('abc') }] });
  });
});
