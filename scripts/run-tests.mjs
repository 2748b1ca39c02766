// The test runner behind `npm test`: makes sure the real services the suite talks to are there
// (PostgreSQL on 127.0.0.1:5432, Debian's Chromium, gpsd, xmllint, gpsbabel, promtool), then runs vitest. Nothing is skipped: when a
// service cannot be had, the run fails and says which and how to get it.
import { execSync, spawn, spawnSync } from 'node:child_process';
import { existsSync, readdirSync } from 'node:fs';
import net from 'node:net';

const PG_URL = process.env.WAYPOST_TEST_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/test';
const CHROMIUM = '/usr/bin/chromium';

function portOpen(port) {
  return new Promise((resolve) => {
    const socket = net.connect({ host: '127.0.0.1', port });
    socket.once('connect', () => (socket.destroy(), resolve(true)));
    socket.once('error', () => resolve(false));
  });
}

async function ensurePostgres() {
  if (await portOpen(5432)) return;
  if (existsSync('/etc/postgresql')) {
    const version = readdirSync('/etc/postgresql')[0];
    console.error(`waypost: starting PostgreSQL ${version}...`);
    spawnSync('pg_ctlcluster', ['--skip-systemctl-redirect', version, 'main', 'start'], { stdio: 'inherit' });
    for (let i = 0; i < 50 && !(await portOpen(5432)); i++) await new Promise((r) => setTimeout(r, 200));
  }
  if (!(await portOpen(5432))) {
    console.error(
      'waypost: PostgreSQL is not reachable on 127.0.0.1:5432 and could not be started; the PostgreSQL tests need it.',
    );
    process.exit(1);
  }
}

function ensureChromium() {
  if (existsSync(CHROMIUM)) return;
  console.error('waypost: installing Debian chromium for the dashboard tests (apt-get)...');
  const result = spawnSync(
    'sh',
    ['-c', 'apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq chromium'],
    {
      stdio: 'inherit',
    },
  );
  if (result.status !== 0 || !existsSync(CHROMIUM)) {
    console.error(`waypost: ${CHROMIUM} is missing and apt-get could not install it; run: apt-get install -y chromium`);
    process.exit(1);
  }
}

// gpsd and gpsfake's engine for the agent's end-to-end test (packages/cli/test/agent-gpsd.test.ts).
// Debian 12 ships the gpsfake program only in gpsd-clients (about 500 MB of GTK and matplotlib);
// the test drives gps.fake from python3-gps, the module gpsfake is built on.
function gpsdReady() {
  return (
    existsSync('/usr/sbin/gpsd') &&
    spawnSync('/usr/bin/python3', ['-c', 'import gps.fake'], { stdio: 'ignore' }).status === 0
  );
}

function ensureGpsd() {
  if (gpsdReady()) return;
  console.error('waypost: installing Debian gpsd and python3-gps for the agent tests (apt-get)...');
  spawnSync(
    'sh',
    [
      '-c',
      'apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends gpsd python3-gps',
    ],
    { stdio: 'inherit' },
  );
  if (!gpsdReady()) {
    console.error(
      'waypost: gpsd or python3-gps is missing and apt-get could not install them; run: apt-get install -y gpsd python3-gps',
    );
    process.exit(1);
  }
}

// The real readers of the exports and of /metrics (packages/server/test/export-readers.test.ts,
// metrics-promtool.test.ts): Debian's xmllint, gpsbabel and promtool (package prometheus).
function ensureTools(tools) {
  const missing = tools.filter(([binary]) => !existsSync(binary));
  if (missing.length === 0) return;
  const packages = missing.map(([, debianPackage]) => debianPackage).join(' ');
  console.error(`waypost: installing Debian ${packages} for the export and metrics readers (apt-get)...`);
  spawnSync(
    'sh',
    [
      '-c',
      `apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends ${packages}`,
    ],
    { stdio: 'inherit' },
  );
  const still = missing.filter(([binary]) => !existsSync(binary));
  if (still.length > 0) {
    console.error(
      `waypost: ${still.map(([binary]) => binary).join(', ')} missing and apt-get could not install them; run: apt-get install -y ${packages}`,
    );
    process.exit(1);
  }
}

