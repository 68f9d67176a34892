import { Feed } from 'feed';

import type { ApiModels } from '@portal/built-site/api-reference';
import { symbolUseNote } from '@portal/contract/names';

import type { ModelSymbol, PackageNews, ReleaseNews, SymbolChange, WhatsNew } from './model.js';

const day = (iso: string): string => iso.slice(0, 10);
const minute = (iso: string): string => `${iso.slice(0, 10)} ${iso.slice(11, 16)} UTC`;
const oneLine = (declaration: string): string => declaration.replace(/\s*\n\s*/g, ' ');

/** Why a symbol comes first: the reader's own use of it, in their words, the name as code. */
export const useNote = (symbol: SymbolChange, version: string): string | null =>
  symbolUseNote(symbol, version, (name) => `\`${name}\``);

function symbolMarkdown(symbol: SymbolChange, release: ReleaseNews, absolute: (path: string) => string): string {
  const name = symbol.url ? `[\`${symbol.name}\`](${absolute(symbol.url)})` : `\`${symbol.name}\``;
  const note = useNote(symbol, release.version);
  const lines = [`- ${symbol.change} ${symbol.kind} ${name}${note ? ` (${note})` : ''}`];
  if (symbol.summary) lines.push(`  ${symbol.summary}`);
  if (symbol.before) lines.push(`  - before (${release.comparedWith}): \`${oneLine(symbol.before)}\``);
  if (symbol.after && symbol.change !== 'added')
    lines.push(`  - after (${release.version}): \`${oneLine(symbol.after)}\``);
  return lines.join('\n');
}

/** A release's part of the news as Markdown (the page's `.md`, the feed's entries, the digest). */
export function releaseMarkdown(pkg: PackageNews, release: ReleaseNews, absolute: (path: string) => string): string {
  const compared = release.comparedWith
    ? `Compared with ${release.comparedWith}, the previous release in version order.`
    : 'The first release documented.';
  const breaking = release.breaking
    ? `\n\n**Breaking in a non-major release**: ${release.version} removes or changes symbols of ${release.comparedWith}.`
    : '';
  const symbols = release.symbols.filter((symbol) => symbol.change !== 'added' || release.comparedWith !== null);
  const list =
    symbols.length === 0
      ? 'No change to the API.'
      : symbols.map((s) => symbolMarkdown(s, release, absolute)).join('\n');
  const links = [
    `[changelog](${absolute(release.url)})`,
    ...(release.apiChangesUrl ? [`[API changes](${absolute(release.apiChangesUrl)})`] : []),
  ].join(', ');
  return `### ${pkg.title} ${release.version}\n\nPublished ${minute(release.date)}. ${compared}${breaking}\n\n${list}\n\nSee the ${links}.`;
}

/** The whole news as Markdown: what an assistant reads, and the page's `.md`. */
export function newsMarkdown(news: WhatsNew, absolute: (path: string) => string, email: string): string {
  const parts = [
    `# What's new for you`,
    `For ${email}, since ${minute(news.since)} (${
      news.sinceFrom === 'last-visit'
        ? 'your last visit'
        : news.sinceFrom === 'asked'
          ? 'the date asked'
          : 'the last 30 days'
    }). Only packages and pages you may read.`,
  ];
  if (news.packages.length === 0 && news.changedPages.length === 0 && news.newPages.length === 0)
    parts.push('Nothing is new in the packages and pages you may read since then.');
  if (news.packages.length > 0) {
    parts.push('## New releases');
    for (const pkg of news.packages)
      for (const release of pkg.releases) parts.push(releaseMarkdown(pkg, release, absolute));
  }
  if (news.changedPages.length > 0)
    parts.push(
      '## Pages changed since you read them',
      news.changedPages
        .map(
          (page) =>
            `- [${page.title}](${absolute(page.url)}): changed ${day(page.at)}, you read it ${day(page.lastRead ?? page.at)}`,
        )
        .join('\n'),
    );
  if (news.newPages.length > 0)
    parts.push(
      '## New pages',
      news.newPages.map((page) => `- [${page.title}](${absolute(page.url)}): added ${day(page.at)}`).join('\n'),
    );
  return `${parts.join('\n\n')}\n`;
}

const escapeHtml = (text: string): string =>
  text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');

