import type { TestProject } from 'vitest/node';
import { freePort, startDynamoDbLocal, startSesLocal, stopChild } from '../../infra/local/processes';

declare module 'vitest' {
  export interface ProvidedContext {
    dynamodbEndpoint: string;
    sesEndpoint: string;
  }
}

/** Starts one in-memory DynamoDB Local and one local SES for the whole run (each on a free port). */
export default async function setup(project: TestProject) {
  const dynamodbPort = await freePort();
  const sesPort = await freePort();
  const dynamo = await startDynamoDbLocal(dynamodbPort, undefined);
  const ses = await startSesLocal(sesPort);
  project.provide('dynamodbEndpoint', `http://127.0.0.1:${dynamodbPort}`);
  project.provide('sesEndpoint', `http://127.0.0.1:${sesPort}`);
  return async () => {
    await ses.close();
    await stopChild(dynamo, dynamodbPort);
  };
}
