// The per-stage account of ingest (issue 43): where the server's CPU goes, from the V8 CPU profiles
// bench/ingest-cost.mjs writes of the measured load (WAYPOST_COST_PROFILE=DIR). Each sample is given
// to the innermost frame of Waypost's code (or a library's) that belongs to a stage below; the
// database drivers' and the HTTP framework's frames pass a sample on to the stage that called them,
// so an INSERT's time is the insert's, an UPDATE of the devices' counters the device rows'. What is
// left (Node's HTTP and sockets, the event loop) is "HTTP, sockets, event loop"; GC is its own line.
//
//   WAYPOST_COST_PROFILE=/tmp/prof node bench/ingest-cost.mjs && node scripts/ingest-stages.mjs /tmp/prof
//
// Prints one Markdown table: per stage and profile, its share of the samples and that share of the
// CPU per record ingest-cost.mjs measured for the same load (process.cpuUsage). A report over a
// profile, not a benchmark: it lives in scripts/, so `npm run bench` does not run it without one.
import { readdirSync, readFileSync } from 'node:fs';
import { basename, join } from 'node:path';

/** Stage of a frame, by its file (the dist's .js names) and function; first match wins. */
const STAGES = [
  ['receipts', (f) => /\/receipts\//.test(f.url)],
  ['health (report, refusal notes)', (f) => /\/health\//.test(f.url)],
  ['credentials (gate, principal)', (f) => /(credential-gate|device-credential|principal|tokens)\.js$/.test(f.url)],
  ['fleet events', (f) => /\/fleet\//.test(f.url)],
  ['ledger (dropped ranges, numbering)', (f) => /(\/ledger\/|store\/ledger\.js)/.test(f.url)],
  ['pyramid marks', (f) => /track-tiles\//.test(f.url) && /markChangedHours|markHoursSql/.test(f.functionName)],
  // Off the answer's path: it redraws the hours the marks made stale, between uploads.
  ['track pyramid builder (background)', (f) => /track-tiles\//.test(f.url)],
  ['commands', (f) => /store\/commands\.js$/.test(f.url)],
  ['quarantine', (f) => /store\/quarantine\.js$/.test(f.url)],
  [
    'row building',
    (f) => /store\/locations\.js$/.test(f.url) && /rowParams|paramsOf|byDeviceAndUuid/.test(f.functionName),
  ],
  ['insert and commit', (f) => /store\/(locations|insert-with-totals)\.js$/.test(f.url)],
  ['device rows (lock, register, counters)', (f) => /store\/(ingest-)?devices\.js$/.test(f.url)],
  [
    'identity and dedup (decide)',
    (f) =>
      /(ingest-decision|ingest-write|ingest-write-steps|ingest-write-postgres|derive-uuid|ingest-job)\.js$/.test(f.url),
  ],
  ['validation and verdicts', (f) => /(validation|verdicts|normalize|bounded-name|device-policy)\.js$/.test(f.url)],
  ['decoding (body to records)', (f) => /(ingest\/extract|presets\/|columnar-decoder)/.test(f.url)],
  [
    'body read and parse',
    (f) =>
      /(json-shape|body-guards|decompress|secure-json-parse|content-type-parser)/.test(f.url) ||
      f.functionName === 'parse',
  ],
  ['metrics', (f) => /(request-metrics|metrics-exposition|prom-client)/.test(f.url)],
  ['live feed', (f) => /\/live\//.test(f.url) || /live-events\.js$/.test(f.url)],
  ['route handler, answer', (f) => /(routes\/|ingest-service\.js|security-headers|error-reply|reply\.js)/.test(f.url)],
];
/**
 * The transaction's own frames: a sample under them goes to the transaction unless a stage's frame
 * called them (the drivers' query functions serve every statement; BEGIN and COMMIT are theirs).
 */
const TRANSACTION = (f) => /(db\/sqlite|db\/postgres|db\/database|group-commit|ingest-queue)\.js$/.test(f.url);
/** Frames that pass a sample to their caller's stage: drivers, framework plumbing, natives. */
const TRANSPARENT = (f) =>
  f.url === '' ||
  /node_modules\/(better-sqlite3|pg|pg-protocol|fastify|avvio|find-my-way)\//.test(f.url) ||
  f.url.startsWith('node:');

function stageOf(stack) {
  let transaction = false;
  for (const frame of stack) {
    const stage = STAGES.find(([, test]) => test(frame));
    if (stage) return stage[0];
    if (TRANSACTION(frame)) transaction = true;
    else if (!TRANSPARENT(frame)) return transaction ? 'transaction (begin, commit, group)' : `other`;
  }
  if (transaction) return 'transaction (begin, commit, group)';
  const leaf = stack[0];
  if (leaf.functionName === '(garbage collector)') return 'garbage collection';
  if (leaf.functionName === '(program)') return 'V8 and native, unattributed';
  return 'HTTP, sockets, event loop';
}

function account(file) {
  const profile = JSON.parse(readFileSync(file, 'utf8'));
  const byId = new Map(profile.nodes.map((n) => [n.id, n]));
  const parent = new Map();
  for (const n of profile.nodes) for (const c of n.children ?? []) parent.set(c, n.id);
  const time = new Map();
  profile.samples.forEach((id, i) => time.set(id, (time.get(id) ?? 0) + profile.timeDeltas[i]));
  const stages = new Map();
  let total = 0;
  for (const [id, us] of time) {
    const stack = [];
    for (let x = id; x !== undefined; x = parent.get(x)) stack.push(byId.get(x).callFrame);
    if (stack[0].functionName === '(idle)' || stack.some((f) => f.functionName === 'profileStart')) continue;
    const stage = stageOf(stack);
    stages.set(stage, (stages.get(stage) ?? 0) + us);
    total += us;
  }
  return { stages, total };
}

const dir = process.argv[2];
if (!dir) throw new Error('usage: node scripts/ingest-stages.mjs PROFILE_DIR');
const files = readdirSync(dir)
  .filter((f) => f.endsWith('.cpuprofile'))
  .sort();
const accounts = files.map((f) => {
  const name = basename(f, '.cpuprofile');
  // The CPU the profiled load took, measured (ingest-cost.mjs): the profile's clock counts time the
  // process waited for a core too, so its shares are kept and its totals are not.
  const measured = JSON.parse(readFileSync(join(dir, `${name}.json`), 'utf8'));
  return { name, measured, ...account(join(dir, f)) };
});
const order = [
  ...STAGES.map(([s]) => s),
  'transaction (begin, commit, group)',
  'other',
  'HTTP, sockets, event loop',
  'V8 and native, unattributed',
  'garbage collection',
];
const cell = (us, share) => `${us.toFixed(1)} (${(100 * share).toFixed(0)}%)`;
console.log(`| µs of CPU per record (share) | ${accounts.map((a) => a.name).join(' | ')} |`);
console.log(`|---|${accounts.map(() => '---:|').join('')}`);
for (const stage of order) {
  if (accounts.every((a) => !a.stages.get(stage))) continue;
  const cells = accounts.map((a) => {
    const share = (a.stages.get(stage) ?? 0) / a.total;
    return cell(share * a.measured.server, share);
  });
  console.log(`| ${stage} | ${cells.join(' | ')} |`);
}
console.log(
  `| **server process, measured** | ${accounts.map((a) => `**${a.measured.server.toFixed(1)}**`).join(' | ')} |`,
);
if (accounts.some((a) => a.measured.db > 0))
  console.log(
    `| PostgreSQL backends, measured | ${accounts.map((a) => (a.measured.db > 0 ? a.measured.db.toFixed(1) : '').toString()).join(' | ')} |`,
  );
