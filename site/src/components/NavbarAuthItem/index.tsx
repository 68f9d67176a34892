import { useState } from 'react';
import clsx from 'clsx';
import { useLocation } from '@docusaurus/router';
import NavbarNavLink from '@theme/NavbarItem/NavbarNavLink';
import { LOGIN_PATH, loginUrlFor, normalizeRoute } from '@portal/access';

import { useAuth } from '@site/src/auth/AuthProvider';

import AccountMenu, { ACCOUNT_PATH, ASSISTANT_PATH, Avatar, WHATS_NEW_PATH } from './AccountMenu';
import styles from './styles.module.css';

interface Props {
  mobile?: boolean;
  className?: string;
  /** Set by the mobile menu to close itself after a choice. */
  onClick?: () => void;
  /** Given to every navbar item by the theme; placement is the navbar's business. */
  position?: 'left' | 'right';
}

/** Where the Login link points: back to this page after signing in, or plain /login on it. */
function useLoginHref(): string {
  const { pathname, search, hash } = useLocation();
  return normalizeRoute(pathname) === LOGIN_PATH ? LOGIN_PATH : loginUrlFor(pathname + search + hash);
}

function LogoutButton({
  email,
  mobile,
  onFailure,
}: {
  email: string;
  mobile: boolean;
  onFailure: () => void;
}): React.JSX.Element {
  const { logout } = useAuth();
  const [working, setWorking] = useState(false);
  // The visible word starts the accessible name, so "Logout" finds it by voice and by role.
  const label = `Logout (${email})`;

  function onClick(): void {
    setWorking(true);
    logout().catch((error: unknown) => {
      console.error('Logout failed:', error);
      setWorking(false);
      onFailure();
    });
  }

  return (
    <button
      type="button"
      className={clsx(mobile ? 'menu__link' : 'dropdown__link', styles.linkButton)}
      onClick={onClick}
      disabled={working}
      aria-label={label}
      title={label}
    >
      Logout
    </button>
  );
}

/**
 * The signed-in item's shape with nothing in it, and the Login link's, both unseen: the
 * root's reader classes (set from the hint cookie before the first paint) show the one
 * that will arrive, so the navbar keeps its layout when the session answers.
 */
function Placeholder({ className }: { className?: string }): React.JSX.Element {
  return (
    <span className={clsx(styles.placeholder, className)} aria-hidden="true" data-auth-item="">
      <span className={clsx(styles.slot, styles.asSignedIn)}>
        <span className={styles.menuButton}>
          <span className={styles.avatar}>&nbsp;</span>
          <span className={styles.chevron} />
        </span>
      </span>
      <span className={clsx('navbar__link', styles.login, styles.asSignedOut)}>Login</span>
    </span>
  );
}

/**
 * The navbar's Login / Logout item (spec §2): signed out, the Login link; signed in, the avatar
 * menu with the e-mail address, Account and Logout (in the phone menu, those three as items).
 * Until the session answers, a placeholder of the expected shape holds its place.
 */
export default function NavbarAuthItem({ mobile = false, className, onClick }: Props): React.JSX.Element {
  const { state } = useAuth();
  const loginHref = useLoginHref();
  const [logoutFailed, setLogoutFailed] = useState(false);

  if (state.status === 'loading') {
    return mobile ? (
      <li className={clsx('menu__list-item', styles.mobilePlaceholder)} aria-hidden="true">
        <span className="menu__link">Login</span>
      </li>
    ) : (
      <Placeholder className={className} />
    );
  }

  if (state.status === 'signedOut') {
    return mobile ? (
      <li className="menu__list-item">
        <NavbarNavLink to={loginHref} label="Login" className={clsx('menu__link', className)} onClick={onClick} />
      </li>
    ) : (
      <NavbarNavLink
        to={loginHref}
        label="Login"
        className={clsx('navbar__item navbar__link', styles.login, className)}
        data-auth-item=""
      />
    );
  }

  const failureText = 'Logout failed, try again.';

  if (mobile) {
    return (
      <>
        <li className="menu__list-item">
          <span className={clsx('menu__link', styles.mobileEmail)} title={state.email}>
            <Avatar email={state.email} />
            {state.email}
          </span>
        </li>
        <li className="menu__list-item">
          <NavbarNavLink to={ACCOUNT_PATH} label="Account" className="menu__link" onClick={onClick} />
        </li>
        <li className="menu__list-item">
          <NavbarNavLink to={WHATS_NEW_PATH} label="What’s new for you" className="menu__link" onClick={onClick} />
        </li>
        <li className="menu__list-item">
          <NavbarNavLink to={ASSISTANT_PATH} label="Use with your assistant" className="menu__link" onClick={onClick} />
        </li>
        <li className="menu__list-item">
          <LogoutButton email={state.email} mobile onFailure={() => setLogoutFailed(true)} />
        </li>
        {logoutFailed && (
          <li className="menu__list-item">
            <span role="alert" className={clsx('menu__link', styles.failure)}>
              {failureText}
            </span>
          </li>
        )}
      </>
    );
  }

  return (
    <AccountMenu
      email={state.email}
      className={className}
      failure={logoutFailed ? failureText : null}
      logout={<LogoutButton email={state.email} mobile={false} onFailure={() => setLogoutFailed(true)} />}
    />
  );
}
