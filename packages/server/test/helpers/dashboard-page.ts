import type { Browser, Page } from 'playwright-core';
import { logInThroughForm } from './browser.js';

export const DESKTOP = { width: 1440, height: 900 };
export const PHONE = { width: 390, height: 844 };
/** Generous: two CPU cores shared by the whole suite. */
export const UI_TIMEOUT_MS = 20_000;

/** How the page is opened: the browser's time zone and language, and settings already chosen. */
export interface PageOptions {
  timezoneId?: string;
  locale?: string;
  /** What the settings panel stores (settings.js): { timeZone: 'utc' }, { units: 'imperial' }. */
  settings?: Record<string, string>;
  /** A user's name and password instead of the admin token. */
  user?: { name: string; password: string };
  /**
   * Runs on the new page before its first load: listeners (and a page clock) set here see every
   * request from the first one, so a test need not load the page a second time to watch them.
   */
  beforeLoad?: (page: Page) => unknown;
}

/** A logged-in dashboard at this viewport, with page errors collected (expect them empty). */
export async function openDashboard(
  browser: Browser,
  url: string,
  token: string,
  viewport: { width: number; height: number },
  options: PageOptions = {},
): Promise<{ page: Page; problems: string[] }> {
  const page = await browser.newPage({
    viewport,
    ...(options.timezoneId ? { timezoneId: options.timezoneId } : {}),
    ...(options.locale ? { locale: options.locale } : {}),
  });
  const problems: string[] = [];
  page.on('console', (message) => {
    if (message.type() === 'error' && !message.text().startsWith('Failed to load resource'))
      problems.push(message.text());
  });
  page.on('pageerror', (error) => problems.push(error.message));
  await keepLocal(page, problems);
  await options.beforeLoad?.(page);
  if (options.settings)
    await page.addInitScript({
      content: `localStorage.setItem('waypost.settings', ${JSON.stringify(JSON.stringify(options.settings))})`,
    });
  if (options.user) {
    await page.goto(`${url}/`);
    await page.fill('#user-input', options.user.name);
    await page.fill('#password-input', options.user.password);
    await page.click('#login button[type=submit]');
  } else await logInThroughForm(page, url, token);
  await page.locator('#status').filter({ hasText: 'live' }).waitFor({ timeout: UI_TIMEOUT_MS });
  return { page, problems };
}

/**
 * The listed elements that do not fit their column: wider than what shows them (every clipping or
 * scrolling ancestor, and the window), so part of them is cut off or needs a sideways scroll.
 */
export function overflowing(page: Page, selectors: string[]): Promise<string[]> {
  // Run in the page (the tests' TypeScript has no DOM types): the selectors go in as JSON.
  return page.evaluate(`(() => {
    const wide = [];
    for (const selector of ${JSON.stringify(selectors)})
      for (const element of document.querySelectorAll(selector)) {
        const box = element.getBoundingClientRect();
        if (box.width === 0) {
          wide.push(selector + ': not laid out');
          continue;
        }
        let right = window.innerWidth;
        let left = 0;
        for (let up = element.parentElement; up; up = up.parentElement) {
          if (getComputedStyle(up).overflowX === 'visible') continue;
          const edge = up.getBoundingClientRect();
          right = Math.min(right, edge.left + up.clientLeft + up.clientWidth);
          left = Math.max(left, edge.left + up.clientLeft);
        }
        if (box.right > right + 1 || box.left < left - 1)
          wide.push(selector + ': ' + Math.round(box.width) + ' px in ' + Math.round(right - left) + ' px');
      }
    return wide;
  })()`);
}

/**
 * An http(s) URL whose host is neither 127.0.0.1 nor localhost (one with a user name before the host
 * counts as outside: stricter, and no page asks for one). A pattern, not a function: Playwright
 * matches a pattern where the browser is, and sends only the matching requests to this process; a
 * function makes it send every request of the page here and wait for the answer (about 90 on each
 * dashboard load, and a tenth of the load's CPU).
 */
export const OUTSIDE_LOCALHOST = /^https?:\/\/(?!(?:127\.0\.0\.1|localhost)(?:[:/?#]|$))/i;

/** Any request past 127.0.0.1 is refused and named as a problem: the tests never reach the network. */
export async function keepLocal(page: Page, problems: string[]): Promise<void> {
  await page.route(OUTSIDE_LOCALHOST, async (route) => {
    problems.push(`request outside 127.0.0.1: ${route.request().url()}`);
    await route.abort('blockedbyclient');
  });
}

export const markerOf = (page: Page, device: string) => page.locator(`path.device-marker[data-device="${device}"]`);

/** Whether the device's marker is drawn inside the visible map (the first view contains it). */
export async function markerInView(page: Page, device: string): Promise<boolean> {
  // Leaflet draws a marker outside the view as an empty path ("M0 0", at the layer's origin).
  if ((await markerOf(page, device).getAttribute('d')) === 'M0 0') return false;
  const marker = await markerOf(page, device).boundingBox();
  const map = await page.locator('#map').boundingBox();
  if (!marker || !map) return false;
  const x = marker.x + marker.width / 2;
  const y = marker.y + marker.height / 2;
  return x >= map.x && x <= map.x + map.width && y >= map.y && y <= map.y + map.height;
}

/** The colour of the device's line, or of its marker when it has no line. */
export async function colourOf(page: Page, device: string): Promise<string | null> {
  return markerOf(page, device).getAttribute('fill');
}

/** The two window sizes every dashboard view is tested at, with their labels. */
export const BOTH_SIZES = [
  ['1440x900', DESKTOP],
  ['390x844', PHONE],
] as const;
