import { existsSync } from 'node:fs';
import type { TestProject } from 'vitest/node';
import { startRuntimeProcess } from './runtime-process';

declare module 'vitest' {
  export interface ProvidedContext {
    appUrl: string;
    directApiUrl: string;
    sesUrl: string;
    adminEmail: string;
    adminPassword: string;
  }
}

/** One local runtime (as `npm start` runs it) for the whole end-to-end run. */
export default async function setup(project: TestProject) {
  if (!existsSync('web/dist/index.html')) throw new Error('web/dist is missing: run `npm run build:web` first (npm test does).');
  const runtime = await startRuntimeProcess();
  project.provide('appUrl', runtime.appUrl);
  project.provide('directApiUrl', runtime.directApiUrl);
  project.provide('sesUrl', runtime.sesUrl);
  project.provide('adminEmail', runtime.env.ADMIN_EMAIL);
  project.provide('adminPassword', runtime.env.ADMIN_PASSWORD);
  return () => runtime.stop();
}
