import clsx from 'clsx';
import useDocusaurusContext from '@docusaurus/useDocusaurusContext';
import { PageMetadata, HtmlClassNameProvider, ThemeClassNames } from '@docusaurus/theme-common';
import BlogLayout from '@theme/BlogLayout';
import BlogListPaginator from '@theme/BlogListPaginator';
import SearchMetadata from '@theme/SearchMetadata';
import BlogPostItems from '@theme/BlogPostItems';
import BlogListPageStructuredData from '@theme/BlogListPage/StructuredData';
import Heading from '@theme/Heading';
import type { Props } from '@theme/BlogListPage';

import styles from './styles.module.css';

function BlogListPageMetadata({ metadata }: Props): React.JSX.Element {
  const {
    siteConfig: { title: siteTitle },
  } = useDocusaurusContext();
  const { blogDescription, blogTitle, permalink } = metadata;
  const title = permalink === '/' ? siteTitle : blogTitle;
  return (
    <>
      <PageMetadata title={title} description={blogDescription} />
      <SearchMetadata tag="blog_posts_list" />
    </>
  );
}

/**
 * (CUSTOM, ejected from Docusaurus 3.10) The blog list, with a heading: the template's list
 * has no `h1` at all (a screen reader's heading list started at the first post, and search
 * engines had no page title to read). The heading goes inside the layout's main column,
 * before the posts, which no wrapper can reach; the rest is the original.
 */
function BlogListPageContent({ metadata, items, sidebar }: Props): React.JSX.Element {
  const page = metadata.page > 1 ? `, page ${metadata.page}` : '';
  return (
    <BlogLayout sidebar={sidebar}>
      <header className={styles.header}>
        <Heading as="h1" className={styles.title}>
          {metadata.blogTitle}
          {page}
        </Heading>
        <p className={styles.lead}>{metadata.blogDescription}</p>
      </header>
      <BlogPostItems items={items} />
      <BlogListPaginator metadata={metadata} />
    </BlogLayout>
  );
}

export default function BlogListPage(props: Props): React.JSX.Element {
  return (
    <HtmlClassNameProvider className={clsx(ThemeClassNames.wrapper.blogPages, ThemeClassNames.page.blogListPage)}>
      <BlogListPageMetadata {...props} />
      <BlogListPageStructuredData {...props} />
      <BlogListPageContent {...props} />
    </HtmlClassNameProvider>
  );
}
