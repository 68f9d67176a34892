import clsx from 'clsx';
import Link from '@docusaurus/Link';
import useDocusaurusContext from '@docusaurus/useDocusaurusContext';
import CodeBlock from '@theme/CodeBlock';
import Heading from '@theme/Heading';
import Layout from '@theme/Layout';

import { linkMark } from '@site/src/access/item-marks';
import AccessLock from '@site/src/components/AccessLock';
import { WHATS_NEW_PATH } from '@site/src/components/NavbarAuthItem/AccountMenu';
import { useNewsSummary } from '@site/src/components/whats-new/summary';
import { useAuth } from '@site/src/auth/AuthProvider';
import { familyNote, families } from '@site/src/data/families';
import { PLATFORM_IDS, PLATFORMS, type PlatformId } from '@site/src/data/platforms';
import { formatReleaseDate, useReleases, type ProjectRelease } from '@site/src/data/releases';
import BrowserIcon from '@site/src/icons/browser.svg';
import StreamingBoxIcon from '@site/src/icons/streaming-box.svg';
import TvIcon from '@site/src/icons/tv.svg';

import styles from './index.module.css';

const INSTALL = `pnpm add @noriginmedia/player-manager \\
  @noriginmedia/player-adapter-shaka`;

const PLAYER_SETUP = `import { createPlayerManager } from '@noriginmedia/player-manager';
import { ShakaAdapter } from '@noriginmedia/player-adapter-shaka';

const manager = createPlayerManager({
  container: document.getElementById('player')!,
  adapters: [ShakaAdapter],
});

await manager.load({
  url: 'https://cdn.example.com/live/manifest.mpd',
  type: 'dash',
});
manager.on('statechange', (state) => console.log(state));`;

const PLATFORM_ICONS: Record<PlatformId, typeof TvIcon> = {
  tizen: TvIcon,
  webos: TvIcon,
  web: BrowserIcon,
  androidtv: StreamingBoxIcon,
  tvos: StreamingBoxIcon,
};

/** How many releases "What's new" lists (a reader outside some groups sees fewer). */
const LATEST = 6;

/** "3 packages you use changed": a signed-in reader's news since their last visit, as a link to all of it. */
function NewsLine(): React.JSX.Element {
  const news = useNewsSummary();
  let text = '';
  if (news !== null && news.count > 0)
    text =
      news.packages > 0
        ? `${news.packages === 1 ? 'A package you may read has' : `${news.packages} packages you may read have`} new releases since your last visit`
        : `${news.count === 1 ? 'A page' : `${news.count} pages`} changed since you read ${news.count === 1 ? 'it' : 'them'}`;
  return (
    <p className={styles.newsLine} aria-live="polite">
      {text && <Link to={WHATS_NEW_PATH}>{text}</Link>}
    </p>
  );
}

function Hero(): React.JSX.Element {
  const { siteConfig } = useDocusaurusContext();
  return (
    <div className={styles.hero}>
      <div className={clsx('container', styles.heroGrid)}>
        <div className={styles.heroText}>
          <p className={styles.eyebrow}>Norigin Media · TV front-end platform</p>
          <Heading as="h1" className={styles.title}>
            {siteConfig.tagline}
          </Heading>
          <p className={styles.lead}>
            Playback, remote-control focus, UI components and CMS-driven layouts for Samsung Tizen, LG webOS, web
            browsers, Android TV, Fire TV and Apple tvOS, documented by the teams that build them.
          </p>
          <div className={styles.actions}>
            <Link className={clsx('button button--primary button--lg', styles.primary)} to="/docs/">
              Get started
            </Link>
            <Link className={clsx('button button--lg', styles.secondary)} to="#packages">
              Browse the packages
            </Link>
          </div>
          <NewsLine />
          {/* Shown from the first paint to a signed-out visitor (the root's class, set by the head script). */}
          <p className={styles.signedOutNote}>
            Getting Started and Norigin Spatial Navigation are open to everyone. <Link to="/login">Sign in</Link> to
            read the rest.
          </p>
        </div>
        <section className={styles.quickStart} aria-labelledby="quick-start">
          <Heading as="h2" id="quick-start" className={styles.quickStartTitle}>
            Play a stream in a few lines
          </Heading>
          <CodeBlock language="bash" title="1. Install">
            {INSTALL}
          </CodeBlock>
          <CodeBlock language="ts" title="2. Create a player and load a source">
            {PLAYER_SETUP}
          </CodeBlock>
          <p className={styles.registry}>
            Packages come from the company registry: add <code>@noriginmedia:registry=https://npm.norigin.example</code>{' '}
            to your <code>.npmrc</code>.
          </p>
        </section>
      </div>
    </div>
  );
}

