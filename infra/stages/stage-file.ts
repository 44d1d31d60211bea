import * as z from 'zod';
import type { StageName } from '../stage';

/**
 * The deploy settings a stage file (infra/stages/<stage>.ts) holds, one per `-c <name>=<value>`
 * flag of infra/app.ts: its type, what it is for and whether prod needs it.
 *
 * - `required`: prod refuses to synthesize without a real value (a silent default would send
 *   mail from `example.com`, drop the alarm subscriptions or take the API off its domain).
 * - `decide`: prod refuses the setting left out; `null` says "none" on purpose (no custom domain,
 *   no WAF block list, …). Forgetting it would otherwise remove what the last deploy had.
 * - unmarked: optional everywhere; left out, the stack's default applies (infra/stack-defaults.ts).
 */
type Kind = 'string' | 'number' | 'boolean';
interface Spec {
  kind: Kind;
  schema: z.ZodType;
  about: string;
  prod?: 'required' | 'decide';
}

const email = z.email({ message: 'an email address' });
const domain = z.string().regex(/^(?=.{1,253}$)([a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?\.)+[a-z]{2,63}$/i, { message: 'a domain name' });
const arn = z.string().regex(/^arn:aws[a-z-]*:[a-z0-9-]+:/, { message: 'an ARN (arn:aws:…)' });
const https = z.url({ protocol: /^https$/, message: 'an https:// URL' });
const positive = z.number().positive({ message: 'a positive number' });
const whole = z.number().int().positive({ message: 'a positive whole number' });
const string = (about: string, schema: z.ZodType = z.string().min(1), prod?: Spec['prod']) => ({
  kind: 'string' as const,
  schema,
  about,
  prod,
});
const number = (about: string, schema: z.ZodType = positive) => ({ kind: 'number' as const, schema, about, prod: undefined });
const flag = (about: string) => ({ kind: 'boolean' as const, schema: z.boolean(), about, prod: undefined });

export const SETTINGS = {
  mailFrom: string('the sender address of every email', email, 'required'),
  sesDomain: string('the domain SES verifies (DKIM), or null to verify the mailFrom address alone', domain, 'decide'),
  sesIdentityExists: flag('the SES identity is already in the account: use it by name'),
  supportEmail: string('an address a person reads (default support@ the sender domain)', email),
  emailAllowlist: string('comma-separated addresses: mail goes to these only (a staging safety net)'),
  alarmEmail: string('receives every alarm, page and ticket', email, 'required'),
  pageEmail: string("also receives the paging alarms (a pager's address), or null", email, 'decide'),
  runbookUrl: string('where docs/runbook.md is read: alarm emails link its sections', https, 'required'),
  domainName: string("the site's own name (with certificateArn), or null for the *.cloudfront.net address", domain, 'decide'),
  certificateArn: string("the site name's ACM certificate in us-east-1, or null", arn, 'decide'),
  apiDomainName: string("the API's own name behind mutual TLS", domain, 'required'),
  apiCertificateArn: string("the API name's ACM certificate in the main region", arn, 'required'),
  apiTruststoreUri: string(
    "s3://<bucket>/<key> of the origin CA's certificate",
    z.string().regex(/^s3:\/\/[^/]+\/.+/, 's3://bucket/key'),
    'required',
  ),
  apiTruststoreVersion: string("the truststore object's S3 version"),
  originClientCertificateArn: string("CloudFront's client certificate, ACM in us-east-1", arn, 'required'),
  executeApiEndpoint: flag('serve the API on its execute-api address too (default: dev yes, prod no)'),
  viewerIpv6: flag('the site answers over IPv6 too'),
  apiRollout: string(
    "how the API functions' new code goes live: canary (10 % for 15 minutes, rolled back on alarm) or all-at-once (a fix while the 5xx alarm fires)",
    z.enum(['canary', 'all-at-once']),
  ),
  previousSiteOrigins: string(
    'comma-separated https origins the API still accepts during a domain move (docs/runbook.md#custom-domain)',
    z.string().regex(/^https:\/\/[^/,\s]+(,https:\/\/[^/,\s]+)*$/, { message: 'comma-separated https://host origins' }),
  ),
  apiReservedConcurrency: number("each API function's reserved concurrency", whole),
  blockedIpSetArn: string('the WAF IP set (CLOUDFRONT scope) whose addresses are blocked, or null', arn, 'decide'),
  retentionDays: number('days between soft delete and hard delete', whole),
  auditRetentionDays: number('days audit entries are kept', whole),
  bulkSendShare: number("percent of SES's rate and quota the reminders may take"),
  mailReservedShare: number("percent of SES's rate and quota kept for sign-in codes and notices"),
  reminderWorkers: number('reminder workers at once', whole),
  expectedDailyReminders: number('reminders due on a busy day', whole),
  sesSendRate: number("SES's account send rate, emails a second"),
  originSecretVersion: string('the VersionId of the origin secret CloudFront sends'),
  monthlyBudgetUsd: number('the monthly cost budget, US dollars'),
  tableMaxReadUnits: number("the table's maximum read units a second", whole),
  tableMaxWriteUnits: number("the table's maximum write units a second", whole),
  indexMaxReadUnits: number("each index's maximum read units a second", whole),
  indexMaxWriteUnits: number("each index's maximum write units a second", whole),
  logIngestionGbPerHour: number('CloudWatch Logs GB an hour whose 3-hour run is a runaway'),
} satisfies Record<string, Spec>;

export type SettingName = keyof typeof SETTINGS;
type ValueOf<K extends Kind> = K extends 'string' ? string : K extends 'number' ? number : boolean;

/** What a setting holds: its value, or null for "none" on purpose. */
export type StageValues = { [K in SettingName]?: ValueOf<(typeof SETTINGS)[K]['kind']> | null };

/** A stage file's default export. */
export type StageFile = { stage: StageName } & StageValues;

/** The API's own domain is required in prod unless the stage serves the API on its execute-api address instead. */
export const API_ORIGIN_SETTINGS = ['apiDomainName', 'apiCertificateArn', 'apiTruststoreUri', 'originClientCertificateArn'] as const;

/**
 * How the repository's prod file marks a value the operator has to write: a string starting with
 * these words, followed by what to write. Refused in prod, as `example.com` and the like are.
 */
export const FILL_IN = 'FILL IN';

/**
 * A placeholder a real deploy must not carry: a FILL IN marker, a documentation domain
 * (example.com/.org/.net, the .example top-level domain; RFC 2606) or the AWS documentation's
 * account number 111122223333.
 */
export function placeholderIn(value: string): string | undefined {
  if (value.trim().toUpperCase().startsWith(FILL_IN)) return 'still a placeholder';
  if (/(^|[@./])example\.(com|org|net)($|[/:?#])/i.test(value) || /\.example($|[/:?#])/i.test(value))
    return 'an example domain, refused in prod';
  if (/(^|\D)111122223333(\D|$)/.test(value)) return "the AWS documentation's example account, refused in prod";
  return undefined;
}
