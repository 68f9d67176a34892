import { describe, expect, it } from 'vitest';

import { pagerLabel, projectsOfDocs, relabel, type SidebarNode } from './pager-labels';

const project = (dir: string, label: string, items: SidebarNode[] = []): SidebarNode => ({
  type: 'category',
  label,
  link: { type: 'doc', id: `${dir}/README` },
  items,
});
const doc = (id: string): SidebarNode => ({ type: 'doc', id });

const sidebar: SidebarNode[] = [
  doc('intro'),
  {
    type: 'category',
    label: 'Player Framework',
    link: { type: 'generated-index' },
    items: [
      project('player-manager-mono', 'player-manager-mono', [
        {
          type: 'category',
          label: 'packages',
          items: [project('pmm/packages/dash', 'player-adapter-dash.js', [doc('pmm/packages/dash/CHANGELOG')])],
        },
        doc('player-manager-mono/CHANGELOG'),
      ]),
    ],
  },
];

describe('projectsOfDocs', () => {
  it('finds the nearest project with a page of its own for every doc', () => {
    const projects = projectsOfDocs(sidebar);
    expect(projects.get('pmm/packages/dash/CHANGELOG')).toEqual({ project: 'player-adapter-dash.js', landing: false });
    expect(projects.get('pmm/packages/dash/README')).toEqual({ project: 'player-adapter-dash.js', landing: true });
    expect(projects.get('player-manager-mono/CHANGELOG')).toEqual({ project: 'player-manager-mono', landing: false });
    expect(projects.get('intro')).toBeUndefined();
  });
});

describe('pagerLabel', () => {
  it('names the package of a page, and a landing page by the package alone', () => {
    expect(pagerLabel('Changelog', { project: 'player-adapter-dash.js', landing: false })).toBe(
      'player-adapter-dash.js › Changelog',
    );
    expect(pagerLabel('Overview', { project: 'Layout Engine', landing: true })).toBe('Layout Engine');
    expect(pagerLabel('Getting Started', undefined)).toBe('Getting Started');
  });
});

describe('relabel', () => {
  it('labels a link to a page of a project and leaves others alone', () => {
    const projects = new Map([
      ['/docs/layout-engine/', { project: 'Layout Engine', landing: true }],
      ['/docs/layout-engine/CHANGELOG', { project: 'Layout Engine', landing: false }],
    ]);
    expect(relabel({ title: 'Overview', permalink: '/docs/layout-engine/' }, projects)).toEqual({
      title: 'Layout Engine',
      permalink: '/docs/layout-engine/',
    });
    expect(relabel({ title: 'Changelog', permalink: '/docs/layout-engine/CHANGELOG' }, projects).title).toBe(
      'Layout Engine › Changelog',
    );
    expect(relabel({ title: 'Blog', permalink: '/blog' }, projects)).toEqual({ title: 'Blog', permalink: '/blog' });
    expect(relabel(undefined, projects)).toBeUndefined();
  });
});
