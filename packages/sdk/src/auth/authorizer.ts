/**
 * How the uploader asks for credentials. The uploader knows nothing of tokens: it asks for the
 * headers of the next request, and after a 401 whether trying once more is worthwhile.
 */
export interface Authorizer {
  /** Headers to add to an upload (an empty object when no authorization is configured). */
  headers(): Promise<Record<string, string>>;
  /** Called after a 401. Resolves true when new credentials were obtained and one retry is due. */
  refreshAfterUnauthorized(): Promise<boolean>;
  /** Called on every 2xx upload: the credentials work, so refreshing may start afresh. */
  uploadAccepted(): void;
}
