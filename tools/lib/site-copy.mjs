// Copies of the site's sources to build elsewhere, for the benchmark and for tests that run
// Docusaurus on a content cache of their own.
import { execFile } from 'node:child_process';
import { cpSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

import { parse, stringify } from 'yaml';

const root = join(dirname(fileURLToPath(import.meta.url)), '..', '..');

/** Docusaurus's command line, run with `node` in a copy's folder. */
export const docusaurusBin = join(root, 'node_modules', '@docusaurus', 'core', 'bin', 'docusaurus.mjs');

/**
 * Runs a Docusaurus command (`build`, `archive-releases`) in a copy, over the content cache
 * `cacheDir`, with Docusaurus Faster; answers what it printed, or fails with it.
 */
export function docusaurus(siteDir, command, { cacheDir, env = {} }) {
  return new Promise((resolve, reject) => {
    execFile(
      process.execPath,
      [docusaurusBin, command],
      {
        cwd: siteDir,
        env: { ...process.env, PORTAL_SOURCES_CACHE: cacheDir, PORTAL_BUNDLER: 'faster', ...env },
        maxBuffer: 64 * 1024 * 1024,
      },
      (error, stdout, stderr) =>
        error
          ? reject(new Error(`docusaurus ${command} failed: ${error.message}\n${stdout}\n${stderr}`))
          : resolve(stdout + stderr),
    );
  });
}

const SITE_SOURCES = [
  'blog',
  'docs',
  'sources',
  'sources.yaml',
  'src',
  'static',
  'docusaurus.config.ts',
  'sidebars.ts',
  'site.facts.json',
  'package.json',
  'tsconfig.json',
];

/** The config's line that loads the gate-files plugin (site/src/plugins/gate-files). */
const GATE_FILES_PRESET = "    ['./src/plugins/gate-files/preset.ts', {} satisfies GateFilesOptions],\n";

/**
 * A copy of the site's sources (no build output, no caches) at `dest`, emptied first,
 * without the gate-files plugin unless `gateFiles`. `dest` must sit inside the repository,
 * so packages resolve from the root node_modules as they do for `site/`.
 */
export function copySiteSources(dest, { gateFiles = false } = {}) {
  rmSync(dest, { recursive: true, force: true });
  mkdirSync(dest, { recursive: true });
  for (const name of SITE_SOURCES) cpSync(join(root, 'site', name), join(dest, name), { recursive: true });
  if (gateFiles) return dest;
  // Timed builds and peers are Docusaurus's work alone, as before the gate step moved into
  // the build; the generated pages match no rule of the access policy, which it enforces.
  const config = join(dest, 'docusaurus.config.ts');
  writeFileSync(config, rewrite(readFileSync(config, 'utf8'), GATE_FILES_PRESET, '', 'the gate-files preset'));
  return dest;
}

/** Replaces `from` with `to` in a file's text; throws if `from` is not there (the site changed). */
export function rewrite(text, from, to, what) {
  if (!text.includes(from))
    throw new Error(`Could not change the site's copy: cannot find ${what}; update the caller to match.`);
  return text.replace(from, to);
}

/**
 * Sets, in a copy's sources.yaml, the range of releases each source named in `ranges`
 * publishes (by source id); throws, like `rewrite`, when the file has no source of an id.
 */
export function publishVersions(siteDir, ranges) {
  const file = join(siteDir, 'sources.yaml');
  const data = parse(readFileSync(file, 'utf8'));
  const missing = Object.keys(ranges).filter((id) => !data.sources.some((source) => source.id === id));
  if (missing.length)
    throw new Error(
      `Could not change the site's copy: sources.yaml has no source ${missing.join(', ')}; update the caller to match.`,
    );
  for (const source of data.sources) if (ranges[source.id] !== undefined) source.versions = ranges[source.id];
  writeFileSync(file, stringify(data));
}
