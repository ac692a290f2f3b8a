import os from 'node:os';
import path from 'node:path';
import { type HookInput, optionalString, parseObject } from './hook-input.js';

/**
 * A session id is used as a directory name under `session-state/`: anything that could leave that
 * directory (a separator, `..`) is refused.
 */
const SAFE_SESSION_ID = /^[A-Za-z0-9][A-Za-z0-9._-]*$/;

/** `COPILOT_HOME`, else `~/.copilot`: where Copilot CLI keeps `session-state/` (its documented default). */
export function copilotHome(env: NodeJS.ProcessEnv): string {
  return env.COPILOT_HOME || path.join(os.homedir(), '.copilot');
}

/** The session's event log as Copilot CLI documents it: `<COPILOT_HOME>/session-state/<id>/events.jsonl`. */
export function copilotEventLog(env: NodeJS.ProcessEnv, sessionId: string): string | null {
  if (!SAFE_SESSION_ID.test(sessionId) || sessionId.includes('..')) return null;
  return path.join(copilotHome(env), 'session-state', sessionId, 'events.jsonl');
}

/**
 * The event name: the VS Code compatible payload names it (`hook_event_name`, or VS Code's own
 * `hookEventName`); Copilot CLI's camelCase payload does not, so it is told by its fields (`stopReason`
 * only on `agentStop`, `reason` only on `sessionEnd`).
 */
function eventName(fields: Record<string, unknown>): string | null {
  const named = optionalString(fields.hook_event_name) ?? optionalString(fields.hookEventName);
  if (named) return named;
  if (optionalString(fields.stopReason)) return 'agentStop';
  if (optionalString(fields.reason)) return 'sessionEnd';
  return null;
}

/**
 * Parses a Copilot agent hook's JSON, in either documented shape: Copilot CLI's camelCase (`sessionId`,
 * `transcriptPath`, `cwd`, `timestamp` in ms) or the VS Code compatible snake_case (`session_id`,
 * `transcript_path`, `hook_event_name`). The event log is `transcriptPath` when the event carries one
 * (`agentStop` / `Stop`), else the session's `events.jsonl` under `COPILOT_HOME` (`sessionEnd` carries
 * only the session id). Null when neither can be found.
 */
export function parseCopilotHookInput(text: string, env: NodeJS.ProcessEnv): HookInput | null {
  const fields = parseObject(text);
  if (!fields) return null;
  const sessionId = optionalString(fields.sessionId) ?? optionalString(fields.session_id);
  const named = optionalString(fields.transcriptPath) ?? optionalString(fields.transcript_path);
  const transcriptPath = named ?? (sessionId ? copilotEventLog(env, sessionId) : null);
  if (!transcriptPath) return null;
  return { transcriptPath, sessionId, cwd: optionalString(fields.cwd), hookEventName: eventName(fields) };
}
