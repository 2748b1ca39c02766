/**
 * Every `code` the server answers with (issue 44), with its HTTP status(es) and what it means to a
 * caller: the one registry of server error codes. HttpError takes only these codes (a new code
 * does not compile without its line here); docs/server-errors.md lists them (`npm run docs`, a test
 * fails when the page is stale), and a test fails on an answered code that is not here.
 * The first status is the usual one; trackers that retry only on 5xx get 503 for credential
 * refusals and limits (routes/tracker-routes.ts), and the anchor's API answers its own statuses.
 */
export const SERVER_ERROR_CODES = {
  // The request itself
  BAD_REQUEST: { status: [400], meaning: 'A request Fastify refused that no other code names (its message says why).' },
  MALFORMED_JSON: { status: [400], meaning: 'The body is not valid JSON.' },
  EMPTY_BODY: { status: [400], meaning: 'A JSON content type with no body.' },
  INVALID_BODY: { status: [400], meaning: "The body does not match the route's schema (the message names the field)." },
  INVALID_PARAMETER: { status: [400], meaning: 'A path or query parameter that is malformed or out of its range.' },
  MISSING_PARAMETER: { status: [400], meaning: 'A required query parameter is missing.' },
  INVALID_OPTION: { status: [400], meaning: 'An unknown key in a body (a typo, most often); the message names it.' },
  TOO_MANY_VALUES: { status: [413], meaning: 'A JSON body holding more values than the server reads in one request.' },
  TOO_DEEP: { status: [400], meaning: 'A JSON body nested deeper than the server reads.' },
  BODY_TOO_LARGE: { status: [413], meaning: "The body is larger than this server's limit (bodyLimitBytes)." },
  UNSUPPORTED_MEDIA_TYPE: { status: [415], meaning: 'A content type this route does not read.' },
  UNSUPPORTED_ENCODING: { status: [415], meaning: 'A Content-Encoding the server does not inflate.' },
  INVALID_ENCODING: { status: [400], meaning: 'A compressed body that does not inflate.' },
  MALFORMED_MULTIPART: { status: [400], meaning: 'A multipart body the parser refused.' },
  NOT_MULTIPART: { status: [400], meaning: 'A log upload that is not multipart/form-data.' },
  INVALID_COLUMNAR: { status: [400], meaning: 'A columnar upload body that does not decode.' },
  CROSS_ORIGIN: { status: [403], meaning: "A write on a session cookie from another origin than the server's pages." },
  NOT_FOUND: { status: [404], meaning: 'No such route, or nothing there the caller may see (the same answer).' },
  METHOD_NOT_ALLOWED: { status: [405], meaning: 'The path exists with other methods (Allow lists them).' },
  RATE_LIMITED: {
    status: [429, 503],
    meaning: 'Too many requests from this address or device; Retry-After says when.',
  },
  INTERNAL: { status: [500], meaning: 'A fault of the server (logged with its cause); try again later.' },
  FLEET_CONFIG_BUSY: { status: [503], meaning: 'The fleet configuration is being changed by another request; retry.' },
  TRACK_TILES_BUILDING: {
    status: [503],
    meaning: "A device's track tiles are still being built; retry after Retry-After.",
  },
  LIVE_FEEDS_PER_USER: { status: [429], meaning: 'The user has as many live feeds open as one user may.' },
  LIVE_FEEDS_PER_ADDRESS: { status: [429], meaning: 'This address has as many live feeds open as one address may.' },
  LIVE_FEEDS_FULL: {
    status: [503],
    meaning: 'The server holds as many live feeds as it serves; retry after Retry-After.',
  },
  // Uploaded records
  INVALID_RECORD: { status: [400], meaning: 'A record that cannot be stored (the message names the field).' },
  INVALID_TYPE: { status: [400], meaning: "A record's field of the wrong type." },
  INVALID_COORDINATES: { status: [400], meaning: 'A latitude or longitude out of range or not a number.' },
  INVALID_TIMESTAMP: { status: [400], meaning: 'A timestamp that does not parse.' },
  TIMESTAMP_OUT_OF_RANGE: { status: [400], meaning: 'A timestamp outside the window the server accepts.' },
  OUT_OF_RANGE: { status: [400], meaning: 'A numeric field outside its documented range.' },
  TEXT_TOO_LONG: { status: [400], meaning: 'A text field longer than its limit.' },
  INVALID_DEVICE_ID: { status: [400], meaning: 'A device id that is empty, too long or has control characters.' },
  NO_LOCATION: { status: [400], meaning: 'An upload with no location in it.' },
  NO_RECORDS: { status: [400], meaning: 'A tracker request that holds no position.' },
  NOT_A_POSITION: { status: [400], meaning: 'A tracker message that is no track point (kept in quarantine).' },
  ENCRYPTED: { status: [400], meaning: 'An encrypted OwnTracks message: the server holds no key to read it.' },
  TOO_MANY_RECORDS: { status: [413], meaning: 'More records in one upload than the server takes.' },
  NO_DEVICE: { status: [400], meaning: 'A log upload with neither a device token nor a device_id field.' },
  NO_LOG: { status: [400], meaning: 'A log upload without its file part named "log".' },
  INVALID_LOG: { status: [400], meaning: 'A gzipped log part that is not valid gzip.' },
  UNREADABLE_LOG: { status: [422], meaning: 'A stored log that cannot be read back.' },
  // Credentials
  ADMIN_TOKEN_REQUIRED: { status: [401], meaning: 'An operator route called without the admin token or a session.' },
  WRONG_TOKEN: { status: [401], meaning: "A token that is none of this server's (yesterday's admin token, say)." },
  INVALID_ADMIN_TOKEN: { status: [401], meaning: 'A login with a wrong admin token.' },
  INVALID_LOGIN: { status: [401], meaning: 'A wrong user name or password.' },
  NO_SESSION: { status: [401], meaning: 'GET /api/session without a live session.' },
  TOKEN_REQUIRED: { status: [401, 503], meaning: 'This server requires a device credential and none was sent.' },
  CREDENTIAL_REQUIRED: { status: [401, 503], meaning: 'An upload without credential for a device that holds one.' },
  INVALID_TOKEN: { status: [401, 503], meaning: 'A device token that does not verify.' },
  TOKEN_EXPIRED: { status: [401, 503], meaning: 'An expired device access token: refresh it (POST /auth/refresh).' },
  TOKEN_REVOKED: { status: [401, 403, 503], meaning: 'A device token revoked by an operator: register again.' },
  WRONG_KEY: { status: [401, 503], meaning: "A device key that is not this device's current key." },
  KEY_REVOKED: {
    status: [401, 503],
    meaning: 'A device key that was revoked (a new one was made, or it was removed).',
  },
  MISSING_REFRESH_TOKEN: { status: [400], meaning: 'A refresh without its refresh token.' },
  INVALID_REFRESH_TOKEN: { status: [401], meaning: 'A refresh token that is unknown or expired.' },
  REFRESH_TOKEN_REUSED: { status: [401], meaning: "A refresh token used twice: the device's tokens are revoked." },
  REGISTRATION_REQUIRED: { status: [406], meaning: 'An upload with the placeholder token: register first.' },
  REGISTRATION_CLOSED: { status: [401], meaning: 'This server registers no new devices.' },
  REGISTRATION_SECRET_REQUIRED: { status: [401], meaning: 'Registration needs the registration secret.' },
  FORBIDDEN: { status: [403], meaning: 'A device or org token on a route it may not use.' },
  ROLE_FORBIDDEN: { status: [403], meaning: "The user's role is below the role the route needs." },
  NO_ROLE_RULE: { status: [403], meaning: 'A user on a public route that is open to the admin token only.' },
  WRONG_PASSWORD: { status: [403], meaning: "A user's own password change with a wrong current password." },
  METRICS_TOKEN_REQUIRED: { status: [401], meaning: '/metrics without the metrics token or the admin token.' },
  // Devices, orgs and the anchor's API
  UNKNOWN_DEVICE: { status: [404], meaning: 'No such device on this server.' },
  DEVICE_EXISTS: { status: [409], meaning: 'A device with this id exists already.' },
  DEVICE_BLOCKED: { status: [403], meaning: 'The device was blocked by an operator; its uploads are refused.' },
  DEVICE_NOT_ACTIVE: { status: [403], meaning: 'The device is not active (blocked or deleted).' },
  DEVICE_DELETED: { status: [410], meaning: 'The device was deleted; the body carries the stop command.' },
  UNKNOWN_ORG: { status: [404, 401], meaning: "No such organization (401 on the anchor's login)." },
  INVALID_ORG: { status: [400], meaning: 'An organization name that is malformed.' },
  ORG_REQUIRED: { status: [400], meaning: 'A user limited to several orgs must name the org of a new setting.' },
  NO_ORG: { status: [403], meaning: 'The caller has no organization to read.' },
  ORG_DELETED: { status: [410], meaning: 'The organization was deleted.' },
  BANNED: { status: [403], meaning: 'The organization is banned on this server.' },
  ORG_MISSING: { status: [400], meaning: "The anchor's registration without an organization." },
  DEVICE_INFO_MISSING: { status: [400], meaning: "The anchor's registration without device information." },
  ACCESS_DENIED: {
    status: [401, 403],
    meaning: "The anchor's API without a valid org or login token (403 on its token refresh, as the anchor answers).",
  },
  LOGIN_FAILED: { status: [401], meaning: "A wrong org or password on the anchor's login." },
  // Fleet settings, accounts, shares, logs, tiles
  INVALID_GEOFENCE: { status: [400], meaning: 'A geofence that cannot be monitored (the message names the field).' },
  UNKNOWN_GEOFENCE: { status: [404], meaning: 'No such geofence the caller may see.' },
  GEOFENCE_AMBIGUOUS: { status: [409], meaning: 'Several geofences have this identifier: name whose with ?org=.' },
  GEOFENCE_TAKEN: { status: [409], meaning: 'The identifier is held by a geofence the caller cannot change.' },
  TOO_MANY_GEOFENCES: { status: [409], meaning: 'The fleet holds the most geofences the server keeps.' },
  INVALID_WEBHOOK: { status: [400], meaning: 'A webhook whose url, events or secret is wrong.' },
  INVALID_SINK: { status: [400], meaning: 'A sink whose kind, url or events is wrong.' },
  SINK_ADDRESS_BLOCKED: { status: [400], meaning: "A sink's address the server may not send to (a private network)." },
  UNKNOWN_SINK: { status: [404], meaning: 'No such sink the caller may see.' },
  INVALID_COMMAND: { status: [400], meaning: 'A command body that is malformed.' },
  INVALID_COMMAND_ARGUMENT: { status: [400], meaning: "A command's argument of the wrong kind." },
  UNKNOWN_COMMAND: { status: [400], meaning: 'A command name the device does not know.' },
  MISSING_CONSTRAINTS: { status: [400], meaning: 'A retention change that names no limit.' },
  UNKNOWN_USER: { status: [404], meaning: 'No such user.' },
  USER_EXISTS: { status: [409], meaning: 'A user with this name exists already.' },
  NOT_A_USER: { status: [400], meaning: 'A password change by a caller that is no user (the admin token).' },
  UNKNOWN_GROUP: { status: [404], meaning: 'No such device group.' },
  UNKNOWN_SHARE: { status: [404], meaning: 'No such share link (or not one the caller may see).' },
  SHARE_GONE: { status: [410], meaning: 'The share link expired or was ended.' },
  UNKNOWN_LOG: { status: [404], meaning: 'No such uploaded log the caller may see.' },
  NO_TILE: { status: [404], meaning: 'No tile at these coordinates.' },
  OIDC_OFF: { status: [404], meaning: 'Single sign-on is not configured on this server.' },
  OIDC_UNAVAILABLE: { status: [502, 404], meaning: "The identity provider's discovery failed." },
  OIDC_NO_LOGIN: { status: [400], meaning: 'A callback with no sign-on started in this browser (or it expired).' },
  OIDC_REFUSED: { status: [401], meaning: "The provider's answer was refused (state, nonce, signature)." },
  OIDC_NO_USER: { status: [403], meaning: 'The provider sent no user name claim.' },
  OIDC_NO_ROLE: { status: [403], meaning: "The provider's role claim maps to no Waypost role." },
  OIDC_NO_SCOPE: { status: [403], meaning: 'The provider named no org or device group for this user.' },
} as const satisfies Record<string, { status: readonly number[]; meaning: string }>;

export type ServerErrorCode = keyof typeof SERVER_ERROR_CODES;

export const isServerErrorCode = (code: unknown): code is ServerErrorCode =>
  typeof code === 'string' && Object.hasOwn(SERVER_ERROR_CODES, code);

/** The markers of the generated table in docs/server-errors.md. */
export const SERVER_ERROR_TABLE_MARKERS = [
  '<!-- server-error-codes:start -->',
  '<!-- server-error-codes:end -->',
] as const;

/** The Markdown table of every code, its statuses and meaning, sorted by code. */
export function renderServerErrorTable(): string {
  const rows = Object.entries(SERVER_ERROR_CODES)
    .sort(([a], [b]) => (a < b ? -1 : 1))
    .map(([code, { status, meaning }]) => `| \`${code}\` | ${status.join(', ')} | ${meaning} |`);
  return ['| Code | HTTP status | Meaning |', '| --- | --- | --- |', ...rows].join('\n');
}
