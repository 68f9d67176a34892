import { useEffect, useId, useRef, useState, type KeyboardEvent } from 'react';
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
    document.addEventListener('pointerdown', onPointer);
    return () => document.removeEventListener('pointerdown', onPointer);
  }, [open, start]);

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
        onClick={() => {
          setStart('first');
          setOpen(!open);
        }}
        onKeyDown={(event) => {
          if (event.key === 'ArrowDown' || event.key === 'ArrowUp') {
            event.preventDefault();
            setStart(event.key === 'ArrowDown' ? 'first' : 'last');
            setOpen(true);
          }
        }}
      >
        Actions <span aria-hidden="true">▾</span>
      </button>
      {open && (
        <ul id={id} ref={menu} role="menu" aria-label={label} className={styles.menu} onKeyDown={onMenuKey}>
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