function Families({ versions }: { versions: ReadonlyMap<string, string> }): React.JSX.Element {
  const { state } = useAuth();
  const units = state.status === 'signedIn' ? state.units : null;
  return (
    <section className={styles.section} aria-labelledby="packages">
      <div className="container">
        <Heading as="h2" id="packages" className={styles.sectionTitle}>
          Package families
        </Heading>
        <p className={styles.sectionLead}>Every package is versioned, tested on real TVs, and used in our own apps.</p>
        <ul className={styles.families}>
          {families.map((family) => {
            const { id, title, to, summary, Icon, project } = family;
            const version = project === undefined ? undefined : versions.get(project);
            const note = familyNote(family, units);
            // Marked with who may open it: other readers do not see it (src/plugins/access-marks.ts).
            return (
              <li key={id} className={linkMark(to) ?? undefined}>
                <Link to={to} className={styles.family}>
                  <span className={styles.familyIcon}>
                    <Icon aria-hidden="true" focusable="false" />
                  </span>
                  <Heading as="h3" className={styles.familyTitle}>
                    {title}
                    <AccessLock to={to} />
                  </Heading>
                  <p className={styles.familySummary}>{summary}</p>
                  {(version || note) && (
                    <p className={styles.familyMeta}>
                      {version && <span className={styles.version}>v{version}</span>}
                      {note && <span>{note}</span>}
                    </p>
                  )}
                </Link>
              </li>
            );
          })}
        </ul>
      </div>
    </section>
  );
}

function Platforms(): React.JSX.Element {
  return (
    <section className={clsx(styles.section, styles.band)} aria-labelledby="platforms">
      <div className="container">
        <Heading as="h2" id="platforms" className={styles.sectionTitle}>
          Runs on the TVs your viewers own
        </Heading>
        <p className={styles.sectionLead}>
          From 2018 TVs to this year’s: builds target ES2017 with polyfills, down to Chromium 56 on Tizen 4.0.
        </p>
        <ul className={styles.platforms}>
          {PLATFORM_IDS.map((id) => {
            const Icon = PLATFORM_ICONS[id];
            return (
              <li key={id} className={styles.platform}>
                <Icon className={styles.platformIcon} aria-hidden="true" focusable="false" />
                <span className={styles.platformName}>{PLATFORMS[id].name}</span>
                <span className={styles.platformDetail}>{PLATFORMS[id].versions}</span>
                <span className={styles.platformDetail}>{PLATFORMS[id].player}</span>
              </li>
            );
          })}
        </ul>
      </div>
    </section>
  );
}

function changesText({ changes }: ProjectRelease): string {
  return (['added', 'changed', 'fixed', 'removed'] as const)
    .filter((kind) => changes[kind] > 0)
    .map((kind) => `${changes[kind]} ${kind}`)
    .join(' · ');
}

function WhatsNew({ releases }: { releases: readonly ProjectRelease[] }): React.JSX.Element {
  return (
    <section className={styles.section} aria-labelledby="whats-new">
      <div className="container">
        <Heading as="h2" id="whats-new" className={styles.sectionTitle}>
          What’s new
        </Heading>
        <p className={styles.sectionLead}>The latest release of each project, from its changelog.</p>
        <ol className={styles.releases}>
          {releases.slice(0, LATEST).map((release) => {
            const mark = linkMark(release.permalink) ?? undefined;
            return (
              <li key={release.project} className={mark}>
                <Link to={release.permalink} className={styles.release}>
                  <time dateTime={release.date} className={styles.releaseDate}>
                    {formatReleaseDate(release.date)}
                  </time>
                  <span className={styles.releaseName}>
                    {release.name} <span className={styles.version}>{release.version}</span>
                    <AccessLock to={release.permalink} />
                  </span>
                  <span className={styles.releaseChanges}>{changesText(release)}</span>
                </Link>
              </li>
            );
          })}
        </ol>
      </div>
    </section>
  );
}

export default function Home(): React.JSX.Element {
  const { siteConfig } = useDocusaurusContext();
  const releases = useReleases();
  const versions = new Map(releases.map((release) => [release.project, release.version]));
  return (
    <Layout title="Home" description={siteConfig.tagline}>
      <main>
        <Hero />
        <Families versions={versions} />
        <Platforms />
        <WhatsNew releases={releases} />
      </main>
    </Layout>
  );
}
