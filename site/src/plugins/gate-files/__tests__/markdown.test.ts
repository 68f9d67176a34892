import { describe, expect, it } from 'vitest';

import { toCleanMarkdown } from '../markdown';

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

  it('renders MDX tabs as headed sections and leaves no JSX, import or expression behind', () => {
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
    expect(markdown).toContain('## Install\n\n### npm\n\n```bash\nnpm install @noriginmedia/player-core\n```');
    expect(markdown).toContain('### yarn\n\n```bash\nyarn add @noriginmedia/player-core\n```');
    expect(markdown).toContain('Fast start.');
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
