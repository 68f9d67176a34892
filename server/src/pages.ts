/** The page private requests get while the identity service cannot be reached: no private content, a way to retry. */
export function unavailablePage(retryPath: string): string {
  const href = retryPath.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="robots" content="noindex">
<title>Sign-in service unavailable | Norigin Developer Docs</title>
<style>
body{font-family:system-ui,-apple-system,"Segoe UI",Roboto,sans-serif;margin:0;min-height:100vh;display:grid;place-items:center;background:#fff;color:#1c1e21}
main{max-width:36rem;padding:2rem}
h1{font-size:1.6rem;margin:0 0 1rem}
a.retry{display:inline-block;margin:1rem 1rem 0 0;padding:.5rem 1.25rem;border-radius:.4rem;background:#2e5fa8;color:#fff;text-decoration:none;font-weight:600}
@media (prefers-color-scheme:dark){body{background:#1b1b1d;color:#e3e3e3}}
</style>
</head>
<body>
<main>
<h1>We cannot check your sign-in right now</h1>
<p>This page is for signed-in readers, and the sign-in service is not answering. Nothing is wrong with your account. Please try again in a moment.</p>
<p><a class="retry" href="${href}">Try again</a> <a href="/">Home</a></p>
</main>
</body>
</html>
`;
}
