/**
 * Type-level test, compiled under --strict by `npm run typecheck` (never run): app code typed with
 * the commercial SDK's v4 types, react-native-background-geolocation 4.19.4 (the newest 4.x; its
 * declarations are in ./anchor-v4, unchanged from the package), compiles against Waypost's ready()
 * and setConfig(). Its Config is the flat v4 form with every key optional, and its
 * TransistorAuthorizationToken's url is optional (Waypost's was required: issue 29 item 11).
 * tsconfig.test.json includes ./anchor-v4/*.d.ts, which declare the module
 * "react-native-background-geolocation" as the package does.
 */
import type { Config, State as V4State, TransistorAuthorizationToken } from 'react-native-background-geolocation';
import type { BackgroundGeolocation, State } from '@waypost/node';

declare const bg: BackgroundGeolocation;
/** Whatever the app built with v4's own types: any v4 Config, as v4 declares it. */
declare const anyV4Config: Config;
/** What v4's findOrCreateTransistorAuthorizationToken() resolves with: url may be absent. */
declare const v4Token: TransistorAuthorizationToken;

/** A typical v4 app's configuration, typed with v4's Config (the commercial SDK's README example). */
const typical: Config = {
  desiredAccuracy: 0,
  distanceFilter: 10,
  stopTimeout: 5,
  debug: false,
  logLevel: 5,
  stopOnTerminate: false,
  startOnBoot: true,
  url: 'https://example.com/locations',
  batchSync: false,
  autoSync: true,
  headers: { 'X-FOO': 'bar' },
  params: { auth_token: 'maybe_your_server_authenticates_via_token_YES?' },
  transistorAuthorizationToken: v4Token,
};

export async function v4TypedCode(): Promise<void> {
  const states: State[] = [
    await bg.ready(typical),
    await bg.setConfig(typical),
    await bg.ready(anyV4Config),
    await bg.setConfig(anyV4Config),
    await bg.ready({ transistorAuthorizationToken: v4Token }),
  ];
  // Waypost's token is what v4 code reads back where it expects its own.
  const token: TransistorAuthorizationToken = await bg.findOrCreateTransistorAuthorizationToken('org', 'user');
  const v4State: V4State = await bg.getState();
  void [states, token, v4State];
}
