import clsx from 'clsx';
import PaginatorNavLink from '@theme-original/PaginatorNavLink';
import type PaginatorNavLinkType from '@theme/PaginatorNavLink';
import type { WrapperProps } from '@docusaurus/types';

import { linkMark } from '@site/src/access/item-marks';

import styles from './styles.module.css';

type Props = WrapperProps<typeof PaginatorNavLinkType>;

// (CUSTOM) Marks the previous/next link with who may open it. The mark sits on a box that
// generates no box of its own (display: contents), so the pager's grid still places the link.
export default function PaginatorNavLinkWrapper(props: Props): React.JSX.Element {
  return (
    <div className={clsx(styles.mark, linkMark(props.permalink))}>
      <PaginatorNavLink {...props} />
    </div>
  );
}
