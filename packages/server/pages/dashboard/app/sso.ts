import type { DashboardConfig } from '../replies.js';

/** Offers single sign-on on the login form when the server has a provider configured. */
export async function offerSso(element: HTMLElement): Promise<void> {
  const config = (await (await fetch('/dashboard-config.json')).json()) as DashboardConfig;
  element.hidden = config.sso !== true;
}
