import type { State } from '../anchor/anchor-state.js';
import type { ConfigInput, LogLevelInput } from '../config/input-types.js';
import type { Config, LogLevelName } from '../config/types.js';
import type { ConfigEditor, ConfigSession } from '../session/config-session.js';
import type { Lifecycle } from '../lifecycle/lifecycle.js';

export interface ConfigMethods {
  /** Object style `ready(config)` or property style `ready(c => { ... })`. */
  ready(config?: ConfigInput | ConfigEditor): Promise<State>;
  /** Object style: merges a partial configuration into the running one. */
  setConfig(config: ConfigInput): Promise<State>;
  /** The anchor's reset(config): the defaults, then `config` over them. */
  reset(config?: ConfigInput): Promise<State>;
  /**
   * Waypost extension: picks up a configuration that another process sharing the database saved
   * (setConfig() from an app while `waypost agent` runs). Resolves with the keys that changed.
   */
  reloadConfig(): Promise<string[]>;
  getState(): Promise<State>;
  setLogLevel(level: LogLevelInput | LogLevelName): Promise<void>;
  /** Property style: `config.edit(c => { c.http.url = '...' })`; `current`: the resolved configuration. */
  readonly config: { edit: (fn: ConfigEditor) => Promise<State>; readonly current: Config };
}

export interface ConfigGroupDeps {
  session: ConfigSession;
  lifecycle: Pick<Lifecycle, 'ready'>;
  /** The anchor's State of this instance, now. */
  state: () => State;
}

/** The configuration in both binding styles; each change resolves with the new State. */
export function configGroup({ session, lifecycle, state }: ConfigGroupDeps): ConfigMethods {
  const setConfig = async (config: ConfigInput) => {
    await session.set(config);
    return state();
  };
  return {
    ready: async (config = {}) => {
      await lifecycle.ready(config);
      return state();
    },
    setConfig,
    reset: async (config = {}) => {
      await session.ready({ ...config, reset: true });
      return state();
    },
    reloadConfig: () => session.reload(),
    getState: async () => state(),
    setLogLevel: async (level) => void (await setConfig({ logger: { logLevel: level } })),
    config: {
      edit: async (fn) => {
        await session.edit(fn);
        return state();
      },
      get current() {
        return session.config;
      },
    },
  };
}
