import { AsyncLocalStorage } from 'node:async_hooks';
import { appendFileSync, mkdirSync } from 'node:fs';
import path from 'node:path';
import { runSimulation, type Simulation } from '@cloud-copilot/iam-simulate';
import { DynamoDBServiceException } from '@aws-sdk/client-dynamodb';
import { SecretsManagerServiceException } from '@aws-sdk/client-secrets-manager';
import { SESv2ServiceException } from '@aws-sdk/client-sesv2';
import { S3ServiceException } from '@aws-sdk/client-s3';
import { SQSServiceException } from '@aws-sdk/client-sqs';
import { SSMServiceException } from '@aws-sdk/client-ssm';
import type { LocalResource, LocalTwin } from '../../../functions/lib/local-twin';
import { leadingKeyClasses, statementsOf, type GrantUnit, unitId, unitsUsed } from './grants';
import type { FunctionKey, TwinIamModel } from './model';
import { assertWithinDynamoDbLimits } from '../dynamodb-limits';
import { dynamoDbRequests, type IamRequest, sesRequests } from './requests';

/**
 * The local twin of IAM (docs/architecture.md#iam-in-the-local-runtime). Code runs "as" a
 * function (`runAs`): the local server runs each endpoint group's handler as that group's
 * function, the in-process queue workers and jobs as theirs. Every AWS call made meanwhile is
 * evaluated against that function's role in the synthesized stack by a real IAM policy evaluator
 * (@cloud-copilot/iam-simulate) before it is sent; a denied call fails with the error AWS gives.
 *
 * It fails closed (docs/security.md#the-iam-twin-fails-closed): code that acts as an operator
 * with full access (a test's own set-up and checks, the local seed of the administrator, a
 * migration or a rebuild run by hand) says so with `runAsOperator`; a call made as no function
 * and not as the operator is refused, as is a call whose partition key the twin cannot read.
 * Either would otherwise be a call no role was ever checked against.
 */
const OPERATOR = 'operator';
const caller = new AsyncLocalStorage<FunctionKey | typeof OPERATOR>();

export function runAs<T>(fn: FunctionKey, work: () => T): T {
  return caller.run(fn, work);
}

/** Runs `work` as the operator: its AWS calls are not held to any function's role (only to DynamoDB's limits). */
export function runAsOperator<T>(work: () => T): T {
  return caller.run(OPERATOR, work);
}

/** The function the current code runs as; undefined for the operator and for code that runs as no one. */
export function currentFunction(): FunctionKey | undefined {
  const who = caller.getStore();
  return who === OPERATOR ? undefined : who;
}

/** Who a refused call was made as: a function, or no one (neither a function nor the operator). */
export const NO_FUNCTION = 'no function';

/** What a denied call is reported as (the grants report lists them). */
export interface DeniedCall extends IamRequest {
  fn: FunctionKey | typeof NO_FUNCTION;
}

/** One line of a run's record (IAM_TWIN_RECORD_DIR): a grant unit used, or a call denied. */
export type RecordLine = { used: GrantUnit } | { denied: DeniedCall };

interface Decision {
  allowed: boolean;
  used: GrantUnit[];
}

type Service = 'dynamodb' | 'ses' | 'sqs' | 'secretsmanager' | 'ssm' | 's3';

/** The service exception each SDK raises for an IAM refusal, with the status AWS answers. */
function accessDenied(service: Service, message: string): Error {
  const metadata = (httpStatusCode: number) => ({
    $fault: 'client' as const,
    $metadata: { httpStatusCode, attempts: 1, totalRetryDelay: 0 },
  });
  switch (service) {
    case 'dynamodb':
      return new DynamoDBServiceException({ name: 'AccessDeniedException', message, ...metadata(400) });
    case 'ses':
      return new SESv2ServiceException({ name: 'AccessDeniedException', message, ...metadata(403) });
    case 'sqs':
      return new SQSServiceException({ name: 'AccessDenied', message, ...metadata(403) });
    case 'secretsmanager':
      return new SecretsManagerServiceException({ name: 'AccessDeniedException', message, ...metadata(400) });
    case 'ssm':
      return new SSMServiceException({ name: 'AccessDeniedException', message, ...metadata(400) });
    case 's3':
      return new S3ServiceException({ name: 'AccessDenied', message, ...metadata(403) });
  }
}

const MAX_CACHED_DECISIONS = 20_000;

export class IamTwin implements LocalTwin {
  private readonly decisions = new Map<string, Promise<Decision>>();
  /** Per function, the class of a call's leading keys that IAM's answer depends on (grants.ts); null: the keys themselves. */
  private readonly keyClasses = new Map<FunctionKey, ((keys: string[]) => string) | null>();
  private readonly recorded = new Set<string>();
  private readonly recordFile?: string;
  /** Every call refused in this process (tests read it). */
  readonly deniedCalls: DeniedCall[] = [];

  constructor(
    readonly model: TwinIamModel,
    options: { recordDir?: string } = {},
  ) {
    if (options.recordDir) {
      mkdirSync(options.recordDir, { recursive: true });
      this.recordFile = path.join(options.recordDir, `${process.pid}-${Date.now()}.jsonl`);
    }
  }

  async authorizeSdkCall(clientName: string, commandName: string, input: Record<string, unknown>): Promise<void> {
    if (clientName.startsWith('DynamoDB')) {
      // DynamoDB's own refusals come before anyone's role: they hold for the operator too.
      assertWithinDynamoDbLimits(commandName, input);
      await this.authorize(caller.getStore(), 'dynamodb', dynamoDbRequests(commandName, input, this.model));
    } else if (clientName.startsWith('SES')) await this.authorize(caller.getStore(), 'ses', sesRequests(commandName, input, this.model));
    else throw new Error(`the IAM twin cannot evaluate ${clientName}.${commandName}`);
  }

