import { DynamoDBClient, type DynamoDBClientConfig } from '@aws-sdk/client-dynamodb';
import { DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { config } from './config';
import { instrumentClient } from './local-twin';

/**
 * Consumed capacity of every DynamoDB call made through this client, summed per request/job.
 * Benchmarks and logs read it; `ReturnConsumedCapacity: TOTAL` is added to every call.
 */
export const capacityMeter = {
  read: 0,
  write: 0,
  calls: 0,
  reset() {
    this.read = 0;
    this.write = 0;
    this.calls = 0;
  },
  snapshot() {
    return { read: this.read, write: this.write, calls: this.calls };
  },
};

type CapacityEntry = { CapacityUnits?: number; ReadCapacityUnits?: number; WriteCapacityUnits?: number };

function addCapacity(entries: CapacityEntry | CapacityEntry[] | undefined, kind: 'read' | 'write') {
  if (!entries) return;
  for (const entry of Array.isArray(entries) ? entries : [entries]) {
    const read = entry.ReadCapacityUnits ?? 0;
    const write = entry.WriteCapacityUnits ?? 0;
    if (read || write) {
      capacityMeter.read += read;
      capacityMeter.write += write;
    } else {
      capacityMeter[kind] += entry.CapacityUnits ?? 0;
    }
  }
}

/**
 * What runs right after a TransactWriteItems commits, in the same request, with the transaction's
 * items as sent (marshalled). The audit log registers one (functions/lib/audit.ts): the
 * references of an audit entry written inside a transaction are put as soon as the change is
 * committed, so the person who made it finds it at once in every filter. The items are the
 * document client's (unmarshalled): this runs before its marshalling.
 */
export type CommitListener = (transactItems: readonly Record<string, unknown>[]) => Promise<void>;
const commitListeners: CommitListener[] = [];
export function onTransactionCommitted(listener: CommitListener): void {
  if (!commitListeners.includes(listener)) commitListeners.push(listener);
}

const READ_COMMANDS = new Set(['GetItemCommand', 'QueryCommand', 'BatchGetItemCommand', 'TransactGetItemsCommand']);

/** Scans read the whole table: no request or job path may use one (docs/data-model.md). */
export class ScanForbiddenError extends Error {
  constructor() {
    super('DynamoDB Scan is not allowed on request or job paths');
  }
}

/**
 * DynamoDB Local serialises writes on a lock and answers `InternalServerError` "…too long waiting
 * for a lock. This request will succeed in actual DynamoDB API" when a burst outlasts its wait, a
 * refusal the cloud never gives. A burst of such answers would also drain the SDK's retry quota,
 * so the emulator's own refusal is retried here, below the SDK's retries, with jittered backoff;
 * every other error passes through unchanged.
 */
const EMULATOR_LOCK_TIMEOUT = /too long waiting for a lock/;
const EMULATOR_LOCK_RETRIES = 8;
const retryEmulatorLockTimeouts =
  (next: (args: unknown) => Promise<unknown>) =>
  async (args: unknown): Promise<unknown> => {
    for (let retry = 0; ; retry++) {
      try {
        return await next(args);
      } catch (error) {
        if (retry >= EMULATOR_LOCK_RETRIES || !EMULATOR_LOCK_TIMEOUT.test((error as Error).message ?? '')) throw error;
        await new Promise((resolve) => setTimeout(resolve, Math.random() * Math.min(2_000, 50 * 2 ** retry)));
      }
    }
  };

export function createDocumentClient(overrides: DynamoDBClientConfig = {}): DynamoDBDocumentClient {
  const cfg = config();
  const local = Boolean(cfg.dynamodbEndpoint);
  const client = new DynamoDBClient({
    region: cfg.region,
    ...(local
      ? {
          endpoint: cfg.dynamodbEndpoint,
          // DynamoDB Local accepts any credentials; fixed ones keep one shared database.
          credentials: { accessKeyId: 'local', secretAccessKey: 'local' },
        }
      : {}),
    maxAttempts: 4,
    ...overrides,
  });
  client.middlewareStack.add(
    (next, context) => async (args) => {
      const commandName = context.commandName ?? '';
      if (commandName === 'ScanCommand') throw new ScanForbiddenError();
      const input = args.input as Record<string, unknown>;
      if (input && input.ReturnConsumedCapacity === undefined && commandName !== 'DescribeTableCommand') {
        input.ReturnConsumedCapacity = 'TOTAL';
      }
      const result = await next(args);
      const output = result.output as { ConsumedCapacity?: CapacityEntry | CapacityEntry[] };
      capacityMeter.calls += 1;
      addCapacity(output?.ConsumedCapacity, READ_COMMANDS.has(commandName) ? 'read' : 'write');
      if (commandName === 'TransactWriteItemsCommand' && commitListeners.length) {
        const items = (input.TransactItems ?? []) as Record<string, unknown>[];
        for (const listener of commitListeners) await listener(items);
      }
      return result;
    },
    { step: 'initialize', name: 'capacityMeterAndScanGuard' },
  );
  if (local)
    client.middlewareStack.add(retryEmulatorLockTimeouts as never, { step: 'deserialize', name: 'emulatorLockTimeouts', priority: 'high' });
  instrumentClient(client);
  return DynamoDBDocumentClient.from(client, {
    marshallOptions: { removeUndefinedValues: true, convertClassInstanceToMap: false },
  });
}

let shared: DynamoDBDocumentClient | undefined;
/** The process-wide document client (created once, reused across invocations). */
export function db(): DynamoDBDocumentClient {
  shared ??= createDocumentClient();
  return shared;
}

export function tableName(): string {
  return config().tableName;
}
