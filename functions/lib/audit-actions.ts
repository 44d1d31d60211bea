/**
 * Every audited action, by the entity type its entries are written for: the audit log's
 * entity-type filter reads the action index partitions of that type (functions/admin/audit-log.ts),
 * so an action missing here would be missing from that filter (test/unit/audit-actions.test.ts
 * finds every action the code writes). `admin.module.*` and `admin.program.*` are the module
 * overrides (functions/admin/module-overrides.ts) and the program drafts
 * (functions/program/authoring/program-drafts.ts).
 */
export const AUDIT_ACTIONS_BY_ENTITY_TYPE: Readonly<Record<string, readonly string[]>> = {
  user: [
    'account.self_delete',
    'account.self_delete_refused',
    'account.self_restore',
    'admin.certificate.revoke',
    'admin.module.force_complete',
    'admin.module.lock',
    'admin.module.reopen',
    'admin.module.unlock',
    'admin.passkey_removed',
    'admin.user.hard_delete',
    'admin.user.invalidate_sessions',
    'admin.user.lock',
    'admin.user.reset_password',
    'admin.user.restore',
    'admin.user.soft_delete',
    'admin.user.unlock',
    'admin.user.update',
    'auth.2fa_failed',
    'auth.email_verified',
    'auth.login',
    'auth.login_backoff_started',
    'auth.login_code_resent',
    'auth.login_failed',
    'auth.login_refused',
    'auth.login_throttled',
    'auth.logout',
    'auth.passkey_added',
    'auth.passkey_registration_refused',
    'auth.passkey_registration_started',
    'auth.passkey_removal_refused',
    'auth.passkey_removed',
    'auth.passkey_renamed',
    'auth.password_change_failed',
    'auth.password_changed',
    'auth.password_reset',
    'auth.password_reset_requested',
    'auth.password_reset_token_rejected',
    'auth.register',
    'auth.register_repeated',
    'auth.session_revocation_refused',
    'auth.session_revoked',
    'auth.sessions_revoked_others',
    'learner.certificate.issued',
    'notifications.link_frequency',
    'notifications.unsubscribe',
    'system.user.hard_delete',
    'user.admin_seeded',
    'user.email_bounced',
    'user.email_complained',
    'user.password_sign_in_allowed',
    'user.role_changed',
  ],
  program: ['admin.program.draft_save', 'admin.program.import', 'admin.program.publish', 'admin.program.restore'],
  export: ['admin.export_audit', 'admin.export_users'],
  route: ['security.admin_required'],
  rate_limit: ['security.throttled'],
};

/** The actions of an entity type (none for a type no entry is written for). */
export const auditActionsOf = (entityType: string): readonly string[] =>
  Object.hasOwn(AUDIT_ACTIONS_BY_ENTITY_TYPE, entityType) ? AUDIT_ACTIONS_BY_ENTITY_TYPE[entityType] : [];

/** Whether an action is written for more than one entity type (its entries then need the type as a filter). */
export const actionHasManyEntityTypes = (action: string): boolean =>
  Object.values(AUDIT_ACTIONS_BY_ENTITY_TYPE).filter((actions) => actions.includes(action)).length > 1;

/**
 * The routine actions written for a large share of all sign-ins and refusals: their reference
 * partitions are split in AUDIT_SHARDS shards (functions/lib/table.ts auditRefPartition); every
 * other action's month is one partition (shard 0). An action may join this list, never leave it
 * (its entries in shards 1… would no longer be read).
 */
const SHARDED_ACTIONS: ReadonlySet<string> = new Set([
  'auth.login',
  'auth.logout',
  'auth.login_failed',
  'auth.2fa_failed',
  'auth.login_throttled',
  'security.throttled',
]);

/** How many shards an action's reference partitions have in a month. */
export const auditActionShards = (action: string, shards: number): number => (SHARDED_ACTIONS.has(action) ? shards : 1);
