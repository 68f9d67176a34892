// Peer build "client-guard": the Firebase app and Auth instance every page shares. The
// config is written into firebase-config.json by the benchmark before it builds this copy,
// as the specification's portal baked its config into the bundle.
import { initializeApp } from 'firebase/app';
import {
  browserLocalPersistence,
  browserSessionPersistence,
  connectAuthEmulator,
  indexedDBLocalPersistence,
  initializeAuth,
  type Auth,
} from 'firebase/auth';

import config from './firebase-config.json';

let auth: Auth | null = null;

export function getPortalAuth(): Auth {
  if (auth === null) {
    const app = initializeApp({ apiKey: config.apiKey, authDomain: config.authDomain, projectId: config.projectId });
    auth = initializeAuth(app, {
      persistence: [indexedDBLocalPersistence, browserLocalPersistence, browserSessionPersistence],
    });
    if (config.emulatorUrl) connectAuthEmulator(auth, config.emulatorUrl, { disableWarnings: true });
  }
  return auth;
}
