import type { EmailMessage } from '../../lib/email';
import { codeEmail } from './code-email';

/** The code that confirms restoring a deleted account, sent once its password was accepted. */
export const restoreCodeEmail = (to: string, firstName: string, code: string): EmailMessage =>
  codeEmail({
    to,
    firstName,
    code,
    subject: 'Your code to restore your account',
    codeName: 'restore code',
    footnote: 'If you did not ask to restore your account, someone may know your password: contact the administrator.',
  });
