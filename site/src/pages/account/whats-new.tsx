import { useCallback, useEffect, useRef, useState } from 'react';
import clsx from 'clsx';
import Layout from '@theme/Layout';
import Heading from '@theme/Heading';
import Link from '@docusaurus/Link';

import { symbolUseNote } from '@portal/contract/names';

import { messageOf } from '@site/src/api/json-api';
import CopyField from '@site/src/components/assistant/CopyField';
import accountStyles from '@site/src/components/account/account.module.css';
import {
  type FeedToken,
  type NewsSettings,
  newsApi,
  type PackageNews,
  type ReleaseNews,
  type SymbolChange,
  type WhatsNew,
} from '@site/src/components/whats-new/api';
import styles from '@site/src/components/whats-new/whats-new.module.css';

const day = (iso: string): string => iso.slice(0, 10);
const minute = (iso: string): string => `${iso.slice(0, 10)} ${iso.slice(11, 16)} UTC`;

/** "You read setFocus; 3.2.1 changed its signature." */
function useNote(symbol: SymbolChange, version: string): string | null {
  const note = symbolUseNote(symbol, version);
  return note === null ? null : `${note.charAt(0).toUpperCase()}${note.slice(1)}.`;
}

function SymbolItem({ symbol, release }: { symbol: SymbolChange; release: ReleaseNews }): React.JSX.Element {
  const note = useNote(symbol, release.version);
  return (
    <li className={clsx(styles.symbol, symbol.use !== null && styles.used)}>
      <p className={styles.symbolHead}>
        <span className={clsx(styles.change, styles[`change-${symbol.change}`])}>{symbol.change}</span> {symbol.kind}{' '}
        {symbol.url ? (
          <Link to={symbol.url}>
            <code>{symbol.name}</code>
          </Link>
        ) : (
          <code>{symbol.name}</code>
        )}
      </p>
      {note && <p className={styles.useNote}>{note}</p>}
      {symbol.change !== 'added' && (
        <div className={styles.signatures}>
          <figure>
            <figcaption>Before ({release.comparedWith})</figcaption>
            <pre tabIndex={0}>
              <code>{symbol.before}</code>
            </pre>
          </figure>
          {symbol.after !== null && (
            <figure>
              <figcaption>After ({release.version})</figcaption>
              <pre tabIndex={0}>
                <code>{symbol.after}</code>
              </pre>
            </figure>
          )}
        </div>
      )}
    </li>
  );
}

function PackageCard({
  pkg,
  onWatch,
}: {
  pkg: PackageNews;
  onWatch: (pkg: PackageNews, watching: boolean) => void;
}): React.JSX.Element {
  const headingId = `package-${pkg.id}`;
  const [feed, setFeed] = useState<string | null>(null);
  const [feedError, setFeedError] = useState('');
  async function makeFeed(): Promise<void> {
    try {
      setFeed((await newsApi.makeFeedToken(`package:${pkg.id}`)).url);
      setFeedError('');
    } catch (caught) {
      setFeedError(messageOf(caught, 'No feed address was made; try again.'));
    }
  }
  return (
    <section className={accountStyles.card} aria-labelledby={headingId}>
      <div className={styles.cardHead}>
        <h3 id={headingId}>
          <Link to={pkg.url}>{pkg.title}</Link>
        </h3>
        <div className={styles.cardActions}>
          <button
            type="button"
            className="button button--secondary button--sm"
            aria-pressed={pkg.watched}
            onClick={() => onWatch(pkg, !pkg.watched)}
          >
            {pkg.watched ? 'Watching' : 'Watch'}
          </button>
          <button
            type="button"
            className="button button--secondary button--sm"
            aria-label={`Feed of its releases: ${pkg.title}`}
            onClick={() => void makeFeed()}
          >
            Feed of its releases
          </button>
        </div>
      </div>
      {feed && (
        <div className={styles.made}>
          <CopyField label={`Feed address of ${pkg.title}`} value={feed} />
        </div>
      )}
      <div role="alert">{feedError && <p className={accountStyles.error}>{feedError}</p>}</div>
      {pkg.used > 0 && (
        <p className={styles.usedLine}>
          {pkg.used === 1 ? 'A symbol you use changed.' : `${pkg.used} symbols you use changed.`}
        </p>
      )}
      {pkg.releases.map((release) => (
        <div key={release.version} className={styles.release}>
          <h4>
            {release.version} <span className={styles.date}>published {minute(release.date)}</span>
          </h4>
          <p className={styles.compared}>
            {release.comparedWith
              ? `Compared with ${release.comparedWith}, the previous release in version order.`
              : 'The first release documented.'}
            {release.breaking && <strong className={styles.breaking}> Breaking in a non-major release.</strong>}
          </p>
          {release.symbols.length === 0 ? (
            <p>No change to the API.</p>
          ) : (
            <ul className={styles.symbols}>
              {release.symbols
                .filter((symbol) => symbol.change !== 'added' || release.comparedWith !== null)
                .map((symbol) => (
                  <SymbolItem key={`${symbol.change}-${symbol.name}`} symbol={symbol} release={release} />
                ))}
            </ul>
          )}
          <p className={styles.links}>
            <Link to={release.url}>Changelog</Link>
            {release.apiChangesUrl && (
              <>
                {' · '}
                <Link to={release.apiChangesUrl}>API changes</Link>
              </>
            )}
          </p>
        </div>
      ))}
    </section>
  );
}

