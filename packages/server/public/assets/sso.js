/** Offers single sign-on on the login form when the server has a provider configured. */
export async function offerSso(element) {
  const config = await (await fetch('/dashboard-config.json')).json();
  element.hidden = config.sso !== true;
}
