// An owner's Users panel (issue 33): create users, change a role, the orgs and device groups a
// user is limited to (user-limits.js), reset a password, delete. Every name and message from the
// server is set as text (el()); a password is sent once and the field emptied.
import { apiJson } from '../base/api.js';
import { el, fill } from '../base/dom.js';
import type { DeviceGroup, Org, UserAccount } from '../replies.js';
import { errorLine } from '../base/form-errors.js';
import { limitsChooser, limitsText } from './user-limits.js';
import { Refused, userCall, type UserField } from './user-refusals.js';

const ROLES = ['viewer', 'operator', 'owner'];

/** The panel in `container`, read again after each change. */
export async function showUsers(container: HTMLElement): Promise<void> {
  const say = (message: string): void => fill(status, message);
  const status = el('p', { className: 'hint', role: 'status', id: 'users-status' });
  // A refusal's sentence goes beside its field (errors), the status line says what was not done and
  // keeps the server's own words for whoever reports it.
  const act = async (
    work: () => Promise<unknown>,
    done: string,
    errors: Partial<Record<UserField, HTMLElement>> = {},
  ): Promise<void> => {
    for (const line of Object.values(errors)) line.textContent = '';
    try {
      await work();
      await showUsers(container);
      const shown = container.querySelector('#users-status');
      if (shown) fill(shown, done);
    } catch (error) {
      if (!(error instanceof Refused)) return say((error as Error).message);
      const line = errors[error.field];
      if (line) line.textContent = error.sentence;
      say('Not done: ' + (line ? 'see above' : error.sentence) + ' (the server said: ' + error.said + ')');
    }
  };
  const [users, orgs, groups] = (await Promise.all([
    apiJson('/api/users'),
    apiJson('/api/orgs'),
    apiJson('/api/groups'),
  ])) as [UserAccount[], Org[], DeviceGroup[]];
  // A deleted org's devices are gone: it is offered no more (a user still limited to it shows it).
  const choices = {
    orgs: orgs.filter((org) => org.status !== 'deleted').map((org) => org.name),
    groups: groups.map((group) => group.name),
  };
  const roleSelect = (value: string, props: Parameters<typeof el<'select'>>[1]): HTMLSelectElement =>
    el('select', props, ...ROLES.map((role) => el('option', { value: role, selected: role === value }, role)));

  const rows = users.map((user, index) => {
    const path = '/api/users/' + encodeURIComponent(user.name);
    // Ids by position: a name may hold any character an id should not.
    const password = el('input', {
      id: 'user-password-' + index,
      type: 'password',
      placeholder: 'new password',
      autocomplete: 'new-password',
    });
    const passwordError = errorLine('user-' + index, 'password');
    const rowErrors = { password: passwordError, role: passwordError, limits: passwordError };
    const chooser = limitsChooser(choices, user);
    const limits = el(
      'details',
      { className: 'limits' },
      el(
        'summary',
        { title: 'What ' + user.name + ' sees' },
        el('span', { className: 'limits-text' }, limitsText(user)),
      ),
      chooser.element,
      el(
        'button',
        {
          type: 'button',
          className: 'save-limits',
          onclick: () => {
            const body = chooser.value();
            return act(
              () => userCall(path, { method: 'PATCH', body: JSON.stringify(body) }),
              'Limits of ' + user.name + ': ' + limitsText(body),
              rowErrors,
            );
          },
        },
        'Save limits',
      ),
    );
    return el(
      'li',
      { dataset: { user: user.name } },
      el('strong', {}, user.name),
      roleSelect(user.role, {
        ariaLabel: 'Role',
        onchange: (event: Event) => {
          const chosen = (event.target as HTMLSelectElement).value;
          return act(
            () => userCall(path, { method: 'PATCH', body: JSON.stringify({ role: chosen }) }),
            user.name + ' is now ' + chosen,
            rowErrors,
          );
        },
      }),
      limits,
      el('label', { htmlFor: password.id, className: 'field-label' }, 'New password for ' + user.name + ' '),
      password,
      el(
        'button',
        {
          type: 'button',
          className: 'reset',
          onclick: () => {
            const value = password.value;
            password.value = '';
            return act(
              () => userCall(path, { method: 'PATCH', body: JSON.stringify({ password: value }) }),
              'Password of ' + user.name + ' reset',
              rowErrors,
            );
          },
        },
        'Reset password',
      ),
      el(
        'button',
        {
          type: 'button',
          className: 'delete',
          onclick: () => act(() => userCall(path, { method: 'DELETE' }), user.name + ' deleted'),
        },
        'Delete',
      ),
      passwordError,
    );
  });

  const name = el('input', { id: 'new-user-name', placeholder: 'name', maxLength: 64 });
  const password = el('input', {
    id: 'new-user-password',
    type: 'password',
    placeholder: 'password',
    autocomplete: 'new-password',
  });
  const role = roleSelect('viewer', { id: 'new-user-role' });
  const errors = {
    name: errorLine('new-user', 'name'),
    password: errorLine('new-user', 'password'),
    role: errorLine('new-user', 'role'),
    limits: errorLine('new-user', 'limits'),
  };
  const labelled = (text: string, field: HTMLElement): HTMLLabelElement =>
    el('label', { htmlFor: field.id, className: 'field-label' }, text);
  const newLimits = limitsChooser(choices);
  const create = el(
    'form',
    {
      id: 'new-user',
      onsubmit: (event: SubmitEvent) => {
        event.preventDefault();
        const body = JSON.stringify({
          name: name.value.trim(),
          password: password.value,
          role: role.value,
          ...newLimits.value(),
        });
        password.value = '';
        const done = 'User ' + name.value.trim() + ' created';
        return act(() => userCall('/api/users', { method: 'POST', body }), done, errors);
      },
    },
    labelled('Name', name),
    name,
    errors.name,
    labelled('Password', password),
    password,
    errors.password,
    labelled('Role', role),
    role,
    errors.role,
    newLimits.element,
    errors.limits,
    el('button', { type: 'submit' }, 'Create user'),
  );
  fill(container, el('ul', { className: 'users' }, ...rows), create, status);
}
