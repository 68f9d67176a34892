import { useEffect, useRef, useState, type ComponentProps } from 'react';
import clsx from 'clsx';

import styles from './styles.module.css';

interface Overflow {
  /** More columns to the left / to the right of what is in view. */
  before: boolean;
  after: boolean;
  /** The region's name: the table's column headings, so each wide table is told apart. */
  label: string;
}

/** "Table of Platform, DASH, Multi-period…, scrolls sideways": from the header row's cells. */
function labelOf(table: HTMLTableElement | null): string {
  const headings = Array.from(table?.tHead?.rows[0]?.cells ?? [])
    .map((cell) => (cell.textContent ?? '').trim())
    .filter(Boolean);
  const named = headings.length > 0 ? `Table of ${headings.join(', ')}` : 'Table';
  return `${named.length > 80 ? `${named.slice(0, 79)}…` : named}, scrolls sideways`;
}

/**
 * One ResizeObserver for every table of the page. Its callbacks run right after a layout,
 * so reading a scroller's widths there costs no layout of its own (a read in a timer or an
 * animation frame after React's commit forced one per table), and all the tables of a page
 * are measured in one task.
 */
const checks = new Map<Element, () => void>();
let observer: ResizeObserver | null = null;

function watch(element: Element, check: () => void): () => void {
  observer ??= new ResizeObserver((entries) => {
    for (const entry of entries) checks.get(entry.target)?.();
  });
  checks.set(element, check);
  observer.observe(element);
  return () => {
    checks.delete(element);
    observer?.unobserve(element);
  };
}

/**
 * A markdown table in a horizontal scroller. When the table is wider than the column, the
 * scroller is a focusable region (keyboard users can scroll it with the arrow keys, WCAG
 * 2.1.1) and fades at the edge where more columns hide, with a "Scroll" cue while columns
 * hide to the right. Everything it adds is drawn over the table, never beside it, so
 * nothing moves when the page learns the table overflows.
 */
export default function ScrollableTable(props: ComponentProps<'table'>): React.JSX.Element {
  const scroller = useRef<HTMLDivElement>(null);
  const [overflow, setOverflow] = useState<Overflow | null>(null);

  useEffect(() => {
    const element = scroller.current;
    if (!element) return undefined;
    const check = (): void => {
      const hidden = element.scrollWidth - element.clientWidth;
      const next: Overflow | null =
        hidden > 1
          ? {
              before: element.scrollLeft > 1,
              after: element.scrollLeft < hidden - 1,
              label: labelOf(element.querySelector('table')),
            }
          : null;
      // A new state only when something shows differently: scrolling fires often.
      setOverflow((previous) =>
        previous?.before === next?.before && previous?.after === next?.after && previous?.label === next?.label
          ? previous
          : next,
      );
    };
    let frame = 0;
    const onScroll = (): void => {
      cancelAnimationFrame(frame);
      frame = requestAnimationFrame(check);
    };
    // The observer's first call, after the next layout, is the first measure.
    const unwatch = watch(element, check);
    element.addEventListener('scroll', onScroll, { passive: true });
    return () => {
      cancelAnimationFrame(frame);
      unwatch();
      element.removeEventListener('scroll', onScroll);
    };
  }, []);

  return (
    <div className={clsx(styles.frame, overflow?.before && styles.moreBefore, overflow?.after && styles.moreAfter)}>
      <div
        ref={scroller}
        className={styles.scroller}
        {...(overflow !== null && { tabIndex: 0, role: 'region', 'aria-label': overflow.label })}
      >
        <table {...props} />
      </div>
      {overflow?.after && (
        <span className={styles.cue} aria-hidden="true">
          Scroll →
        </span>
      )}
    </div>
  );
}
