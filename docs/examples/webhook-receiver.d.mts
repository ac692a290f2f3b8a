// Types for webhook-receiver.mjs, so TypeScript code (and this project's tests) can import it.
import type { IncomingHttpHeaders, Server } from 'node:http';

export interface LaneboardEvent {
  id: string;
  type: string;
  timestamp: string;
  data: Record<string, unknown>;
}

type Headers = IncomingHttpHeaders | Record<string, string | undefined>;

export function verifyServiceSignature(secret: string, rawBody: string, header: string | undefined): boolean;
export function verifyStandardSignature(
  secret: string,
  rawBody: string,
  headers: Headers,
  nowSeconds?: number,
): boolean;
export function verifyDelivery(
  secret: string,
  rawBody: string,
  headers: Headers,
  nowSeconds?: number,
): LaneboardEvent | null;
export function createReceiver(secret: string, handle: (event: LaneboardEvent) => void): Server;
