// What a user may see (issue 33): all devices, or only those of the organizations and device groups
// they are limited to. The chooser offers the server's orgs and groups as checkboxes; every name is
// set as text (el()), so an org named "<img onerror=...>" stays words. The API is the one
// validator: what is chosen is sent as is, and a refusal is shown in its own words.
import { el } from '../base/dom.js';
import type { Limits } from '../replies.js';

/** "All devices", or "Orgs: acme, beta · Groups: vans": a user's limits in a line. */
export function limitsText(user: Partial<Limits>): string {
  if (user.orgs == null && user.groups == null) return 'All devices';
  const parts: string[] = [];
  if (user.orgs != null) parts.push('Orgs: ' + user.orgs.join(', '));
  if (user.groups != null) parts.push('Groups: ' + user.groups.join(', '));
  return parts.join(' · ');
}

// Each chooser's radios need a name of their own (one per user row, one for the new user).
let choosers = 0;

/** The names offered: the server's, and any the user holds that the server no longer lists. */
const offered = (names: string[], held: string[] | null): string[] => [...new Set([...names, ...(held || [])])];

function checkList(kind: string, legend: string, names: string[], held: string[] | null): HTMLFieldSetElement {
  const boxes = offered(names, held).map((name) =>
    el(
      'label',
      { className: 'choice' },
      el('input', { type: 'checkbox', value: name, checked: Boolean(held && held.includes(name)) }),
      name,
    ),
  );
  return el(
    'fieldset',
    { className: 'limit-' + kind },
    el('legend', {}, legend),
    ...(boxes.length > 0 ? boxes : [el('p', { className: 'hint' }, 'None on this server')]),
  );
}

/**
 * A chooser of a user's limits. choices: { orgs, groups }, the names to offer; held: the user's
 * { orgs, groups } (null: all devices). value() is the API body's { orgs, groups }.
 */
export function limitsChooser(
  choices: { orgs: string[]; groups: string[] },
  held: Limits = { orgs: null, groups: null },
): { element: HTMLFieldSetElement; value: () => Limits } {
  const name = 'limits-' + ++choosers;
  const limited = held.orgs != null || held.groups != null;
  const all = el('input', { type: 'radio', name, value: 'all', checked: !limited });
  const only = el('input', { type: 'radio', name, value: 'only', checked: limited });
  const orgs = checkList('orgs', 'Organizations', choices.orgs, held.orgs);
  const groups = checkList('groups', 'Device groups', choices.groups, held.groups);
  const lists = el('div', { className: 'limit-lists', hidden: !limited }, orgs, groups);
  const show = () => (lists.hidden = all.checked);
  all.addEventListener('change', show);
  only.addEventListener('change', show);
  const element = el(
    'fieldset',
    { className: 'limits-chooser' },
    el('legend', {}, 'Sees'),
    el('label', { className: 'choice' }, all, 'All devices'),
    el('label', { className: 'choice' }, only, 'Only the devices of:'),
    lists,
  );
  const checked = (list: Element): string[] =>
    [...list.querySelectorAll<HTMLInputElement>('input:checked')].map((box) => box.value);
  const value = (): Limits => {
    if (all.checked) return { orgs: null, groups: null };
    const chosen = { orgs: checked(orgs), groups: checked(groups) };
    // Limited to nothing: sent as an empty list, which the API refuses with its own message.
    if (chosen.orgs.length === 0 && chosen.groups.length === 0) return { orgs: [], groups: null };
    return {
      orgs: chosen.orgs.length > 0 ? chosen.orgs : null,
      groups: chosen.groups.length > 0 ? chosen.groups : null,
    };
  };
  return { element, value };
}
