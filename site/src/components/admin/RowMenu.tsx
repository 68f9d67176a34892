import { useEffect, useId, useRef, useState, type CSSProperties, type KeyboardEvent } from 'react';
import clsx from 'clsx';

import styles from './admin.module.css';

export interface RowMenuItem {
  label: string;
  onSelect: () => void;
  /** Drawn in the danger colour (text on the menu's background, never a solid red button). */
  danger?: boolean;
}

/**
 * A row's actions behind one button (the WAI-ARIA menu button pattern): Enter, Space or
 * the arrow keys open it on the first or last item, the arrow keys, Home and End move
 * between items, Escape closes it and gives the focus back to its button, Tab or a click
 * elsewhere closes it. Choosing an item closes the menu, gives the focus back to the
 * button (where a dialog the item opens returns it too), then does the item.
 */
export default function RowMenu({ label, items }: { label: string; items: RowMenuItem[] }): React.JSX.Element {
  const [open, setOpen] = useState(false);
  // Where the menu shows: fixed to the screen under (or over) its button, so that no table's scroller cuts it off.
  const [place, setPlace] = useState<CSSProperties>({});
  const [start, setStart] = useState<'first' | 'last'>('first');
  const id = useId();
  const root = useRef<HTMLDivElement>(null);
  const button = useRef<HTMLButtonElement>(null);
  const menu = useRef<HTMLUListElement>(null);

  const entries = (): HTMLButtonElement[] => Array.from(menu.current?.querySelectorAll('button') ?? []);

  useEffect(() => {
    if (!open) return undefined;
    const all = entries();
    (start === 'first' ? all[0] : all.at(-1))?.focus();
    const onPointer = (event: PointerEvent): void => {
      if (!root.current?.contains(event.target as Node)) setOpen(false);
    };
    // A fixed menu would part from its button when the page scrolls: it closes instead.
    const onScroll = (event: Event): void => {
      if (!menu.current?.contains(event.target as Node)) setOpen(false);
    };
    document.addEventListener('pointerdown', onPointer);
    window.addEventListener('scroll', onScroll, true);
    return () => {
      document.removeEventListener('pointerdown', onPointer);
      window.removeEventListener('scroll', onScroll, true);
    };
  }, [open, start]);

  /** Opens the menu below its button, right-aligned with it, or above it when the screen ends first. */
  const show = (from: 'first' | 'last'): void => {
    const box = button.current?.getBoundingClientRect();
    if (box) {
      const width = Math.min(240, window.innerWidth - 16);
      const height = items.length * 40 + 12;
      const left = Math.max(8, Math.min(box.right - width, window.innerWidth - width - 8));
      const below = box.bottom + 4 + height <= window.innerHeight;
      setPlace(
        below ? { left, top: box.bottom + 4, width } : { left, bottom: window.innerHeight - box.top + 4, width },
      );
    }
    setStart(from);
    setOpen(true);
  };

  const close = (): void => {
    setOpen(false);
    button.current?.focus();
  };

  const onMenuKey = (event: KeyboardEvent): void => {
    const all = entries();
    const index = all.indexOf(document.activeElement as HTMLButtonElement);
    const moves: Record<string, number> = {
      ArrowDown: (index + 1) % all.length,
      ArrowUp: (index - 1 + all.length) % all.length,
      Home: 0,
      End: all.length - 1,
    };
    if (event.key in moves) {
      event.preventDefault();
      all[moves[event.key] ?? 0]?.focus();
    } else if (event.key === 'Escape') {
      event.preventDefault();
      event.stopPropagation();
      close();
    } else if (event.key === 'Tab') setOpen(false);
  };

  return (
    <div ref={root} className={styles.rowMenu}>
      <button
        ref={button}
        type="button"
        className="button button--sm button--secondary"
        aria-haspopup="menu"
        aria-expanded={open}
        aria-controls={open ? id : undefined}
        aria-label={label}
        onClick={() => (open ? setOpen(false) : show('first'))}
        onKeyDown={(event) => {
          if (event.key === 'ArrowDown' || event.key === 'ArrowUp') {
            event.preventDefault();
            show(event.key === 'ArrowDown' ? 'first' : 'last');
          }
        }}
      >
        Actions <span aria-hidden="true">▾</span>
      </button>
      {open && (
        <ul
          id={id}
          ref={menu}
          role="menu"
          aria-label={label}
          className={styles.menu}
          style={place}
          onKeyDown={onMenuKey}
        >
          {items.map((item) => (
            <li key={item.label} role="none">
              <button
                type="button"
                role="menuitem"
                tabIndex={-1}
                className={clsx(styles.menuItem, item.danger && styles.menuDanger)}
                onClick={() => {
                  close();
                  item.onSelect();
                }}
              >
                {item.label}
              </button>
            </li>
          ))}
        </ul>
      )}
    </div>
  );
}