/** A release as the HTML of a feed entry or a mail: the same facts as its Markdown. */
export function releaseHtml(pkg: PackageNews, release: ReleaseNews, absolute: (path: string) => string): string {
  const symbols = release.symbols
    .filter((symbol) => symbol.change !== 'added' || release.comparedWith !== null)
    .map((symbol) => {
      const note = useNote(symbol, release.version);
      const name = symbol.url
        ? `<a href="${escapeHtml(absolute(symbol.url))}"><code>${escapeHtml(symbol.name)}</code></a>`
        : `<code>${escapeHtml(symbol.name)}</code>`;
      const before = symbol.before
        ? `<br>before (${escapeHtml(release.comparedWith ?? '')}): <code>${escapeHtml(oneLine(symbol.before))}</code>`
        : '';
      const after =
        symbol.after && symbol.change !== 'added'
          ? `<br>after (${escapeHtml(release.version)}): <code>${escapeHtml(oneLine(symbol.after))}</code>`
          : '';
      return `<li>${symbol.change} ${escapeHtml(symbol.kind)} ${name}${note ? ` (${escapeHtml(note.replace(/`/g, ''))})` : ''}${before}${after}</li>`;
    });
  return [
    `<p>Published ${escapeHtml(minute(release.date))}. ${
      release.comparedWith
        ? `Compared with ${escapeHtml(release.comparedWith)}, the previous release in version order.`
        : ''
    }</p>`,
    release.breaking ? `<p><strong>Breaking in a non-major release.</strong></p>` : '',
    symbols.length > 0 ? `<ul>${symbols.join('')}</ul>` : '<p>No change to the API.</p>',
    `<p><a href="${escapeHtml(absolute(release.url))}">Changelog</a>${
      release.apiChangesUrl ? ` · <a href="${escapeHtml(absolute(release.apiChangesUrl))}">API changes</a>` : ''
    }</p>`,
  ].join('');
}

const GENERATOR = 'Norigin Developer Docs';

/** The reader's own feed: one entry per release, changed page and new page of their news. */
export function newsAtom(
  news: WhatsNew,
  options: { origin: string; selfUrl: string; email: string; now: Date },
): string {
  const absolute = (path: string) => new URL(path, options.origin).href;
  const entries: { title: string; id: string; link: string; date: Date; content: string }[] = [];
  for (const pkg of news.packages)
    for (const release of pkg.releases)
      entries.push({
        title: `${pkg.title} ${release.version}${release.breaking ? ' (breaking)' : ''}`,
        id: absolute(`${pkg.url}CHANGELOG#${release.version}`),
        link: absolute(release.apiChangesUrl ?? release.url),
        date: new Date(release.date),
        content: releaseHtml(pkg, release, absolute),
      });
  for (const page of news.changedPages)
    entries.push({
      title: `Changed: ${page.title}`,
      id: `${absolute(page.url)}#changed-${page.at}`,
      link: absolute(page.url),
      date: new Date(page.at),
      content: `<p>Changed on ${escapeHtml(day(page.at))}; you last read it on ${escapeHtml(day(page.lastRead ?? page.at))}.</p>`,
    });
  for (const page of news.newPages)
    entries.push({
      title: `New: ${page.title}`,
      id: `${absolute(page.url)}#added-${page.at}`,
      link: absolute(page.url),
      date: new Date(page.at),
      content: `<p>Added on ${escapeHtml(day(page.at))}.</p>`,
    });
  const feed = new Feed({
    title: `What's new for ${options.email}`,
    description: 'New releases of the packages you use, and the pages that changed since you read them.',
    id: options.selfUrl.replace(/\?.*$/, ''),
    link: absolute('/account/whats-new'),
    feedLinks: { atom: options.selfUrl },
    updated: entries.reduce((latest, entry) => (entry.date > latest ? entry.date : latest), new Date(news.since)),
    generator: GENERATOR,
    copyright: '',
  });
  for (const entry of entries.sort((a, b) => b.date.getTime() - a.date.getTime()))
    feed.addItem({ title: entry.title, id: entry.id, link: entry.link, date: entry.date, content: entry.content });
  return feed.atom1();
}

/** A package's feed of releases (the newest 50), for its readers. */
export function packageAtom(
  models: ApiModels<ModelSymbol>,
  news: PackageNews | undefined,
  options: { origin: string; selfUrl: string },
): string {
  const absolute = (path: string) => new URL(path, options.origin).href;
  const feed = new Feed({
    title: `${models.title} releases`,
    description: `Each release of ${models.package}, with what it removed, changed and added.`,
    id: absolute(`${models.basePath}CHANGELOG`),
    link: absolute(models.basePath),
    feedLinks: { atom: options.selfUrl },
    updated: new Date(news?.releases[0]?.date ?? 0),
    generator: GENERATOR,
    copyright: '',
  });
  for (const release of (news?.releases ?? []).slice(0, 50))
    feed.addItem({
      title: `${models.title} ${release.version}${release.breaking ? ' (breaking)' : ''}`,
      id: absolute(`${models.basePath}CHANGELOG#${release.version}`),
      link: absolute(release.apiChangesUrl ?? release.url),
      date: new Date(release.date),
      content: news ? releaseHtml(news, release, absolute) : '',
    });
  return feed.atom1();
}
