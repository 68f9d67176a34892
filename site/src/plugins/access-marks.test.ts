import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { runInNewContext } from 'node:vm';

import type { LoadContext } from '@docusaurus/types';

import { describe, expect, it } from 'vitest';
import { accessStyles, lockedItemSelector } from '@portal/access';

import accessMarks, {
  applyGroupsHint,
  groupsHintScript,
  lockedItemStyles,
  lockedLinkStyles,
  lockMarkStyles,
  type HintDocument,
} from './access-marks';

/** A document with a cookie string and a root element whose classes the test reads back. */
function fakeDocument(cookie: string): HintDocument & { classes: string[] } {
  const classes: string[] = [];
  return { cookie, classes, documentElement: { classList: { add: (...tokens) => classes.push(...tokens) } } };
}

describe('applyGroupsHint', () => {
  it('marks the root with the groups the hint cookie names', () => {
    const doc = fakeDocument('theme=dark; portal_groups=admin.staff; other=1');
    applyGroupsHint(doc);
    expect(doc.classes).toEqual(['portal-signed-in', 'portal-g-admin', 'portal-g-staff']);
  });

  it('marks a reader of no group, who reads through a licence, signed in with their units', () => {
    const doc = fakeDocument('portal_groups=; portal_units=account.layout');
    applyGroupsHint(doc);
    expect(doc.classes).toEqual(['portal-signed-in', 'portal-u-account', 'portal-u-layout']);
  });

  it('reads the cookie when it comes first or alone', () => {
    const doc = fakeDocument('portal_groups=partner');
    applyGroupsHint(doc);
    expect(doc.classes).toEqual(['portal-signed-in', 'portal-g-partner']);
  });

  it('marks the reader signed out without the cookie, so the first paint shows the locks', () => {
    for (const cookie of ['', 'theme=dark', 'xportal_groups=staff', 'portal_groups_old=staff']) {
      const doc = fakeDocument(cookie);
      applyGroupsHint(doc);
      expect(doc.classes, cookie).toEqual(['portal-signed-out']);
    }
  });

  it('marks nothing for a malformed value', () => {
    for (const value of ['staff.', '.staff', 'Staff', 'staff..admin', 'staff%20x', '"staff"', 'a b', 'x{}']) {
      const doc = fakeDocument(`portal_groups=${value}`);
      applyGroupsHint(doc);
      expect(doc.classes, value).toEqual([]);
    }
  });
});

describe('the groups hint head script', () => {
  it('runs on its own in a page, with nothing but `document`', () => {
    const doc = fakeDocument('portal_groups=partner.staff');
    runInNewContext(groupsHintScript(), { document: doc });
    expect(doc.classes).toEqual(['portal-signed-in', 'portal-g-partner', 'portal-g-staff']);
  });

  it('never throws, even when the cookie cannot be read', () => {
    const doc = {
      get cookie(): string {
        throw new Error('SecurityError');
      },
    };
    expect(() => runInNewContext(groupsHintScript(), { document: doc })).not.toThrow();
  });
});

describe('the access-marks plugin', () => {
  it("puts the access styles with the locks in the site's stylesheet, and the hint script in the head of every page", async () => {
    const generatedFilesDir = await mkdtemp(join(tmpdir(), 'access-marks-'));
    try {
      const plugin = accessMarks({ generatedFilesDir } as LoadContext);
      await plugin.loadContent?.();
      const [stylesheet, ...others] = plugin.getClientModules?.() ?? [];
      expect(others).toEqual([]);
      expect(await readFile(stylesheet ?? '', 'utf8')).toBe(
        accessStyles() + lockMarkStyles + lockedItemStyles + lockedLinkStyles,
      );
      expect(plugin.injectHtmlTags?.({ content: undefined })).toEqual({
        headTags: [{ tagName: 'script', innerHTML: groupsHintScript() }],
      });
    } finally {
      await rm(generatedFilesDir, { recursive: true, force: true });
    }
  });

  it('locks private items for signed-out visitors only, with alternative text', () => {
    const [lock, ...others] = lockMarkStyles.split('}').filter((rule) => rule.includes('content:'));
    expect(others).toEqual([]);
    const [selectors = '', declarations = ''] = (lock ?? '').split('{');
    for (const selector of selectors.split(','))
      expect(selector.trim()).toMatch(/^html\.portal-signed-out .*:not\(\.portal-r-public\)/);
    expect(declarations).toContain(`content: '' / '(sign in to read)';`);
  });

  it('locks a listed item a signed-in reader does not hold, with its own alternative text', () => {
    const [lock, ...others] = lockedItemStyles.split('}').filter((rule) => rule.includes('content:'));
    expect(others).toEqual([]);
    const [selectors = '', declarations = ''] = (lock ?? '').split('{');
    // Three selectors (a link, a category with a page, a category without), each of a locked item.
    const locked = lockedItemSelector();
    expect(selectors.trim().startsWith(locked)).toBe(true);
    expect(selectors.split(locked)).toHaveLength(4);
    expect(declarations).toContain(`content: '' / '(locked)';`);
  });
});
