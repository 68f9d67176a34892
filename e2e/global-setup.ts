import { seedReaders, startAuthEmulator } from '../scripts/emulator.mjs';

/** Starts the Firebase Auth Emulator on the ports the config chose and loads the demo readers. */
export default async function globalSetup(): Promise<() => Promise<void>> {
  const emulator = await startAuthEmulator({
    port: Number(process.env.E2E_EMULATOR_PORT),
    hubPort: Number(process.env.E2E_EMULATOR_HUB_PORT),
    loggingPort: Number(process.env.E2E_EMULATOR_LOGGING_PORT),
  });
  await seedReaders(emulator.host, emulator.projectId);
  return () => emulator.stop();
}
