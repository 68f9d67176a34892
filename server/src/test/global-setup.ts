// Vitest global setup: one real Firebase Auth Emulator for the whole unit run, on free
// ports, seeded with the demo readers, and one throw-away PostgreSQL cluster (Debian's
// package) for the tests that run against both PGlite and a PostgreSQL server. Tests
// reach them through inject('emulatorHost') and inject('postgresUrl').
import type { TestProject } from 'vitest/node';

import { seedReaders, startAuthEmulator } from '../../../tools/lib/emulator.mjs';
import { startPostgres } from '../../../tools/lib/postgres.mjs';

declare module 'vitest' {
  export interface ProvidedContext {
    emulatorHost: string;
    emulatorProjectId: string;
    postgresUrl: string;
  }
}

export default async function setup(project: TestProject): Promise<() => Promise<void>> {
  const [emulator, postgres] = await Promise.all([startAuthEmulator(), startPostgres()]);
  await seedReaders(emulator.host, emulator.projectId);
  project.provide('emulatorHost', emulator.host);
  project.provide('emulatorProjectId', emulator.projectId);
  project.provide('postgresUrl', postgres.url);
  return async () => {
    await Promise.all([emulator.stop(), postgres.stop()]);
  };
}
