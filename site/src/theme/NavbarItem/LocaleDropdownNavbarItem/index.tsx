import type { ComponentProps } from 'react';
import useDocusaurusContext from '@docusaurus/useDocusaurusContext';
import { useAlternatePageUtils } from '@docusaurus/theme-common/internal';
import DropdownNavbarItem from '@theme/NavbarItem/DropdownNavbarItem';
import IconLanguage from '@theme/Icon/Language';
import LocaleDropdownNavbarItem from '@theme-original/NavbarItem/LocaleDropdownNavbarItem';

import styles from './styles.module.css';

type Props = ComponentProps<typeof LocaleDropdownNavbarItem>;

/**
 * The language menu (spec: English only, label "English") showing the language's short name,
 * "EN", on the bar where the original shows the whole label: the signed-in navbar has no room
 * for a wide button. The button's name and the menu's choices say each language in full, and
 * a choice opens this page in that language, as the original's do. The phone menu keeps the
 * original ("Languages").
 */
export default function CompactLocaleDropdown(props: Props): React.JSX.Element {
  const {
    i18n: { currentLocale, locales, localeConfigs },
  } = useDocusaurusContext();
  const alternate = useAlternatePageUtils();
  if (props.mobile) return <LocaleDropdownNavbarItem {...props} />;
  const { dropdownItemsBefore = [], dropdownItemsAfter = [], queryString = '', ...rest } = props;
  const items = locales.map((locale) => ({
    label: localeConfigs[locale]?.label ?? locale,
    lang: localeConfigs[locale]?.htmlLang,
    // Docusaurus's form for a same-site link that is not a client-side route.
    to: `pathname://${alternate.createUrl({ locale, fullyQualified: false })}${queryString}`,
    target: '_self',
    autoAddBaseUrl: false,
    className: locale === currentLocale ? 'dropdown__link--active' : '',
  }));
  const full = localeConfigs[currentLocale]?.label ?? currentLocale;
  return (
    <DropdownNavbarItem
      {...rest}
      title={`Language: ${full}`}
      label={
        <>
          <IconLanguage className={styles.icon} width={18} height={18} aria-hidden="true" />
          <span className={styles.short}>{currentLocale.toUpperCase()}</span>
          {/* The name starts with what is seen (WCAG 2.5.3), then says it in full. */}
          <span className="portal-visually-hidden"> (language: {full})</span>
        </>
      }
      items={[...dropdownItemsBefore, ...items, ...dropdownItemsAfter]}
    />
  );
}