function Settings({ settings, onChange }: { settings: NewsSettings; onChange: () => void }): React.JSX.Element {
  const [status, setStatus] = useState('');
  const [error, setError] = useState('');
  // The reader's choice shows at once; a save that fails puts the saved one back.
  const [chosen, setChosen] = useState<Pick<NewsSettings, 'digest' | 'personalOrder'>>({
    digest: settings.digest,
    personalOrder: settings.personalOrder,
  });
  async function save(change: Partial<Pick<NewsSettings, 'digest' | 'personalOrder'>>): Promise<void> {
    const before = chosen;
    setChosen({ ...chosen, ...change });
    try {
      const saved = await newsApi.saveSettings(change);
      setChosen({ digest: saved.digest, personalOrder: saved.personalOrder });
      setError('');
      setStatus(
        change.digest === undefined
          ? 'Saved.'
          : change.digest === 'off'
            ? 'No digest will be mailed to you.'
            : `A digest will be mailed to ${settings.email} ${change.digest === 'release' ? 'with each release of a package you watch' : 'once a week'}.`,
      );
      onChange();
    } catch (caught) {
      setChosen(before);
      setError(messageOf(caught, 'Not saved; try again.'));
    }
  }
  return (
    <section className={accountStyles.card} aria-labelledby="settings-heading">
      <h2 id="settings-heading">Mail and ordering</h2>
      <fieldset className={styles.choices}>
        <legend>Mail me a digest</legend>
        {(
          [
            ['off', 'Never'],
            ['release', 'With each release of a package I watch'],
            ['weekly', 'Once a week'],
          ] as const
        ).map(([value, label]) => (
          <label key={value}>
            <input
              type="radio"
              name="digest"
              value={value}
              checked={chosen.digest === value}
              onChange={() => void save({ digest: value })}
            />{' '}
            {label}
          </label>
        ))}
      </fieldset>
      <label className={styles.check}>
        <input
          type="checkbox"
          checked={chosen.personalOrder}
          onChange={(event) => void save({ personalOrder: event.target.checked })}
        />{' '}
        Put the packages and symbols I use first (from what I read here)
      </label>
      <div role="alert">{error && <p className={accountStyles.error}>{error}</p>}</div>
      <p role="status" className={accountStyles.notice}>
        {status}
      </p>
    </section>
  );
}

