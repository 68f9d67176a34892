import { useEffect, useId, useRef, type ReactNode } from 'react';
import clsx from 'clsx';

import styles from './styles.module.css';

/**
 * A modal question (the browser's own `<dialog>`: focus kept inside, Escape cancels) for
 * what must be confirmed before it is done: an administrator's changes to a reader, a
 * reader revoking a token.
 */
export default function ConfirmDialog({
  title,
  confirm,
  danger = false,
  onConfirm,
  onCancel,
  children,
}: {
  title: string;
  confirm: string;
  danger?: boolean;
  onConfirm: () => void;
  onCancel: () => void;
  children: ReactNode;
}): React.JSX.Element {
  const dialog = useRef<HTMLDialogElement>(null);
  const titleId = useId();
  useEffect(() => {
    const element = dialog.current;
    if (element && !element.open) element.showModal();
    return () => element?.close();
  }, []);
  return (
    <dialog
      ref={dialog}
      className={styles.dialog}
      aria-labelledby={titleId}
      onCancel={(event) => {
        event.preventDefault();
        onCancel();
      }}
    >
      <h2 id={titleId}>{title}</h2>
      {children}
      <div className={styles.dialogActions}>
        <button type="button" className="button button--secondary" onClick={onCancel}>
          Cancel
        </button>
        <button
          type="button"
          className={clsx('button', danger ? 'button--danger' : 'button--primary')}
          onClick={onConfirm}
        >
          {confirm}
        </button>
      </div>
    </dialog>
  );
}
