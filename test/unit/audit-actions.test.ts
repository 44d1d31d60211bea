import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { MODULE_ACTIONS } from '../../functions/admin/module-overrides';
import { AUDIT_ACTIONS_BY_ENTITY_TYPE, actionHasManyEntityTypes, auditActionsOf } from '../../functions/lib/audit-actions';
import { DRAFT_ACTIONS } from '../../functions/program/authoring/program-drafts';

/**
 * The entity-type filter of the audit log reads the action partitions listed per type in
 * functions/lib/audit-actions.ts: every action the code writes must be there, or its entries
 * would drop out of that filter. Actions are string literals (`auth.login`, `admin.user.lock`),
 * or templates over a list of sub-actions (`admin.module.${action}`).
 */
const root = join(import.meta.dirname, '..', '..');
/** Every namespace an action is written under (a namespace left out here hid its actions from this check). */
const NAMESPACES = '(?:auth|admin|user|system|security|account|notifications|learner)';
const ACTION_LITERAL = new RegExp(`['"\`](${NAMESPACES}\\.[a-z0-9_]+(?:\\.[a-z0-9_]+)*)['"\`]`, 'g');
const ACTION_TEMPLATE = new RegExp(`\`(${NAMESPACES}\\.[a-z0-9_.]*)\\$\\{`, 'g');
const TEMPLATES: Record<string, readonly string[]> = { 'admin.module.': MODULE_ACTIONS, 'admin.program.': DRAFT_ACTIONS };

function sourceFiles(dir: string): string[] {
  return readdirSync(join(root, dir), { withFileTypes: true }).flatMap((entry) => {
    const path = `${dir}/${entry.name}`;
    if (entry.isDirectory()) return sourceFiles(path);
    return /\.ts$/.test(entry.name) && !entry.name.endsWith('.test.ts') ? [path] : [];
  });
}

const sources = sourceFiles('functions').map((path) => readFileSync(join(root, path), 'utf8'));
const listed = new Set(Object.values(AUDIT_ACTIONS_BY_ENTITY_TYPE).flat());

describe('audited actions by entity type', () => {
  it('list every action the code writes as a literal', () => {
    const written = new Set(sources.flatMap((text) => [...text.matchAll(ACTION_LITERAL)].map((match) => match[1])));
    expect(written).toContain('auth.login');
    expect(written).toContain('auth.2fa_failed');
    // written through a ternary and under namespaces of their own
    expect(written).toContain('notifications.unsubscribe');
    expect(written).toContain('learner.certificate.issued');
    expect([...written].filter((action) => !listed.has(action))).toEqual([]);
  });

  it('list every action a template writes, and no template is unknown', () => {
    const prefixes = new Set(sources.flatMap((text) => [...text.matchAll(ACTION_TEMPLATE)].map((match) => match[1])));
    expect([...prefixes].sort()).toEqual(Object.keys(TEMPLATES).sort());
    const templated = Object.entries(TEMPLATES).flatMap(([prefix, actions]) => actions.map((action) => `${prefix}${action}`));
    expect(templated.filter((action) => !listed.has(action))).toEqual([]);
  });

  it('answer no action for a type no entry is written for, and a type’s own actions otherwise', () => {
    expect(auditActionsOf('constructor')).toEqual([]);
    expect(auditActionsOf('route')).toEqual(['security.admin_required']);
    expect(actionHasManyEntityTypes('auth.login')).toBe(false);
  });
});
