/**
 * The rules of an organisation's "Sign-in and provisioning" section, apart from React: the
 * check of a provider's id (the contract's pattern, in words), what a sign-in form sends,
 * the groups its SCIM client may be offered, and the last provisioning calls in words.
 */
import type { AccessGroupInfo } from './access-api';
import type { OrganisationSignIn, ScimCall, ScimTokenInfo } from './provisioning-api';

/** A provider's id as Firebase Authentication names it: the contract's `OrganisationSignInBody.provider`. */
export const PROVIDER_PATTERN = /^(oidc|saml)\.[A-Za-z0-9][A-Za-z0-9._-]{0,62}$/;

/** The longest name the sign-in page shows (the contract's `maxLength`). */
export const SIGN_IN_NAME_MAX = 80;

/** Why a typed provider id would be refused, in words; null when it would not. */
export function providerProblem(typed: string): string | null {
  const provider = typed.trim();
  if (provider === '')
    return 'Enter the provider’s id as Firebase Authentication names it: “oidc.” or “saml.” and its name.';
  const prefix = /^(oidc|saml)\./.exec(provider);
  if (!prefix)
    return `“${provider}” is not an OIDC or SAML provider’s id: it starts with “oidc.” or “saml.”, as in oidc.northwind.`;
  const rest = provider.slice(prefix[0].length);
  if (rest === '') return `Add the provider’s name after “${prefix[0]}”, as in ${prefix[0]}northwind.`;
  if (rest.length > 63)
    return `The name after “${prefix[0]}” is ${rest.length} characters long; at most 63 are allowed.`;
  if (!PROVIDER_PATTERN.test(provider))
    return `After “${prefix[0]}”, use only letters, digits, dots, dashes and underscores, starting with a letter or a digit.`;
  return null;
}

/** Why the name the sign-in page shows would be refused; null when it would not. */
export function nameProblem(typed: string): string | null {
  const name = typed.trim();
  if (name === '') return 'Enter the name the sign-in page shows for it, such as “Northwind single sign-on”.';
  if (name.length > SIGN_IN_NAME_MAX)
    return `The name is ${name.length} characters long; at most ${SIGN_IN_NAME_MAX} are allowed.`;
  return null;
}

/** What the sign-in form holds. */
export interface SignInFields {
  provider: string;
  name: string;
  required: boolean;
}

/** The form's fields for an organisation's sign-in, or empty ones when it has none. */
export const signInFields = (signIn: OrganisationSignIn | null): SignInFields => ({
  provider: signIn?.provider ?? '',
  name: signIn?.name ?? '',
  required: signIn?.required ?? false,
});

/** What the form sends (`PUT …/sign-in`): the id and the name without the spaces around them. */
export const signInBody = (fields: SignInFields): OrganisationSignIn => ({
  provider: fields.provider.trim(),
  name: fields.name.trim(),
  required: fields.required,
});

/** The small label of an organisation's row: whether it has its own sign-in, and whether it is required. */
export function ssoLabel(signIn: OrganisationSignIn | null | undefined): string | null {
  if (!signIn) return null;
  return signIn.required ? 'SSO required' : 'SSO';
}

/** How the organisation's readers sign in now, in one sentence. */
export function signInWords(signIn: OrganisationSignIn | null, domains: readonly string[]): string {
  const readers = domains.length > 0 ? `Readers at ${domains.join(', ')}` : 'Its readers';
  if (!signIn) return `${readers} sign in with a password or the portal’s other ways; it has no single sign-on.`;
  return signIn.required
    ? `${readers} must sign in with “${signIn.name}” (${signIn.provider}); any other sign-in of theirs reads nothing.`
    : `${readers} may sign in with “${signIn.name}” (${signIn.provider}), or with a password or the portal’s other ways.`;
}

/**
 * The groups the section offers its SCIM client: those the organisation has that are still
 * administrators' groups (checked), and those that are not any more (`stale`: saving drops them,
 * as the server refuses a name that is no group).
 */
export function groupChoice(
  offered: readonly string[],
  groups: readonly Pick<AccessGroupInfo, 'name'>[],
): { selected: string[]; stale: string[] } {
  const known = new Set(groups.map((group) => group.name));
  return {
    selected: offered.filter((name) => known.has(name)),
    stale: offered.filter((name) => !known.has(name)),
  };
}

/** What saving the offered groups did, in words. */
export function groupsNotice(selected: readonly string[]): string {
  return selected.length === 0
    ? 'Its SCIM client may put readers in no group now.'
    : `Its SCIM client may now put readers in ${[...selected].sort().join(', ')}.`;
}

/** A call's outcome: done (below 400), refused by the portal (4xx) or failed in it (5xx). */
export type CallOutcome = 'done' | 'refused' | 'failed';

export function callOutcome(status: number): CallOutcome {
  if (status >= 500) return 'failed';
  if (status >= 400) return 'refused';
  return 'done';
}

/** The words beside a call's status: "refused", always in text, never by colour alone. */
export const OUTCOME_WORDS: Record<CallOutcome, string> = { done: 'done', refused: 'refused', failed: 'failed' };

const count = (n: number, one: string, many = `${one}s`): string => `${n} ${n === 1 ? one : many}`;

/** The calls listed, in a line above their table: "The last 12 calls: 10 done, 2 refused." */
export function callsSummary(calls: readonly Pick<ScimCall, 'status'>[]): string {
  if (calls.length === 0) return 'Its SCIM client has not called the portal yet.';
  const tally: Record<CallOutcome, number> = { done: 0, refused: 0, failed: 0 };
  for (const call of calls) tally[callOutcome(call.status)] += 1;
  const parts = (['done', 'refused', 'failed'] as const)
    .filter((outcome) => tally[outcome] > 0)
    .map((outcome) => `${tally[outcome]} ${OUTCOME_WORDS[outcome]}`);
  const head = calls.length === 1 ? 'The last call' : `The last ${calls.length} calls`;
  return `${head}: ${parts.join(', ')}.`;
}

/** Which token made a call: its name, or words for one the list no longer holds (only its 100 newest) or none recorded. */
export function callTokenName(
  call: Pick<ScimCall, 'token'>,
  tokens: readonly Pick<ScimTokenInfo, 'id' | 'name'>[],
): string {
  if (call.token === null) return 'not recorded';
  return tokens.find((token) => token.id === call.token)?.name ?? 'a token no longer listed';
}

/** The tokens its client can still use. */
export const liveTokens = (tokens: readonly Pick<ScimTokenInfo, 'revokedAt'>[]): number =>
  tokens.filter((token) => token.revokedAt === null).length;

/** How many readers SCIM provisioned, in words. */
export const readersWords = (readers: number): string =>
  readers === 0 ? 'No reader is provisioned by SCIM yet.' : `${count(readers, 'reader')} provisioned by SCIM.`;
