import { mkdtempSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { App } from 'aws-cdk-lib';
import { Template } from 'aws-cdk-lib/assertions';
import { describe, expect, it } from 'vitest';
import { buildStacks } from '../../infra/app-stacks';
import { TEST_API_ORIGIN } from './synth-stack';
import { asObjects, asString, at, maybeAt, resourceList } from './template';

/**
 * docs/security.md "Reset links and the `?token=` in the address": every address that carries a
 * token (the links the product mails, the pages they lead to and the API calls those pages make)
 * or an email address, where in it that rides, and that no log of the deployed stacks keeps it:
 * not the WAF logs, not CloudFront's access logs, not API Gateway's. (The functions' own request
 * lines: functions/lib/http-log-secrets.test.ts.)
 */
const REPO_ROOT = path.resolve(import.meta.dirname, '../..');

/** Every address the product mails with a token, and the file that builds it. All carry it in the query string. */
const MAILED_TOKEN_ADDRESSES = [
  { address: '/reset-password?token=', builtBy: 'functions/accounts/password-reset.ts' },
  { address: '/passkey-removal?token=', builtBy: 'functions/accounts/passkey-removal-link.ts' },
  // the reminder's "stop these reminders" link, in its body and its List-Unsubscribe header
  { address: '/api/notifications/unsubscribe?token=', builtBy: 'functions/program/remind-one.ts' },
  // where that link redirects a browser: the confirmation page
  { address: '/unsubscribe?token=', builtBy: 'functions/program/unsubscribe-routes.ts' },
];

/** The API's query parameters that carry a token or an email address, by route (functions/api-docs/openapi.json). */
const SECRET_QUERY_PARAMETERS: Record<string, string[]> = {
  'GET /api/auth/password-reset/validate': ['token'],
  'GET /api/notifications/unsubscribe': ['token'],
  'POST /api/notifications/unsubscribe': ['token'],
  'GET /api/notifications/subscription': ['token'],
  'POST /api/notifications/subscription': ['token'],
  // the hard delete's confirmation: the account's email address, typed by the admin
  'DELETE /api/admin/users/{id}': ['confirm_email'],
  // the admin's search: an email address or a name
  'GET /api/admin/users': ['query'],
  'GET /api/admin/users/export.csv': ['query'],
};
/** What a query parameter that carries a secret or personal data is named like. */
const SECRET_NAME = /token|email|query|secret|password|code/;

/** The source files of functions/, tests left out. */
function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) return sourceFiles(full);
    return entry.name.endsWith('.ts') && !entry.name.endsWith('.test.ts') ? [full] : [];
  });
}

/** Addresses the code builds with a token in them: `${…}/some/path?token=${…}` or `…/path/${token}`. */
function tokenAddressesInCode(): Array<{ address: string; builtBy: string }> {
  return sourceFiles(path.join(REPO_ROOT, 'functions')).flatMap((file) => {
    const text = readFileSync(file, 'utf8');
    const builtBy = path.relative(REPO_ROOT, file);
    const inQuery = [...text.matchAll(/\$\{[^`]*?\}(\/[\w\-/]*)\?token=\$\{/g)].map((m) => ({ address: `${m[1]}?token=`, builtBy }));
    const inPath = [...text.matchAll(/\$\{[^`]*?\}(\/[\w\-/]*)\/\$\{[^}]*token[^}]*\}/gi)].map((m) => ({
      address: `${m[1]}/<token>`,
      builtBy,
    }));
    return [...inQuery, ...inPath];
  });
}

const siteDir = mkdtempSync(path.join(tmpdir(), 'site-'));
writeFileSync(path.join(siteDir, 'index.html'), '<!doctype html><title>test</title>');
const stacks = buildStacks(new App({ context: { 'aws:cdk:bundling-stacks': [] } }), {
  account: '123456789012',
  region: 'eu-west-1',
  props: { siteDir, apiCustomDomain: TEST_API_ORIGIN },
});
const edge = Template.fromStack(stacks.edge);
const main = Template.fromStack(stacks.main);
const companion = Template.fromStack(stacks.logs!);

describe('addresses that carry a token or an email address', () => {
  it('are all listed: every token link the code builds, every secret query parameter of the API', () => {
    expect(tokenAddressesInCode().sort((a, b) => a.address.localeCompare(b.address))).toEqual(
      [...MAILED_TOKEN_ADDRESSES].sort((a, b) => a.address.localeCompare(b.address)),
    );
    const openapi = JSON.parse(readFileSync(path.join(REPO_ROOT, 'functions/api-docs/openapi.json'), 'utf8')) as {
      paths: Record<string, Record<string, { parameters?: Array<{ name: string; in: string }> }>>;
    };
    const secretParameters: Record<string, string[]> = {};
    for (const [route, operations] of Object.entries(openapi.paths))
      for (const [method, operation] of Object.entries(operations)) {
        const names = (operation.parameters ?? []).filter((p) => p.in === 'query' && SECRET_NAME.test(p.name)).map((p) => p.name);
        if (names.length) secretParameters[`${method.toUpperCase()} ${route}`] = names;
      }
    expect(secretParameters).toEqual(SECRET_QUERY_PARAMETERS);
  });

  it('carry it in the query string, never in the path (which the logs keep)', () => {
    for (const { address } of MAILED_TOKEN_ADDRESSES) expect(new URL(address, 'https://learn.example.org').search).toBe('?token=');
    for (const route of Object.keys(SECRET_QUERY_PARAMETERS)) expect(route).not.toMatch(/token|email/);
  });
});

describe('no log keeps them', () => {
  it('the WAF logs redact the query string and the Referer (a request made from such a page carries its address)', () => {
    const [logging] = resourceList(edge, 'AWS::WAFv2::LoggingConfiguration');
    const redacted = asObjects(logging.Properties.RedactedFields, 'RedactedFields');
    expect(redacted).toContainEqual({ QueryString: {} });
    expect(redacted).toContainEqual({ SingleHeader: { Name: 'referer' } });
  });

  it("CloudFront's access logs leave out the query string and the Referer, and its legacy logging (which keeps both) is off", () => {
    const [delivery] = resourceList(companion, 'AWS::Logs::Delivery');
    const fields = delivery.Properties.RecordFields as string[];
    expect(fields.length).toBeGreaterThan(10);
    expect(fields).not.toContain('cs-uri-query');
    expect(fields).not.toContain('cs(Referer)');
    const [distribution] = resourceList(main, 'AWS::CloudFront::Distribution');
    expect(maybeAt(distribution.Properties, 'DistributionConfig', 'Logging')).toBeUndefined();
  });

  it("API Gateway's access log holds no query string, raw path or header", () => {
    const [stage] = resourceList(main, 'AWS::ApiGatewayV2::Stage');
    const format = JSON.parse(asString(at(stage.Properties, 'AccessLogSettings', 'Format'), 'Format')) as Record<string, string>;
    const variables = Object.values(format).flatMap((value) => [...value.matchAll(/\$context\.([\w.]+)/g)].map((m) => m[1]));
    expect(variables).toContain('routeKey');
    for (const variable of variables) expect(variable).not.toMatch(/query|header|path|uri|referer|^request\./i);
  });
});
