import { useEffect, useId, useRef, useState } from 'react';
import clsx from 'clsx';
import Link from '@docusaurus/Link';
import { useLocation } from '@docusaurus/router';

import styles from './styles.module.css';

/** The reader's own page: e-mail, groups and personal access tokens. */
export const ACCOUNT_PATH = '/account';

/** What changed for the reader: releases of the packages they use, pages changed since they read them. */
export const WHATS_NEW_PATH = '/account/whats-new';

/** How to connect a coding assistant: the MCP address, install links and set-up per client. */
export const ASSISTANT_PATH = '/account/assistant';

/** The reader's initial, in a circle: a glance tells who is signed in. */
export function Avatar({ email }: { email: string }): React.JSX.Element {
  return (
    <span className={styles.avatar} aria-hidden="true">
      {email.slice(0, 1).toUpperCase()}
    </span>
  );
}

interface Props {
  email: string;
  className?: string;
  /** Shown in the menu, which stays open, when signing out failed. */
  failure: string | null;
  /** The Logout button, made by the caller (it is the mobile menu's too). */
  logout: React.JSX.Element;
}

/**
 * The signed-in reader's menu on wide screens: one avatar button that opens (on hover, like
 * the navbar's other menus, or on click and Enter) the e-mail address, Account and Logout.
 * A disclosure, not an ARIA menu: the items are a link and a button that Tab reaches in order.
 */
export default function AccountMenu({ email, className, failure, logout }: Props): React.JSX.Element {
  // Open on the page where it was opened: a choice (Account) or any other navigation closes it.
  const { pathname } = useLocation();
  const [openOn, setOpenOn] = useState<string | null>(null);
  const open = openOn === pathname;
  const setOpen = (value: boolean): void => setOpenOn(value ? pathname : null);
  const id = useId();
  const root = useRef<HTMLDivElement>(null);
  const button = useRef<HTMLButtonElement>(null);
  const shown = open || failure !== null;

  useEffect(() => {
    if (!open) return undefined;
    const onPointer = (event: PointerEvent): void => {
      if (!root.current?.contains(event.target as Node)) setOpenOn(null);
    };
    const onKey = (event: KeyboardEvent): void => {
      if (event.key !== 'Escape') return;
      setOpenOn(null);
      button.current?.focus();
    };
    document.addEventListener('pointerdown', onPointer);
    document.addEventListener('keydown', onKey);
    return () => {
      document.removeEventListener('pointerdown', onPointer);
      document.removeEventListener('keydown', onKey);
    };
  }, [open]);

  return (
    <div
      ref={root}
      className={clsx('navbar__item dropdown dropdown--hoverable dropdown--right', styles.slot, className, {
        'dropdown--show': shown,
      })}
      data-auth-item=""
      onBlur={(event) => {
        // Tabbing out of the menu closes it; moving between its items does not.
        if (!event.currentTarget.contains(event.relatedTarget as Node | null)) setOpen(false);
      }}
    >
      <button
        ref={button}
        type="button"
        className={styles.menuButton}
        aria-expanded={shown}
        aria-controls={id}
        aria-label={`Account menu (${email})`}
        title={email}
        onClick={() => setOpen(!open)}
      >
        <Avatar email={email} />
        <span className={styles.chevron} aria-hidden="true" />
      </button>
      <ul id={id} className={clsx('dropdown__menu', styles.menu)}>
        <li className={styles.menuEmail}>
          <span className={styles.menuCaption}>Signed in as</span>
          {failure === null ? (
            <span className={styles.menuAddress}>{email}</span>
          ) : (
            <span role="alert" className={styles.failure}>
              {failure}
            </span>
          )}
        </li>
        <li>
          <Link to={ACCOUNT_PATH} className="dropdown__link" title="Your account and personal access tokens">
            Account
          </Link>
        </li>
        <li>
          <Link
            to={WHATS_NEW_PATH}
            className="dropdown__link"
            title="New releases of the packages you use, and pages changed since you read them"
          >
            What’s new for you
          </Link>
        </li>
        <li>
          <Link to={ASSISTANT_PATH} className="dropdown__link" title="Connect a coding assistant to these docs">
            Use with your assistant
          </Link>
        </li>
        <li>{logout}</li>
      </ul>
    </div>
  );
}
