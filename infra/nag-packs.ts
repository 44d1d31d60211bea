import { AwsSolutionsChecks, ServerlessChecks } from 'cdk-nag';
import type { IConstruct } from 'constructs';

/**
 * The cdk-nag packs every synthesis runs as policy-validation plugins (infra/app.ts): synth fails
 * on any unacknowledged error. Accepted findings are acknowledged next to the resource they
 * concern, each with its reason.
 */
export const nagPacks = (scope?: IConstruct) => [
  new AwsSolutionsChecks(scope, { verbose: true }),
  new ServerlessChecks(scope, { verbose: true }),
];
