/** The contract's limit on a turn's `content`: 1 MiB of UTF-8. */
export const TURN_CONTENT_LIMIT_BYTES = 1024 * 1024;

function marker(omittedBytes: number): string {
  return `\n\n[… truncated by laneboard capture: ${omittedBytes} bytes omitted]`;
}

/**
 * Cuts `content` to at most `limit` bytes of UTF-8 including a visible marker saying how much was left
 * out. The cut never splits a character.
 */
export function truncateContent(content: string, limit = TURN_CONTENT_LIMIT_BYTES): string {
  const bytes = Buffer.from(content, 'utf8');
  if (bytes.length <= limit) return content;
  // The marker's length depends on the number it carries; reserve for the widest it can be.
  let end = limit - Buffer.byteLength(marker(bytes.length), 'utf8');
  // Step back off continuation bytes (10xxxxxx) so the kept part ends on a whole character.
  while (end > 0 && ((bytes[end] as number) & 0xc0) === 0x80) end--;
  return bytes.subarray(0, end).toString('utf8') + marker(bytes.length - end);
}
