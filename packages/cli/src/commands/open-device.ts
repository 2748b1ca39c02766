import { existsSync } from 'node:fs';
import { createBackgroundGeolocation, ManualNetwork, type BackgroundGeolocation } from '@waypost/node';
import { CliError } from '../errors.js';

/**
 * Opens an existing device database for inspection. A missing file is an error rather than a new
 * empty database, so a typo in --database does not look like an empty queue.
 */
export async function openDeviceDatabase(file: string): Promise<BackgroundGeolocation> {
  if (file !== ':memory:' && !existsSync(file)) {
    throw new CliError('NO_DATABASE', `no Waypost database at ${file} (check --database)`);
  }
  return createBackgroundGeolocation({ database: file, network: new ManualNetwork('wifi') });
}
