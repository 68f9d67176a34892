import { policy, unitsOfGroups, withShelves, type CompiledPolicy } from '@portal/access';

import {
  emptyAccessData,
  loadAccessData,
  type AccessData,
  type AccessGroup,
  type Licence,
  type Organisation,
  type OrganisationSignIn,
  type ReaderGrant,
} from '../db/licences.js';
import type { Database } from '../db/database.js';
import type { SharedState } from '../shared.js';

/** An account as the identity service describes it, with the groups the policy gives it. */
export interface AccountAccess {
  email: string;
  emailVerified: boolean;
  /** The policy's groups: the custom claim and the e-mail-domain rules (`groupsOfAccount`). */
  groups: readonly string[];
  /**
   * How the session was signed in (the token's `firebase.sign_in_provider`: `password`,
   * `github.com`, `oidc.…`), when it comes from a sign-in; a sign-in that the organisation's
   * rule refuses (`signInRefusal`) reads nothing.
   */
  signInProvider?: string;
}

/** Why a sign-in by `provider` is refused for readers under `rule`, or null when it is not. */
export type SignInRefusal = 'sso-required' | 'wrong-provider';

/**
 * The one rule of organisations' own sign-in: a sign-in through an OIDC or SAML provider counts
 * only for readers at the domains of the organisation whose provider it is (another partner's
 * provider cannot vouch for them), and an organisation that requires its provider gets no
 * sign-in of its readers by anything else.
 */
export function signInRefusal(rule: OrganisationSignIn | null, provider: string): SignInRefusal | null {
  const federated = provider.startsWith('oidc.') || provider.startsWith('saml.');
  if (federated && rule?.provider !== provider) return 'wrong-provider';
  if (rule?.required && rule.provider !== provider) return 'sso-required';
  return null;
}

/** What a reader may read, and why. */
export interface ReaderAccess {
  /** The policy's groups and the administrators' groups the reader is a member of. */
  groups: readonly string[];
  /** Every unit the reader holds, in the policy's order; empty: no access. */
  units: readonly string[];
  /** The reader's organisation, or null. */
  organisation: string | null;
}

/** One reason an account reads a unit: a group, its organisation's licence or a grant of its own, until `endsAt`. */
export type AccessSource =
  | { kind: 'group'; group: string }
  | { kind: 'licence'; endsAt: Date | null }
  | { kind: 'grant'; endsAt: Date | null; id: string };

/** A unit an account reads, and every reason it does. */
export interface UnitSources {
  unit: string;
  sources: AccessSource[];
}

/** The longest `setTimeout` Node keeps (about 24.8 days); a later end is looked at again then. */
const MAX_TIMER_MS = 2 ** 31 - 1;

const UNIT_ACCOUNT = 'account';

/**
 * Who reads which unit, as data: organisations and their licences, the groups
 * administrators made and each reader's membership, held in memory and read again from the
 * database whenever any replica changes them (the change feed, changes.ts). `unitsOf` is
 * what the identity service asks for each account it vouches for; `version` changes with
 * every load and every licence's end, and the identity service works a cached reader's
 * units out again when it has, so a grant, a withdrawal or an end takes effect on the
 * reader's next request.
 */
export class Licences {
  private data: AccessData = emptyAccessData();
  private byDomain = new Map<string, Organisation>();
  private byEmail = new Map<string, AccessData['memberships'][number]>();
  private licencesOf = new Map<string, Licence[]>();
  private grantsOf = new Map<string, ReaderGrant[]>();
  private groupsByName = new Map<string, AccessGroup>();
  private expiry: NodeJS.Timeout | null = null;
  private loaded = false;
  private readonly loadListeners = new Set<() => void>();
  /** Bumped at every change of what the data gives: a load, or a licence that ended. */
  version = 0;

  constructor(
    private readonly options: {
      /** The database once its schema is ready; null before. */
      db: () => Database | null;
      shared: SharedState;
      log: { error(object: Record<string, unknown>, message: string): void };
      clock?: () => number;
      compiled?: CompiledPolicy;
    },
  ) {
    options.shared.onBroadcast(({ access }) => {
      if (access) void this.reload();
    });
  }

  private now(): number {
    return (this.options.clock ?? Date.now)();
  }