function Feeds(): React.JSX.Element {
  const [tokens, setTokens] = useState<FeedToken[] | null>(null);
  const [made, setMade] = useState<string | null>(null);
  const [error, setError] = useState('');
  const load = useCallback(
    () =>
      newsApi.feedTokens().then(
        (list) => setTokens(list.tokens),
        (caught: unknown) => setError(messageOf(caught, 'Could not load your feed tokens.')),
      ),
    [],
  );
  useEffect(() => {
    void load();
  }, [load]);
  async function make(): Promise<void> {
    try {
      setMade((await newsApi.makeFeedToken('whats-new')).url);
      setError('');
      await load();
    } catch (caught) {
      setError(messageOf(caught, 'No feed address was made; try again.'));
    }
  }
  async function revoke(id: string): Promise<void> {
    try {
      await newsApi.revokeFeedToken(id);
      setMade(null);
      await load();
    } catch (caught) {
      setError(messageOf(caught, 'The feed token was not revoked; try again.'));
    }
  }
  const live = (tokens ?? []).filter((token) => token.revokedAt === null);
  return (
    <section className={accountStyles.card} aria-labelledby="feeds-heading">
      <h2 id="feeds-heading">In your feed reader</h2>
      <p>
        An Atom feed of what is new for you, for Thunderbird, Feedly or Slack’s RSS app. Its address carries a feed
        token that reads this one feed and nothing else; it is shown once.
      </p>
      <button type="button" className="button button--primary button--sm" onClick={() => void make()}>
        Make a feed address
      </button>
      {made && (
        <div className={styles.made}>
          <CopyField label="Feed address" value={made} />
        </div>
      )}
      <div role="alert">{error && <p className={accountStyles.error}>{error}</p>}</div>
      {live.length > 0 && (
        <ul className={styles.tokens}>
          {live.map((token) => (
            <li key={token.id}>
              <code>{token.hint}</code> made {day(token.createdAt)}
              {token.lastUsedAt ? `, last read ${day(token.lastUsedAt)}` : ', not read yet'}{' '}
              <button
                type="button"
                className="button button--secondary button--sm"
                onClick={() => void revoke(token.id)}
              >
                Revoke
              </button>
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}

function Privacy({ settings, onChange }: { settings: NewsSettings; onChange: () => void }): React.JSX.Element {
  const [status, setStatus] = useState('');
  const [error, setError] = useState('');
  const { kept } = settings;
  async function clear(): Promise<void> {
    try {
      const { views } = await newsApi.clearReading();
      setStatus(`Cleared: ${views} ${views === 1 ? 'row' : 'rows'} of your reading.`);
      setError('');
      onChange();
    } catch (caught) {
      setError(messageOf(caught, 'Nothing was cleared; try again.'));
    }
  }
  return (
    <section className={accountStyles.card} aria-labelledby="privacy-heading">
      <h2 id="privacy-heading">What the portal keeps of your reading</h2>
      <p>
        {kept.pages === 0
          ? 'Nothing: no page you read is kept.'
          : `${kept.pages} ${kept.pages === 1 ? 'page' : 'pages'} you read, ${kept.views} ${kept.views === 1 ? 'view' : 'views'} in all, from ${day(kept.from ?? '')} to ${day(kept.to ?? '')}, counted per page and hour, and ${kept.watches} watch ${kept.watches === 1 ? 'choice' : 'choices'}.`}{' '}
        It orders this page for you; administrators see page views in the audit trail, never this page.
      </p>
      <button
        type="button"
        className="button button--secondary button--sm"
        disabled={kept.pages === 0 && kept.watches === 0}
        onClick={() => void clear()}
      >
        Clear my reading
      </button>
      <div role="alert">{error && <p className={accountStyles.error}>{error}</p>}</div>
      <p role="status" className={accountStyles.notice}>
        {status}
      </p>
    </section>
  );
}

/**
 * `/account/whats-new`: since the reader's last visit or a date they pick, the new releases
 * of the packages they may read (the symbols they use first, both signatures), the pages
 * changed since they read them and the new pages; what they watch, the digest, their feed,
 * and what the portal keeps of their reading. Under `/account`: every signed-in reader's.
 */
export default function WhatsNewPage(): React.JSX.Element {
  const [since, setSince] = useState('');
  const [news, setNews] = useState<WhatsNew | null>(null);
  const [settings, setSettings] = useState<NewsSettings | null>(null);
  const [error, setError] = useState('');
  // Only the newest question's answer is shown: an earlier one (another date) may come after it.
  const asked = useRef(0);
  const load = useCallback(() => {
    const question = ++asked.current;
    newsApi.news(since || undefined).then(
      (answer) => {
        if (question !== asked.current) return;
        setNews(answer);
        setError('');
      },
      (caught: unknown) => {
        if (question === asked.current) setError(messageOf(caught, 'Could not load what is new for you.'));
      },
    );
    newsApi.settings().then(setSettings, () => undefined);
  }, [since]);
  useEffect(() => load(), [load]);

  async function watch(pkg: PackageNews, watching: boolean): Promise<void> {
    try {
      await newsApi.watch('package', pkg.url, watching);
      load();
    } catch (caught) {
      setError(messageOf(caught, 'Not saved; try again.'));
    }
  }

  const nothing = news && news.packages.length + news.changedPages.length + news.newPages.length === 0;
  return (
    <Layout
      title="What’s new for you"
      description="New releases of the packages you use, the symbols that changed, and the pages changed since you read them."
    >
      <main className={clsx('container', accountStyles.page)}>
        <Heading as="h1">What’s new for you</Heading>
        <form
          className={styles.since}
          onSubmit={(event) => {
            event.preventDefault();
          }}
        >
          <label htmlFor="news-since">Since</label>
          <input
            id="news-since"
            type="date"
            value={since}
            max={new Date().toISOString().slice(0, 10)}
            onChange={(event) => setSince(event.target.value)}
          />
          <span className={styles.sinceNote}>
            {news
              ? since
                ? `${day(news.since)}, the date you chose.`
                : news.sinceFrom === 'last-visit'
                  ? `your last visit, ${minute(news.since)}.`
                  : 'the last 30 days (no visit before this one).'
              : '\u00a0'}
          </span>
          {since && (
            <button type="button" className="button button--link button--sm" onClick={() => setSince('')}>
              Since my last visit
            </button>
          )}
        </form>
        <div role="alert">{error && <p className={accountStyles.error}>{error}</p>}</div>
        <p className={styles.assistant}>
          Your assistant reads the same with the MCP tool <code>whats_new</code>, or as{' '}
          <a href="/account/whats-new.md">Markdown</a>.
        </p>
        {news === null && !error && <p className={styles.loading}>Looking for what changed…</p>}
        {nothing && <p className={styles.nothing}>Nothing is new in the packages and pages you may read since then.</p>}
        {news && news.packages.length > 0 && (
          <section aria-labelledby="releases-heading">
            <h2 id="releases-heading">New releases</h2>
            {news.packages.map((pkg) => (
              <PackageCard key={pkg.id} pkg={pkg} onWatch={(p, w) => void watch(p, w)} />
            ))}
          </section>
        )}
        {news && news.changedPages.length > 0 && (
          <section className={accountStyles.card} aria-labelledby="changed-heading">
            <h2 id="changed-heading">Pages changed since you read them</h2>
            <ul>
              {news.changedPages.map((page) => (
                <li key={page.url}>
                  <Link to={page.url}>{page.title}</Link>: changed {day(page.at)}, you read it{' '}
                  {day(page.lastRead ?? page.at)}
                </li>
              ))}
            </ul>
          </section>
        )}
        {news && news.newPages.length > 0 && (
          <section className={accountStyles.card} aria-labelledby="new-heading">
            <h2 id="new-heading">New pages</h2>
            <ul>
              {news.newPages.map((page) => (
                <li key={page.url}>
                  <Link to={page.url}>{page.title}</Link>: added {day(page.at)}
                </li>
              ))}
            </ul>
          </section>
        )}
        {settings && <Settings settings={settings} onChange={load} />}
        <Feeds />
        {settings && <Privacy settings={settings} onChange={load} />}
      </main>
    </Layout>
  );
}
