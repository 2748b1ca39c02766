import { existsSync, rmSync } from 'node:fs';

/**
 * The files a start makes beside a SQLite database: the database with its journal files, and the
 * generated admin token. Those that do not exist yet are returned, so that a start that fails (the
 * port is taken) can remove what it made: a failed start leaves no database and no secret behind.
 */
export function filesNotYetThere(storage: { database: string; databaseUrl: string | null }): string[] {
  const { database } = storage;
  if (storage.databaseUrl || database === '' || database === ':memory:') return [];
  const files = [database, `${database}-wal`, `${database}-shm`, `${database}-journal`, `${database}.admin-token`];
  return files.filter((file) => !existsSync(file));
}

/** Removes the files a failed start made (after the database was closed). */
export function removeMadeFiles(files: readonly string[]): void {
  for (const file of files) rmSync(file, { force: true });
}
