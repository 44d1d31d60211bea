import { createServer, request, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

/**
 * A proxy in front of DynamoDB Local that answers some calls as AWS answers a throttled or
 * conflicting one (the JSON 1.0 error shape DynamoDB sends), so the SDK's retries and the
 * product's own (functions/lib/retry.ts) meet the fault as they would in the cloud. Everything else,
 * the stream's API included, passes through unchanged.
 *
 * `armCrash(after)` stands for a function stopped mid-work (a Lambda timeout or crash): after
 * `after` more writes, the next few calls fail (the invocation in hand stops where it is, some of
 * its writes done, the rest not); the calls after those go through again, as the next invocation's.
 */
export type ProxyDecision = 'pass' | 'throttle' | 'conflict';

/**
 * A deliberate break of the product, for the tests that show each invariant can fail
 * (breaks.ts): it may rewrite a call's input (DynamoDB's JSON, attribute values typed), answer it
 * as done without doing it (`'drop'`), or refuse it with a non-retryable error (`'fail'`).
 */
export type Rewrite = (operation: string, input: Record<string, unknown>) => Record<string, unknown> | 'drop' | 'fail' | undefined;

const WRITES = new Set(['PutItem', 'UpdateItem', 'DeleteItem', 'TransactWriteItems', 'BatchWriteItem']);

export interface DynamoDbProxy {
  endpoint: string;
  /** Decides each data call (reads and writes; never the stream's calls). */
  decide: (operation: string) => ProxyDecision;
  armCrash: (afterWrites: number) => void;
  disarm: () => void;
  /** Calls failed by a crash since the last arming. */
  crashed: () => number;
  /** Installed by a break only: never in a run that checks the product. */
  rewrite?: Rewrite;
  /** Data calls seen, by operation (the run's DynamoDB traffic). */
  calls: Map<string, number>;
  /** Writes passed on so far (a reader of the stream has nothing new while it stands still). */
  writes: () => number;
  close: () => Promise<void>;
}

const readBody = (req: IncomingMessage) =>
  new Promise<Buffer>((resolve, reject) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => resolve(Buffer.concat(chunks)));
    req.on('error', reject);
  });

function errorBody(type: string, message: string, extra: Record<string, unknown> = {}) {
  return JSON.stringify({ __type: `com.amazonaws.dynamodb.v20120810#${type}`, message, ...extra });
}

export async function startDynamoDbProxy(upstream: string): Promise<DynamoDbProxy> {
  const target = new URL(upstream);
  let crashAfter: number | undefined;
  /** Calls failed once the crash struck: the ones in flight of the stopped invocation. */
  const CRASH_BURST = 3;
  let crashedCalls = 0;
  let writesPassed = 0;
  const proxy: DynamoDbProxy = {
    endpoint: '',
    decide: () => 'pass',
    armCrash: (after) => {
      crashAfter = after;
      crashedCalls = 0;
    },
    disarm: () => {
      crashAfter = undefined;
    },
    crashed: () => crashedCalls,
    calls: new Map(),
    writes: () => writesPassed,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
  const server: Server = createServer((req, res) => {
    void readBody(req).then((body) => {
      const amzTarget = String(req.headers['x-amz-target'] ?? '');
      const operation = amzTarget.startsWith('DynamoDB_20120810.') ? amzTarget.slice('DynamoDB_20120810.'.length) : '';
      const answer = (type: string, message: string, extra?: Record<string, unknown>) =>
        res
          .writeHead(400, { 'content-type': 'application/x-amz-json-1.0', 'x-amzn-requestid': 'soak' })
          .end(errorBody(type, message, extra));
      if (operation) proxy.calls.set(operation, (proxy.calls.get(operation) ?? 0) + 1);
      if (operation && crashAfter !== undefined) {
        if (crashAfter <= 0) {
          crashedCalls += 1;
          if (crashedCalls >= CRASH_BURST) crashAfter = undefined;
          return answer('SimulatedCrash', 'the function was stopped here (a simulated timeout)');
        }
        if (WRITES.has(operation)) crashAfter -= 1;
      }
      if (operation) {
        const decision = proxy.decide(operation);
        if (decision === 'throttle')
          return answer(
            'ProvisionedThroughputExceededException',
            'The level of configured provisioned throughput for the table was exceeded.',
          );
        if (decision === 'conflict' && operation === 'TransactWriteItems') {
          const items = (JSON.parse(body.toString('utf8')) as { TransactItems?: unknown[] }).TransactItems ?? [];
          const conflicting = items.length - 1;
          return answer(
            'TransactionCanceledException',
            `Transaction cancelled, please refer cancellation reasons for specific reasons [${items.map((_, i) => (i === conflicting ? 'TransactionConflict' : 'None')).join(', ')}]`,
            {
              CancellationReasons: items.map((_, i) =>
                i === conflicting ? { Code: 'TransactionConflict', Message: 'Transaction is ongoing for the item' } : { Code: 'None' },
              ),
            },
          );
        }
      }
      let sent = body;
      if (operation && proxy.rewrite) {
        const rewritten = proxy.rewrite(operation, JSON.parse(body.toString('utf8')) as Record<string, unknown>);
        if (rewritten === 'drop')
          return res
            .writeHead(200, { 'content-type': 'application/x-amz-json-1.0', 'x-amzn-requestid': 'soak' })
            .end(operation === 'BatchWriteItem' ? '{"UnprocessedItems":{}}' : '{}');
        if (rewritten === 'fail') return answer('ValidationException', 'refused by a deliberate break of the simulation');
        if (rewritten) sent = Buffer.from(JSON.stringify(rewritten));
      }
      if (WRITES.has(operation)) writesPassed += 1;
      const headers = { ...req.headers, 'content-length': String(sent.length) };
      const out = request({ host: target.hostname, port: target.port, method: req.method, path: req.url, headers }, (answer) => {
        res.writeHead(answer.statusCode ?? 502, answer.headers);
        answer.pipe(res);
      });
      out.on('error', () => res.writeHead(502).end());
      out.end(sent);
    });
  });
  server.keepAliveTimeout = 30_000;
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', () => resolve()));
  proxy.endpoint = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return proxy;
}
