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
import { dynamoDbRequests, type IamRequest, sesRequests } from './requests';

/**
 * The local twin of IAM (docs/architecture.md#iam-in-the-local-runtime). Code runs "as" a
 * function (`runAs`): the local server runs each endpoint group's handler as that group's
 * function, the in-process queue workers and jobs as theirs. Every AWS call made meanwhile is
 * evaluated against that function's role in the synthesized stack by a real IAM policy evaluator
 * (@cloud-copilot/iam-simulate) before it is sent; a denied call fails with the error AWS gives.
 * Code running as no function (test set-up, the local seed of the administrator, operator
 * scripts) stands for an operator with full access and is not checked.
 */
const caller = new AsyncLocalStorage<FunctionKey>();

export function runAs<T>(fn: FunctionKey, work: () => T): T {
  return caller.run(fn, work);
}

export function currentFunction(): FunctionKey | undefined {
  return caller.getStore();
}

/** What a denied call is reported as (the grants report lists them). */
export interface DeniedCall extends IamRequest {
  fn: FunctionKey;
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
    const fn = currentFunction();
    if (!fn) return;
    if (clientName.startsWith('DynamoDB')) await this.authorize(fn, 'dynamodb', dynamoDbRequests(commandName, input, this.model));
    else if (clientName.startsWith('SES')) await this.authorize(fn, 'ses', sesRequests(commandName, input, this.model));
    else throw new Error(`the IAM twin cannot evaluate ${clientName}.${commandName}`);
  }

  async check(action: string, resource: LocalResource): Promise<void> {
    const fn = currentFunction();
    if (!fn) return;
    switch (resource.kind) {
      case 'secret':
        return this.authorize(fn, 'secretsmanager', [{ action, resource: this.model.secretArns[resource.name] }]);
      case 'parameter':
        return this.authorize(fn, 'ssm', [{ action, resource: this.model.parameterArns[resource.name] }]);
      case 'queue':
        return this.authorize(fn, 'sqs', [{ action, resource: this.model.queueArns[resource.name] }]);
      case 'object':
        return this.authorize(fn, 's3', [{ action, resource: `${this.model.bucketArns[resource.bucket]}/${resource.key}` }]);
    }
  }

  /** Throws AWS's refusal unless the function's role allows every one of `requests`. */
  async authorize(fn: FunctionKey, service: Service, requests: IamRequest[]): Promise<void> {
    for (const request of requests) {
      const decision = await this.decide(fn, request);
      for (const unit of decision.used) this.record({ used: unit });
      if (!decision.allowed) {
        this.deniedCalls.push({ fn, ...request });
        this.record({ denied: { fn, ...request } });
        const role = this.model.roles[fn].roleArn.split('/').pop();
        throw accessDenied(
          service,
          `User: arn:aws:sts::${this.model.account}:assumed-role/${role}/${fn} is not authorized to perform: ${request.action} ` +
            `on resource: ${request.resource} because no identity-based policy allows the ${request.action} action` +
            (request.leadingKeys?.length ? ` (leading keys ${request.leadingKeys.join(', ')})` : ''),
        );
      }
    }
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
