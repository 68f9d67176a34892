/**
 * The refusal page's place in the app. The gate answers a signed-in reader's request for a
 * page outside their units with this page's HTML, status 403, at the address they asked
 * for. The app in that HTML must start on this page's route, not on the refused one (whose
 * code the gate refuses too): a script at the top of the page moves the address to
 * `REFUSAL_PATH?from=<asked>` before the app starts, and the page puts the asked address
 * back once it has rendered, so the reader sees, copies and reloads what they asked for.
 */
export const REFUSAL_PATH = '/account/refused';
export const FROM_PARAM = 'from';

/**
 * The page's first script: runs as the page is read, before the app's deferred scripts, on
 * the refusal page served for another address. It sits in the page's body, not in the head
 * manager's tags: those are inserted again on the client, where a script runs a second time
 * and, unlike the server's minified copy, is not among the inline scripts the portal's
 * content security policy allows.
 */
export const REFUSAL_SCRIPT = `(function(){var l=location;if(window.__portalRefused!==undefined||/^\\/account\\/refused\\/?$/.test(l.pathname))return;var a=l.pathname+l.search+l.hash;window.__portalRefused=a;history.replaceState(history.state,'','${REFUSAL_PATH}?${FROM_PARAM}='+encodeURIComponent(a))})()`;

/** The address the reader asked for: the one the page script kept, else the `from` parameter, else null. */
export function askedPath(search: string, kept: unknown): string | null {
  const raw = typeof kept === 'string' ? kept : new URLSearchParams(search).get(FROM_PARAM);
  if (raw === null || !raw.startsWith('/') || raw.startsWith('//')) return null;
  return raw;
}
