/**
 * What the CloudWatch Synthetics canary (infra/constructs/site-canary.ts) asks of the site, every
 * five minutes, through CloudFront as a learner's browser does: the SPA's page, the API's health
 * (Lambda and DynamoDB) and one anonymous API call (a certificate check of a code no certificate
 * has: the auth Lambda reads the table and answers its own 404). A 403 there means the origin
 * guard refuses CloudFront; a 502/504 an API that does not answer; either fails the run.
 *
 * Bundled to one CommonJS file at synth time (esbuild), so it imports nothing the canary runtime
 * lacks: plain `fetch` and no Synthetics library, a run passes when the handler returns.
 */
export interface SiteCheck {
  name: string;
  path: string;
  status: number;
  /** What the answer's body must show; a reason when it does not. */
  verify: (body: string, contentType: string) => string | undefined;
}

/** A well-formed certificate code that is never issued (codes are random): the API answers 404. */
export const UNISSUED_CERTIFICATE_CODE = '0000-0000-0000';

const jsonField = (body: string, field: string): unknown => {
  try {
    return (JSON.parse(body) as Record<string, unknown>)[field];
  } catch {
    return undefined;
  }
};

export const SITE_CHECKS: SiteCheck[] = [
  {
    name: 'site',
    path: '/',
    status: 200,
    verify: (body, contentType) =>
      contentType.startsWith('text/html') && body.includes('<div id="root">') ? undefined : 'not the SPA page (no root element)',
  },
  {
    name: 'api-health',
    path: '/api/health',
    status: 200,
    verify: (body) => (jsonField(body, 'ok') === true ? undefined : 'no { ok: true }'),
  },
  {
    name: 'api-certificate-check',
    path: `/api/certificates/${UNISSUED_CERTIFICATE_CODE}`,
    status: 404,
    verify: (body) => (jsonField(body, 'error') === 'certificate_not_found' ? undefined : 'not the API\'s "certificate_not_found"'),
  },
];

/** Each check once, in order; throws with every check that failed (the run fails). */
export async function checkSite(siteUrl: string, fetchImpl: typeof fetch = fetch): Promise<string[]> {
  const failures: string[] = [];
  const passed: string[] = [];
  for (const check of SITE_CHECKS) {
    try {
      const response = await fetchImpl(new URL(check.path, siteUrl), { redirect: 'manual', signal: AbortSignal.timeout(10_000) });
      const body = await response.text();
      const problem =
        response.status === check.status
          ? check.verify(body, response.headers.get('content-type') ?? '')
          : `status ${response.status}, expected ${check.status}`;
      if (problem) failures.push(`${check.name} (${check.path}): ${problem}`);
      else passed.push(check.name);
    } catch (error) {
      failures.push(`${check.name} (${check.path}): ${error instanceof Error ? error.message : String(error)}`);
    }
  }
  if (failures.length) throw new Error(`site check failed: ${failures.join('; ')}`);
  return passed;
}

/** The canary's entry point (handler `index.handler`): SITE_URL is the distribution's https address. */
export async function handler(): Promise<string> {
  const siteUrl = process.env.SITE_URL;
  if (!siteUrl) throw new Error('SITE_URL is not set');
  const passed = await checkSite(siteUrl);
  return `passed: ${passed.join(', ')}`;
}
