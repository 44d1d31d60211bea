import { mkdirSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { TestProject } from 'vitest/node';
import { freePort, startDynamoDbLocal, startSesLocal, stopChild, TEST_DATABASE_JVM_OPTIONS } from '../../infra/local/processes';
import { formatReport, grantsReport, readRecords } from '../../infra/local/iam/grants-report';
import { loadIamModel } from '../../infra/local/iam/load-model';

declare module 'vitest' {
  export interface ProvidedContext {
    /** One DynamoDB Local per worker (test/helpers/integration-setup.ts claims a free one per file). */
    dynamodbEndpoints: string[];
    /** Where a test file claims its DynamoDB Local (one claim file per endpoint, test/helpers/dynamodb-claim.ts). */
    dynamodbClaimDir: string;
    sesEndpoint: string;
    /** The IAM twin's model of the synthesized stack (infra/local/iam), as a JSON file. */
    iamModelFile: string;
    /** Where each test process records the grants its calls used and the calls the twin denied. */
    iamRecordDir: string;
  }
}

const INTEGRATION_DIR = path.resolve(import.meta.dirname, '../integration');

/**
 * Starts one in-memory DynamoDB Local per worker and one local SES for the whole run (each on a
 * free port). DynamoDB Local answers one request at a time per database, so files that share one
 * wait on each other's writes; a database per worker lets the workers run side by side.
 * and reads the stack's IAM roles once for the IAM twin every test process installs
 * (test/helpers/integration-setup.ts). At the end it reports the grants the run used: any call
 * the twin denied fails the run, and so does, after a run of the whole integration suite, a grant
 * that nothing used (a grant broader than the code needs), unless AWS uses it on the function's
 * behalf (GRANTS_USED_BY_AWS in infra/constructs/app-function.ts).
 */
export default async function setup(project: TestProject) {
  const scratch = mkdtempSync(path.join(tmpdir(), 'iam-twin-'));
  const workers = Math.max(1, project.vitest.config.maxWorkers ?? 1);
  const [dynamodbPorts, sesPort, model] = await Promise.all([
    Promise.all(Array.from({ length: workers }, () => freePort())),
    freePort(),
    loadIamModel(),
  ]);
  const modelFile = path.join(scratch, 'model.json');
  writeFileSync(modelFile, JSON.stringify(model));
  const recordDir = path.join(scratch, 'records');
  const claimDir = path.join(scratch, 'dynamodb-claims');
  mkdirSync(claimDir);
  const dynamos = await Promise.all(dynamodbPorts.map((port) => startDynamoDbLocal(port, undefined, undefined, TEST_DATABASE_JVM_OPTIONS)));
  const ses = await startSesLocal(sesPort);
  project.provide(
    'dynamodbEndpoints',
    dynamodbPorts.map((port) => `http://127.0.0.1:${port}`),
  );
  project.provide('sesEndpoint', `http://127.0.0.1:${sesPort}`);
  project.provide('iamModelFile', modelFile);
  project.provide('iamRecordDir', recordDir);
  project.provide('dynamodbClaimDir', claimDir);
  return async () => {
    await ses.close();
    await Promise.all(dynamos.map((dynamo, i) => stopChild(dynamo, dynamodbPorts[i])));
    const report = grantsReport(model, readRecords(recordDir));
    // the whole report, for a person reading what each function used (docs/security.md)
    if (process.env.IAM_TWIN_REPORT_FILE) writeFileSync(process.env.IAM_TWIN_REPORT_FILE, JSON.stringify(report, null, 2));
    rmSync(scratch, { recursive: true, force: true });
    const ran = new Set(project.vitest.state.getFiles().map((file) => path.resolve(file.filepath)));
    const wholeSuite =
      project.name === 'integration' &&
      !project.vitest.config.testNamePattern &&
      readdirSync(INTEGRATION_DIR)
        .filter((file) => file.endsWith('.test.ts'))
        .every((file) => ran.has(path.join(INTEGRATION_DIR, file)));
    if (report.denied.length || (wholeSuite && report.unused.length)) throw new Error(formatReport(report));
    if (wholeSuite) console.log(formatReport(report));
  };
}
