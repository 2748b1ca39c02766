// `npm run demo`: runs the built CLI's demo (`waypost demo`), passing on its flags, e.g.
// `npm run demo -- --serve` keeps the dashboard up afterwards. The root script builds first.
import { existsSync } from 'node:fs';

const entry = new URL('../packages/cli/dist/index.js', import.meta.url);
if (!existsSync(entry)) {
  console.error('waypost: packages/cli is not built; run `npm run build` (npm run demo does it for you).');
  process.exit(1);
}
const { main } = await import(entry.href);
process.exitCode = await main(['demo', ...process.argv.slice(2)]);
