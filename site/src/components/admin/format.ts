/** A moment for an administrator's table: "22 Nov 2026, 21:14" in their own time zone; null stays null. */
export function formatTime(iso: string | null | undefined): string | null {
  if (!iso) return null;
  const date = new Date(iso);
  if (Number.isNaN(date.getTime())) return null;
  return date.toLocaleString('en-GB', {
    day: 'numeric',
    month: 'short',
    year: 'numeric',
    hour: '2-digit',
    minute: '2-digit',
  });
}

/** What an audit event's detail says, in a few words. */
export function describeDetail(kind: string, detail: Record<string, unknown>): string {
  const groupsOf = (value: unknown): string => {
    const groups = (value as { groups?: unknown } | undefined)?.groups;
    return Array.isArray(groups) && groups.length > 0 ? groups.join(', ') : 'none';
  };
  if (kind === 'admin.groups') return `groups ${groupsOf(detail.before)} → ${groupsOf(detail.after)}`;
  if (kind === 'admin.invite')
    return `${detail.method === 'provider' ? 'by e-mail, for GitHub' : 'with a password link'}; groups ${groupsOf(detail.after)}`;
  if (kind === 'page.view' && typeof detail.views === 'number') {
    // A row is a reader's views of a page in an hour (server/src/db/page-views.ts).
    const via = detail.via === 'mcp' ? ', by MCP' : detail.via === 'token' ? ', with a token' : '';
    return `${detail.views} ${detail.views === 1 ? 'view' : 'views'} in the hour${via}`;
  }
  if (typeof detail.code === 'string') return detail.code.replace(/-/g, ' ');
  if (Array.isArray(detail.groups)) return `groups ${detail.groups.join(', ')}`;
  return '';
}
