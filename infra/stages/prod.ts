import type { StageFile } from './stage-file';

/**
 * The prod stage's deploy settings, read by every `npx cdk … -c stage=prod` (infra/app.ts).
 *
 * Replace each `FILL IN` value with the deployment's own and commit the file: a prod synth refuses
 * to run while one is left, or while a value is an example domain, and names each one. `null` says
 * "none" on purpose. A setting left out takes the stack's default (infra/stack-defaults.ts); the
 * whole list and the checks are in infra/stages/stage-file.ts. `-c <name>=<value>` overrides one
 * value for one deploy, and the synth prints every value with where it came from.
 */
const prod: StageFile = {
  stage: 'prod',

  // Mail (README "SES sandbox"): the sender, and the domain SES verifies with DKIM (the stack
  // outputs its three CNAME records), or null to verify the sender address alone.
  mailFrom: 'FILL IN: the sender address, e.g. no-reply@learn.<your domain>',
  sesDomain: 'FILL IN: the sender domain, or null',

  // Alarms (docs/runbook.md#severities): every alarm, page and ticket goes to alarmEmail; pages
  // also to pageEmail (or null). Alarm emails link <runbookUrl>#<section>.
  alarmEmail: 'FILL IN: the team address for alarms',
  pageEmail: "FILL IN: a pager's address, or null",
  runbookUrl: 'FILL IN: https://<your git host>/<repository>/blob/main/docs/runbook.md',

  // The site's own name and its ACM certificate in us-east-1 (docs/runbook.md#custom-domain), or
  // null for both to serve the site on its *.cloudfront.net address.
  domainName: 'FILL IN: the site name, or null',
  certificateArn: 'FILL IN: its us-east-1 certificate ARN, or null',

  // The API's own domain behind mutual TLS, set up once (docs/runbook.md#api-origin).
  apiDomainName: 'FILL IN: the API name, e.g. api.learn.<your domain>',
  apiCertificateArn: "FILL IN: the API name's certificate ARN in the main region",
  apiTruststoreUri: 'FILL IN: s3://<bucket>/origin-ca.pem',
  originClientCertificateArn: "FILL IN: CloudFront's client certificate ARN in us-east-1",

  // The WAF IP set (CLOUDFRONT scope) the operator keeps to block addresses, or null
  // (docs/runbook.md#waf-rules-and-logs).
  blockedIpSetArn: 'FILL IN: the IP set ARN, or null',
};

export default prod;
