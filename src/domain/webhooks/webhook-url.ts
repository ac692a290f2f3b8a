import { judgeWebhookUrl, type UrlPolicy } from '../../lib/net/url-guard.js';
import { invalid } from '../errors.js';

export type { HostResolver, UrlPolicy } from '../../lib/net/url-guard.js';

/** The webhook URL normalised, or validation_error naming `url` with the guard's reason. */
export async function checkWebhookUrl(input: string, policy: UrlPolicy): Promise<string> {
  const verdict = await judgeWebhookUrl(input, policy);
  if (!verdict.accepted) throw invalid('url', verdict.reason);
  return verdict.url;
}
