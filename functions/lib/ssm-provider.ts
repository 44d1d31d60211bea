import { SSMClient } from '@aws-sdk/client-ssm';
import { SSMProvider } from '@aws-lambda-powertools/parameters/ssm';

/** The SSM part of functions/lib/parameters.ts, imported on the first parameter read. */
export const createSsmProvider = () => new SSMProvider({ awsSdkV3Client: new SSMClient({}) });
