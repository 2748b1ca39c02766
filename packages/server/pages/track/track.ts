// The tracker page: enrolls this browser as a device of the Waypost server that serves it, then
// records the Geolocation API's fixes into the SDK's durable queue while the page is open. Uploads
// run from here while a tab is open, and from the service worker (Background Sync) when none is.
// Built, the SDK import reads /sdk/waypost-browser.js (build-pages.mjs rewrites it).
import { createBackgroundGeolocation, registerBackgroundUploads } from '@waypost/browser';
import type { Reply } from '../dashboard/api-types.js';
import {
  byId,
  describeEnrollRefusal,
  describeFix,
  describeUpload,
  NETWORK_LABELS,
  setText,
  show,
} from './tracker-ui.js';

const DATABASE = 'waypost-track';
const PAUSED_KEY = 'waypost.track.paused';
/** The name typed at enrollment, shown on every later visit (the uuid is for the server). */
const NAME_KEY = 'waypost.track.name';
const origin = location.origin;

const bg = await createBackgroundGeolocation({ database: DATABASE });
const tracker = {
  bg,
  enrolled: false,
  started: false,
  loaded: false,
  worker: null as ServiceWorkerRegistration | null,
};
// For the end-to-end tests and for debugging from the console.
(globalThis as { waypostTracker?: typeof tracker }).waypostTracker = tracker;

/** What POST /auth/register answers (its route's schema). */
type Enrollment = Reply<'/auth/register', 'post'>;

async function registerWorker(): Promise<ServiceWorkerRegistration | null> {
  if (!('serviceWorker' in navigator)) return null;
  try {
    return await navigator.serviceWorker.register('/track/sw.js', { type: 'module', scope: '/track/' });
  } catch (error) {
    setText('location-error', `Uploads stop when this page closes: ${(error as Error).message}`);
    return null;
  }
}

/** Asks the browser to wake the service worker for what is still queued. */
async function askForBackgroundUpload(): Promise<void> {
  if (tracker.worker && (await bg.getCount()) > 0) await registerBackgroundUploads(tracker.worker);
}

const isEnrolled = (): boolean => {
  const config = bg.config.current;
  return Boolean(config.http.url && config.authorization.refreshToken);
};

/** POST /auth/register under the server's policy: open, an enrollment secret, or the admin token. */
async function register(name: string, code: string): Promise<Enrollment> {
  // The typed name is the device's name in the dashboard; the model says what it runs on.
  const body = JSON.stringify({ uuid: bg.device.uuid, name, model: navigator.platform || null, platform: 'browser' });
  const attempt = (headers: Record<string, string>): Promise<Response> =>
    fetch(`${origin}/auth/register`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', ...headers },
      body,
    });
  let response = await attempt(code ? { 'x-registration-secret': code } : {});
  // A refusal's body is the API's error ({ error, code }), or anything a proxy sent.
  const bodyOf = (answer: Response): Promise<{ code?: unknown; error?: unknown }> => answer.json().catch(() => ({}));
  let reply = await bodyOf(response);
  if (response.status === 401 && code && reply.code === 'REGISTRATION_CLOSED') {
    response = await attempt({ authorization: `Bearer ${code}` });
    reply = await bodyOf(response);
  }
  if (!response.ok) throw new Error(describeEnrollRefusal(reply, response.status, Boolean(code)));
  return reply as Enrollment;
}

async function configure(tokens: Enrollment): Promise<void> {
  await bg.ready({
    http: { url: `${origin}/locations`, autoSync: true, batchSync: true, maxBatchSize: 100 },
    authorization: {
      strategy: 'JWT',
      accessToken: tokens.accessToken,
      refreshToken: tokens.refreshToken,
      refreshUrl: `${origin}/auth/refresh`,
      refreshPayload: { refresh_token: '{refreshToken}' },
      expires: tokens.expires ?? -1,
    },
    app: { stopOnTerminate: false },
    persistence: { maxDaysToPersist: 7 },
  });
}

async function refreshView(): Promise<void> {
  const { enabled } = bg.tracking;
  setText('tracking-state', enabled ? 'Recording while this page is open.' : 'Paused.');
  setText('toggle', enabled ? 'Pause' : 'Record');
  setText('queued', await bg.getCount());
}

async function startTracking(): Promise<void> {
  show('enroll', false);
  show('tracker', true);
  setText('device-label', localStorage.getItem(NAME_KEY) || 'This device');
  setText('device-id', bg.device.uuid);
  if (localStorage.getItem(PAUSED_KEY) !== '1') await bg.start();
  tracker.started = true;
  await refreshView();
}

bg.onLocation((location) => {
  setText('last-fix', describeFix(location));
  void refreshView();
});
bg.onHttp((event) => {
  setText('last-upload', describeUpload(event));
  void refreshView();
  if (!event.success) void askForBackgroundUpload();
});
bg.onConnectivityChange(({ type }) => {
  setText('network', NETWORK_LABELS[type] ?? type);
  if (type === 'none') void askForBackgroundUpload();
});
setText('network', navigator.onLine ? 'online' : 'offline');
document.addEventListener('visibilitychange', () => {
  if (document.visibilityState === 'hidden') void askForBackgroundUpload();
});

byId('toggle').addEventListener('click', async () => {
  const { enabled } = bg.tracking;
  localStorage.setItem(PAUSED_KEY, enabled ? '1' : '0');
  await (enabled ? bg.stop() : bg.start());
  await refreshView();
});

byId('enroll-form').addEventListener('submit', async (event) => {
  event.preventDefault();
  setText('enroll-error', '');
  try {
    const name = byId<HTMLInputElement>('device-name').value.trim();
    const tokens = await register(name, byId<HTMLInputElement>('enroll-code').value);
    localStorage.setItem(NAME_KEY, name);
    await configure(tokens);
    tracker.enrolled = true;
    await startTracking();
  } catch (error) {
    setText('enroll-error', (error as Error).message);
  }
});

tracker.worker = await registerWorker();
if (isEnrolled()) {
  await bg.ready({ reset: false });
  tracker.enrolled = true;
  await startTracking();
} else {
  show('enroll', true);
}
tracker.loaded = true;
