import { EmulatorReaders } from '../server/src/test/readers';
import { readSeed } from '../scripts/emulator.mjs';

export const demoReader = (() => {
  const reader = readSeed().find((r) => r.password && !r.disabled && !r.github);
  if (!reader?.password) throw new Error('The seed file has no e-mail/password demo reader');
  return { email: reader.email, password: reader.password };
})();

/** The demo reader of a role in the seed file (`staff`, `partner`, `no access`, …), with a password. */
function seededByRole(role: string): { email: string; password: string } {
  const reader = readSeed().find((r) => r.role === role && r.password);
  if (!reader?.password) throw new Error(`The seed file has no "${role}" demo reader with a password`);
  return { email: reader.email, password: reader.password };
}

export const partnerReader = seededByRole('partner');
export const noAccessReader = seededByRole('no access');
export const adminReader = seededByRole('admin');

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
