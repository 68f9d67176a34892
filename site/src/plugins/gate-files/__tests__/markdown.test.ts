import { describe, expect, it } from 'vitest';

import { toCleanMarkdown, withFrontMatter } from '../markdown';

describe('a page as clean Markdown', () => {
  it('leads with the title and description, keeps code with its language, and turns admonitions into quotes', () => {
    const source = `---
title: Layout Engine
description: Rails and grids from CMS pages.
---

Intro with a [link to player-core](../player-core/README.md#install) and [MDN](https://developer.mozilla.org/).

:::warning[Tizen 4]

Virtualisation needs \`requestIdleCallback\`.

:::

\`\`\`ts
const rail = createRail({ id: 'hero' });
\`\`\`

![The component registry](./registry.svg)
`;
    const markdown = toCleanMarkdown(
      source,
      { title: 'Layout Engine', description: 'Rails and grids from CMS pages.', mdx: false },
      (url) => (url.startsWith('../player-core/README.md') ? '/docs/player-core.md#install' : null),
    );
    expect(markdown).toBe(`# Layout Engine

> Rails and grids from CMS pages.

Intro with a [link to player-core](/docs/player-core.md#install) and [MDN](https://developer.mozilla.org/).

> **Tizen 4:** Virtualisation needs \`requestIdleCallback\`.

\`\`\`ts
const rail = createRail({ id: 'hero' });
\`\`\`

_Image: The component registry_
`);
  });

  it('renders MDX tabs as headed sections and leaves no JSX, import or expression source behind', () => {
    const source = `import Tabs from '@theme/Tabs';
import TabItem from '@theme/TabItem';
export const year = 2025;

## Install

<Tabs groupId="pm">
  <TabItem value="npm" label="npm">

\`\`\`bash
npm install @noriginmedia/player-core
\`\`\`

  </TabItem>
  <TabItem value="yarn">

\`\`\`bash
yarn add @noriginmedia/player-core
\`\`\`

  </TabItem>
</Tabs>

Released in {year}. <Highlight color="#25c2a0">Fast</Highlight> start.
`;
    const markdown = toCleanMarkdown(source, { title: 'Player core', mdx: true });
    expect(markdown).not.toMatch(/<[A-Za-z]|import |export |\{year\}/);
    // The expression reads as the page shows it, from the page's own export.
    expect(markdown).toContain('Released in 2025.');
    expect(markdown).toContain('## Install\n\n### npm\n\n```bash\nnpm install @noriginmedia/player-core\n```');
    expect(markdown).toContain('### yarn\n\n```bash\nyarn add @noriginmedia/player-core\n```');
    expect(markdown).toContain('Fast start.');
  });

  it('writes an expression as the text the page shows, and nothing for a comment or a component', () => {
    const source = `---
version_label: Player 4
---

export const packages = 7 * 3 + 2;
export const name = \`player-\${'core'}\`;
export const Key = ({ children }) => <kbd>{children}</kbd>;

{/* truncate */}

The playground loads {7 * 3 + 2} packages ({packages} here), {name}, {frontMatter.version_label}.

{['a', 'b'].length > 1 ? 'Many' : 'One'} of them; {Key} and {undefinedName} show nothing.

{'A paragraph of its own'}
`;
    const markdown = toCleanMarkdown(source, {
      title: 'Expressions',
      mdx: true,
      frontMatter: { version_label: 'Player 4' },
    });
    expect(markdown).toContain('The playground loads 23 packages (23 here), player-core, Player 4.');
    expect(markdown).toContain('Many of them;  and  show nothing.');
    expect(markdown).toContain('\n\nA paragraph of its own\n');
    expect(markdown).not.toMatch(/truncate|\{|\}|kbd/);
  });

  it('puts YAML front matter naming the canonical URL, last update and version above the page', () => {
    expect(
      withFrontMatter(
        '# Shaka adapter\n\nPlays DASH.\n',
        { title: 'Shaka adapter: "fast"' },
        {
          canonicalUrl: 'https://docs.example.com/docs/player/shaka/',
          lastUpdate: '2026-11-20',
          version: '4.2.0',
        },
      ),
    ).toBe(
      '---\ntitle: "Shaka adapter: \\"fast\\""\ncanonical_url: "https://docs.example.com/docs/player/shaka/"\nlast_update: 2026-11-20\nversion: "4.2.0"\n---\n\n# Shaka adapter\n\nPlays DASH.\n',
    );
    // Without a history or a release: only what is known.
    expect(withFrontMatter('# A\n', { title: 'A' }, { canonicalUrl: 'http://x/a/' })).toBe(
      '---\ntitle: "A"\ncanonical_url: "http://x/a/"\n---\n\n# A\n',
    );
  });

  it('keeps a title the page writes itself', () => {
    expect(
      toCleanMarkdown('# Portal conventions\n\nHow pages are written.\n', {
        title: 'Portal conventions',
        description: 'Labels.',
        mdx: false,
      }),
    ).toBe('# Portal conventions\n\n> Labels.\n\nHow pages are written.\n');
  });
});
