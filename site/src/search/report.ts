/**
 * Tells the gate that a signed-in reader finished a search, with how many results it
 * found, for the administrators' insights ("searches that found nothing"). Sent with
 * `keepalive`, so it still leaves when the search ends by opening a result or closing the
 * tab. The gate records it only for a signed-in reader; a failure costs the reader nothing.
 */
export function reportSearch(query: string, results: number): void {
  const text = query.trim().slice(0, 200);
  if (text === '') return;
  void fetch('/api/search-events', {
    method: 'POST',
    keepalive: true,
    credentials: 'same-origin',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ query: text, results }),
  }).catch(() => undefined);
}
