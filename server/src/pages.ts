// Pages the gate writes itself, without the site's scripts: they answer for a private
// route (503, 403), so the route's own code must not load and they hold no private content.
import { loginUrlFor } from '@portal/access';

import { AUTH_ERROR_MESSAGES } from './auth/errors.js';

const SITE_TITLE = 'Norigin Developer Docs';

/** Text as HTML text or an attribute's value (these pages, and the HTML copy of the portal's mail). */
export const escapeHtml = (text: string): string => text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);

function page(title: string, body: string): string {
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="robots" content="noindex">
<title>${escapeHtml(title)} | ${SITE_TITLE}</title>
<link rel="icon" href="/img/favicon.svg">
<style>
body{font-family:system-ui,-apple-system,"Segoe UI",Roboto,sans-serif;margin:0;min-height:100vh;display:grid;place-items:center;background:#fff;color:#1c1e21;line-height:1.55}
main{max-width:36rem;padding:2rem}
h1{font-size:1.6rem;margin:0 0 1rem}
.actions{display:flex;flex-wrap:wrap;gap:.75rem 1rem;align-items:center;margin-top:1.5rem}
a{color:#1d4f91}
a.primary,button{display:inline-block;padding:.5rem 1.25rem;border-radius:.4rem;background:#2e5fa8;color:#fff;text-decoration:none;font-weight:600;font:inherit;font-weight:600;border:0;cursor:pointer}
button.secondary{background:transparent;color:#1d4f91;border:1px solid #1d4f91}
form{display:inline}
@media (prefers-color-scheme:dark){body{background:#1b1b1d;color:#e3e3e3}a{color:#8ab4f8}}
</style>
</head>
<body>
<main>
${body}
</main>
</body>
</html>
`;
}

/** The page private requests get while the identity service cannot be reached: no private content, a way to retry. */
export function unavailablePage(retryPath: string): string {
  return page(
    'Sign-in service unavailable',
    `<h1>We cannot check your sign-in right now</h1>
<p>${escapeHtml(AUTH_ERROR_MESSAGES.unavailable)} This page is for signed-in readers, and nothing is wrong with your account.</p>
<p class="actions"><a class="primary" href="${escapeHtml(retryPath)}">Try again</a> <a href="/">Home</a></p>`,
  );
}

/**
 * The page a signed-in reader gets for a page outside their groups (403): who they are,
 * that this page is not theirs, and the ways on. Never the login page, so never a loop.
 */
export function noAccessPage({
  path,
  email,
  contact,
}: {
  path: string;
  email: string;
  contact: { email: string; label: string };
}): string {
  const subject = `Access to ${path}`;
  const bodyText = `Hello,\n\nI am signed in to the Norigin developer docs as ${email} and would like to read ${path}.\n`;
  const mailto = `mailto:${contact.email}?subject=${encodeURIComponent(subject)}&body=${encodeURIComponent(bodyText)}`;
  return page(
    'No access to this page',
    `<h1>You do not have access to this page</h1>
<p>You are signed in as <strong>${escapeHtml(email)}</strong>. This page is for other readers of the Norigin developer docs, so it is not shown to your account.</p>
<p>If you need it for your work, ask ${escapeHtml(contact.label)} at <a href="${escapeHtml(mailto)}">${escapeHtml(contact.email)}</a>, naming the page.</p>
<p class="actions"><a class="primary" href="/">Go to the home page</a> <a href="${escapeHtml(mailto)}">Ask for access</a> <a href="${escapeHtml(loginUrlFor(path))}">Use another account</a></p>`,
  );
}

/** A page of the assistants' sign-in that went wrong (an expired or malformed request): what happened, and the way on. */
export function oauthErrorPage(title: string, message: string): string {
  return page(
    title,
    `<h1>${escapeHtml(title)}</h1>
<p>${escapeHtml(message)}</p>
<p>Start the connection again from your assistant. If it keeps failing, the address it was given may be wrong.</p>
<p class="actions"><a class="primary" href="/">Go to the home page</a></p>`,
  );
}

/**
 * The consent page of an assistant's sign-in: which client asks (its own, unverified name and
 * where it sends the reader back), as whom it will read, what it will read, and Allow / Deny.
 */
export function oauthConsentPage({
  action,
  clientName,
  clientId,
  redirectTo,
  email,
  sections,
}: {
  action: string;
  clientName: string;
  clientId: string;
  redirectTo: string;
  email: string;
  sections: readonly string[];
}): string {
  return page(
    `Allow ${clientName} to read the docs?`,
    `<h1>Allow <strong>${escapeHtml(clientName)}</strong> to read the docs as you?</h1>
<p>An application that calls itself <strong>${escapeHtml(clientName)}</strong> (this name is its own, not checked by the portal; client ${escapeHtml(clientId)}) asks to read the Norigin Developer Docs as <strong>${escapeHtml(email)}</strong>, through the portal's MCP server.</p>
<p>It will be able to search and read the pages you may read, and nothing else: ${sections.map(escape).join(', ')}. It cannot change anything, and it stops reading what you lose access to.</p>
<p>After you answer, you go back to <strong>${escapeHtml(redirectTo)}</strong>. You can revoke it at any time under Connected apps on your <a href="/account">account page</a>.</p>
<p class="actions"><form method="post" action="${escapeHtml(action)}"><button type="submit" name="decision" value="allow">Allow</button></form> <form method="post" action="${escapeHtml(action)}"><button class="secondary" type="submit" name="decision" value="deny">Deny</button></form></p>`,
  );
}
