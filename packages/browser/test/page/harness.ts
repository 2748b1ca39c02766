// Bundled by the Chromium tests (esbuild) and loaded into a page: the shared store contract cases
// against the IndexedDB store, and probes of the browser adapters. Each returns plain JSON.
import { STORE_CONTRACT } from '../../../sdk/test/contract/store-contract-cases.js';
import { ARCHIVE_CONTRACT } from '../../../sdk/test/contract/archive-contract-cases.js';
import {
  createBackgroundGeolocation,
  drainQueue,
  createBrowserNetworkMonitor,
  createFetchTransport,
  createGeolocationProvider,
  openIndexedDbStore,
  type NetworkType,
} from '../../src/index.js';

let databases = 0;

async function runCase(name: string): Promise<string | null> {
  const contractCase = [...STORE_CONTRACT, ...ARCHIVE_CONTRACT].find((c) => c.name === name);
  if (!contractCase) return `no case named ${name}`;
  try {
    await contractCase.run(() => openIndexedDbStore(`contract-${Date.now()}-${databases++}`));
    return null;
  } catch (error) {
    return (error as Error).stack ?? String(error);
  }
}

async function openNewerDatabase(): Promise<{ code?: string; message: string }> {
  const name = 'from-the-future';
  await new Promise<void>((resolve, reject) => {
    const request = indexedDB.open(name, 99);
    request.onsuccess = () => (request.result.close(), resolve());
    request.onerror = () => reject(request.error);
  });
  try {
    await openIndexedDbStore(name);
    return { message: 'opened' };
  } catch (error) {
    return { code: (error as { code?: string }).code, message: (error as Error).message };
  }
}

async function send(url: string, timeoutMs: number) {
  try {
    const response = await createFetchTransport().send({ url, method: 'POST', headers: {}, body: '[]', timeoutMs });
    return { status: response.status, length: response.text.length };
  } catch (error) {
    return { code: (error as { code?: string }).code, message: (error as Error).message };
  }
}

/** Network types the monitor reported, in order, as the test toggles the context offline and back. */
const seen: NetworkType[] = [];
const monitor = createBrowserNetworkMonitor();
monitor.subscribe((type) => seen.push(type));

function watchOnce(): Promise<{ code?: string; message: string } | { latitude: number; speed: number }> {
  const provider = createGeolocationProvider({ timeout: 5_000 });
  return new Promise((resolve) =>
    provider.start(
      (fix) => (provider.stop(), resolve({ latitude: fix.latitude!, speed: fix.speed! })),
      (error) => (provider.stop(), resolve({ code: error.code, message: error.message })),
    ),
  );
}

/**
 * The service worker's drain beside an open tab: the tab leads (holds the upload lock), so the
 * drain leaves the queue alone; once the tab has closed its instance, the drain delivers.
 */
async function drainBesideATab(url: string) {
  const database = `drain-${Date.now()}`;
  const tab = await createBackgroundGeolocation({ database, provider: null });
  // Recorded before the page knew where to upload; the url is saved as the page closes.
  await tab.ready({ http: { autoSync: true } });
  await tab.insertLocation({ latitude: 1, longitude: 2 });
  await tab.insertLocation({ latitude: 1, longitude: 3 });
  const whileOpen = await drainQueue({ database });
  await tab.setConfig({ http: { url } });
  await tab.close();
  const afterClose = await drainQueue({ database });
  return { whileOpen, afterClose };
}

/** A tab that closes while the drain waits for the upload lock hands the drain its queue. */
async function drainAsTheTabCloses(url: string) {
  const database = `drain-closing-${Date.now()}`;
  const tab = await createBackgroundGeolocation({ database, provider: null });
  await tab.ready({ http: { autoSync: true } });
  await tab.insertLocation({ latitude: 1, longitude: 2 });
  await tab.insertLocation({ latitude: 1, longitude: 3 });
  const drained = drainQueue({ database });
  await tab.setConfig({ http: { url } });
  await tab.close();
  return drained;
}

let offlineDrain: Promise<unknown> | undefined;

/**
 * Called while the browser is offline: queues two records for `url` and starts a drain, as a sync
 * the browser fired a moment before the worker saw the network. `waitMs` bounds the drain's wait.
 */
async function startDrainOffline(url: string, waitMs?: number) {
  const database = `drain-offline-${Date.now()}`;
  const tab = await createBackgroundGeolocation({ database, provider: null });
  await tab.ready({ http: { url, autoSync: true } });
  await tab.insertLocation({ latitude: 1, longitude: 2 });
  await tab.insertLocation({ latitude: 1, longitude: 3 });
  await tab.close();
  offlineDrain = drainQueue({ database, networkWaitMs: waitMs }).catch((error: Error) => error.message);
  // A drain that does not wait ends within this (one IndexedDB round); the test goes online after.
  await Promise.race([offlineDrain, new Promise((resolve) => setTimeout(resolve, 500))]);
  return navigator.onLine;
}

const finishDrain = () => offlineDrain;

/**
 * A wake-up is an automatic upload: with autoSync false (rule 4) the drain sends nothing and
 * leaves the records queued without failing; after a server's Retry-After (the page got 503) it
 * sends nothing before that time either.
 */
async function drainKeepsTheRules(sink: string, busy: string) {
  const manual = `drain-manual-${Date.now()}`;
  const tab = await createBackgroundGeolocation({ database: manual, provider: null });
  await tab.ready({ http: { url: sink, autoSync: false } });
  await tab.insertLocation({ latitude: 1, longitude: 2 });
  await tab.close();
  const autoSyncOff = await drainQueue({ database: manual });

  const held = `drain-held-${Date.now()}`;
  const page = await createBackgroundGeolocation({ database: held, provider: null });
  await page.ready({ http: { url: busy } });
  await page.insertLocation({ latitude: 1, longitude: 2 }); // uploaded at once: 503, Retry-After 3600
  await page.idle();
  const retryAfter = (await page.getState()).retryAfter;
  await page.close();
  const duringRetryAfter = await drainQueue({ database: held });
  return { autoSyncOff, retryAfter, duringRetryAfter };
}

/** getCurrentPosition() of an instance with the default providers (the Geolocation API). */
async function currentPosition() {
  const bg = await createBackgroundGeolocation({ database: `position-${++databases}` });
  try {
    await bg.ready({});
    const location = await bg.getCurrentPosition({ samples: 1, timeout: 10 });
    return { latitude: location.coords.latitude, accuracy: location.coords.accuracy };
  } catch (error) {
    return { code: (error as { code?: string }).code };
  } finally {
    await bg.close();
  }
}

Object.assign(globalThis, {
  harness: {
    cases: STORE_CONTRACT.map((c) => c.name),
    archiveCases: ARCHIVE_CONTRACT.map((c) => c.name),
    runCase,
    openNewerDatabase,
    send,
    network: () => ({ current: monitor.current(), seen: [...seen] }),
    watchOnce,
    currentPosition,
    drainBesideATab,
    drainKeepsTheRules,
    drainAsTheTabCloses,
    startDrainOffline,
    finishDrain,
  },
});
