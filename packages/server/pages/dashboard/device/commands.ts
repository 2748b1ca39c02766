// The command form: the commands and what each takes come from the server, which checks them
// against the SDK's own command table before queueing.
import { api, routeJson } from '../base/api.js';
import { $, el, fill } from '../base/dom.js';

export async function setUpCommandForm(): Promise<void> {
  const commands = await routeJson('/api/dashboard/commands', { method: 'get', params: {} });
  const argument = $<HTMLTextAreaElement>('command-argument');
  const chosen = $<HTMLSelectElement>('command-name');
  const byName = new Map(commands.map((c) => [c.name, c]));
  fill($('command-name'), ...commands.map((c) => el('option', { value: c.name }, c.name)));
  const describe = () => {
    const command = byName.get(chosen.value);
    $('command-takes').textContent = command ? 'Takes ' + command.takes + '.' : '';
    argument.disabled = !(command && command.argument);
  };
  $('command-name').addEventListener('change', describe);
  describe();
  $('command-form').addEventListener('submit', async (event) => {
    event.preventDefault();
    const id = $<HTMLSelectElement>('command-device').value;
    const name = chosen.value;
    const command: unknown[] = [name];
    const argumentText = argument.disabled ? '' : argument.value.trim();
    if (argumentText) {
      try {
        command.push(JSON.parse(argumentText));
      } catch (error) {
        $('command-result').textContent = 'The argument is not JSON: ' + (error as Error).message;
        return;
      }
    }
    const response = await api('/api/devices/' + encodeURIComponent(id) + '/commands', {
      method: 'POST',
      body: JSON.stringify({ command }),
    });
    const body = (await response.json().catch(() => ({}))) as { id?: unknown; error?: unknown };
    $('command-result').textContent = response.ok
      ? 'Queued #' + String(body.id) + ' for ' + id
      : 'Refused: ' + String(body.error);
  });
}

/** Devices the form can address: appended in one go (one by one, a select of 10,000 reflows 10,000 times). */
export function addCommandDevices(devices: Iterable<{ id: string; label: string }>): void {
  const options = document.createDocumentFragment();
  for (const { id, label } of devices)
    options.append(el('option', { value: id }, label === id ? id : label + ' (' + id + ')'));
  $('command-device').append(options);
}
