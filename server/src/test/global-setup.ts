// Vitest global setup: one real Firebase Auth Emulator for the whole unit run, on free
// ports, seeded with the demo readers. Tests reach it through inject('emulatorHost').
import type { TestProject } from 'vitest/node';

import { freePort, seedReaders, startAuthEmulator } from '../../../scripts/emulator.mjs';

declare module 'vitest' {
  export interface ProvidedContext {
    emulatorHost: string;
    emulatorProjectId: string;
  }
}

export default async function setup(project: TestProject): Promise<() => Promise<void>> {
  const emulator = await startAuthEmulator({
    port: await freePort(),
    hubPort: await freePort(),
    loggingPort: await freePort(),
  });
  await seedReaders(emulator.host, emulator.projectId);
  project.provide('emulatorHost', emulator.host);
  project.provide('emulatorProjectId', emulator.projectId);
  return () => emulator.stop();
}
