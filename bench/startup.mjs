// Part `startup`: whether each start-up replacement of Docusaurus internals in
// site/src/plugins pays. The site's sources are built cold once as they are and once
// without each replacement (its line taken out of the copy's docusaurus.config.ts), every
// build with every file public and served by the same gate code; then Lighthouse's mobile
// run of the doc page (and of the home page, which shows no code, where Prism is the
// question) interleaves all of them, round after round. Each gain is the figure without
// the replacement over the figure with it (lower is better) or the other way round (a
// score), with its interval; a replacement stays only while the whole interval is at or
// above bench/report.mjs KEEP_GAIN.
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

import { writeManifest } from '@portal/built-site/write';

import { coldBuild } from './build.mjs';
import { copySiteSources, DOC_PATH, median, rewrite, round, startGate, workDir } from './lib.mjs';
import { lighthouseRounds } from './lighthouse.mjs';
import { ratioWithInterval } from './stats.mjs';

/** Each replacement, by the line that registers it in docusaurus.config.ts. */
export const REPLACEMENTS = {
  prism_off_startup: '    prismOffStartup,\n',
};

/** A cold build of the site's sources with `without` taken out of its config, every file public. */
async function buildVariant(name, without, log) {
  const dir = copySiteSources(join(workDir, `startup-${name}`));
  if (without) {
    const configFile = join(dir, 'docusaurus.config.ts');
    writeFileSync(configFile, rewrite(readFileSync(configFile, 'utf8'), without, '', `the line ${without.trim()}`));
  }
  const build = join(dir, 'build');
  const run = await coldBuild(dir, build, 'faster');
  // One compression cache for all of them: most of their files are the same bytes.
  await writeManifest(build, { get: () => 'public' }, { compressionCache: join(workDir, 'startup-compressed') });
  log(`  build "${name}": ${(run.wallMs / 1000).toFixed(1)} s`);
  return build;
}

export async function measureStartup({ emulatorHost, env, cookie, runs, log }) {
  const builds = { baseline: await buildVariant('baseline', null, log) };
  for (const [name, line] of Object.entries(REPLACEMENTS)) builds[name] = await buildVariant(name, line, log);
  const gates = {};
  try {
    for (const [name, siteDir] of Object.entries(builds)) gates[name] = await startGate({ siteDir, emulatorHost, env });
    const target = (name, path) => ({ baseURL: gates[name].baseURL, path, cookie });
    const targets = {
      baseline_doc: target('baseline', DOC_PATH),
      baseline_home: target('baseline', '/'),
      prism_off_startup_home: target('prism_off_startup', '/'),
      ...Object.fromEntries(Object.keys(REPLACEMENTS).map((name) => [`${name}_doc`, target(name, DOC_PATH)])),
    };
    log(`  Lighthouse, mobile: ${Object.keys(targets).join(', ')} × ${runs}`);
    const { samples } = await lighthouseRounds({ targets, runs, formFactors: ['mobile'], log });
    const of = (name, field) => samples[`${name}.mobile`][field];
    /** `gain` of one replacement's figure: without ÷ with for what is better lower, with ÷ without for a score. */
    const gain = (key, withIt, without, field, higherIsBetter = false) => {
      const [figure, peer] = higherIsBetter
        ? [of(withIt, field), of(without, field)]
        : [of(without, field), of(withIt, field)];
      return {
        ...ratioWithInterval(key, figure, peer, { of: 'ratioOfMedians' }),
        [`${key}_with`]: round(median(of(withIt, field)), 0),
        [`${key}_without`]: round(median(of(without, field)), 0),
      };
    };
    return {
      'startup.runs': runs,
      'startup.page': DOC_PATH,
      ...gain('startup.prism_off_startup.home_js_gain', 'baseline_home', 'prism_off_startup_home', 'script_bytes'),
      ...gain('startup.prism_off_startup.doc_mobile_tbt_gain', 'baseline_doc', 'prism_off_startup_doc', 'tbt_ms'),
    };
  } finally {
    for (const gate of Object.values(gates)) await gate.stop();
  }
}
