import type { StageFile } from './stage-file';

/**
 * The dev stage's deploy settings, read by every `npx cdk … -c stage=dev` (infra/app.ts). dev
 * needs none: it deploys as is, sending from the stack's placeholder sender (no mail arrives until
 * `mailFrom` names an address SES has verified) and serving the API on its execute-api address.
 * Any setting of infra/stages/stage-file.ts may be added here, e.g.
 *   mailFrom: 'no-reply@dev.learn.<your domain>',
 *   emailAllowlist: 'you@<your domain>',
 *   alarmEmail: 'you@<your domain>',
 * and `-c <name>=<value>` overrides one for one deploy.
 */
const dev: StageFile = {
  stage: 'dev',
};

export default dev;
