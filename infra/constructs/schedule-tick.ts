import { Validations } from 'aws-cdk-lib';
import type { Rule } from 'aws-cdk-lib/aws-events';
import type { IFunction } from 'aws-cdk-lib/aws-lambda';

const TICK = 'The event is a bare daily schedule tick with no data of its own: a dead-letter copy would hold nothing to replay';

/**
 * A daily job's rule and handler keep no dead letters: the errors alarm reports a failed run,
 * the job can be rerun by hand with `{}` (docs/runbook.md), and the next day's run picks up what
 * is still due.
 */
export function acknowledgeScheduleTick(rule: Rule, handler: IFunction): void {
  Validations.of(rule).acknowledge({
    id: 'Serverless-EventBusDLQ',
    reason: `${TICK}. EventBridge retries delivery for 24 h, and the next day's tick runs the job again.`,
  });
  Validations.of(handler).acknowledge({
    id: 'Serverless-LambdaDLQ',
    reason: `${TICK}. Lambda retries a failed run twice; a run that still fails raises the function's errors alarm, and it is rerun by hand with {} (docs/runbook.md).`,
  });
}
