/**
 * cdk.json's "build": the CDK CLI runs it before every synthesis (synth, diff, deploy,
 * bootstrap, destroy), so the Site's BucketDeployment always ships the SPA of this checkout,
 * built fresh, a fresh clone included. A folder already built from exactly the same inputs
 * (infra/site-build-digest.ts) is kept as it is: a second `cdk diff` or `deploy` does not
 * rebuild an unchanged SPA.
 */
import { build } from 'vite';
import { builtFrom, recordBuild, siteBuildDigest } from './site-build-digest';
import { siteDirectory, VITE_CONFIG } from './site-directory';

const outDir = siteDirectory();
const digest = siteBuildDigest(outDir);
if (builtFrom(outDir, digest)) {
  console.error(`The SPA in ${outDir} is built from these sources already: kept.`);
} else {
  await build({ configFile: VITE_CONFIG, build: { outDir }, logLevel: 'warn' });
  recordBuild(outDir, digest);
}
