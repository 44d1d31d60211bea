import type { SeedStep } from './seed-step';

/**
 * The administrator of docs/architecture.md#3-running-on-one-machine: ADMIN_EMAIL (default admin@example.com) with ADMIN_PASSWORD
 * or a random strong password, reported as `adminPassword` only when created now, so the start
 * banner prints it once. Idempotent: an existing account is left as it is. It runs as the operator
 * (no function's role): in the cloud an operator creates the first administrator with their own
 * credentials (make-admin).
 */
export const adminSeedSteps: SeedStep[] = [
  {
    name: 'administrator',
    run: async ({ log }): Promise<Record<string, string>> => {
      // Imported here: the app modules read the environment, which the runtime sets first.
      const [{ ensureAdmin }, { runAsOperator }] = await Promise.all([
        import('../../functions/accounts/admin-account'),
        import('./iam/twin'),
      ]);
      const adminEmail = (process.env.ADMIN_EMAIL || 'admin@example.com').trim();
      const result = await runAsOperator(() => ensureAdmin(adminEmail, process.env.ADMIN_PASSWORD || undefined));
      if (!result.created) return { adminEmail };
      log(`Created the administrator ${adminEmail}.`);
      // A password the operator chose is not echoed back.
      return process.env.ADMIN_PASSWORD ? { adminEmail } : { adminEmail, adminPassword: result.password! };
    },
  },
];
