import type { Persona } from './population';

/**
 * The harness's own model of what happened: every fact here comes from an answer the API
 * acknowledged (a 2xx) to a simulated person, never from reading the table. The invariants
 * (invariants.ts) compare the product with it.
 */
export type ModuleStatus = 'open' | 'completed' | 'locked';
export type AccountStatus = 'active' | 'locked' | 'deleted' | 'erased';

export interface AccountModel {
  email: string;
  /** Every address the account had (an admin's email change): the erasure check looks for each. */
  emails: string[];
  firstName: string;
  lastName: string;
  names: string[];
  id?: string;
  role: 'learner' | 'admin';
  persona?: Persona;
  registeredAt: number;
  verified: boolean;
  status: AccountStatus;
  locked: boolean;
  deletedAt?: number;
  deletedBy?: 'self' | 'admin';
  erasedAt?: number;
  /** When the console first showed the account `purging`: its erasure's audit entry was written just before. */
  purgeSeenAt?: number;
  enrolledAt?: number;
  modules: Map<string, ModuleStatus>;
  /** An admin override changed the states since they were read: read them again before counting. */
  modulesStale?: boolean;
  /** Acknowledged task saves: `<slug>/<task id>` → what was saved. */
  saved: Map<string, { done?: boolean; answer?: string }>;
  frequency: 'daily' | 'weekly' | 'off';
  timeZone: string;
  /** UTC days (yyyy-mm-dd) with an acknowledged sign-in or task save. */
  activeDays: Set<string>;
  lastActivityAt?: number;
  /** Acknowledged sign-ins (their `auth.login` entries come from the stream). */
  signIns: number;
  ips: Set<string>;
  /** Changes to reminders and deletion, in order, for the reminder check (what held when). */
  timeline: Array<{
    at: number;
    frequency?: AccountModel['frequency'];
    timeZone?: string;
    status?: AccountStatus;
    verified?: boolean;
    enrolled?: boolean;
    /** Every module completed (true) or, after an admin reopened one, a module left again (false). */
    finished?: boolean;
    activity?: boolean;
    resumed?: boolean;
  }>;
}

/** Whether the learner has finished the program, as of the latest change in their timeline. */
export const isFinished = (model: AccountModel): boolean =>
  model.timeline.findLast((event) => event.finished !== undefined)?.finished ?? false;

/** An audit entry the product must show: an acknowledged action and who and what it was about. */
export interface AuditExpectation {
  action: string;
  entityType: string;
  /** The entity id, or (for an account whose id is not learned yet) its email, resolved later. */
  entityId?: string;
  entityEmail?: string;
  actorId?: string;
  actorEmail?: string;
  /** Simulated time of the acknowledgement. */
  at: number;
  /** Written through the table's stream (a sign-in): visible once the stream is read. */
  viaStream: boolean;
}

export const dayOfMs = (ms: number) => new Date(ms).toISOString().slice(0, 10);

export class Oracle {
  readonly accounts = new Map<string, AccountModel>();
  readonly byId = new Map<string, AccountModel>();
  readonly audit: AuditExpectation[] = [];
  /** Acknowledged program publications (version numbers). */
  readonly published: number[] = [];

  account(email: string): AccountModel | undefined {
    return this.accounts.get(email.toLowerCase());
  }

  add(model: AccountModel): AccountModel {
    this.accounts.set(model.email.toLowerCase(), model);
    if (model.id) this.byId.set(model.id, model);
    return model;
  }

  learnId(model: AccountModel, id: string): void {
    model.id = id;
    this.byId.set(id, model);
    for (const expectation of this.audit) {
      if (expectation.entityEmail === model.email.toLowerCase() && !expectation.entityId) expectation.entityId = id;
      if (expectation.actorEmail && !expectation.actorId && expectation.actorEmail === model.email.toLowerCase()) expectation.actorId = id;
    }
  }

  changeEmail(model: AccountModel, email: string): void {
    this.accounts.delete(model.email.toLowerCase());
    model.email = email;
    model.emails.push(email);
    this.accounts.set(email.toLowerCase(), model);
  }

  expect(expectation: AuditExpectation): void {
    this.audit.push(expectation);
  }

  activity(model: AccountModel, at: number): void {
    model.activeDays.add(dayOfMs(at));
    model.lastActivityAt = Math.max(model.lastActivityAt ?? 0, at);
    model.timeline.push({ at, activity: true });
  }

  /** Accounts that count as users (registered, not soft-deleted, not erased). */
  users(): AccountModel[] {
    return [...this.accounts.values()].filter((model) => model.status === 'active' || model.status === 'locked');
  }

  /** Accounts that still exist (not erased). */
  existing(): AccountModel[] {
    return [...this.accounts.values()].filter((model) => model.status !== 'erased');
  }
}

export function newAccount(
  fields: Pick<AccountModel, 'email' | 'firstName' | 'lastName' | 'role' | 'registeredAt' | 'timeZone' | 'frequency'> &
    Partial<AccountModel>,
): AccountModel {
  return {
    emails: [fields.email],
    names: [fields.firstName, fields.lastName],
    verified: false,
    status: 'active',
    locked: false,
    modules: new Map(),
    saved: new Map(),
    activeDays: new Set(),
    signIns: 0,
    ips: new Set(),
    timeline: [{ at: fields.registeredAt, frequency: fields.frequency, timeZone: fields.timeZone, status: 'active', verified: false }],
    ...fields,
  };
}
