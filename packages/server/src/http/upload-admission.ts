import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { ParseAdmission } from '../ingest/parse-admission.js';

/** Where an upload's request stands with the admission: closed, or how to leave it. */
interface RequestGate {
  closed: boolean;
  leave: (() => void) | null;
}

declare module 'fastify' {
  interface FastifyRequest {
    /** An upload's place with the admission (upload routes only). */
    uploadGate: RequestGate | null;
  }
}

/**
 * Upload routes (route config `ingest`) have their bodies parsed within `admission`'s budget
 * (parseWhenAdmitted): here each upload learns when its request is over, answered or
 * its connection gone ('close' comes once, whichever is first).
 */
export function registerUploadAdmission(app: FastifyInstance): void {
  app.decorateRequest('uploadGate', null);
  app.addHook('preParsing', (request, reply, payload, done) => {
    if (request.routeOptions.config.ingest !== true) return done(null, payload);
    const gate: RequestGate = { closed: false, leave: null };
    request.uploadGate = gate;
    reply.raw.once('close', () => {
      gate.closed = true;
      gate.leave?.();
    });
    done(null, payload);
  });
}

/**
 * Runs `parse` for a body read in full: at once outside upload routes, else once the admission
 * has room for its bytes. Admitted after it is read, not before: a device sending its body slowly
 * holds no room while it does.
 */
export function parseWhenAdmitted(
  admission: ParseAdmission,
  request: FastifyRequest,
  bytes: number,
  parse: () => void,
): void {
  const gate = request.uploadGate;
  if (!gate || gate.closed) return parse();
  gate.leave = admission.admit(bytes, parse);
}