  private get compiled(): CompiledPolicy {
    return this.options.compiled ?? policy;
  }

  /** Whether the data has been read from the database at least once. */
  get ready(): boolean {
    return this.loaded;
  }

  /** Everything, as last read (for the administration API). */
  get snapshot(): AccessData {
    return this.data;
  }

  /** Reads the data again from the database (a no-op, false, while it is not ready). */
  async reload(): Promise<boolean> {
    const db = this.options.db();
    if (db === null) return false;
    try {
      this.use(await loadAccessData(db));
      this.loaded = true;
      return true;
    } catch (error) {
      this.options.log.error({ err: error }, 'could not read the organisations and licences');
      return false;
    }
  }

  /**
   * Reads the data again after a change an administrator made, and hurries the other
   * replicas: the change's own transaction wrote its event in the change feed (a trigger on
   * each table), which they read within half a second anyway.
   */
  async changed(): Promise<void> {
    await this.reload();
    this.options.shared.hint();
  }

  /** Takes `data` as the truth now (tests, and `reload`). */
  use(data: AccessData): void {
    this.data = data;
    this.byDomain = new Map(
      data.organisations.flatMap((organisation) => organisation.domains.map((domain) => [domain, organisation])),
    );
    this.byEmail = new Map(data.memberships.map((membership) => [membership.email, membership]));
    this.licencesOf = new Map();
    for (const licence of data.licences)
      this.licencesOf.set(licence.organisationId, [...(this.licencesOf.get(licence.organisationId) ?? []), licence]);
    this.groupsByName = new Map(data.groups.map((group) => [group.name, group]));
    this.grantsOf = new Map();
    for (const grant of data.grants) this.grantsOf.set(grant.email, [...(this.grantsOf.get(grant.email) ?? []), grant]);
    this.scheduleExpiry();
    this.bump();
    for (const listener of this.loadListeners) listener();
  }

  /** Calls `listener` after every load of the data (a change on any replica, or a test's `use`). */
  onLoad(listener: () => void): void {
    this.loadListeners.add(listener);
  }

  private bump(): void {
    this.version += 1;
  }

  /** Wakes at the next licence end, so what it gave stops at once, not at the next change. */
  private scheduleExpiry(): void {
    if (this.expiry) clearTimeout(this.expiry);
    this.expiry = null;
    const now = this.now();
    const next = Math.min(
      ...[...this.data.licences, ...this.data.grants]
        .map((grant) => grant.endsAt?.getTime() ?? Infinity)
        .filter((end) => end > now),
    );
    if (!Number.isFinite(next)) return;
    this.expiry = setTimeout(
      () => {
        this.scheduleExpiry();
        this.bump();
      },
      Math.min(next - now + 1, MAX_TIMER_MS),
    );
    this.expiry.unref();
  }

  /** Whether a licence or a reader's grant reads now: it has not ended. */
  isLive(licence: Pick<Licence, 'endsAt'>): boolean {
    return licence.endsAt === null || licence.endsAt.getTime() > this.now();
  }

  /** The organisation of an account: its membership's, else its verified e-mail's domain's. */
  organisationOf(email: string, emailVerified: boolean): Organisation | null {
    const address = email.toLowerCase();
    const placed = this.byEmail.get(address)?.organisationId;
    if (placed) return this.data.organisations.find((organisation) => organisation.id === placed) ?? null;
    if (!emailVerified) return null;
    return this.byDomain.get(address.slice(address.lastIndexOf('@') + 1)) ?? null;
  }

  /** The sign-in of the organisation at an e-mail's domain (whoever placed the reader elsewhere), or null. */
  signInOf(email: string): (OrganisationSignIn & { organisation: string }) | null {
    const address = email.toLowerCase();
    const organisation = this.byDomain.get(address.slice(address.lastIndexOf('@') + 1));
    return organisation?.signIn ? { ...organisation.signIn, organisation: organisation.name } : null;
  }

