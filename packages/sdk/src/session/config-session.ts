import { applyConfigInput } from '../config/apply.js';
import { cloneConfig, defaultConfig } from '../config/fields.js';
import { parseConfigText, readConfigText, saveConfig, type StoredConfig } from '../config/persisted-config.js';
import type { ConfigInput } from '../config/input-types.js';
import type { Config } from '../config/types.js';
import { LogLevel } from '../log/levels.js';
import type { SdkLogger } from '../log/logger.js';
import type { KeyValueStore } from '../ports/store.js';

export type ConfigEditor = (draft: Config & { reset?: boolean }) => void;

/** What a committed change tells the parts that follow the configuration. */
export interface ConfigChange {
  /** Dotted names of the fields whose value changed. */
  changed: string[];
  /** True when the SDK saved tokens it obtained itself (not a new configuration from the integrator). */
  fromRefresh: boolean;
}

/**
 * The configuration session: owns the running configuration and the anchor keys kept beside it.
 * Every change is validated completely, then persisted, then switched to, so a rejected input
 * changes nothing; the parts that depend on a field learn of it through `onChange`.
 */
export class ConfigSession {
  private current: StoredConfig;
  private readonly noted = new Set<string>();
  private readonly listeners: ((change: ConfigChange) => void)[] = [];
  /** The stored text this session last wrote or read: anything else was written by another process. */
  private lastSeen: string;

  constructor(
    stored: StoredConfig,
    private readonly deps: { kv: KeyValueStore; logger: SdkLogger },
  ) {
    this.current = stored;
    this.lastSeen = JSON.stringify(stored);
    this.applyLogLevel();
  }

  get config(): Config {
    return this.current.config;
  }

  get ignored(): Record<string, unknown> {
    return this.current.ignored;
  }

  onChange(listener: (change: ConfigChange) => void): void {
    this.listeners.push(listener);
  }

  /** ready(config) or ready(fn): replaces the configuration unless `reset: false` is given. */
  async ready(config: ConfigInput | ConfigEditor): Promise<void> {
    if (typeof config === 'function') {
      let draft = cloneConfig(defaultConfig()) as Config & { reset?: boolean };
      config(draft);
      const keep = draft.reset === false;
      if (keep) {
        // reset: false is only known once the editor ran; it must edit the saved configuration,
        // not the defaults (whose untouched fields would otherwise overwrite it).
        draft = cloneConfig(this.current.config) as Config & { reset?: boolean };
        config(draft);
      }
      const { reset: _reset, ...input } = draft;
      await this.commit(keep ? this.current.config : defaultConfig(), input, keep ? this.current.ignored : {});
    } else {
      const reset = config.reset !== false;
      await this.commit(reset ? defaultConfig() : this.current.config, config, reset ? {} : this.current.ignored);
    }
  }

  /** Object style: merges a partial configuration into the running one. */
  set(config: ConfigInput): Promise<void> {
    return this.commit(this.current.config, config, this.current.ignored);
  }

  /** Property style: `config.edit(c => { c.http.url = '...' })`. */
  async edit(fn: ConfigEditor): Promise<void> {
    const draft = cloneConfig(this.current.config);
    fn(draft);
    await this.commit(this.current.config, draft, this.current.ignored);
  }

  /** Tokens the SDK obtained itself: a change like any other, but the refresh backoff holds. */
  saveTokens(patch: Partial<Config['authorization']>): Promise<void> {
    return this.commit(this.current.config, { authorization: patch }, this.current.ignored, true);
  }

  private async commit(base: Config, input: unknown, ignored: Record<string, unknown>, fromRefresh = false) {
    const applied = applyConfigInput(base, input, ignored);
    const next: StoredConfig = { config: applied.config, ignored: applied.ignored };
    await saveConfig(this.deps.kv, next);
    this.lastSeen = JSON.stringify(next);
    this.switchTo(next, applied.changed, fromRefresh);
  }

  /**
   * Picks up a configuration saved by another process sharing the database (an app changing what
   * a running agent does). Returns the keys that changed; a saved configuration that does not
   * validate is logged and the running one kept.
   */
  async reload(): Promise<string[]> {
    const text = await readConfigText(this.deps.kv);
    if (text === undefined || text === this.lastSeen) return [];
    this.lastSeen = text;
    let applied;
    try {
      applied = parseConfigText(text, this.current.config, {});
    } catch (error) {
      this.deps.logger.warn('Config', `configuration saved by another process ignored: ${(error as Error).message}`);
      return [];
    }
    if (applied.changed.length > 0) this.deps.logger.info('Config', 'configuration changed by another process');
    this.switchTo({ config: applied.config, ignored: applied.ignored }, applied.changed, false);
    return applied.changed;
  }

  private switchTo(next: StoredConfig, changed: string[], fromRefresh: boolean): void {
    this.current = next;
    this.applyLogLevel();
    for (const key of Object.keys(next.ignored)) {
      if (this.noted.has(key)) continue;
      this.noted.add(key);
      this.deps.logger.info('Config', `${key} is an anchor option Waypost keeps but does not act on`);
    }
    if (changed.length > 0) this.deps.logger.info('Config', `changed: ${changed.join(', ')}`);
    for (const listener of this.listeners) listener({ changed, fromRefresh });
  }

  private applyLogLevel(): void {
    this.deps.logger.setLevel(LogLevel[this.current.config.logger.logLevel]);
  }
}
