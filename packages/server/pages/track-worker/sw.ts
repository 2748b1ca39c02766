// The tracker's service worker: uploads the queue when no tab is open (Background Sync and Periodic
// Background Sync), and keeps the page's files so that the tracker opens (and records) offline.
// Built, the SDK import reads /sdk/waypost-browser.js (build-pages.mjs rewrites it).
import { installServiceWorkerUploads } from '@waypost/browser';

declare const self: ServiceWorkerGlobalScope;

const CACHE = 'waypost-track-v2';
const SHELL = [
  '/track/',
  '/track/track.js',
  '/track/tracker-ui.js',
  '/track/style.css',
  '/track/manifest.webmanifest',
  '/track/icon-192.png',
  '/sdk/waypost-browser.js',
  // tracker-ui.js formats lengths as the dashboard does, in the unit this browser chose.
  '/assets/format.js',
  '/assets/settings.js',
  '/assets/dom.js',
];

installServiceWorkerUploads(self, { database: 'waypost-track' });

self.addEventListener('install', (event) => {
  event.waitUntil(caches.open(CACHE).then((cache) => cache.addAll(SHELL)));
  self.skipWaiting();
});

self.addEventListener('activate', (event) => event.waitUntil(self.clients.claim()));

// Network first so that an update shows at once; the cached copy when the network is gone.
self.addEventListener('fetch', (event) => {
  const url = new URL(event.request.url);
  if (event.request.method !== 'GET' || url.origin !== self.location.origin || !SHELL.includes(url.pathname)) return;
  event.respondWith(
    fetch(event.request)
      .then((response) => {
        if (response.ok) {
          const copy = response.clone();
          event.waitUntil(caches.open(CACHE).then((cache) => cache.put(event.request, copy)));
        }
        return response;
      })
      .catch(() => caches.match(event.request).then((cached) => cached ?? Response.error())),
  );
});
