// Generated doc pages for the build-growth benchmark: `count` Markdown pages in groups of
// 50, each a category in a sidebar of its own, shaped like the portal's package pages
// (front matter, headings, a table, a code block that Prism highlights, an admonition,
// links to neighbours). The text varies with the page number and is the same every run.
import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

export const GENERATED_DIR = 'bench-generated';
const GROUP_SIZE = 50;

const PACKAGES = [
  'player-adapter-dash.js',
  'player-adapter-hls.js',
  'player-adapter-shaka',
  'player-adapter-tizen',
  'player-adapter-webos',
  'tracking-adapter-mux',
  'tracking-adapter-conviva',
  'spatial-navigation',
  'layout-engine',
  'whitelabel-theme',
];
const DEVICES = ['Tizen 6.5', 'webOS 22', 'Android TV 12', 'Fire OS 8', 'Vidaa U7', 'Titan OS 1.2', 'PlayStation 5'];
const TOPICS = [
  ['Buffering thresholds', 'how long the adapter waits before it reports a stall'],
  ['Focus restoration', 'which element receives focus after a modal closes'],
  ['Bitrate ceilings', 'the highest rendition the adapter selects on a given panel'],
  ['Ad break markers', 'how VAST cue points appear on the seek bar'],
  ['Remote key mapping', 'which key codes each platform sends for the media keys'],
  ['Row virtualisation', 'how many off-screen tiles the layout engine keeps mounted'],
  ['Theme tokens', 'which colour and spacing tokens a whitelabel build may override'],
  ['Heartbeat events', 'how often tracking adapters report playback progress'],
];

const groupOf = (n) => `group-${String(Math.ceil(n / GROUP_SIZE)).padStart(2, '0')}`;
const linkTo = (n) => `../${groupOf(n)}/page-${String(n).padStart(4, '0')}.md`;

function page(n, count) {
  const pkg = PACKAGES[n % PACKAGES.length];
  const [topic, about] = TOPICS[n % TOPICS.length];
  const device = DEVICES[n % DEVICES.length];
  const limit = 250 + ((n * 37) % 750);
  const previous = n > 1 ? `[previous recipe](${linkTo(n - 1)})` : 'the first recipe';
  const next = n < count ? `[next recipe](${linkTo(n + 1)})` : 'the last recipe';
  return `---
title: '${topic} in ${pkg} (recipe ${n})'
description: 'Recipe ${n}: ${about} in ${pkg} on ${device}.'
---

# ${topic} in ${pkg}

This recipe explains ${about}. It applies to \`${pkg}\` on ${device} and later firmware.
Read it after ${previous}; the ${next} builds on it.

## When to change the default

The default of ${limit} ms suits most panels. Lower it only when the device decodes
quickly and the network is stable; raise it on ${device} when readers report stalls.

| Setting | Default | Range | Notes |
| --- | --- | --- | --- |
| \`threshold\` | ${limit} | 100 to 2000 | milliseconds before the adapter reacts |
| \`retries\` | ${1 + (n % 5)} | 0 to 10 | attempts before an error is raised |
| \`log\` | \`false\` | \`true\` or \`false\` | prints each decision to the console |

## Configuration

\`\`\`ts title="src/player/recipe-${n}.ts"
import { createPlayerManager } from '@norigin/player-manager';

export const manager = createPlayerManager({
  adapter: '${pkg}',
  options: {
    threshold: ${limit},
    retries: ${1 + (n % 5)},
    onDecision: (event) => {
      if (event.kind === 'stall' && event.durationMs > ${limit}) {
        console.warn('recipe ${n}: stall of', event.durationMs, 'ms on', event.device);
      }
    },
  },
});
\`\`\`

:::tip

Measure on the slowest device you support. A value that works on ${device} is usually
safe on faster hardware, but not the other way round.

:::

## Checklist

- The threshold is set per platform, not once for every build.
- Stalls longer than ${limit} ms are logged with the device name.
- The setting is covered by a test that plays the sample stream for 30 seconds.
`;
}

/** Writes `count` generated pages under `<docsDir>/bench-generated/`, replacing older ones. */
export function generateDocs(docsDir, count) {
  const base = join(docsDir, GENERATED_DIR);
  rmSync(base, { recursive: true, force: true });
  for (let group = 0; group * GROUP_SIZE < count; group++) {
    const dir = join(base, groupOf(group * GROUP_SIZE + 1));
    mkdirSync(dir, { recursive: true });
    writeFileSync(
      join(dir, '_category_.json'),
      JSON.stringify({ label: `Recipes ${group * GROUP_SIZE + 1}–${Math.min(count, (group + 1) * GROUP_SIZE)}` }),
    );
    for (let n = group * GROUP_SIZE + 1; n <= Math.min(count, (group + 1) * GROUP_SIZE); n++) {
      writeFileSync(join(dir, `page-${String(n).padStart(4, '0')}.md`), page(n, count));
    }
  }
}
