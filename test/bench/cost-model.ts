/**
 * The monthly cost model of docs/cost-model.md: measured per-request costs × stated volumes ×
 * list prices. test/unit/cost-model.test.ts keeps the page's table equal to what this computes,
 * and test/integration/sign-in-cost.test.ts keeps the measured sign-in figures below an upper
 * bound of what a sign-in costs today.
 */

/** AWS list prices, us-east-1, on-demand (USD). */
export const PRICES = {
  dynamoWriteUnitPerMillion: 0.625,
  dynamoReadUnitPerMillion: 0.125,
  dynamoStorageGbMonth: 0.25,
  lambdaRequestsPerMillion: 0.2,
  lambdaArmGbSecond: 0.0000133334,
  httpApiRequestsPerMillion: 1.0,
  sesPerThousandMails: 0.1,
  sqsRequestsPerMillion: 0.4,
  logsIngestedPerGb: 0.5,
} as const;

/** Measured on DynamoDB Local's consumed capacity (docs/scale-writes.md "Activity off the request path"). */
export const MEASURED = {
  /** login + verify-2fa on the request path, a first sign-in of the day (the `auth.login` entry is written off it, below). */
  signIn: { calls: 13, readUnits: 3, writeUnits: 12 },
  /** the audit entry and its 4 references, in no index (test/integration/audit-entry-cost.test.ts), and what they store; a sign-in's is written from the stream. */
  auditEntry: { writeUnits: 5, storedKb: 2.25 },
  /** the stream reads the account of a sign-in (a consistent read) before writing its entry: none for an account being erased. */
  signInEntryCheck: { readUnits: 1 },
  /**
   * an entry written inside the transaction of the change it records: the entry (2 units, a
   * transaction's items count twice) and its 4 references put right after the commit; the
   * stream's check reads the entry (a consistent read, 1 unit) and the references' keys (half a
   * unit each) and writes only what is missing (nothing, unless the request stopped).
   */
  auditEntryInTransaction: { writeUnits: 6, readUnits: 3 },
  /** off the request path, per first activity of a day: marker (transactional), shares of the day ADDs, 2–3 search items. */
  activityAggregation: { writeUnits: 6 },
} as const;

/**
 * Per-request costs of the other API requests, measured: a learner request is the average of
 * one signed-in visit's requests (test/bench/learner-session.bench.test.ts, which fails when a
 * visit costs more), an admin read the median of the admin reads of `npm run bench:scale` at
 * 20,000 accounts (docs/scale-reads.md "Benchmark").
 */
export const MEASURED_REQUESTS = {
  learnerRequest: { readUnits: 5, writeUnits: 3 },
  adminRead: { readUnits: 16 },
} as const;

/** Volumes per learner (stated, not measured: the figures the scale docs plan for). */
export const VOLUMES = {
  /** 100,000 sign-ins a day at 1,000,000 learners. */
  signInsPerLearnerDay: 0.1,
  /** the learner API requests of one signed-in visit (pages, task saves), each costing MEASURED_REQUESTS.learnerRequest. */
  requestsPerSignIn: 20,
  /** admin console reads (lists, drawers, the audit log) per learner and month. */
  adminReadsPerLearnerMonth: 0.2,
  /** audit entries per learner and month besides `auth.login` (failures, security events, admin actions). */
  otherAuditEntriesPerLearnerMonth: 14,
  auditRetentionMonths: 400 / 30,
  /** due learners mailed a reminder per day. */
  remindersPerLearnerDay: 0.05,
  /** Lambda GB-seconds: a sign-in (the password hash), any other request. */
  signInGbSeconds: 0.3,
  requestGbSeconds: 0.05,
  logKbPerRequest: 1,
} as const;

export interface MonthlyCost {
  learners: number;
  dynamodb: number;
  auditStorage: number;
  lambda: number;
  ses: number;
  sqs: number;
  apiGateway: number;
  logs: number;
  total: number;
}

const DAYS = 30;

export function monthlyCost(learners: number): MonthlyCost {
  const signIns = learners * VOLUMES.signInsPerLearnerDay * DAYS;
  const requests = signIns * VOLUMES.requestsPerSignIn;
  const otherAudit = learners * VOLUMES.otherAuditEntriesPerLearnerMonth;
  const writeUnits =
    signIns * (MEASURED.signIn.writeUnits + MEASURED.auditEntry.writeUnits + MEASURED.activityAggregation.writeUnits) +
    requests * MEASURED_REQUESTS.learnerRequest.writeUnits +
    otherAudit * MEASURED.auditEntryInTransaction.writeUnits;
  const adminReads = learners * VOLUMES.adminReadsPerLearnerMonth;
  const readUnits =
    signIns * (MEASURED.signIn.readUnits + MEASURED.signInEntryCheck.readUnits) +
    requests * MEASURED_REQUESTS.learnerRequest.readUnits +
    adminReads * MEASURED_REQUESTS.adminRead.readUnits +
    otherAudit * MEASURED.auditEntryInTransaction.readUnits;
  const auditGb = ((signIns + otherAudit) * VOLUMES.auditRetentionMonths * MEASURED.auditEntry.storedKb) / 1024 ** 2;
  const reminders = learners * VOLUMES.remindersPerLearnerDay * DAYS;
  // each reminder day: 320 slices sent, received, deleted
  const sqsRequests = 320 * 3 * DAYS;
  const apiRequests = signIns * 2 + requests + adminReads;
  const cost: Omit<MonthlyCost, 'total'> = {
    learners,
    dynamodb: (writeUnits / 1e6) * PRICES.dynamoWriteUnitPerMillion + (readUnits / 1e6) * PRICES.dynamoReadUnitPerMillion,
    auditStorage: auditGb * PRICES.dynamoStorageGbMonth,
    lambda:
      ((apiRequests + reminders / 100) / 1e6) * PRICES.lambdaRequestsPerMillion +
      (signIns * VOLUMES.signInGbSeconds + (requests + adminReads) * VOLUMES.requestGbSeconds) * PRICES.lambdaArmGbSecond,
    ses: ((signIns + reminders) / 1000) * PRICES.sesPerThousandMails,
    sqs: (sqsRequests / 1e6) * PRICES.sqsRequestsPerMillion,
    apiGateway: (apiRequests / 1e6) * PRICES.httpApiRequestsPerMillion,
    logs: ((apiRequests * VOLUMES.logKbPerRequest) / 1024 ** 2) * PRICES.logsIngestedPerGb,
  };
  const total = Object.entries(cost).reduce((sum, [name, value]) => (name === 'learners' ? sum : sum + value), 0);
  return { ...cost, total };
}

const dollars = (value: number) => `$${value < 10 ? value.toFixed(2) : Math.round(value).toLocaleString('en-US')}`;

/** The page's table (docs/cost-model.md), one row per scale. */
export function costTable(scales: readonly number[] = [10_000, 100_000, 1_000_000]): string {
  const header = '| learners | DynamoDB requests | audit storage | Lambda | SES | SQS | API Gateway | logs | total / month |';
  const rows = scales.map((learners) => {
    const c = monthlyCost(learners);
    return `| ${learners.toLocaleString('en-US')} | ${[c.dynamodb, c.auditStorage, c.lambda, c.ses, c.sqs, c.apiGateway, c.logs, c.total].map(dollars).join(' | ')} |`;
  });
  return [header, '|---|---|---|---|---|---|---|---|---|', ...rows].join('\n');
}
