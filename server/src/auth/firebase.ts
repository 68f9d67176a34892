import { cert, deleteApp, initializeApp, type App } from 'firebase-admin/app';
import { getAuth, type Auth } from 'firebase-admin/auth';

import type { IdentityConfig } from '../config.js';

/**
 * A Firebase Admin app of its own for the given project. The Admin SDK finds the emulator
 * only through FIREBASE_AUTH_EMULATOR_HOST, read at each call; the process entry sets it
 * from the checked configuration, so this refuses to run when the two disagree rather
 * than talk to the wrong service.
 */
export function firebaseAuth(config: IdentityConfig): { app: App; auth: Auth; close: () => Promise<void> } {
  // An empty value means no emulator, to the SDK as to the configuration.
  if ((process.env.FIREBASE_AUTH_EMULATOR_HOST || null) !== config.emulatorHost) {
    throw new Error(
      `FIREBASE_AUTH_EMULATOR_HOST is "${process.env.FIREBASE_AUTH_EMULATOR_HOST ?? ''}" but the configuration says "${config.emulatorHost ?? ''}": set it before creating the identity service`,
    );
  }
  const app = initializeApp(
    {
      projectId: config.projectId,
      ...(config.serviceAccountJson ? { credential: cert(JSON.parse(config.serviceAccountJson) as object) } : {}),
    },
    `portal-${Math.random().toString(36).slice(2)}`,
  );
  return { app, auth: getAuth(app), close: () => deleteApp(app) };
}
