/** Who a rebuild runs as when the gate runs as root: a user with no privilege. */
export interface BuildUser {
  name: string;
  uid: number;
  gid: number;
  /** Its home folder (npm's cache and .npmrc), or null when it has none. */
  home: string | null;
}

/** The user the container image's runtime stage runs as (Containerfile, `USER node`). */
export const CONTAINER_USER = 'node';

/** `SOURCES_BUILD_USER`'s form: a user name, or uid:gid. */
export const USER_PATTERN = '^([a-z_][a-z0-9_-]{0,31}|\\d{1,10}:\\d{1,10})$';

/** The users of an /etc/passwd text, by name. */
function usersOf(passwd: string): Map<string, BuildUser> {
  const users = new Map<string, BuildUser>();
  for (const line of passwd.split('\n')) {
    const [name, , uid, gid, , home] = line.split(':');
    if (!name || !/^\d+$/.test(uid ?? '') || !/^\d+$/.test(gid ?? '')) continue;
    const folder = home && home !== '/nonexistent' ? home : null;
    users.set(name, { name, uid: Number(uid), gid: Number(gid), home: folder });
  }
  return users;
}

/**
 * The build user that `spec` (SOURCES_BUILD_USER) names, or without one the container's
 * `node` user when the system has it; an error when `spec` names nobody, or root.
 */
export function buildUserOf(spec: string | undefined, passwd: string): BuildUser | null | { error: string } {
  const users = usersOf(passwd);
  if (spec === undefined) return users.get(CONTAINER_USER) ?? null;
  const numbers = /^(\d+):(\d+)$/.exec(spec);
  const user = numbers
    ? ([...users.values()].find((known) => known.uid === Number(numbers[1])) ?? null)
    : (users.get(spec) ?? null);
  if (!numbers && !user) return { error: `SOURCES_BUILD_USER names a user this system does not have, got "${spec}"` };
  const found: BuildUser = numbers
    ? { name: user?.name ?? spec, uid: Number(numbers[1]), gid: Number(numbers[2]), home: user?.home ?? null }
    : (user as BuildUser);
  if (found.uid === 0 || found.gid === 0)
    return { error: `SOURCES_BUILD_USER must name a user without privilege, not root, got "${spec}"` };
  return found;
}
