import { writeFileSync } from 'node:fs';
import path from 'node:path';
import prod from '../../infra/stages/prod';
import { FILL_IN, type StageValues } from '../../infra/stages/stage-file';

/**
 * What an operator writes over the FILL IN values of infra/stages/prod.ts, for the tests: names
 * under the reserved `.test` domain (never an example domain, which prod refuses), no custom site
 * name, no pager, no WAF block list.
 */
export const FILLED_PROD: StageValues = {
  mailFrom: 'no-reply@learn.career.test',
  sesDomain: 'learn.career.test',
  alarmEmail: 'ops@career.test',
  pageEmail: null,
  runbookUrl: 'https://git.career.test/career-program/blob/main/docs/runbook.md',
  domainName: null,
  certificateArn: null,
  apiDomainName: 'api.learn.career.test',
  apiCertificateArn: 'arn:aws:acm:eu-west-1:123456789012:certificate/api-certificate',
  apiTruststoreUri: 's3://career-origin-truststore/origin-ca.pem',
  originClientCertificateArn: 'arn:aws:acm:us-east-1:123456789012:certificate/origin-client-certificate',
  blockedIpSetArn: null,
};

/** The repository's prod file with each FILL IN value replaced from FILLED_PROD; its own values stay. */
export function filledProdFile(): Record<string, unknown> {
  return Object.fromEntries(
    Object.entries(prod).map(([key, value]) => {
      if (typeof value !== 'string' || !value.startsWith(FILL_IN)) return [key, value];
      if (!(key in FILLED_PROD)) throw new Error(`infra/stages/prod.ts asks to fill in ${key}: FILLED_PROD has no test value for it`);
      return [key, FILLED_PROD[key as keyof StageValues]];
    }),
  );
}

/** filledProdFile() written as a stage file in `dir`, for `-c settingsFile=<path>`. */
export function writeFilledProdFile(dir: string): string {
  const file = path.join(dir, 'prod.ts');
  writeFileSync(file, `export default ${JSON.stringify(filledProdFile(), null, 2)};\n`);
  return file;
}
