import { describe, expect, it } from 'vitest';

import { portalActionLink } from './action-links.js';

describe("an account mail's link", () => {
  it("opens the portal's page with Firebase's code, from an emulator's or a project's link", () => {
    for (const made of [
      'http://127.0.0.1:9099/emulator/action?mode=resetPassword&lang=en&oobCode=Xy-12_ab&apiKey=demo-api-key',
      'https://norigin-docs.firebaseapp.com/__/auth/action?mode=resetPassword&oobCode=Xy-12_ab&apiKey=AIza&lang=en',
    ]) {
      const link = new URL(portalActionLink(made, 'https://docs.norigin.example', { invite: true }));
      expect(`${link.origin}${link.pathname}`).toBe('https://docs.norigin.example/login/action');
      expect(Object.fromEntries(link.searchParams)).toEqual({
        mode: 'resetPassword',
        oobCode: 'Xy-12_ab',
        invite: '1',
      });
    }
  });

  it('carries nothing else of the link, and is no invitation unless told', () => {
    const link = new URL(
      portalActionLink(
        'http://127.0.0.1:9099/emulator/action?mode=verifyEmail&oobCode=c0de&apiKey=k&continueUrl=https://evil.example',
        'http://localhost:3000',
      ),
    );
    expect(link.search).toBe('?mode=verifyEmail&oobCode=c0de');
  });

  it('refuses a link without a mode or a code', () => {
    expect(() =>
      portalActionLink('http://127.0.0.1:9099/emulator/action?mode=resetPassword', 'http://localhost:3000'),
    ).toThrow(/no mode or code/);
  });
});
