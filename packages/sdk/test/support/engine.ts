import { onTestFinished } from 'vitest';
import type { ConfigInput } from '@waypost/sdk';
import { openEngine, startEngine, type Engine, type EngineOptions } from '@waypost/sdk/testing';

/** startEngine from the kit, closed when the test finishes. */
export async function engine(config: ConfigInput = {}, options: EngineOptions = {}): Promise<Engine> {
  const started = await startEngine(config, options);
  onTestFinished(() => started.close());
  return started;
}

/** openEngine from the kit (not readied), closed when the test finishes. */
export async function openedEngine(options: EngineOptions = {}): Promise<Engine> {
  const opened = await openEngine(options);
  onTestFinished(() => opened.close());
  return opened;
}
