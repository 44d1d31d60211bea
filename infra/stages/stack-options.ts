import type { CareerProgramStackProps } from '../stack';
import type { ResolvedStage } from './resolve-settings';

const some = <T>(value: T | null | undefined): T | undefined => value ?? undefined;

/** buildStacks' options (infra/app-stacks.ts) from a stage's checked settings, the site directory apart. */
export function stackOptions(resolved: ResolvedStage): { blockedIpSetArn?: string; props: CareerProgramStackProps } {
  const v = resolved.values;
  return {
    blockedIpSetArn: some(v.blockedIpSetArn),
    props: {
      stage: resolved.stage,
      mailFrom: some(v.mailFrom),
      supportEmail: some(v.supportEmail),
      sesDomain: some(v.sesDomain),
      sesIdentityExists: v.sesIdentityExists ?? false,
      emailAllowlist: some(v.emailAllowlist),
      alarmEmail: some(v.alarmEmail),
      pageEmail: some(v.pageEmail),
      runbookUrl: some(v.runbookUrl),
      // resolveStage has checked that these come together
      customDomain: v.domainName && v.certificateArn ? { domainName: v.domainName, certificateArn: v.certificateArn } : undefined,
      apiCustomDomain:
        v.apiDomainName && v.apiCertificateArn && v.apiTruststoreUri && v.originClientCertificateArn
          ? {
              domainName: v.apiDomainName,
              certificateArn: v.apiCertificateArn,
              truststoreUri: v.apiTruststoreUri,
              truststoreVersion: some(v.apiTruststoreVersion),
              clientCertificateArn: v.originClientCertificateArn,
            }
          : undefined,
      executeApiEndpoint: some(v.executeApiEndpoint),
      viewerIpv6: some(v.viewerIpv6),
      apiRollout: some(v.apiRollout) as CareerProgramStackProps['apiRollout'],
      previousSiteOrigins: v.previousSiteOrigins ? v.previousSiteOrigins.split(',') : undefined,
      apiReservedConcurrency: some(v.apiReservedConcurrency),
      retentionDays: some(v.retentionDays),
      auditRetentionDays: some(v.auditRetentionDays),
      bulkSendShare: some(v.bulkSendShare),
      mailReservedShare: some(v.mailReservedShare),
      reminderWorkers: some(v.reminderWorkers),
      expectedDailyReminders: some(v.expectedDailyReminders),
      sesSendRate: some(v.sesSendRate),
      originSecretVersion: some(v.originSecretVersion),
      monthlyBudgetUsd: some(v.monthlyBudgetUsd),
      tableMaxReadUnits: some(v.tableMaxReadUnits),
      tableMaxWriteUnits: some(v.tableMaxWriteUnits),
      indexMaxReadUnits: some(v.indexMaxReadUnits),
      indexMaxWriteUnits: some(v.indexMaxWriteUnits),
      logIngestionGbPerHour: some(v.logIngestionGbPerHour),
    },
  };
}
