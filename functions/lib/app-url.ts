import { GetParameterCommand, SSMClient } from '@aws-sdk/client-ssm';

/**
 * The public address of the site (links in emails, the CSRF Origin check). Locally it is the
 * APP_URL env var. In the cloud the Lambdas cannot take the CloudFront address as an env var
 * (the distribution depends on the API, which depends on the Lambdas), so the stack writes it to
 * an SSM parameter named by APP_URL_PARAMETER, read once per cold start.
 */
let cached: Promise<string> | undefined;
const ssm = new SSMClient({});

export function appUrl(): Promise<string> {
  cached ??= (async () => {
    if (process.env.APP_URL) return process.env.APP_URL.replace(/\/$/, '');
    const name = process.env.APP_URL_PARAMETER;
    if (!name) return 'http://localhost:3000';
    const result = await ssm.send(new GetParameterCommand({ Name: name }));
    return (result.Parameter?.Value ?? '').replace(/\/$/, '');
  })();
  cached.catch(() => (cached = undefined));
  return cached;
}
