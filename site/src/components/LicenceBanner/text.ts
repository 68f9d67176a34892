import { possessive } from '@portal/contract/names';
import type { LicenceEnding } from '@site/src/auth/session-store';
import { dayOf } from '@site/src/dates';

/** "Shaka Player Adapter, Player Core and 3 more": at most `shown` names. */
function packagesInWords(names: readonly string[], shown = 3): string {
  if (names.length <= shown)
    return names.length === 1 ? names[0] : `${names.slice(0, -1).join(', ')} and ${names.at(-1)}`;
  return `${names.slice(0, shown).join(', ')} and ${names.length - shown} more`;
}

/** The banner's sentence: the organisation, the first day it stops and what it covers. */
export function licenceEndingText({ organisation, units }: LicenceEnding): string {
  const first = units.map((item) => item.endsAt).sort()[0];
  const packages = packagesInWords(units.map((item) => item.unitLabel));
  return `${possessive(organisation)} licence ends on ${dayOf(first)}: after that day you can no longer read ${packages}.`;
}
