import { useEffect, useState } from 'react';

import { useAuth } from '@site/src/auth/AuthProvider';

import { newsApi, type WhatsNew } from './api';

/** What the sidebar and the home page say of a reader's news: how much, and in which sections. */
export interface NewsSummary {
  /** Packages with new releases. */
  packages: number;
  /** Everything new: packages, changed and new pages. */
  count: number;
  /** The sections (`/docs/<section>/`) with something new. */
  sections: ReadonlySet<string>;
}

/** One look per page load and reader: the sidebar and the home line share it. */
let asked: { uid: string; answer: Promise<NewsSummary | null> } | null = null;

function summaryOf(news: WhatsNew): NewsSummary {
  const sections = new Set(news.packages.map((pkg) => pkg.url));
  for (const page of [...news.changedPages, ...news.newPages]) {
    const section = /^\/docs\/[^/]+\//.exec(page.url)?.[0];
    if (section) sections.add(section);
  }
  return {
    packages: news.packages.length,
    count: news.packages.length + news.changedPages.length + news.newPages.length,
    sections,
  };
}

/**
 * The signed-in reader's news since their last visit, once the page runs (null before, for a
 * signed-out visitor, or when it cannot be had: nothing is marked then).
 */
export function useNewsSummary(): NewsSummary | null {
  const auth = useAuth();
  const uid = auth.state.status === 'signedIn' ? auth.state.email : null;
  const [summary, setSummary] = useState<{ uid: string; news: NewsSummary | null } | null>(null);
  useEffect(() => {
    if (uid === null) return undefined;
    if (asked?.uid !== uid)
      asked = {
        uid,
        answer: newsApi.news().then(summaryOf, () => null),
      };
    let live = true;
    void asked.answer.then((answer) => {
      if (live) setSummary({ uid, news: answer });
    });
    return () => {
      live = false;
    };
  }, [uid]);
  // Another reader's (or none's) answer is no answer for this one.
  return summary !== null && summary.uid === uid ? summary.news : null;
}
