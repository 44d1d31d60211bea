/**
 * `npm run make-admin -- user@example.com`: promotes an existing account to administrator, in
 * any environment, with the Lambdas' own configuration:
 *   locally   DYNAMODB_ENDPOINT=http://127.0.0.1:8000 (and TABLE_NAME if not the default)
 *   on AWS    TABLE_NAME=<the stack's table> with the usual AWS credentials; the region is the
 *             profile's (AWS_PROFILE, ~/.aws/config) unless AWS_REGION names another
 * An audit entry records the change (actor: the operator's OS user).
 */
import { userInfo } from 'node:os';

async function main() {
  const email = process.argv.slice(2).find((arg) => !arg.startsWith('-'));
  if (!email || !/^[^\s@]+@[^\s@]+$/.test(email)) {
    console.error('Usage: npm run make-admin -- user@example.com');
    process.exit(2);
  }
  // The shared config insists on a session secret; this command signs nothing.
  if (!process.env.SESSION_SECRET && !process.env.SESSION_SECRET_ARN)
    process.env.SESSION_SECRET = 'unused-by-make-admin-unused-by-make-admin';
  const { promoteToAdmin } = await import('../../functions/accounts/admin-account');
  const { config } = await import('../../functions/lib/config');
  const actor = `operator:${userInfo().username}`;
  const { user, changed } = await promoteToAdmin(email, actor);
  console.log(
    changed
      ? `${user.email} is now an administrator (table ${config().tableName}).`
      : `${user.email} was already an administrator (table ${config().tableName}).`,
  );
}

main().catch((error) => {
  console.error(`make-admin failed: ${(error as Error).message}`);
  process.exit(1);
});
