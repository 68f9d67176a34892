// Registers the portal's own navbar item types next to the built-in ones, the way
// Docusaurus's website adds its `custom-*` items.
import ComponentTypes from '@theme-original/NavbarItem/ComponentTypes';
import NavbarAuthItem from '@site/src/components/NavbarAuthItem';
import PackageVersionMenu from '@site/src/components/PackageVersionMenu';
import SearchBar from '@site/src/components/SearchBar';

export default {
  ...ComponentTypes,
  'custom-authItem': NavbarAuthItem,
  'custom-search': SearchBar,
  'custom-packageVersion': PackageVersionMenu,
};
