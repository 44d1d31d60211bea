/**
 * cdk.json's "build": the CDK CLI runs it before every synthesis (synth, diff, deploy,
 * bootstrap, destroy), so the Site's BucketDeployment always ships the SPA of this checkout,
 * built fresh, a fresh clone included.
 */
import { build } from 'vite';
import { siteDirectory, VITE_CONFIG } from './site-directory';

await build({ configFile: VITE_CONFIG, build: { outDir: siteDirectory() }, logLevel: 'warn' });
