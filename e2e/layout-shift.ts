import type { Page, Route } from '@playwright/test';

/** Where the navbar's parts are, rounded to whole pixels: what a reader would see move. */
export async function navbarLayout(page: Page): Promise<Record<string, string>> {
  return page.evaluate(() => {
    const boxes: Record<string, string> = {};
    const describe = (element: Element | null): string => {
      if (!element) return 'missing';
      const box = element.getBoundingClientRect();
      return [box.x, box.y, box.width, box.height].map((value) => Math.round(value)).join(',');
    };
    const navbar = document.querySelector('.navbar');
    boxes.navbar = describe(navbar);
    boxes.brand = describe(document.querySelector('.navbar__brand'));
    boxes.title = describe(document.querySelector('.navbar__title'));
    boxes.left = describe(document.querySelector('.navbar__items:not(.navbar__items--right)'));
    boxes.right = describe(document.querySelector('.navbar__items--right'));
    // Every visible link and button in the navbar except the Login/Logout item itself, whose
    // content changes while its box must not.
    // The closed mobile menu (rendered off-screen once the page runs) is not part of the bar.
    const parts = Array.from(navbar?.querySelectorAll('a, button') ?? []).filter(
      (element) =>
        element.getBoundingClientRect().width > 0 &&
        !element.closest('[data-auth-item]') &&
        !element.closest('.navbar-sidebar'),
    );
    parts.forEach((element, index) => {
      boxes[`${index}:${(element.textContent ?? '').trim().slice(0, 20)}`] = describe(element);
    });
    boxes.authItem = describe(navbar?.querySelector('[data-auth-item]') ?? null);
    return boxes;
  });
}

/**
 * Holds every request matching `pattern` until `release()`: the page shows what it shows
 * before those answers (its server-rendered first paint when the pattern is the page's
 * scripts).
 */
export async function holdRequests(page: Page, pattern: string): Promise<{ release: () => Promise<void> }> {
  const held: Route[] = [];
  let released = false;
  const handler = async (route: Route): Promise<void> => {
    if (released) await route.continue();
    else held.push(route);
  };
  await page.route(pattern, handler);
  return {
    release: async () => {
      released = true;
      await Promise.all(held.splice(0).map((route) => route.continue()));
      await page.unroute(pattern, handler);
    },
  };
}

/**
 * The page's cumulative layout shift so far (the browser's own layout-shift entries, as
 * Lighthouse and the Core Web Vitals add them up), after `settle` ms more of the page running.
 */
export async function layoutShift(page: Page, settle = 500): Promise<number> {
  return page.evaluate(
    (wait) =>
      new Promise<number>((resolve) => {
        let total = 0;
        new PerformanceObserver((list) => {
          for (const entry of list.getEntries() as (PerformanceEntry & { value: number; hadRecentInput: boolean })[]) {
            if (!entry.hadRecentInput) total += entry.value;
          }
        }).observe({ type: 'layout-shift', buffered: true });
        setTimeout(() => resolve(total), wait);
      }),
    settle,
  );
}
