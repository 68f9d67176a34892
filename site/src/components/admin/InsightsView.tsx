import { useEffect, useRef, useState } from 'react';
import Link from '@docusaurus/Link';

import { adminApi, AdminApiError, type InsightsAnswer as Insights } from './api';
import { formatTime } from './format';
import styles from './admin.module.css';

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
}: {
  caption: string;
  rows: { path: string; views: number; readers: number }[];
}): React.JSX.Element {
  return (
    <div className={styles.tableWrap}>
      <table className={styles.table}>
        <caption>{caption}</caption>
        <thead>
          <tr>
            <th scope="col">Page</th>
            <th scope="col">Views</th>
            <th scope="col">Readers</th>
          </tr>
        </thead>
        <tbody>
          {rows.length === 0 ? (
            <tr>
              <td colSpan={3}>No views in this period.</td>
            </tr>
          ) : (
            rows.map((row) => (
              <tr key={row.path}>
                <th scope="row">
                  <Link to={row.path}>{row.path}</Link>
                </th>
                <td>{row.views}</td>
                <td>{row.readers}</td>
              </tr>
            ))
          )}
        </tbody>
      </table>
    </div>
  );
}

/**
 * What readers read, searched for and said, per group and period: views over time, the
 * most and least read pages, pages nobody read, searches that found nothing, and the
 * answers to "Was this page helpful?" with their comments.
 */
export default function InsightsView(): React.JSX.Element {
  const [group, setGroup] = useState('');
  const [days, setDays] = useState(30);
  const [data, setData] = useState<Insights | null>(null);
  const [error, setError] = useState<string | null>(null);

  useEffect(() => {
    let current = true;
    adminApi.insights({ group: group || undefined, days }).then(
      (answer) => {
        if (current) {
          setData(answer);
          setError(null);
        }
      },
      (caught: unknown) => {
        if (current) setError(caught instanceof AdminApiError ? caught.message : 'Could not load the insights.');
      },
    );
    return () => {
      current = false;
    };
  }, [group, days]);

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
              <strong>{data.views.total}</strong> page views
            </p>
            <p>
              <strong>{data.views.readers}</strong> readers
            </p>
            <p>
              <strong>{data.searches.total}</strong> searches, <strong>{data.searches.withoutResults}</strong> without
              results
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
              <PageTable caption="Most read" rows={data.mostRead} />
              <PageTable caption="Least read (of those read)" rows={data.leastRead} />
            </div>
            <details className={styles.details}>
              <summary>Never read in this period ({data.neverRead.length})</summary>
              <ul className={styles.pathList}>
                {data.neverRead.map((path) => (
                  <li key={path}>
                    <Link to={path}>{path}</Link>
                  </li>
                ))}
              </ul>
            </details>
          </section>
          <section className={styles.card} aria-labelledby="searches-heading">
            <h2 id="searches-heading">Searches that found nothing</h2>
            {data.searches.failed.length === 0 ? (
              <p>None in this period.</p>
            ) : (
              <div className={styles.tableWrap}>
                <table className={styles.table}>
                  <thead>
                    <tr>
                      <th scope="col">Query</th>
                      <th scope="col">Times</th>
                      <th scope="col">Last</th>
                    </tr>
                  </thead>
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
              </div>
            )}
          </section>
          <section className={styles.card} aria-labelledby="ratings-heading">
            <h2 id="ratings-heading">Was this page helpful?</h2>
            {data.ratings.length === 0 ? (
              <p>No answers in this period.</p>
            ) : (
              <ul className={styles.ratings}>
                {data.ratings.map((rating) => (
                  <li key={rating.path}>
                    <Link to={rating.path}>{rating.path}</Link>{' '}
                    <span className={styles.muted}>
                      {rating.helpful} yes · {rating.notHelpful} no
                    </span>
                    {rating.comments.length > 0 && (
                      <ul>
                        {rating.comments.map((comment) => (
                          <li key={comment.at + comment.comment}>
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
