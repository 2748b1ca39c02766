#!/usr/bin/env node
// The `waypost` command as npm links it (node_modules/.bin/waypost, npx waypost). This file is
// plain JavaScript and committed: npm links a workspace's bin at install time, before anything is
// built, and skips a bin whose file does not exist yet. The command itself is the built TypeScript.
import { existsSync } from 'node:fs';

const built = new URL('../dist/bin.js', import.meta.url);
if (!existsSync(built)) {
  process.stderr.write('waypost: the command is not built yet; run `npm run build` at the repository root\n');
  process.exit(1);
}
await import(built.href);
