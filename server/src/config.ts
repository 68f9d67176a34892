import { existsSync } from 'node:fs';
import { join, resolve } from 'node:path';

export interface Config {
  host: string;
  port: number;
  siteDir: string;
}

function port(env: NodeJS.ProcessEnv, name: string, fallback: number): number {
  const raw = env[name];
  if (raw === undefined || raw === '') return fallback;
  const value = Number(raw);
  if (!Number.isInteger(value) || value < 0 || value > 65535) {
    throw new Error(`${name} must be a port number from 0 to 65535, got "${raw}"`);
  }
  return value;
}

/** Reads and checks the environment once at start; each wrong setting is named. */
export function loadConfig(env: NodeJS.ProcessEnv = process.env, cwd = process.cwd()): Config {
  const siteDir = resolve(cwd, env.SITE_DIR ?? 'site/build');
  if (!existsSync(join(siteDir, '404.html'))) {
    throw new Error(`SITE_DIR ${siteDir} holds no site build: run "npm run build" first`);
  }
  return { host: env.HOST ?? '127.0.0.1', port: port(env, 'PORT', 3000), siteDir };
}
