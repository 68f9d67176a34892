import { describe, expect, it } from 'vitest';

import {
  applyReaderClasses,
  currentReaderClasses,
  keepReaderClasses,
  readerClassesFor,
  type ClassList,
} from './reader-classes';
import type { SessionState } from './session-store';

/** A class list over an array, like the root element's DOMTokenList. */
function classListOf(...initial: string[]): ClassList & { names: string[] } {
  const names = [...initial];
  return {
    names,
    get length() {
      return names.length;
    },
    item: (index) => names[index] ?? null,
    add: (...tokens) => tokens.forEach((token) => names.includes(token) || names.push(token)),
    remove: (...tokens) => tokens.forEach((token) => names.includes(token) && names.splice(names.indexOf(token), 1)),
    contains: (token) => names.includes(token),
  };
}

describe('readerClassesFor', () => {
  it('names a signed-in reader, each of their groups and each unit they hold', () => {
    expect(
      readerClassesFor({ status: 'signedIn', email: 'a@b.c', groups: ['admin', 'staff'], units: ['account', 'blog'] }),
    ).toEqual(['portal-signed-in', 'portal-g-admin', 'portal-g-staff', 'portal-u-account', 'portal-u-blog']);
  });

  it('marks a reader without groups as signed in, so every private item hides', () => {
    expect(readerClassesFor({ status: 'signedIn', email: 'a@b.c', groups: [], units: [] })).toEqual([
      'portal-signed-in',
    ]);
  });

  it('says signed out only when the server said so', () => {
    expect(readerClassesFor({ status: 'signedOut', confirmed: true })).toEqual(['portal-signed-out']);
    expect(readerClassesFor({ status: 'signedOut', confirmed: false })).toBeNull();
    expect(readerClassesFor({ status: 'loading' })).toBeNull();
  });
});

describe('applyReaderClasses', () => {
  it('removes stale reader classes, adds the wanted ones and leaves the others alone', () => {
    const classList = classListOf('plugin-docs', 'portal-signed-in', 'portal-g-partner', 'docs-doc-page');
    expect(applyReaderClasses(classList, ['portal-signed-in', 'portal-g-staff'])).toBe(true);
    expect(classList.names).toEqual(['plugin-docs', 'portal-signed-in', 'docs-doc-page', 'portal-g-staff']);
  });

  it('changes nothing when the classes are already right', () => {
    const classList = classListOf('portal-signed-out', 'plugin-docs');
    expect(applyReaderClasses(classList, ['portal-signed-out'])).toBe(false);
    expect(classList.names).toEqual(['portal-signed-out', 'plugin-docs']);
  });
});

describe('currentReaderClasses', () => {
  it('lists the reader classes only', () => {
    expect(currentReaderClasses(classListOf('plugin-docs', 'portal-g-staff', 'portal-signed-in', 'portal-rx'))).toEqual(
      ['portal-g-staff', 'portal-signed-in'],
    );
  });
});

describe('keepReaderClasses', () => {
  /** A root element, a session store and an observer that the test triggers by hand. */
  function setUp(initialClasses: string[], initial: SessionState = { status: 'loading' }) {
    const root = { classList: classListOf(...initialClasses) };
    let session = initial;
    const listeners: (() => void)[] = [];
    let onMutation: () => void = () => undefined;
    class FakeObserver {
      constructor(callback: () => void) {
        onMutation = callback;
      }
      observe(): void {}
    }
    keepReaderClasses(
      root as unknown as Element,
      { get: () => session, subscribe: (listener) => listeners.push(listener) },
      FakeObserver,
    );
    return {
      classes: () => root.classList.names,
      /** What React Helmet does: write the whole class attribute. */
      rewrite: (...names: string[]) => {
        root.classList.names.splice(0, Infinity, ...names);
        onMutation();
      },
      answer: (next: SessionState) => {
        session = next;
        listeners.forEach((listener) => listener());
      },
    };
  }

  it("keeps the head script's guess through a rewrite of the root's classes", () => {
    const page = setUp(['portal-signed-in', 'portal-g-partner']);
    page.rewrite('plugin-docs', 'docs-doc-page');
    expect(page.classes()).toEqual(['plugin-docs', 'docs-doc-page', 'portal-signed-in', 'portal-g-partner']);
  });

  it('replaces the guess with what the session answer says', () => {
    const page = setUp(['portal-signed-in', 'portal-g-partner']);
    page.answer({ status: 'signedIn', email: 'a@b.c', groups: ['staff'], units: ['internal'] });
    expect(page.classes()).toEqual(['portal-signed-in', 'portal-g-staff', 'portal-u-internal']);
    page.rewrite('plugin-blog');
    expect(page.classes()).toEqual(['plugin-blog', 'portal-signed-in', 'portal-g-staff', 'portal-u-internal']);
  });

  it('turns a stale guess into signed out when the server answers 401', () => {
    const page = setUp(['portal-signed-in', 'portal-g-staff']);
    page.answer({ status: 'signedOut', confirmed: true });
    expect(page.classes()).toEqual(['portal-signed-out']);
  });

  it('keeps the guess when the session answer could not be read', () => {
    const page = setUp(['portal-signed-in', 'portal-g-staff']);
    page.answer({ status: 'signedOut', confirmed: false });
    expect(page.classes()).toEqual(['portal-signed-in', 'portal-g-staff']);
  });
});
