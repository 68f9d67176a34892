import NavbarNavLink from '@theme/NavbarItem/NavbarNavLink';

interface Props {
  mobile?: boolean;
  className?: string;
}

/**
 * The navbar's place for Login / Logout. Sign-in arrives with the gate server; until
 * then every reader is signed out, so the item always offers Login.
 */
export default function NavbarAuthItem({ mobile = false, className }: Props): React.JSX.Element {
  return (
    <NavbarNavLink
      to="/login"
      label="Login"
      className={mobile ? 'menu__link' : `navbar__item navbar__link ${className ?? ''}`}
    />
  );
}
