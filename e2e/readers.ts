import { EmulatorReaders } from '../server/src/test/readers';
import { readSeed } from '../scripts/emulator.mjs';

export const demoReader = (() => {
  const reader = readSeed().find((r) => r.password && !r.disabled && !r.github);
  if (!reader?.password) throw new Error('The seed file has no e-mail/password demo reader');
  return { email: reader.email, password: reader.password };
})();

export const githubReader = (() => {
  const reader = readSeed().find((r) => r.github);
  if (!reader) throw new Error('The seed file has no GitHub demo reader');
  return reader;
})();

export const disabledReader = (() => {
  const reader = readSeed().find((r) => r.disabled);
  if (!reader?.password) throw new Error('The seed file has no disabled demo reader');
  return { email: reader.email, password: reader.password };
})();

/** The emulator the run uses, for readers of a test's own (logout revokes every session of a reader). */
export const emulatorReaders = new EmulatorReaders(`127.0.0.1:${process.env.E2E_EMULATOR_PORT}`, 'demo-norigin-portal');
