import { generateKeyPairSync, sign } from 'node:crypto';

import { expect, test } from '@playwright/test';

import { emulatorReaders } from '../readers';
import { IsolatedPortal } from './isolated';
import { E2E_SESSION_SECRET, rawRequest, sessionClaims, signForGate, unsignedSessionCookie } from './lib';
import { recordFigure } from './record';

const PROJECT = 'norigin-docs-prod-test';

/**
 * A gate in production configuration (a real project id and a service account, no
 * emulator) must refuse the unsigned cookies the Auth Emulator mints, even when they
 * carry the gate's own HMAC (as if that key had leaked). Firebase's check of the token's
 * algorithm runs before any network call, so this works offline.
 */
test('production refuses unsigned and emulator-minted session cookies', async () => {
  // Two gates, each making its own embedded database (PGlite's first start takes seconds on a
  // loaded 2-core machine).
  test.setTimeout(120_000);
  const { privateKey } = generateKeyPairSync('rsa', { modulusLength: 2048 });
  const portal = new IsolatedPortal({
    NODE_ENV: 'production',
    PUBLIC_URL: 'https://docs.norigin.example',
    FIREBASE_PROJECT_ID: PROJECT,
    FIREBASE_API_KEY: 'AIzaSyTestOnlyKey',
    FIREBASE_AUTH_DOMAIN: `${PROJECT}.firebaseapp.com`,
    FIREBASE_SERVICE_ACCOUNT: JSON.stringify({
      type: 'service_account',
      project_id: PROJECT,
      client_email: `gate@${PROJECT}.iam.gserviceaccount.com`,
      private_key: privateKey.export({ type: 'pkcs8', format: 'pem' }).toString(),
    }),
    FIREBASE_AUTH_EMULATOR_HOST: '',
    SESSION_SECRET: E2E_SESSION_SECRET,
  });
  try {
    // The run's emulator is only there to mint a real emulator cookie to replay.
    const devGate = new IsolatedPortal({}, emulatorReaders.host);
    await devGate.startServer();
    const emulatorCookie = (await devGate.signIn()).slice('__session='.length);
    await devGate.server?.kill('SIGTERM');

    // Now the production gate, which knows nothing of the emulator.
    portal.emulator = undefined;
    await portal.startServer();
    const cases: [string, string][] = [
      ['an emulator-minted cookie', emulatorCookie],
      [
        'an alg:none cookie for this project',
        signForGate(unsignedSessionCookie(sessionClaims('demo-reader', 'reader@norigin.example', PROJECT))),
      ],
      [
        'an alg:none cookie with an RS256 header claim',
        signForGate(
          `${Buffer.from(JSON.stringify({ alg: 'RS256', kid: 'x', typ: 'JWT' })).toString('base64url')}.${Buffer.from(JSON.stringify(sessionClaims('demo-reader', 'reader@norigin.example', PROJECT))).toString('base64url')}.`,
        ),
      ],
    ];
    const answers: Record<string, number> = {};
    for (const [what, value] of cases) {
      const response = await rawRequest(portal.baseURL, {
        path: '/docs/layout-engine/',
        headers: { cookie: `__session=${value}` },
      });
      answers[what] = response.status;
      // Refused as a bad cookie (sign in again), or as "cannot verify" when the key fetch
      // fails offline; never served.
      expect([302, 503], what).toContain(response.status);
      expect(response.body, what).not.toContain('Component registry');
    }
    // The algorithm check needs no network: these two are refused outright.
    expect(answers['an emulator-minted cookie']).toBe(302);
    expect(answers['an alg:none cookie for this project']).toBe(302);
    // A properly RS256-signed cookie (by a key Google never issued). Verifying it needs
    // Google's public keys: offline the fetch fails, and that must fail closed (503, the
    // reader stays signed in) rather than sign the reader out; online the key is unknown (302).
    const b64 = (value: unknown): string => Buffer.from(JSON.stringify(value)).toString('base64url');
    const unsignedPart = `${b64({ alg: 'RS256', kid: 'k1', typ: 'JWT' })}.${b64(sessionClaims('demo-reader', 'reader@norigin.example', PROJECT))}`;
    const signature = sign('sha256', Buffer.from(unsignedPart), privateKey).toString('base64url');
    const signed = await rawRequest(portal.baseURL, {
      path: '/docs/layout-engine/',
      headers: { cookie: `__session=${signForGate(`${unsignedPart}.${signature}`)}` },
    });
    expect([302, 503]).toContain(signed.status);
    expect(signed.body).not.toContain('Component registry');
    if (signed.status === 503) expect(signed.headers['set-cookie']).toBeUndefined();
    answers['an RS256 cookie signed by an unknown key'] = signed.status;
    recordFigure('production_unsigned_cookies', { cases: cases.length + 1, answers });
    await devGate.stop();
  } finally {
    await portal.stop();
  }
});
