// An owner's Device groups panel (issue 33): make a group of devices, change its devices, delete
// it; users limited to a group see its devices only. Names and ids are set as text (el()).
import { apiJson } from '../base/api.js';
import { el, fill } from '../base/dom.js';
import type { DeviceGroup } from '../replies.js';

/** Device ids typed as a comma- or space-separated list. */
const idsOf = (text: string): string[] =>
  text
    .split(/[\s,]+/)
    .map((id) => id.trim())
    .filter((id) => id !== '');

/**
 * The panel in `container`, read again after each change; changed() then runs too (the Users
 * panel offers the groups, so it is read again).
 */
export async function showGroups(container: HTMLElement, changed: () => unknown = () => {}): Promise<void> {
  const status = el('p', { className: 'hint', role: 'status', id: 'groups-status' });
  const act = async (work: () => Promise<unknown>, done: string): Promise<void> => {
    try {
      await work();
      await showGroups(container, changed);
      const shown = container.querySelector('#groups-status');
      if (shown) fill(shown, done);
      await changed();
    } catch (error) {
      fill(status, (error as Error).message);
    }
  };
  const put = (name: string, devices: string[]): Promise<unknown> =>
    apiJson('/api/groups/' + encodeURIComponent(name), { method: 'PUT', body: JSON.stringify({ devices }) });
  const groups = (await apiJson('/api/groups')) as DeviceGroup[];
  const rows = groups.map((group) => {
    const devices = el('input', { value: group.devices.join(', '), ariaLabel: 'Devices of ' + group.name });
    return el(
      'li',
      { dataset: { group: group.name } },
      el('strong', {}, group.name),
      devices,
      el(
        'button',
        {
          type: 'button',
          className: 'save',
          onclick: () => act(() => put(group.name, idsOf(devices.value)), group.name + ' saved'),
        },
        'Save',
      ),
      el(
        'button',
        {
          type: 'button',
          className: 'delete',
          onclick: () =>
            act(
              () => apiJson('/api/groups/' + encodeURIComponent(group.name), { method: 'DELETE' }),
              group.name + ' deleted',
            ),
        },
        'Delete',
      ),
    );
  });
  const name = el('input', { id: 'new-group-name', placeholder: 'group name', maxLength: 64 });
  const devices = el('input', { id: 'new-group-devices', placeholder: 'device ids, comma-separated' });
  const create = el(
    'form',
    {
      id: 'new-group',
      onsubmit: (event: SubmitEvent) => {
        event.preventDefault();
        const group = name.value.trim();
        return act(() => put(group, idsOf(devices.value)), 'Group ' + group + ' saved');
      },
    },
    name,
    devices,
    el('button', { type: 'submit' }, 'Save group'),
  );
  fill(container, el('ul', { className: 'groups' }, ...rows), create, status);
}
