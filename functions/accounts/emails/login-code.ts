import type { EmailMessage } from '../../lib/email';
import { codeEmail } from './code-email';

/** The second sign-in step's code, sent once the password was accepted. */
export const loginCodeEmail = (to: string, firstName: string, code: string): EmailMessage =>
  codeEmail({
    to,
    firstName,
    code,
    subject: 'Your login code',
    codeName: 'login code',
    footnote: 'If you did not try to log in, someone may know your password: change it in your account settings.',
  });
