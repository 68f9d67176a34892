import { describe, expect, it } from 'vitest';

import { isRepositoryPage } from '../data/repository-pages';
import { skipRepositoryPages, skipRepositoryPagesOf, type PagedDoc } from './pager-skip';

/** Docs linked in sidebar order, as Docusaurus links them. */
function chain(ids: readonly string[]): PagedDoc[] {
  const link = (id: string | undefined) =>
    id === undefined ? undefined : { title: id, permalink: `/docs/${id.replace(/README$/, '')}` };
  return ids.map((id, index) => ({
    id,
    permalink: `/docs/${id.replace(/README$/, '')}`,
    ...(index > 0 && { previous: link(ids[index - 1]) }),
    ...(index < ids.length - 1 && { next: link(ids[index + 1]) }),
  }));
}

const docs = chain([
  'layout-engine/README',
  'layout-engine/CHANGELOG',
  'layout-engine/LICENSE',
  'layout-engine/CONTRIBUTING',
  'norigin-reference-app/README',
  'norigin-reference-app/CODE_OF_CONDUCT',
]);
const byId = (all: PagedDoc[], id: string) => all.find((doc) => doc.id === id);

describe('skipRepositoryPages', () => {
  it('leads from a package past its changelog, licence and contributing guide to the next package', () => {
    const skipped = skipRepositoryPages(docs);
    expect(byId(skipped, 'layout-engine/README')?.next?.permalink).toBe('/docs/norigin-reference-app/');
    expect(byId(skipped, 'norigin-reference-app/README')?.previous?.permalink).toBe('/docs/layout-engine/');
  });

  it('gives a repository page no previous or next link of its own', () => {
    const repositoryPages = skipRepositoryPages(docs).filter((doc) => isRepositoryPage(doc.id));
    expect(repositoryPages).toHaveLength(4);
    for (const doc of repositoryPages) {
      expect(doc.previous).toBeUndefined();
      expect(doc.next).toBeUndefined();
    }
  });

  it('drops a link when nothing but repository pages follow', () => {
    expect(byId(skipRepositoryPages(docs), 'norigin-reference-app/README')?.next).toBeUndefined();
  });

  it('keeps links between other pages as they were, and does not change its input', () => {
    const guides = chain(['frontend-guidelines/README', 'frontend-guidelines/Cypress', 'frontend-guidelines/GitFlow']);
    expect(skipRepositoryPages(guides)).toEqual(guides);
    expect(byId(docs, 'layout-engine/README')?.next?.permalink).toBe('/docs/layout-engine/CHANGELOG');
  });
});

describe('skipRepositoryPagesOf', () => {
  it('passes a category page’s links over repository pages too', () => {
    const navigation = {
      previous: { title: 'Contributing', permalink: '/docs/layout-engine/CONTRIBUTING' },
      next: { title: 'Overview', permalink: '/docs/norigin-reference-app/' },
    };
    expect(skipRepositoryPagesOf(navigation, docs)).toEqual({
      previous: { title: 'layout-engine/README', permalink: '/docs/layout-engine/' },
      next: navigation.next,
    });
  });
});
