// The SDK logs a device uploaded (uploadLog): listed in the device's details, shown as text.
import { api, apiJson } from '../base/api.js';
import { el, fill, showInViewer } from '../base/dom.js';
import * as fmt from '../settings/format.js';
import type { UploadedLog } from '../replies.js';

export async function showLogList(deviceId: string, container: HTMLElement): Promise<void> {
  const logs = ((await apiJson('/api/logs')) as UploadedLog[]).filter((log) => log.deviceId === deviceId);
  fill(
    container,
    el('h3', {}, 'Uploaded logs'),
    logs.length === 0
      ? el('p', { className: 'hint' }, 'none')
      : el(
          'ul',
          { className: 'logs' },
          ...logs.map((log) =>
            el(
              'li',
              {},
              el(
                'button',
                { type: 'button', dataset: { log: String(log.id) }, onclick: () => void openLog(log) },
                'Log #' + log.id + ' · ' + fmt.text(log.createdAt) + ' · ' + log.size + ' bytes',
              ),
            ),
          ),
        ),
  );
}

async function openLog(log: UploadedLog): Promise<void> {
  const response = await api('/api/logs/' + encodeURIComponent(log.id));
  showInViewer(response.ok ? await response.text() : 'Log ' + log.id + ' cannot be read');
}
