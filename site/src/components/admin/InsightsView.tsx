import { useEffect, useRef, useState } from 'react';
import Link from '@docusaurus/Link';

import { messageOf } from '@site/src/api/json-api';
import { ColumnHeads } from '@site/src/components/DataTable';

import { adminApi, type InsightsAnswer as Insights, type InsightsPages } from './api';
import { formatTime } from './format';
import TableWrap from './TableWrap';
import styles from './admin.module.css';
import own from './insights.module.css';

type PageDescription = InsightsPages['pages'][number];
/** Page descriptions by path; empty until they arrive, when pages are named by path. */
type PageNames = ReadonlyMap<string, PageDescription>;

/**
 * A page as readers know it: its title (a link to it) and its unit below, or its path while
 * the titles load or for a page the build no longer has.
 */
function PageName({ path, names }: { path: string; names: PageNames }): React.JSX.Element {
  const page = names.get(path);
  return (
    <>
      <Link to={path} className={own.pageName} title={path}>
        {page?.title ?? path}
      </Link>
      {page?.unitLabel && <span className={own.unit}>{page.unitLabel}</span>}
    </>
  );
}

/**
 * One of the insights' tables: a caption, its columns (the first heads each row), a row per
 * item, or one line saying there is nothing in the period.
 */
function FigureTable<T>({
  caption,
  columns,
  rows,
  empty,
  row,
}: {
  caption: string;
  columns: string[];
  rows: readonly T[];
  empty: string;
  row: (item: T) => { key: string; head: React.ReactNode; cells: React.ReactNode[] };
}): React.JSX.Element {
  return (
    <TableWrap label={caption}>
      <table className={styles.table}>
        <caption>{caption}</caption>
        <ColumnHeads columns={columns} />
        <tbody>
          {rows.length === 0 ? (
            <tr>
              <td colSpan={columns.length}>{empty}</td>
            </tr>
          ) : (
            rows.map((item) => {
              const { key, head, cells } = row(item);
              return (
                <tr key={key}>
                  <th scope="row">{head}</th>
                  {cells.map((cell, index) => (
                    <td key={index}>{cell}</td>
                  ))}
                </tr>
              );
            })
          )}
        </tbody>
      </table>
    </TableWrap>
  );
}

/** The most asked searches with their counts, readers' or assistants'. */
function QueryTable({
  caption,
  rows,
}: {
  caption: string;
  rows: { query: string; times: number }[];
}): React.JSX.Element {
  return (
    <FigureTable
      caption={caption}
      columns={['Query', 'Times']}
      rows={rows}
      empty="No searches in this period."
      row={(item) => ({ key: item.query, head: item.query, cells: [item.times] })}
    />
  );
}

const CLIENT_KINDS = { token: 'Personal token', oauth: 'Signed-in app (OAuth)' } as const;

/** What assistants did for readers: per client, their most asked searches and those that found nothing. */
function AssistantsSection({ data }: { data: Insights['assistants'] }): React.JSX.Element {
  return (
    <section className={styles.card} aria-labelledby="assistants-heading">
      <h2 id="assistants-heading">Assistants</h2>
      <p>
        What coding assistants read and searched for readers, through MCP, the search API, the Markdown pages and the
        llms files, with a personal token or as an app the reader allowed: <strong>{data.views}</strong> reads and{' '}
        <strong>{data.searches}</strong> searches ({data.withoutResults} without results) for{' '}
        <strong>{data.readers}</strong> readers.
      </p>
      <FigureTable
        caption="By client"
        columns={['Client', 'Signs in with', 'Reads', 'Searches', 'Without results']}
        rows={data.clients}
        empty="No assistant read or searched in this period."
        row={(client) => ({
          key: `${client.kind} ${client.name}`,
          head: client.name,
          cells: [CLIENT_KINDS[client.kind], client.views, client.searches, client.withoutResults],
        })}
      />
      <FigureTable
        caption="Assistants’ searches that found nothing"
        columns={['Query', 'Times', 'Clients', 'Last']}
        rows={data.failed}
        empty="None in this period."
        row={(search) => ({
          key: search.query,
          head: search.query,
          cells: [
            search.times,
            <ul key="clients" className={own.clients}>
              {search.clients.map((client) => (
                <li key={client}>{client}</li>
              ))}
            </ul>,
            <span key="last" className={styles.nowrap}>
              {formatTime(search.lastAt)}
            </span>,
          ],
        })}
      />
    </section>
  );
}

