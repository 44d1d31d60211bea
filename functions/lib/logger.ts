import { Logger } from '@aws-lambda-powertools/logger';
import { runtimeEnv } from './config';

/** Structured JSON logs; one logger per process, the service name set by the group entry. */
export const logger = new Logger({
  serviceName: runtimeEnv().serviceName,
  logLevel: runtimeEnv().logLevel,
});
