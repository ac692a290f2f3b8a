/** The JSON body of every delivery, stored once per event and sent byte-for-byte on every attempt. */
export interface WebhookEventPayload {
  id: string;
  type: string;
  timestamp: string;
  data: Record<string, unknown>;
}
