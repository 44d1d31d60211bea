import { randomBytes } from 'node:crypto';
import { ConditionalCheckFailedException } from '@aws-sdk/client-dynamodb';
import { DeleteCommand, TransactWriteCommand } from '@aws-sdk/lib-dynamodb';
import { appUrl } from '../lib/app-url';
import { config } from '../lib/config';
import { db, tableName } from '../lib/db';
import { badRequest } from '../lib/errors';
import { keys, ttlIn } from '../lib/table';
import { nowSeconds } from '../lib/clock';
import { isRandomId } from '../../shared/key-values';

/**
 * WebAuthn challenges of the passkey ceremonies (docs/security.md#account-security-center): WEBAUTHN#<id> /
 * CHALLENGE, 5-minute TTL, deleted by the request that uses them (a conditional delete returning
 * the old item: single use even under concurrent requests).
 *
 * The library (@simplewebauthn/server, through ./webauthn.ts, which also limits the attestations
 * accepted to those without certificates) is loaded on first use only, so the other routes do not
 * pay for it at start.
 */
export const CHALLENGE_TTL_SECONDS = 5 * 60;

/** What a challenge is for: adding a passkey, signing in, or confirming it's you with a passkey. */
export type ChallengePurpose = 'register' | 'login' | 'confirm';

export const webauthn = () => import('./webauthn');

/** The relying party: configured, or the app's own address (localhost locally, CloudFront or a custom domain). */
export async function relyingParty(): Promise<{ rpID: string; origin: string }> {
  const cfg = config();
  const app = new URL(await appUrl());
  return { rpID: cfg.webauthnRpId ?? app.hostname, origin: cfg.webauthnOrigin ?? app.origin };
}

export async function storeChallenge(purpose: ChallengePurpose, challenge: string, userId?: string): Promise<string> {
  const challengeId = randomBytes(18).toString('base64url');
  await db().send(
    new TransactWriteCommand({
      TransactItems: [
        {
          Put: {
            TableName: tableName(),
            Item: {
              ...keys.webauthnChallenge(challengeId),
              type: 'webauthn_challenge',
              purpose,
              challenge,
              ...(userId ? { user_id: userId } : {}),
              expires_at: ttlIn(CHALLENGE_TTL_SECONDS),
            },
            ConditionExpression: 'attribute_not_exists(pk)',
          },
        },
      ],
    }),
  );
  return challengeId;
}

/** Takes the challenge (single use): gone, expired, of another purpose or account → 400 `invalid_challenge`. */
export async function takeChallenge(challengeId: string, purpose: ChallengePurpose, userId?: string): Promise<string> {
  if (!isRandomId(challengeId)) throw badRequest('invalid_challenge');
  let item: Record<string, unknown> | undefined;
  try {
    const result = await db().send(
      new DeleteCommand({
        TableName: tableName(),
        Key: keys.webauthnChallenge(challengeId),
        ConditionExpression: 'attribute_exists(pk)',
        ReturnValues: 'ALL_OLD',
      }),
    );
    item = result.Attributes;
  } catch (error) {
    if (error instanceof ConditionalCheckFailedException) throw badRequest('invalid_challenge');
    throw error;
  }
  const expired = Number(item?.expires_at) <= nowSeconds();
  if (!item || expired || item.purpose !== purpose || (userId !== undefined && item.user_id !== userId))
    throw badRequest('invalid_challenge');
  return String(item.challenge);
}
