import { logger } from '../lib/logger';

/**
 * Scheduled reminders Lambda (EventBridge). The program issue implements the job itself;
 * until then it only records that it ran.
 */
export const handler = async () => {
  logger.warn('reminders job: not implemented yet');
  return { sent: 0 };
};
