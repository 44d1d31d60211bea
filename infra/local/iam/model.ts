/**
 * What the local twin knows of the deployed stack's IAM: each function's role (its policy
 * documents, intrinsics resolved for one account and region) and the ARNs of the resources the
 * functions call, so that a local call can be named as AWS would name it. Built from the
 * synthesized CDK app by infra/local/iam/synth-model.ts and cached as JSON.
 */
export const FUNCTION_KEYS = [
  'auth',
  'passkeys',
  'learner',
  'admin',
  'reminders',
  'seed',
  'mailEvents',
  'reminderWorker',
  'purge',
  'erasure',
  'reconcile',
  'activityStream',
] as const;
export type FunctionKey = (typeof FUNCTION_KEYS)[number];

export interface PolicyStatement {
  Sid?: string;
  Effect: 'Allow' | 'Deny';
  Action: string | string[];
  Resource: string | string[];
  Condition?: Record<string, Record<string, string | string[]>>;
}
export interface PolicyDocument {
  Version: string;
  Statement: PolicyStatement[];
}

export interface FunctionRole {
  /** The role's ARN; calls are made as `arn:aws:sts::<account>:assumed-role/<role>/<function>`. */
  roleArn: string;
  /** The construct path of the function (for messages). */
  functionPath: string;
  policies: Array<{ name: string; document: PolicyDocument }>;
}

export interface TwinIamModel {
  account: string;
  region: string;
  stackName: string;
  /** The single table (whatever the local table is called, it stands for this one). */
  tableArn: string;
  /** Index name → ARN. */
  indexArns: Record<string, string>;
  queueArns: { purge: string; reminders: string };
  mailIdentityArn: string;
  /** The transactional mail stream's configuration set. */
  configurationSetName: string;
  configurationSetArn: string;
  /** The bulk mail stream's (reminders) configuration set. */
  bulkConfigurationSetName: string;
  bulkConfigurationSetArn: string;
  secretArns: { session: string; unsubscribe: string; origin: string; 'device-audit': string };
  parameterArns: { 'app-url': string };
  /** Bucket → ARN (objects are `<arn>/<key>`). */
  bucketArns: { exports: string };
  roles: Record<FunctionKey, FunctionRole>;
}

/** The account and region the twin deploys to: any account, and not us-east-1 (the edge stacks' region). */
export const TWIN_ACCOUNT = '123456789012';
export const TWIN_REGION = 'eu-west-1';
