import { Logger } from '@aws-lambda-powertools/logger';

/** Structured JSON logs; one logger per process, the service name set by the group entry. */
export const logger = new Logger({
  serviceName: process.env.POWERTOOLS_SERVICE_NAME ?? 'career-program',
  logLevel: (process.env.LOG_LEVEL as 'INFO' | 'DEBUG' | 'WARN' | 'ERROR' | 'SILENT' | undefined) ?? 'INFO',
});
