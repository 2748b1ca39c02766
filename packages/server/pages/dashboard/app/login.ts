// The login form (a user's name and password, or the admin token) and who is logged in: the
// session decides what the page offers (users for owners, the editors for operators and owners).
import { offerSso } from './sso.js';
import { showUsers } from '../editors/users.js';
import { showGroups } from '../editors/groups.js';
import { loggedIn, logIn, logInAs, logOut, whenUnauthorized } from '../base/api.js';
import { $ } from '../base/dom.js';
import type { Session } from '../replies.js';

/** What a session may do on this page. */
export type Powers = { owner: boolean; people: boolean; write: boolean };

/** What a session may do on this page; the API's route rules decide the same on the server. */
export function powersOf(session: Session | null): Powers {
  const admin = session != null && !session.user; // the admin token
  const role = admin ? 'owner' : session?.role;
  // Users and device groups are the whole fleet's: an owner limited to orgs or groups manages
  // neither (the API answers their lists 404), so their panels are not offered.
  const limited = session != null && !admin && (session.orgs != null || session.groups != null);
  return {
    owner: role === 'owner',
    people: role === 'owner' && !limited,
    write: role === 'owner' || role === 'operator',
  };
}

/**
 * Shows the login form until someone is logged in, then calls enter(powers). onLoginShown runs
 * whenever the form comes back (the session ended): the page stops its live feed.
 */
export function setUpLogin(
  enter: (powers: Powers) => Promise<unknown>,
  onLoginShown: () => void,
  report: (error: unknown) => void,
): void {
  const input = (id: string): HTMLInputElement => $<HTMLInputElement>(id);
  const showLogin = (message?: string): void => {
    onLoginShown();
    $('app').hidden = true;
    $('login').hidden = false;
    $('login-error').textContent = message || '';
    offerSso($('sso')).catch(report);
    input('user-input').focus();
  };
  const entered = async (): Promise<unknown> => {
    const session = (await loggedIn().catch(() => null)) as Session | null;
    $('whoami').textContent = session?.user ? session.user + ' (' + String(session.role) + ')' : '';
    const powers = powersOf(session);
    // Users and device groups are an unlimited owner's (and the admin token's) to manage.
    $('users-panel').hidden = $('groups-panel').hidden = !powers.people;
    if (powers.people)
      void showUsers($('users'))
        .then(() => showGroups($('groups'), () => showUsers($('users'))))
        .catch(report);
    return enter(powers).catch(report);
  };
  whenUnauthorized(() => showLogin('Your session ended: log in again.'));
  $('login').addEventListener('submit', async (event) => {
    event.preventDefault();
    const user = input('user-input').value.trim();
    const password = input('password-input').value;
    const token = input('token-input').value.trim();
    input('password-input').value = '';
    input('token-input').value = '';
    if (user) {
      const ok = await logInAs(user, password);
      if (ok === true) return entered();
      return showLogin(ok === 'limited' ? 'Too many tries: wait a minute.' : 'Wrong user name or password.');
    }
    if (await logIn(token)) return entered();
    showLogin('That is not the admin token.');
  });
  $('logout').addEventListener('click', async () => {
    await logOut();
    window.location.reload();
  });
  void loggedIn().then(
    (session) => (session ? entered() : showLogin()),
    () => showLogin(),
  );
}
