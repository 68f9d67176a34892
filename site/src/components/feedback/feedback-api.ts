/** The reader's answer to "Was this page helpful?" for a page, as the gate keeps it (`/api/feedback`). */
export interface Feedback {
  path: string;
  helpful: boolean;
  comment: string | null;
  updatedAt: string;
}

const FEEDBACK_PATH = '/api/feedback';

/** The answer in a response body, or null when there is none or it is not one. */
export function parseFeedback(body: unknown): Feedback | null {
  const feedback = (body as { feedback?: unknown } | null)?.feedback;
  if (typeof feedback !== 'object' || feedback === null) return null;
  const { path, helpful, comment, updatedAt } = feedback as Record<string, unknown>;
  if (typeof path !== 'string' || typeof helpful !== 'boolean' || typeof updatedAt !== 'string') return null;
  return { path, helpful, comment: typeof comment === 'string' ? comment : null, updatedAt };
}

export async function loadFeedback(path: string): Promise<Feedback | null> {
  const response = await fetch(`${FEEDBACK_PATH}?path=${encodeURIComponent(path)}`, {
    credentials: 'same-origin',
    cache: 'no-store',
    headers: { Accept: 'application/json' },
  });
  if (!response.ok) return null;
  return parseFeedback(await response.json().catch(() => null));
}

export async function saveFeedback(path: string, helpful: boolean, comment: string | null): Promise<Feedback> {
  const response = await fetch(FEEDBACK_PATH, {
    method: 'PUT',
    credentials: 'same-origin',
    cache: 'no-store',
    headers: { 'Content-Type': 'application/json', Accept: 'application/json' },
    body: JSON.stringify({ path, helpful, comment }),
  });
  const saved = response.ok ? parseFeedback(await response.json().catch(() => null)) : null;
  if (saved === null) throw new Error(`Feedback not saved (HTTP ${response.status})`);
  return saved;
}
