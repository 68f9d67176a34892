import type { ComponentType, SVGProps } from 'react';

import { canRead } from '@portal/access';

import AppsIcon from '@site/src/icons/apps.svg';
import GuidelinesIcon from '@site/src/icons/guidelines.svg';
import LayoutIcon from '@site/src/icons/layout.svg';
import NavigationIcon from '@site/src/icons/navigation.svg';
import PlayerIcon from '@site/src/icons/player.svg';
import UiToolkitIcon from '@site/src/icons/ui-toolkit.svg';

import { packageNames } from './packages';

/** A package family: a card on the home page and a way on from the not-found page. */
export interface Family {
  id: string;
  title: string;
  /** Where the card leads: the family's category or landing page. */
  to: string;
  /** One sentence: what the family gives a TV-app developer. */
  summary: string;
  Icon: ComponentType<SVGProps<SVGSVGElement>>;
  /** The folder under docs/ whose changelog gives the family's version, when it has one. */
  project?: string;
  /** A short fact shown beside (or instead of) the version. */
  note?: string;
  /** The monorepo under docs/ whose packages the family is: the card counts them (`familyNote`). */
  monorepo?: string;
}

export const families: readonly Family[] = [
  {
    id: 'player',
    title: 'Player Framework',
    to: '/docs/category/player-framework',
    summary: 'One player API on every TV: the player manager, ten player adapters, analytics and ad tracking.',
    Icon: PlayerIcon,
    project: 'player-manager-mono',
    monorepo: 'player-manager-mono',
  },
  {
    id: 'ui-toolkit',
    title: 'UI Toolkit',
    to: '/docs/ui-toolkit',
    summary: 'Themeable, focus-aware components and reference screens for React and React Native.',
    Icon: UiToolkitIcon,
    project: 'ui-toolkit-mono',
    monorepo: 'ui-toolkit-mono',
  },
  {
    id: 'navigation',
    title: 'Norigin Spatial Navigation',
    to: '/docs/Norigin-Spatial-Navigation/',
    summary: 'Remote-control focus for web TV apps: focusable components, boundaries and focus keys. Open source.',
    Icon: NavigationIcon,
    project: 'Norigin-Spatial-Navigation',
    note: 'MIT',
  },
  {
    id: 'layout',
    title: 'Layout Engine',
    to: '/docs/layout-engine/',
    summary: 'Turns a CMS page description into virtualised rails and grids of registered components.',
    Icon: LayoutIcon,
    project: 'layout-engine',
  },
  {
    id: 'apps',
    title: 'Reference and Demo Apps',
    to: '/docs/category/reference-and-demo-apps',
    summary: 'Complete apps that show the packages working together, and the whitelabel setup for clients.',
    Icon: AppsIcon,
    project: 'norigin-reference-app',
  },
  {
    id: 'guidelines',
    title: 'Support Documentation',
    to: '/docs/support-documentation',
    summary: 'How the front-end team works: branching, pipelines, releases, platform tooling and the TV app course.',
    Icon: GuidelinesIcon,
    note: 'Internal',
  },
];

/** The pages of a monorepo's packages (`/docs/<monorepo>/packages/<folder>/`), from the names table. */
export function familyPackagePaths(monorepo: string): string[] {
  return [...packageNames.keys()]
    .filter((dir) => dir.startsWith(`${monorepo}/packages/`))
    .map((dir) => `/docs/${dir}/`);
}

/**
 * The fact on a family's card: its own note, or for a monorepo how many packages it has, and
 * for a signed-in reader who reads only some of them (a licence) how many they read.
 *
 * @param units the reader's units, or null signed out (and before the session is known)
 */
export function familyNote(family: Family, units: readonly string[] | null): string | undefined {
  if (family.monorepo === undefined) return family.note;
  const paths = familyPackagePaths(family.monorepo);
  const all = `${paths.length} packages`;
  if (units === null) return all;
  const read = paths.filter((path) => canRead(units, path)).length;
  return read === 0 || read === paths.length ? all : `You read ${read} of ${paths.length} packages`;
}
