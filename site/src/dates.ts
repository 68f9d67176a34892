/** A day as the site writes it: "14 December 2026" (UTC, the day a licence or a grant ends). */
export function dayOf(iso: string): string {
  return new Date(iso).toLocaleDateString('en-GB', { day: 'numeric', month: 'long', year: 'numeric', timeZone: 'UTC' });
}
