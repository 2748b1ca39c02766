// The types openapi-typescript generates from docs/openapi.json (build-pages.mjs writes them at
// `npm run build`); the typed-client test writes this file afresh from the served document.
export type { paths } from '../../dist/pages/openapi.js';
