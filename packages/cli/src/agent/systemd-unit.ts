/**
 * The agent as a systemd service (spec 1.6): started at boot after the network (and gpsd, when it
 * reads gpsd), restarted whenever it ends, stopped with SIGTERM and a bound. Modelled on gpsd's
 * own units.
 */
export interface UnitOptions {
  /** The command line that runs the agent, already quoted for systemd. */
  execStart: string;
  workingDirectory: string;
  user?: string;
  /** The agent reads gpsd: the unit wants gpsd's socket and starts after it. */
  gpsd: boolean;
}

/** Quotes one argument for an ExecStart= line (systemd's own quoting rules: double quotes, backslash). */
export function quoteSystemdArg(arg: string): string {
  if (/^[A-Za-z0-9_@%+=:,./-]+$/.test(arg)) return arg.replace(/%/g, '%%');
  return `"${arg.replace(/\\/g, '\\\\').replace(/"/g, '\\"').replace(/%/g, '%%').replace(/\$/g, '$$$$')}"`;
}

export function renderSystemdUnit(options: UnitOptions): string {
  // A GPX or NMEA source never talks to gpsd: wanting its socket would start gpsd for nothing.
  const gpsd = options.gpsd ? ' gpsd.socket' : '';
  return `[Unit]
Description=Waypost agent: records locations and uploads them
Wants=network-online.target${gpsd}
After=network-online.target${options.gpsd ? ' gpsd.socket gpsd.service' : ''}

[Service]
Type=simple
ExecStart=${options.execStart}
WorkingDirectory=${options.workingDirectory}
${options.user ? `User=${options.user}\n` : ''}Restart=always
RestartSec=5
# SIGTERM: finish or unlock the upload in flight, close the database; then systemd's bound.
KillSignal=SIGTERM
TimeoutStopSec=30
# Logs go to stderr, i.e. the journal: journalctl -u waypost-agent
StandardError=journal

[Install]
WantedBy=multi-user.target
`;
}