/**
 * Views over time as a line chart. Chart.js is imported here, on the insights page only,
 * and only its line-chart parts are registered, so no other page carries it.
 */
function ViewsChart({ byDay }: { byDay: Insights['views']['byDay'] }): React.JSX.Element {
  const canvas = useRef<HTMLCanvasElement>(null);
  useEffect(() => {
    let chart: { destroy(): void } | null = null;
    let cancelled = false;
    void import('chart.js').then(
      ({ Chart, CategoryScale, LinearScale, LineController, LineElement, PointElement, Tooltip, Filler }) => {
        if (cancelled || !canvas.current) return;
        Chart.register(CategoryScale, LinearScale, LineController, LineElement, PointElement, Tooltip, Filler);
        const styles = getComputedStyle(document.documentElement);
        const colour = styles.getPropertyValue('--ifm-color-primary').trim() || '#2e5fa8';
        const text = styles.getPropertyValue('--ifm-font-color-base').trim() || '#1c1e21';
        chart = new Chart(canvas.current, {
          type: 'line',
          data: {
            labels: byDay.map((point) => point.day.slice(5)),
            datasets: [
              {
                label: 'Page views',
                data: byDay.map((point) => point.views),
                borderColor: colour,
                backgroundColor: `${colour}33`,
                fill: true,
                tension: 0.25,
                pointRadius: 2,
              },
            ],
          },
          options: {
            animation: false,
            maintainAspectRatio: false,
            scales: {
              x: { ticks: { color: text } },
              y: { beginAtZero: true, ticks: { color: text, precision: 0 } },
            },
          },
        });
      },
    );
    return () => {
      cancelled = true;
      chart?.destroy();
    };
  }, [byDay]);
  return (
    <div className={styles.chart}>
      <canvas
        ref={canvas}
        role="img"
        aria-label={`Page views per day: ${byDay.map((point) => `${point.day} ${point.views}`).join(', ') || 'none'}`}
      />
    </div>
  );
}

function PageTable({
  caption,
  rows,
  names,
}: {
  caption: string;
  rows: { path: string; views: number; readers: number }[];
  names: PageNames;
}): React.JSX.Element {
  return (
    <FigureTable
      caption={caption}
      columns={['Page', 'Views', 'Readers']}
      rows={rows}
      empty="No views in this period."
      row={(item) => ({
        key: item.path,
        head: <PageName path={item.path} names={names} />,
        cells: [item.views, item.readers],
      })}
    />
  );
}

/**
 * What readers read, searched for and said, per group and period: views over time, the
 * most and least read pages (by title and unit), pages nobody read, the most asked searches
 * and those that found nothing, readers' apart from their assistants', what each assistant
 * did, and the answers to "Was this page helpful?" with their dated comments.
 */
