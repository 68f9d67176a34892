export type WantedPackage =
  | { pkg: string; command: string; present?: () => boolean }
  | { pkg: string; command?: undefined; present: () => boolean };

/** A command's absolute path (PATH and the sbin folders), or null. */
export declare function findCommand(command: string, options?: { path?: string }): string | null;
/**
 * Makes sure each package is installed, with apt-get when this is root; throws with the
 * command to run otherwise. Returns the absolute path of each wanted command.
 */
export declare function ensureDebianPackages(
  wanted: WantedPackage[],
  options?: {
    /** Who needs them, for the message: "The benchmark". */
    purpose?: string;
    /** Whether to run apt-get; as root with apt-get unless given. */
    mayInstall?: boolean;
  },
): Record<string, string>;
