import { defineRoute } from '../lib/http';
import { verifyCertificate } from './certificate-check';

/** `GET /api/certificates/{code}` (public) → name, program and date; 404 for an unknown code. */
export const verifyCertificateRoute = defineRoute({
  handler: async (request) => ({ body: await verifyCertificate(request.params.code) }),
});