export default function InsightsView(): React.JSX.Element {
  const [group, setGroup] = useState('');
  const [organisation, setOrganisation] = useState('');
  const [days, setDays] = useState(30);
  const [data, setData] = useState<Insights | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [names, setNames] = useState<PageNames>(new Map());

  // The pages' titles and units, once: they change only with a new build. Without them, paths.
  useEffect(() => {
    let current = true;
    adminApi.insightsPages().then(
      (answer) => {
        if (current) setNames(new Map(answer.pages.map((page) => [page.path, page])));
      },
      (caught: unknown) => console.warn('The pages’ titles did not load; the insights name pages by path.', caught),
    );
    return () => {
      current = false;
    };
  }, []);

  useEffect(() => {
    let current = true;
    adminApi.insights({ group: group || undefined, organisation: organisation || undefined, days }).then(
      (answer) => {
        if (current) {
          setData(answer);
          setError(null);
        }
      },
      (caught: unknown) => {
        if (current) setError(messageOf(caught, 'Could not load the insights.'));
      },
    );
    return () => {
      current = false;
    };
  }, [group, organisation, days]);

  return (
    <>
      <div className={styles.filters}>
        <label className={styles.field}>
          Readers in
          <select value={group} onChange={(event) => setGroup(event.target.value)}>
            <option value="">Every group</option>
            {(data?.groups ?? []).map((option) => (
              <option key={option.name} value={option.name}>
                {option.name} ({option.label})
              </option>
            ))}
          </select>
        </label>
        <label className={styles.field}>
          Organisation
          <select value={organisation} onChange={(event) => setOrganisation(event.target.value)}>
            <option value="">Every organisation</option>
            {(data?.organisations ?? []).map((option) => (
              <option key={option.id} value={option.id}>
                {option.name}
              </option>
            ))}
          </select>
        </label>
        <label className={styles.field}>
          Period
          <select value={days} onChange={(event) => setDays(Number(event.target.value))}>
            <option value={7}>Last 7 days</option>
            <option value={30}>Last 30 days</option>
            <option value={90}>Last 90 days</option>
            <option value={180}>Last 180 days</option>
          </select>
        </label>
      </div>
      <div role="alert">{error && <p className={styles.error}>{error}</p>}</div>
      {data === null ? (
        <p>Loading the insights…</p>
      ) : (
        <>
          {data.demo && (
            <p className={styles.demo} role="note">
              Demo data: part of what is shown here was made up by <code>npm start</code> (DEMO_DATA) so that the page
              is not empty. A production portal has none.
            </p>
          )}
          <div className={styles.figures}>
            <p>
              <strong>{data.views.total}</strong> page views: {data.views.own} by readers, {data.assistants.views} by
              their assistants
            </p>
            <p>
              <strong>{data.views.readers}</strong> readers
            </p>
            <p>
              <strong>{data.searches.total}</strong> searches by readers,{' '}
              <strong>{data.searches.withoutResults}</strong> without results
            </p>
            <p>
              <strong>{data.assistants.searches}</strong> searches by assistants, {data.assistants.withoutResults}{' '}
              without results
            </p>
            <p>
              <strong>{data.neverRead.length}</strong> pages never read
            </p>
          </div>
          <section className={styles.card} aria-labelledby="views-heading">
            <h2 id="views-heading">Views over time</h2>
            <ViewsChart byDay={data.views.byDay} />
          </section>
          <section className={styles.card} aria-labelledby="pages-heading">
            <h2 id="pages-heading">Pages</h2>
            <div className={styles.columns}>
              <PageTable caption="Most read" rows={data.mostRead} names={names} />
              <PageTable caption="Least read (of those read)" rows={data.leastRead} names={names} />
            </div>
            <details className={styles.details}>
              <summary>Never read in this period ({data.neverRead.length})</summary>
              <ul className={styles.pathList}>
                {data.neverRead.map((path) => (
                  <li key={path}>
                    <PageName path={path} names={names} />
                  </li>
                ))}
              </ul>
            </details>
          </section>
          <section className={styles.card} aria-labelledby="top-searches-heading">
            <h2 id="top-searches-heading">Most asked</h2>
            <div className={styles.columns}>
              <QueryTable caption="By readers, in the search box" rows={data.searches.top} />
              <QueryTable caption="By their assistants" rows={data.assistants.topSearches} />
            </div>
          </section>
          <section className={styles.card} aria-labelledby="searches-heading">
            <h2 id="searches-heading">Readers’ searches that found nothing</h2>
            {data.searches.failed.length === 0 ? (
              <p>None in this period.</p>
            ) : (
              <TableWrap label="Readers’ searches that found nothing">
                <table className={styles.table}>
                  <ColumnHeads columns={['Query', 'Times', 'Last']} />
                  <tbody>
                    {data.searches.failed.map((search) => (
                      <tr key={search.query}>
                        <th scope="row">{search.query}</th>
                        <td>{search.times}</td>
                        <td className={styles.nowrap}>{formatTime(search.lastAt)}</td>
                      </tr>
                    ))}
                  </tbody>
                </table>
              </TableWrap>
            )}
          </section>
          <AssistantsSection data={data.assistants} />
          <section className={styles.card} aria-labelledby="ratings-heading">
            <h2 id="ratings-heading">Was this page helpful?</h2>
            {data.ratings.length === 0 ? (
              <p>No answers in this period.</p>
            ) : (
              <ul className={styles.ratings}>
                {data.ratings.map((rating) => (
                  <li key={rating.path}>
                    <PageName path={rating.path} names={names} />
                    <span className={styles.muted}>
                      {rating.helpful} yes · {rating.notHelpful} no
                    </span>
                    {rating.comments.length > 0 && (
                      <ul>
                        {rating.comments.map((comment) => (
                          <li key={comment.at + comment.comment}>
                            <time dateTime={comment.at} className={own.when}>
                              {formatTime(comment.at)}
                            </time>{' '}
                            <span className={styles.muted}>{comment.helpful ? 'Yes' : 'No'}:</span> {comment.comment}
                          </li>
                        ))}
                      </ul>
                    )}
                  </li>
                ))}
              </ul>
            )}
          </section>
        </>
      )}
    </>
  );
}
