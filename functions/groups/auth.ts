import { login } from '../accounts/routes/login';
import { logout } from '../accounts/routes/logout';
import { me } from './me';
import { passwordResetConfirm, passwordResetRequest, passwordResetValidate } from '../accounts/routes/password-reset';
import { register } from '../accounts/routes/register';
import { getSessions } from '../accounts/routes/sessions';
import { resendLoginCode } from '../accounts/routes/resend-login-code';
import { resendVerification } from '../accounts/routes/resend-verification';
import { restoreAccount, verifyRestore } from '../accounts/routes/restore-account';
import { verifyTwoFactor } from '../accounts/routes/verify-2fa';
import { verifyEmail } from '../accounts/routes/verify-email';
import { createGroupHandler } from '../lib/http';
import { verifyCertificateRoute } from '../program/public-routes';
import { openApiRoute } from '../api-docs/openapi-route';
import { health } from './health';

/** Lambda entry for the `auth` endpoint group: every `auth` route of shared/routes.ts. */
export const handler = createGroupHandler('auth', {
  'GET /api/health': health,
  'GET /api/openapi.json': openApiRoute,
  'GET /api/auth/me': me,
  'POST /api/auth/logout': logout,
  'POST /api/auth/login': login,
  'POST /api/auth/verify-2fa': verifyTwoFactor,
  'POST /api/auth/register': register,
  'POST /api/auth/verify-email': verifyEmail,
  'POST /api/auth/resend-verification': resendVerification,
  'POST /api/auth/resend-2fa': resendLoginCode,
  'POST /api/auth/restore': restoreAccount,
  'POST /api/auth/restore/verify': verifyRestore,
  'POST /api/auth/password-reset/request': passwordResetRequest,
  'GET /api/auth/password-reset/validate': passwordResetValidate,
  'POST /api/auth/password-reset/confirm': passwordResetConfirm,
  'GET /api/auth/sessions': getSessions,
  'GET /api/certificates/{code}': verifyCertificateRoute,
});