  /**
   * The groups and units of an account: the policy's groups' units, the units of the
   * administrators' groups it is a member of, its organisation's live licences and its own
   * live grants (approved access requests). A unit
   * the policy no longer has is skipped (its grant stays, orphaned, and reads nothing). Any
   * unit at all brings the account page with it.
   */
  unitsOf(account: AccountAccess): ReaderAccess {
    const compiled = this.compiled;
    if (account.signInProvider !== undefined && signInRefusal(this.signInOf(account.email), account.signInProvider))
      return { groups: account.groups, units: [], organisation: null };
    const membership = this.byEmail.get(account.email.toLowerCase());
    const memberGroups = (membership?.groups ?? []).filter((name) => this.groupsByName.has(name));
    const organisation = this.organisationOf(account.email, account.emailVerified);
    const held = new Set(unitsOfGroups(account.groups, compiled));
    for (const name of memberGroups) for (const unit of this.groupsByName.get(name)?.units ?? []) held.add(unit);
    if (organisation)
      for (const licence of this.licencesOf.get(organisation.id) ?? [])
        if (this.isLive(licence)) for (const unit of licence.units) held.add(unit);
    for (const grant of this.grantsOf.get(account.email.toLowerCase()) ?? [])
      if (this.isLive(grant)) for (const unit of grant.units) held.add(unit);
    if (held.size > 0) held.add(UNIT_ACCOUNT);
    const units = withShelves(held, compiled);
    return {
      groups: [...account.groups, ...memberGroups],
      units,
      organisation: organisation?.id ?? null,
    };
  }

  /**
   * Where each unit an account reads comes from, for the reader's own account page and the
   * administrators' readers table: the policy's groups and the administrators' groups it is a
   * member of, its organisation's live licences, its own live grants (with their end dates).
   * The same sources as `unitsOf`, unit by unit in the policy's order; the account page's own
   * unit and the shelves (units read as one) are left out.
   */
  sourcesOf(account: AccountAccess): { organisation: Organisation | null; units: UnitSources[] } {
    const compiled = this.compiled;
    const sources = new Map<string, AccessSource[]>();
    const add = (unit: string, source: AccessSource) => sources.set(unit, [...(sources.get(unit) ?? []), source]);
    for (const group of account.groups)
      for (const unit of unitsOfGroups([group], compiled)) add(unit, { kind: 'group', group });
    const membership = this.byEmail.get(account.email.toLowerCase());
    for (const name of membership?.groups ?? [])
      for (const unit of this.groupsByName.get(name)?.units ?? []) add(unit, { kind: 'group', group: name });
    const organisation = this.organisationOf(account.email, account.emailVerified);
    if (organisation)
      for (const licence of this.licencesOf.get(organisation.id) ?? [])
        if (this.isLive(licence))
          for (const unit of licence.units) add(unit, { kind: 'licence', endsAt: licence.endsAt });
    for (const grant of this.grantsOf.get(account.email.toLowerCase()) ?? [])
      if (this.isLive(grant))
        for (const unit of grant.units) add(unit, { kind: 'grant', endsAt: grant.endsAt, id: grant.id });
    const units = compiled.units
      .filter((unit) => unit.name !== UNIT_ACCOUNT && sources.has(unit.name))
      .map((unit) => ({ unit: unit.name, sources: sources.get(unit.name) as AccessSource[] }));
    return { organisation, units };
  }

  /**
   * Why a reader of `organisation` (by `email`) does not read `unit`: it is none of theirs,
   * or what gave it ended (the latest end), or it is the company's own (`licensable` false).
   */
  whyNot(
    email: string,
    organisation: string | null,
    unit: string,
  ): { reason: 'internal' } | { reason: 'not-licensed' } | { reason: 'ended'; endedAt: Date } {
    const info = this.compiled.units.find((candidate) => candidate.name === unit);
    if (!info?.licensable) return { reason: 'internal' };
    const ended = [
      ...(organisation === null ? [] : (this.licencesOf.get(organisation) ?? [])),
      ...(this.grantsOf.get(email.toLowerCase()) ?? []),
    ]
      .filter((grant) => grant.units.includes(unit) && grant.endsAt !== null && !this.isLive(grant))
      .map((grant) => grant.endsAt as Date)
      .sort((a, b) => b.getTime() - a.getTime());
    return ended[0] ? { reason: 'ended', endedAt: ended[0] } : { reason: 'not-licensed' };
  }

  close(): void {
    if (this.expiry) clearTimeout(this.expiry);
    this.expiry = null;
  }
}
