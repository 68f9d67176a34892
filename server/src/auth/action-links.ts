/**
 * The portal's own page for an account e-mail's link (`/login/action`, the site's custom
 * e-mail action handler) in place of the page Firebase's link opens: the same one-time code
 * (`oobCode`) and mode, at the portal's `origin`. `invite` marks a first password, which the
 * page words as choosing one, not resetting it. Firebase makes the code (the Admin SDK's
 * generate…Link, against a real project or the Auth Emulator) and checks it when it is spent.
 */
export function portalActionLink(firebaseLink: string, origin: string, { invite = false } = {}): string {
  const made = new URL(firebaseLink);
  const mode = made.searchParams.get('mode');
  const code = made.searchParams.get('oobCode');
  if (!mode || !code) throw new Error('the identity service made an account link with no mode or code');
  const action = new URL('/login/action', origin);
  action.searchParams.set('mode', mode);
  action.searchParams.set('oobCode', code);
  if (invite) action.searchParams.set('invite', '1');
  return action.toString();
}