// The brokers the fleet-event sinks publish to (packages/server/test/fleet-brokers.test.ts): Mosquitto
// on 1883 and nats-server with JetStream on 4222. When one is not running, Debian's package is
// installed if missing and started for this run only (stopped when the run ends).
const brokers = [];
async function ensureBroker(name, port, binary, debianPackage, args) {
  if (await portOpen(port)) return;
  if (!existsSync(binary)) {
    console.error(`waypost: installing Debian ${debianPackage} for the fleet-event tests (apt-get)...`);
    spawnSync(
      'sh',
      [
        '-c',
        `apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends ${debianPackage}`,
      ],
      { stdio: 'inherit' },
    );
  }
  if (existsSync(binary)) {
    console.error(`waypost: starting ${name} on 127.0.0.1:${port} for this run...`);
    const child = spawn(binary, args, { stdio: 'ignore' });
    brokers.push(child);
    for (let i = 0; i < 50 && !(await portOpen(port)); i++) await new Promise((r) => setTimeout(r, 200));
  }
  if (!(await portOpen(port))) {
    console.error(
      `waypost: ${name} is not reachable on 127.0.0.1:${port} and could not be started; run: apt-get install -y ${debianPackage}`,
    );
    process.exit(1);
  }
}

// The deployment test (packages/server/test/deploy/): hosts as network namespaces (iproute2's
// `ip`, root), HAProxy in front, a NATS cluster of nats-server processes, a PostgreSQL cluster of
// its own (Debian's postgresql binaries, run as the postgres user).
function ensureTool(binary, debianPackage, what) {
  if (existsSync(binary)) return;
  console.error(`waypost: installing Debian ${debianPackage} for ${what} (apt-get)...`);
  spawnSync(
    'sh',
    [
      '-c',
      `apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends ${debianPackage}`,
    ],
    { stdio: 'inherit' },
  );
  if (!existsSync(binary)) {
    console.error(
      `waypost: ${binary} is missing and apt-get could not install it; run: apt-get install -y ${debianPackage}`,
    );
    process.exit(1);
  }
}

await ensurePostgres();
ensureTool('/usr/sbin/ip', 'iproute2', 'the deployment test');
ensureTool('/usr/sbin/haproxy', 'haproxy', 'the deployment test');
ensureTool('/usr/sbin/nats-server', 'nats-server', 'the deployment test');
// The systemd units of docs/deploy/ are checked with systemd-analyze verify (test/deploy/units.test.ts).
ensureTool('/usr/bin/systemd-analyze', 'systemd', 'the systemd units check');
if (process.getuid?.() !== 0) {
  console.error(
    'waypost: the deployment test builds hosts as network namespaces and needs root; run the tests as root',
  );
  process.exit(1);
}
ensureChromium();
ensureGpsd();
ensureTools([
  ['/usr/bin/xmllint', 'libxml2-utils'],
  ['/usr/bin/gpsbabel', 'gpsbabel'],
  ['/usr/bin/promtool', 'prometheus'],
]);
await ensureBroker('mosquitto', 1883, '/usr/sbin/mosquitto', 'mosquitto', ['-p', '1883']);
await ensureBroker('nats-server', 4222, '/usr/sbin/nats-server', 'nats-server', [
  '-js',
  '-a',
  '127.0.0.1',
  '-p',
  '4222',
]);
process.env.WAYPOST_TEST_DATABASE_URL = PG_URL;
let failed = false;
try {
  execSync(`npx vitest run ${process.argv.slice(2).join(' ')}`, { stdio: 'inherit' });
} catch {
  failed = true;
}
for (const broker of brokers) broker.kill();
if (failed) process.exit(1);
