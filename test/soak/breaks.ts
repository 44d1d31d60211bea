import type { Rewrite } from './dynamodb-proxy';

/**
 * Deliberately broken builds, for the test that shows every invariant can fail
 * (soak-breaks.test.ts, `npm run soak -- --break <name>`): each stands for a bug the invariant is
 * there to catch, made on the wire in front of DynamoDB Local (the product's code is not
 * touched): a write the code believes done is not, or a call fails.
 */
type Attribute = { S?: string };
type Item = Record<string, Attribute>;

const text = (item: Item | undefined, name: string) => item?.[name]?.S ?? '';
/** The key of a transaction item (Put, Update, Delete or ConditionCheck). */
function keyOf(transactItem: Record<string, { Item?: Item; Key?: Item }>): Item | undefined {
  const action = Object.values(transactItem)[0];
  return action?.Item ?? action?.Key;
}

/** A transaction without the items `drop` names (only in a transaction holding an item `within` names); the others still commit. */
const withoutItems =
  (drop: (key: Item | undefined) => boolean, within: (key: Item | undefined) => boolean = () => true): Rewrite =>
  (operation, input) => {
    if (operation !== 'TransactWriteItems') return undefined;
    const items = input.TransactItems as Array<Record<string, { Item?: Item; Key?: Item }>>;
    if (!items.some((item) => within(keyOf(item)))) return undefined;
    const kept = items.filter((item) => !drop(keyOf(item)));
    return kept.length === items.length ? undefined : kept.length ? { ...input, TransactItems: kept } : 'drop';
  };

export interface Break {
  /** What the broken build gets wrong. */
  bug: string;
  /** The invariant that must catch it. */
  invariant: string;
  rewrite: Rewrite;
  /** The run needs duplicated queue messages to show it (SQS delivers a message more than once). */
  duplicates?: boolean;
}

export const BREAKS: Record<string, Break> = {
  'audit-reference-dropped': {
    bug: 'the reference builder drops the actor-domain access pattern',
    invariant: 'audit',
    rewrite: (operation, input) =>
      operation === 'PutItem' && text(input.Item as Item, 'pk').startsWith('AUDITREF#DOMAIN#') ? 'drop' : undefined,
  },
  'audit-tab-trails': {
    bug: "an admin's change reaches the user's Audit tab only later (its entity reference is not written with the change)",
    invariant: 'audit_read_your_writes',
    rewrite: (operation, input) =>
      operation === 'PutItem' &&
      text(input.Item as Item, 'pk').startsWith('AUDITREF#ENTITY#') &&
      text(input.Item as Item, 'action').startsWith('admin.')
        ? 'drop'
        : undefined,
  },
  'reminder-sent-twice': {
    bug: 'the reminder worker sends again when a slice is delivered twice (its once-a-day marker is not kept)',
    invariant: 'reminders',
    rewrite: (operation, input) => (operation === 'PutItem' && text(input.Item as Item, 'sk').startsWith('REMINDER#') ? 'drop' : undefined),
    duplicates: true,
  },
  'counter-update-dropped': {
    bug: 'a write forgets to count itself in the global counters',
    invariant: 'counters',
    rewrite: withoutItems((key) => text(key, 'pk').startsWith('STATS#GLOBAL#')),
  },
  'erasure-leaves-email-guard': {
    bug: "the hard delete leaves the account's email guard (its address in the key)",
    invariant: 'erasure',
    // the hard delete's first transaction (the one that starts its job, PURGE#)
    rewrite: withoutItems(
      (key) => text(key, 'pk').startsWith('EMAIL#'),
      (key) => text(key, 'pk').startsWith('PURGE#'),
    ),
  },
  'task-save-lost': {
    bug: 'a task save answers 200 without storing the answer',
    invariant: 'learner_work',
    rewrite: (operation, input) => (operation === 'PutItem' && text(input.Item as Item, 'sk').startsWith('TASK#') ? 'drop' : undefined),
  },
  'server-error': {
    bug: 'a read fails now and then with an error nothing retries',
    invariant: 'server_errors',
    rewrite: (() => {
      let calls = 0;
      return (operation) => (operation === 'GetItem' && ++calls % 97 === 0 ? 'fail' : undefined);
    })(),
  },
};