  async check(action: string, resource: LocalResource): Promise<void> {
    const who = caller.getStore();
    switch (resource.kind) {
      case 'secret':
        return this.authorize(who, 'secretsmanager', [{ action, resource: this.model.secretArns[resource.name] }]);
      case 'parameter':
        return this.authorize(who, 'ssm', [{ action, resource: this.model.parameterArns[resource.name] }]);
      case 'queue':
        return this.authorize(who, 'sqs', [{ action, resource: this.model.queueArns[resource.name] }]);
      case 'object':
        return this.authorize(who, 's3', [{ action, resource: `${this.model.bucketArns[resource.bucket]}/${resource.key}` }]);
    }
  }

  /**
   * Throws AWS's refusal unless the caller may make every one of `requests`: the operator may;
   * no one (code that runs neither as a function nor as the operator) may not; a function's role
   * must allow each request, and a request whose key the twin could not read is refused.
   */
  async authorize(who: FunctionKey | typeof OPERATOR | undefined, service: Service, requests: IamRequest[]): Promise<void> {
    if (who === OPERATOR) return;
    if (!who) {
      const [request] = requests;
      this.deny({ fn: NO_FUNCTION, ...request });
      throw accessDenied(
        service,
        `The IAM twin refused ${request.action} on ${request.resource}: the call was made as no function (infra/local/iam/twin.ts runAs) ` +
          'and not as the operator (runAsOperator), so no role was checked; in AWS every call is made with some role.',
      );
    }
    const fn = who;
    const role = this.model.roles[fn].roleArn.split('/').pop();
    const principal = `arn:aws:sts::${this.model.account}:assumed-role/${role}/${fn}`;
    for (const request of requests) {
      if (request.unreadableKey) {
        this.deny({ fn, ...request });
        throw accessDenied(
          service,
          `User: ${principal} is not authorized to perform: ${request.action} on resource: ${request.resource}: ` +
            'the IAM twin could not read the partition key of every item the call names, so it cannot judge dynamodb:LeadingKeys',
        );
      }
      const decision = await this.decide(fn, request);
      for (const unit of decision.used) this.record({ used: unit });
      if (!decision.allowed) {
        this.deny({ fn, ...request });
        throw accessDenied(
          service,
          `User: ${principal} is not authorized to perform: ${request.action} ` +
            `on resource: ${request.resource} because no identity-based policy allows the ${request.action} action` +
            (request.leadingKeys?.length ? ` (leading keys ${request.leadingKeys.join(', ')})` : ''),
        );
      }
    }
  }

  private deny(call: DeniedCall): void {
    this.deniedCalls.push(call);
    this.record({ denied: call });
  }

  private decide(fn: FunctionKey, request: IamRequest): Promise<Decision> {
    const keys = [...new Set(request.leadingKeys ?? [])].sort();
    let classOf = this.keyClasses.get(fn);
    if (classOf === undefined) {
      classOf = leadingKeyClasses(statementsOf(this.model, fn).map(({ statement }) => statement)) ?? null;
      this.keyClasses.set(fn, classOf);
    }
    const cacheKey = JSON.stringify([fn, request.action, request.resource, classOf ? classOf(keys) : keys]);
    let decision = this.decisions.get(cacheKey);
    if (!decision) {
      if (this.decisions.size >= MAX_CACHED_DECISIONS) this.decisions.clear();
      decision = this.simulate(fn, { ...request, leadingKeys: keys });
      this.decisions.set(cacheKey, decision);
    }
    return decision;
  }

  private async simulate(fn: FunctionKey, request: IamRequest): Promise<Decision> {
    const statements = statementsOf(this.model, fn);
    const simulation: Simulation = {
      identityPolicies: statements.map(({ id, statement }) => ({ name: id, policy: { Version: '2012-10-17', Statement: [statement] } })),
      serviceControlPolicies: [],
      resourceControlPolicies: [],
      request: {
        action: request.action,
        principal: `arn:aws:sts::${this.model.account}:assumed-role/${this.model.roles[fn].roleArn.split('/').pop()}/${fn}`,
        resource: { resource: request.resource, accountId: this.model.account },
        contextVariables:
          request.action.startsWith('dynamodb:') && request.leadingKeys?.length ? { 'dynamodb:LeadingKeys': request.leadingKeys } : {},
      },
    };
    const result = await runSimulation(simulation, {});
    if (result.resultType === 'error')
      throw new Error(`the IAM twin could not evaluate ${request.action} on ${request.resource}: ${JSON.stringify(result.errors)}`);
    const allowed = result.overallResult === 'Allowed';
    // A resource without wildcards (every call the functions make) gives one analysis.
    const analyses = result.resultType === 'single' ? [result.result] : result.results;
    const allowing = new Set(
      analyses.flatMap((entry) => entry.analysis.identityAnalysis?.allowStatements ?? []).map((entry) => entry.policyId),
    );
    const used = allowed
      ? statements.filter(({ id }) => allowing.has(id)).flatMap(({ id, statement }) => unitsUsed(fn, id, statement, request))
      : [];
    return { allowed, used };
  }

  private record(line: RecordLine): void {
    if (!this.recordFile) return;
    const key = 'used' in line ? `u ${unitId(line.used)}` : `d ${JSON.stringify(line.denied)}`;
    if (this.recorded.has(key)) return;
    this.recorded.add(key);
    appendFileSync(this.recordFile, `${JSON.stringify(line)}\n`);
  }
}
