/** What an agent passes a capture hook on stdin (the fields capture uses), whichever agent it is. */
export interface HookInput {
  transcriptPath: string;
  sessionId: string | null;
  cwd: string | null;
  hookEventName: string | null;
  /**
   * Claude Code's `Stop` carries the final answer's text (`last_assistant_message`): it is sent with this
   * run even when the transcript does not hold it yet.
   */
  lastAssistantMessage?: string | null;
}

export function optionalString(value: unknown): string | null {
  return typeof value === 'string' && value.length > 0 ? value : null;
}

/** The JSON object on stdin, or null when it is not one. */
export function parseObject(text: string): Record<string, unknown> | null {
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    return null;
  }
  if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) return null;
  return parsed as Record<string, unknown>;
}

/** Parses Claude Code's hook JSON; null when it is not JSON or names no transcript (nothing to capture). */
export function parseHookInput(text: string): HookInput | null {
  const fields = parseObject(text);
  const transcriptPath = optionalString(fields?.transcript_path);
  if (!fields || !transcriptPath) return null;
  const lastAssistantMessage = optionalString(fields.last_assistant_message);
  return {
    transcriptPath,
    sessionId: optionalString(fields.session_id),
    cwd: optionalString(fields.cwd),
    hookEventName: optionalString(fields.hook_event_name),
    ...(lastAssistantMessage ? { lastAssistantMessage } : {}),
  };
}

/**
 * Reads all of stdin, but gives up after `timeoutMs`: a hook run by hand on a terminal, or a parent that
 * never closes the pipe, must not hang the run.
 */
export function readStdin(
  stream: NodeJS.ReadableStream & { isTTY?: boolean },
  timeoutMs: number,
): Promise<string> {
  if (stream.isTTY) return Promise.resolve('');
  return new Promise((resolve) => {
    const chunks: Buffer[] = [];
    const finish = () => {
      clearTimeout(timer);
      stream.removeListener('data', onData);
      stream.removeListener('end', finish);
      stream.removeListener('error', finish);
      stream.pause();
      resolve(Buffer.concat(chunks).toString('utf8'));
    };
    const onData = (chunk: Buffer | string) => {
      chunks.push(typeof chunk === 'string' ? Buffer.from(chunk) : chunk);
    };
    const timer = setTimeout(finish, timeoutMs);
    stream.on('data', onData);
    stream.once('end', finish);
    stream.once('error', finish);
  });
}
