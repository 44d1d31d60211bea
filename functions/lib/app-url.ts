import { config } from './config';
import { checkLocalCall } from './local-twin';
import { readParameter } from './parameters';

/**
 * The public address of the site (links in emails, the CSRF Origin check). Locally it is the
 * APP_URL env var. In the cloud the Lambdas cannot take the CloudFront address as an env var
 * (the distribution depends on the API, which depends on the Lambdas), so the stack writes it to
 * an SSM parameter named by APP_URL_PARAMETER (read through Powertools Parameters, cached).
 */
export async function appUrl(): Promise<string> {
  const cfg = config();
  if (!cfg.appUrlParameter) {
    await checkLocalCall('ssm:GetParameter', { kind: 'parameter', name: 'app-url' });
    return cfg.appUrl;
  }
  return ((await readParameter(cfg.appUrlParameter)) ?? '').replace(/\/$/, '');
}
