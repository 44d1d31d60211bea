/**
 * The seam through which the local runtime holds every AWS call of a function to the rules the
 * cloud applies (infra/local/iam, docs/architecture.md#iam-in-the-local-runtime). In Lambda
 * nothing is registered and both calls below do nothing.
 *
 * - SDK clients (DynamoDB, SES) are created through `instrumentClient`: while a twin is
 *   registered, each request is checked against the calling function's IAM role before it is sent.
 * - Calls the local runtime answers without AWS (secrets and the site address from the
 *   environment, queues run in-process, export objects as local files) announce themselves with `checkLocalCall`, so that a role
 *   missing `secretsmanager:GetSecretValue`, `sqs:SendMessage` or `s3:PutObject` fails locally as it would in AWS.
 */
export type LocalResource =
  | { kind: 'secret'; name: 'session' | 'unsubscribe' | 'origin' | 'device-audit' }
  | { kind: 'parameter'; name: 'app-url' }
  | { kind: 'queue'; name: 'purge' | 'reminders' }
  | { kind: 'object'; bucket: 'exports'; key: string };

export interface LocalTwin {
  /** Throws the service's AccessDenied error when the calling function may not make this SDK call. */
  authorizeSdkCall(clientName: string, commandName: string, input: Record<string, unknown>): Promise<void>;
  /** Throws the service's AccessDenied error when the calling function may not do `action`. */
  check(action: string, resource: LocalResource): Promise<void>;
}

/** What the twin needs of an SDK client: its middleware stack (structural, so no SDK type is imported). */
export interface InstrumentableClient {
  middlewareStack: { add(middleware: never, options: { step: 'build'; name: string; priority?: 'high' | 'low' }): void };
}

let twin: LocalTwin | undefined;

/** The local runtime and the test setups register the twin before any function module creates a client. */
export function registerLocalTwin(value: LocalTwin | undefined): void {
  twin = value;
}

type Next = (args: { input: unknown }) => Promise<unknown>;
type Context = { clientName?: string; commandName?: string };

export function instrumentClient<C extends InstrumentableClient>(client: C): C {
  if (!twin) return client;
  const middleware = (next: Next, context: Context) => async (args: { input: unknown }) => {
    // the twin registered now (a test may swap it), not the one at creation
    await twin?.authorizeSdkCall(context.clientName ?? '', context.commandName ?? '', (args.input ?? {}) as Record<string, unknown>);
    return next(args);
  };
  // `build`: after lib-dynamodb has marshalled the input, before anything is signed or sent.
  client.middlewareStack.add(middleware as never, { step: 'build', name: 'localTwinIam', priority: 'high' });
  return client;
}

export async function checkLocalCall(action: string, resource: LocalResource): Promise<void> {
  await twin?.check(action, resource);
}
