import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';

import { policy } from '@portal/access';

import type { Database } from './database.js';
import { insertAccessRequest, type AccessRequest } from './access-requests.js';
import { insertLicence, insertOrganisation } from './licences.js';

/** emulator/demo-organisations.json as written. */
interface DemoOrganisations {
  requests: Pick<AccessRequest, 'email' | 'uid' | 'organisationId' | 'unit' | 'path' | 'reason'>[];
  organisations: {
    id: string;
    name: string;
    domains: string[];
    contact: string | null;
    signIn?: { provider: string; name: string; required: boolean };
    licences: { units: string[]; ends: string | null }[];
  }[];
}

/**
 * The demo's partner organisations and their licences (one of them ended), and two access
 * requests awaiting an answer, seeded once in one transaction: a restart adds nothing, and
 * an administrator's changes stay. A unit the policy does not have stops the seed, naming it.
 */
export async function seedDemoOrganisations(
  db: Database,
  log: { info(object: Record<string, unknown>, message: string): void },
  file = resolve('emulator', 'demo-organisations.json'),
): Promise<void> {
  const { organisations, requests } = JSON.parse(readFileSync(file, 'utf8')) as DemoOrganisations;
  for (const organisation of organisations)
    for (const licence of organisation.licences)
      for (const unit of licence.units)
        if (!policy.unitNames.includes(unit))
          throw new Error(
            `${file}: ${organisation.id} is licensed "${unit}", which is not a unit of the access policy`,
          );
  for (const request of requests)
    if (!policy.unitNames.includes(request.unit))
      throw new Error(`${file}: ${request.email} asks for "${request.unit}", which is not a unit of the access policy`);
  const seeded = await db.transaction(async (tx) => {
    const [any] = await tx.query<{ any: boolean }>('select exists (select 1 from organisations) as any');
    if (any?.any) return false;
    for (const organisation of organisations) {
      await insertOrganisation(tx, organisation);
      for (const licence of organisation.licences)
        await insertLicence(tx, {
          organisationId: organisation.id,
          units: licence.units,
          endsAt: licence.ends === null ? null : new Date(`${licence.ends}T23:59:59Z`),
          createdBy: 'demo',
        });
    }
    // A queue for the administrator to answer in /admin/requests.
    for (const request of requests) await insertAccessRequest(tx, request);
    return true;
  });
  if (seeded)
    log.info(
      { organisations: organisations.length, requests: requests.length },
      'demo organisations, licences and access requests seeded',
    );
}
