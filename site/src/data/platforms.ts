/**
 * The TV platforms the packages run on, named as site/CONTENT.md names them. A landing
 * page lists its ids in front matter (`platforms: [tizen, webos, web]`); the home page and
 * the package cards show them from here.
 */
export const PLATFORM_IDS = ['tizen', 'webos', 'web', 'androidtv', 'tvos'] as const;

export type PlatformId = (typeof PLATFORM_IDS)[number];

export interface Platform {
  /** The name used everywhere in the docs. */
  name: string;
  /** The versions we support. */
  versions: string;
  /** What plays the video there. */
  player: string;
}

export const PLATFORMS: Record<PlatformId, Platform> = {
  tizen: { name: 'Samsung Tizen', versions: 'Tizen 4.0 (2018) to 8.0', player: 'AVPlay native player' },
  webos: { name: 'LG webOS', versions: 'webOS 4.x (2018) to webOS 24', player: 'Native player via <video>' },
  web: { name: 'Web browsers', versions: 'Chrome, Edge, Firefox, Safari', player: 'MSE and EME' },
  androidtv: { name: 'Android TV / Fire TV', versions: 'React Native apps', player: 'ExoPlayer' },
  tvos: { name: 'Apple tvOS', versions: 'React Native apps', player: 'AVPlayer' },
};

export function isPlatformId(id: string): id is PlatformId {
  return (PLATFORM_IDS as readonly string[]).includes(id);
}

/** A card's platforms as one line: "All five platforms", or the names in the table's order. */
export function platformsText(ids: readonly string[]): string {
  const known = PLATFORM_IDS.filter((id) => ids.includes(id));
  if (known.length === PLATFORM_IDS.length) return 'All five platforms';
  return known.map((id) => PLATFORMS[id].name).join(' · ');
}
