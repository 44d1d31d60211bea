import { App, Validations } from 'aws-cdk-lib';
import { buildStacks } from './app-stacks';
import { nagPacks } from './nag-packs';
import { siteDirectory } from './site-directory';

/**
 * CDK entry (cdk.json). Settings come from context, e.g.
 *   npx cdk deploy --all -c mailFrom=no-reply@example.org -c sesDomain=example.org -c emailAllowlist=a@x.org
 *   npx cdk deploy --all -c stage=dev -c alarmEmail=ops@example.org -c runbookUrl=https://…/docs/runbook.md
 *   (mail: -c bulkSendShare=<percent of SES's rate and quota> -c mailReservedShare=<percent kept for sign-in codes and notices>
 *    -c reminderWorkers=<workers at once>
 *    -c expectedDailyReminders=<reminders due on a busy day> -c sesSendRate=<SES's account emails/s>)
 */
const app = new App();
const context = (key: string): string | undefined => {
  const value: unknown = app.node.tryGetContext(key);
  if (value === undefined || value === null || value === '') return undefined;
  return typeof value === 'string' ? value : JSON.stringify(value);
};

const numberContext = (key: string): number | undefined => {
  const value = context(key);
  if (value === undefined) return undefined;
  const number = Number(value);
  if (!Number.isFinite(number) || number <= 0) throw new Error(`-c ${key} must be a positive number, got "${value}"`);
  return number;
};

/** `-c <name>=… -c <certificate>=…`: both or neither. */
const customDomain = (name: string, certificate: string) => {
  const domainName = context(name);
  const certificateArn = context(certificate);
  if (Boolean(domainName) !== Boolean(certificateArn)) throw new Error(`-c ${name} and -c ${certificate} go together`);
  return domainName && certificateArn ? { domainName, certificateArn } : undefined;
};

/** `-c <key>=true|false`; unset: undefined (the stage's default). */
const booleanContext = (key: string): boolean | undefined => {
  const value = context(key);
  if (value === undefined) return undefined;
  if (value !== 'true' && value !== 'false') throw new Error(`-c ${key} must be true or false, got "${value}"`);
  return value === 'true';
};

/**
 * The API's own domain behind origin mutual TLS (docs/runbook.md#api-origin): its name and
 * regional certificate, the truststore holding the CA, and CloudFront's client certificate, all
 * or none (the truststore's S3 version is optional).
 */
const apiOrigin = () => {
  const domain = customDomain('apiDomainName', 'apiCertificateArn');
  const truststoreUri = context('apiTruststoreUri');
  const clientCertificateArn = context('originClientCertificateArn');
  const mtls = [truststoreUri, clientCertificateArn].filter(Boolean).length;
  if (!domain && !mtls) return undefined;
  if (!domain || mtls < 2)
    throw new Error(
      '-c apiDomainName, -c apiCertificateArn, -c apiTruststoreUri and -c originClientCertificateArn go together: the API ' +
        "domain's name is public (Certificate Transparency logs), so only CloudFront's client certificate may pass (docs/runbook.md#api-origin)",
    );
  return {
    ...domain,
    truststoreUri: truststoreUri!,
    truststoreVersion: context('apiTruststoreVersion'),
    clientCertificateArn: clientCertificateArn!,
  };
};

buildStacks(app, {
  account: process.env.CDK_DEFAULT_ACCOUNT,
  region: process.env.CDK_DEFAULT_REGION,
  // -c blockedIpSetArn=<ARN of a CLOUDFRONT IP set the operator keeps> (docs/runbook.md#waf-rules-and-logs)
  blockedIpSetArn: context('blockedIpSetArn'),
  props: {
    // built by cdk.json's "build" before every synthesis (infra/build-site.ts)
    siteDir: siteDirectory(),
    // -c stage=dev|prod (infra/stage.ts): prod keeps the established stack names; dev gets its own.
    stage: context('stage') as never,
    alarmEmail: context('alarmEmail'),
    // -c pageEmail=<pager's email>: the paging alarms also go there (docs/runbook.md#severities)
    pageEmail: context('pageEmail'),
    runbookUrl: context('runbookUrl'),
    // -c domainName=learn.example.org -c certificateArn=<ACM certificate in us-east-1> (docs/runbook.md#custom-domain)
    customDomain: customDomain('domainName', 'certificateArn'),
    // -c apiDomainName=api.learn.example.org -c apiCertificateArn=<ACM certificate in the main region>
    // -c apiTruststoreUri=s3://<bucket>/origin-ca.pem [-c apiTruststoreVersion=<S3 version>]
    // -c originClientCertificateArn=<CloudFront's client certificate, ACM in us-east-1> (docs/runbook.md#api-origin)
    apiCustomDomain: apiOrigin(),
    // -c executeApiEndpoint=true|false: serve the API on its execute-api address when it has no domain (default: dev yes, prod no)
    executeApiEndpoint: booleanContext('executeApiEndpoint'),
    // -c viewerIpv6=true: the site answers over IPv6 too (docs/security.md#edge-and-api-throttles)
    viewerIpv6: booleanContext('viewerIpv6'),
    // -c apiReservedConcurrency=<n>: each API function's reserved concurrency (docs/runbook.md#api-origin)
    apiReservedConcurrency: numberContext('apiReservedConcurrency'),
    mailFrom: context('mailFrom'),
    // where learners can write to a person (the Reply-To of the deletion confirmation); default support@<mailFrom's domain>
    supportEmail: context('supportEmail'),
    sesDomain: context('sesDomain'),
    // -c sesIdentityExists=true: the identity is already in the account (verified by hand, or another stage's)
    sesIdentityExists: context('sesIdentityExists') === 'true',
    emailAllowlist: context('emailAllowlist'),
    retentionDays: context('retentionDays') ? Number(context('retentionDays')) : undefined,
    auditRetentionDays: context('auditRetentionDays') ? Number(context('auditRetentionDays')) : undefined,
    // the workers follow SES's account rate (GetAccount); more workers as it grows: -c reminderWorkers=10
    bulkSendShare: context('bulkSendShare') ? Number(context('bulkSendShare')) : undefined,
    // the share of SES's quota and rate kept for sign-in codes and security notices (docs/security.md#outbound-mail-budget)
    mailReservedShare: numberContext('mailReservedShare'),
    reminderWorkers: context('reminderWorkers') ? Number(context('reminderWorkers')) : undefined,
    // reminders due on a busy day: the reminder queue's age alarm allows their drain time at the send rate
    expectedDailyReminders: context('expectedDailyReminders') ? Number(context('expectedDailyReminders')) : undefined,
    sesSendRate: context('sesSendRate') ? Number(context('sesSendRate')) : undefined,
    // after `aws secretsmanager put-secret-value` on the origin secret: its VersionId (docs/runbook.md)
    originSecretVersion: context('originSecretVersion'),
    // cost guardrails (docs/runbook.md#cost-guardrails): -c monthlyBudgetUsd=<USD> -c tableMaxWriteUnits=<units/s> …
    monthlyBudgetUsd: numberContext('monthlyBudgetUsd'),
    tableMaxReadUnits: numberContext('tableMaxReadUnits'),
    tableMaxWriteUnits: numberContext('tableMaxWriteUnits'),
    indexMaxReadUnits: numberContext('indexMaxReadUnits'),
    indexMaxWriteUnits: numberContext('indexMaxWriteUnits'),
    logIngestionGbPerHour: numberContext('logIngestionGbPerHour'),
  },
});

// cdk-nag v3 runs as policy-validation plugins (infra/nag-packs.ts).
Validations.of(app).addPlugins(...nagPacks(app));
