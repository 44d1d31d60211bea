/**
 * `npm run make-admin -- user@example.com`: promotes an existing account to administrator, in
 * any environment, with the Lambdas' own configuration:
 *   locally   DYNAMODB_ENDPOINT=http://127.0.0.1:8000 (and TABLE_NAME if not the default)
 *   on AWS    TABLE_NAME=<the stack's table> with the usual AWS credentials; the region is the
 *             profile's (AWS_PROFILE, ~/.aws/config) unless AWS_REGION names another
 * `--allow-password-sign-in` also opens one password sign-in for the next 24 hours: on a stage
 * that requires administrators' passkeys (prod), it is how an administrator without a passkey
 * (a new one who added none as a learner, or one who lost theirs) gets in to add one
 * (docs/runbook.md#an-administrator-lost-their-passkey).
 * An audit entry records each change (actor: the operator's OS user).
 */
import { userInfo } from 'node:os';

const ALLOW_PASSWORD_SIGN_IN = '--allow-password-sign-in';

async function main() {
  const args = process.argv.slice(2);
  const email = args.find((arg) => !arg.startsWith('-'));
  const unknown = args.filter((arg) => arg.startsWith('-') && arg !== ALLOW_PASSWORD_SIGN_IN);
  if (!email || !/^[^\s@]+@[^\s@]+$/.test(email) || unknown.length) {
    console.error(`Usage: npm run make-admin -- user@example.com [${ALLOW_PASSWORD_SIGN_IN}]`);
    process.exit(2);
  }
  // The shared config insists on a session secret; this command signs nothing.
  if (!process.env.SESSION_SECRET && !process.env.SESSION_SECRET_ARN)
    process.env.SESSION_SECRET = 'unused-by-make-admin-unused-by-make-admin';
  const { allowPasswordSignIn, promoteToAdmin } = await import('../../functions/accounts/admin-account');
  const { config } = await import('../../functions/lib/config');
  const actor = `operator:${userInfo().username}`;
  const { user, changed } = await promoteToAdmin(email, actor);
  console.log(
    changed
      ? `${user.email} is now an administrator (table ${config().tableName}).`
      : `${user.email} was already an administrator (table ${config().tableName}).`,
  );
  if (args.includes(ALLOW_PASSWORD_SIGN_IN)) {
    const { until } = await allowPasswordSignIn(email, actor);
    console.log(`${user.email} may sign in once with the password and the emailed code until ${until}; then add a passkey in Settings.`);
  } else {
    console.log(`Where administrators must use a passkey, they sign in with one; without one, run again with ${ALLOW_PASSWORD_SIGN_IN}.`);
  }
}

main().catch((error) => {
  console.error(`make-admin failed: ${(error as Error).message}`);
  process.exit(1);
});
