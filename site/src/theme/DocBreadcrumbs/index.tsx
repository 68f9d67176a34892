import clsx from 'clsx';
import Link from '@docusaurus/Link';
import { useDoc, useDocsSidebar, useSidebarBreadcrumbs } from '@docusaurus/plugin-content-docs/client';
import { useLocation } from '@docusaurus/router';
import { ThemeClassNames } from '@docusaurus/theme-common';
import { useHomePageRoute } from '@docusaurus/theme-common/internal';
import DocBreadcrumbs from '@theme-original/DocBreadcrumbs';
import HomeBreadcrumbItem from '@theme/DocBreadcrumbs/Items/Home';
import type DocBreadcrumbsType from '@theme/DocBreadcrumbs';
import type { WrapperProps } from '@docusaurus/types';

import { nearestTrail, type Crumb, type TrailItem } from './nearest-trail';
import styles from './styles.module.css';

type Props = WrapperProps<typeof DocBreadcrumbsType>;

// (CUSTOM) A page the sidebar does not list (an API reference's symbol pages) gets the trail
// of the nearest entry above it, then its own title, where Docusaurus shows only the home icon.
export default function DocBreadcrumbsWrapper(props: Props): React.JSX.Element {
  const crumbs = useSidebarBreadcrumbs();
  const sidebar = useDocsSidebar();
  const { pathname } = useLocation();
  const trail =
    crumbs !== null && crumbs.length === 0 && sidebar !== null
      ? nearestTrail(sidebar.items as readonly TrailItem[], pathname)
      : null;
  if (trail === null) return <DocBreadcrumbs {...props} />;
  return <TrailToDoc trail={trail} />;
}

/** The trail, then the doc's own title (only a doc's page comes here: category pages are in the sidebar). */
function TrailToDoc({ trail }: { trail: Crumb[] }): React.JSX.Element {
  const { metadata } = useDoc();
  const home = useHomePageRoute();
  return (
    <nav className={clsx(ThemeClassNames.docs.docBreadcrumbs, styles.breadcrumbsContainer)} aria-label="Breadcrumbs">
      <ul className="breadcrumbs">
        {home && <HomeBreadcrumbItem />}
        {trail.map((crumb) => (
          <li key={`${crumb.href ?? ''}|${crumb.label}`} className="breadcrumbs__item">
            {crumb.href ? (
              <Link className="breadcrumbs__link" href={crumb.href}>
                <span>{crumb.label}</span>
              </Link>
            ) : (
              <span className="breadcrumbs__link">{crumb.label}</span>
            )}
          </li>
        ))}
        <li className="breadcrumbs__item breadcrumbs__item--active">
          <span className="breadcrumbs__link">{metadata.title}</span>
        </li>
      </ul>
    </nav>
  );
}
