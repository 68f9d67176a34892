import type { Plugin } from '@docusaurus/types';

/** The storage keys of the theme's announcement bar (spec §9). */
export const dismissKey = 'docusaurus.announcement.dismiss';
export const idKey = 'docusaurus.announcement.id';

/**
 * A script for <head> that forgets an old dismissal before the theme's own inline script
 * reads it. The theme hides a dismissed bar with CSS before hydration without looking at
 * the id, so a new announcement stayed hidden for one page load after an id change.
 */
export function announcementResetScript(currentId: string): string {
  return `(function(){try{var s=window.localStorage;if(s.getItem(${JSON.stringify(idKey)})!==${JSON.stringify(
    currentId,
  )})s.removeItem(${JSON.stringify(dismissKey)})}catch(e){}})();`;
}

export default function announcementBarReset(announcementId: string): Plugin {
  return {
    name: 'announcement-bar-reset',
    injectHtmlTags() {
      return { headTags: [{ tagName: 'script', innerHTML: announcementResetScript(announcementId) }] };
    },
  };
}
