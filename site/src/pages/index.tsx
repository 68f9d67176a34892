import clsx from 'clsx';
import Link from '@docusaurus/Link';
import useDocusaurusContext from '@docusaurus/useDocusaurusContext';
import Layout from '@theme/Layout';
import Heading from '@theme/Heading';

import { linkMark } from '@site/src/access/item-marks';

import styles from './index.module.css';

interface Area {
  title: string;
  to: string;
  text: string;
}

const areas: Area[] = [
  {
    title: 'Player framework',
    to: '/docs/category/player-framework',
    text: 'One player API for Tizen, webOS, browsers and React Native, with adapters for Shaka, dash.js, hls.js, Bitmovin and the native players, plus analytics and VAST ads.',
  },
  {
    title: 'UI toolkit',
    to: '/docs/ui-toolkit',
    text: 'Design tokens, focus-aware components and complete reference screens for React and React Native TV apps.',
  },
  {
    title: 'Spatial navigation',
    to: '/docs/Norigin-Spatial-Navigation/',
    text: 'Move focus with the arrow keys of a remote control. Open source, and open to read without signing in.',
  },
  {
    title: 'Layout engine',
    to: '/docs/layout-engine/',
    text: 'Turn a CMS page description into virtualised rails and grids that keep focus where the viewer expects it.',
  },
  {
    title: 'Reference and demo apps',
    to: '/docs/category/reference-and-demo-apps',
    text: 'Complete apps that show the packages together, and the whitelabel setup that builds one app per brand.',
  },
  {
    title: 'Guidelines and training',
    to: '/docs/support-documentation',
    text: 'How the front-end team branches, releases, tests and monitors, and a five-day course for new developers.',
  },
];

export default function Home(): React.JSX.Element {
  const { siteConfig } = useDocusaurusContext();
  return (
    <Layout title="Home" description={siteConfig.tagline}>
      <header className={`hero hero--primary ${styles.hero}`}>
        <div className="container">
          <Heading as="h1" className="hero__title">
            {siteConfig.title}
          </Heading>
          <p className="hero__subtitle">{siteConfig.tagline}</p>
          <Link className="button button--secondary button--lg" to="/docs/">
            Get started
          </Link>
        </div>
      </header>
      <main className="container margin-vert--lg">
        <div className="row">
          {areas.map((area) => (
            // Marked with who may open the area, so other readers do not see it (src/plugins/access-marks.ts).
            <section key={area.title} className={clsx('col col--4 margin-bottom--lg', styles.area, linkMark(area.to))}>
              <Heading as="h2">
                <Link to={area.to}>{area.title}</Link>
              </Heading>
              <p>{area.text}</p>
            </section>
          ))}
        </div>
      </main>
    </Layout>
  );
}
