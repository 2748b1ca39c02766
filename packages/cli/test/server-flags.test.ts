// `waypost server` with a flag the service cannot work with: a bad command line (exit 2) that names
// the flag, before anything listens; "could not start" (exit 1) is left for what fails at run time.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { runCli } from './support/run-cli.js';

let dir: string;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'waypost-server-flags-'));
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

const { WAYPOST_REGISTRATION_SECRET: _unset, ...ENV } = process.env;

describe('waypost server: a flag the service refuses', () => {
  it.each([
    [['--registration', 'secret'], /--registration secret needs the secret in env WAYPOST_REGISTRATION_SECRET/],
    [['--tile-url', 'https://t/{z}/{x}/{y}.png', '--tiles', 'world.mbtiles'], /--tile-url and --tiles: give one/],
    [['--tile-url', 'tiles.example'], /--tile-url must be a URL, got "tiles\.example"/],
    [['--tile-url', 'https://tiles.example/world.png'], /--tile-url must hold \{z\}, \{x\} and \{y\}/],
    [['--tiles', 'missing.mbtiles'], /--tiles "missing\.mbtiles" cannot be opened/],
    [['--map-style', 'tiles.example/style.json'], /--map-style must be a URL/],
    [
      ['--map-style', 'https://s/style.json', '--tile-url', 'https://t/{z}/{x}/{y}.png'],
      /--map-style and --tile-url: give one basemap/,
    ],
    [['--cors-origins', 'app.example'], /--cors-origins must be a URL/],
    [['--cors-origins', 'https://app.example/login'], /--cors-origins must be origins such as/],
    [['--sink-events', 'geofence.entered'], /--sink-events is not a list of event types: .*geofence\.entered/],
    [['--webhook', 'backend/hooks'], /--webhook must be a URL, got "backend\/hooks"/],
    [['--mqtt', 'http://127.0.0.1:1883'], /--mqtt must be a mqtt: or mqtts: or ws: or wss:\/\/ URL/],
    [['--nats', 'http://127.0.0.1:4222'], /--nats must be a nats: or tls:\/\/ URL/],
    [['--max-connections', '0'], /^waypost server: --max-connections "0" is not an integer/],
    [['--retention-days', '-1'], /--retention-days/],
    [['--drain-seconds', 'soon'], /--drain-seconds/],
    [['--retention-days', '100000'], /--retention-days must be at most 36600 days/],
    [['--oidc-issuer', 'http://idp.example', '--oidc-client-id', 'w'], /--oidc-issuer must be an https URL/],
    [['--oidc-client-id', 'waypost'], /--oidc-client-id needs --oidc-issuer/],
    [['--oidc-issuer', 'https://idp.example'], /--oidc-client-id is needed with --oidc-issuer/],
    [
      ['--oidc-issuer', 'https://idp.example', '--oidc-client-id', 'w', '--oidc-roles', 'admins=boss'],
      /--oidc-roles maps "admins" to no role: boss/,
    ],
    [['--oidc-roles', 'admins'], /--oidc-roles takes value=role pairs, got "admins"/],
  ])('%j exits 2 naming the flag, and starts nothing', async (flags, message) => {
    const { code, stdout, stderr } = await runCli(
      ['server', '--port', '0', '--database', join(dir, 'server.db'), ...flags],
      ENV,
    );
    expect({ code, stdout }).toEqual({ code: 2, stdout: '' });
    expect(stderr).toMatch(message);
    expect(stderr).not.toMatch(/could not start|Option /);
  });
});

describe('waypost server: a metrics token too short to be a secret', () => {
  it('exits 2 naming WAYPOST_METRICS_TOKEN, and starts nothing', async () => {
    const { code, stdout, stderr } = await runCli(['server', '--port', '0', '--database', join(dir, 'server.db')], {
      ...ENV,
      WAYPOST_METRICS_TOKEN: 'short',
    });
    expect({ code, stdout }).toEqual({ code: 2, stdout: '' });
    expect(stderr).toMatch(/WAYPOST_METRICS_TOKEN is 5 characters long; it needs 16 at least/);
  });
});
