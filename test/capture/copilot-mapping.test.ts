import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { classifyCopilotLine } from '../../src/capture/copilot-events.js';
import { copilotEventLog, parseCopilotHookInput } from '../../src/capture/copilot-hook-input.js';
import { fixture } from './capture-support.js';

const SESSION = 'b8f1c2d3-4e5f-4a6b-8c7d-9e0f1a2b3c4d';
const event = (fields: Record<string, unknown>) =>
  JSON.stringify({ id: 'e-1', timestamp: '2026-11-20T09:00:00.000Z', parentId: null, ...fields });

describe('mapping Copilot session events (events.jsonl)', () => {
  it('maps the recorded session event by event', () => {
    const mapped = fixture('copilot-events.jsonl')
      .split('\n')
      .filter(Boolean)
      .map((text) => classifyCopilotLine(text));
    expect(
      mapped.map((m) => (typeof m === 'string' ? m : `${m.role}:${m.sourceId}:${m.toolUseOnly === true}`)),
    ).toEqual([
      'skip', // session.start
      'skip', // session.info
      'user:e-0003-ask:false',
      'skip', // assistant.turn_start
      'skip', // assistant.reasoning
      'assistant:e-0006-text:false', // text next to a tool request: the text
      'skip', // tool.execution_start
      'skip', // tool.execution_complete
      'assistant:e-0009-tools:true',
      'skip', // subagent.started
      'skip', // a sub-agent's message (agentId)
      'skip', // a sub-agent's message (the older parentToolCallId)
      'skip', // subagent.completed
      'skip', // reasoning text only
      'assistant:e-0015-done:false',
      'skip', // assistant.turn_end
    ]);
  });

  it('takes what the person typed, the event id and timestamp; summarises tool requests', () => {
    const [, , ask, , , , , , tools] = fixture('copilot-events.jsonl')
      .split('\n')
      .map((text) => classifyCopilotLine(text));
    expect(ask).toEqual({
      source: 'copilot',
      sourceId: 'e-0003-ask',
      role: 'user',
      content: "The login test fails since yesterday's merge. Can you fix it?",
      capturedAt: '2026-11-20T09:00:01.250Z',
    });
    expect(tools).toMatchObject({
      role: 'assistant',
      toolUseOnly: true,
      content: 'Tool use: view(/home/dev/shop/src/login.ts), grep(sessionCookie)',
      capturedAt: '2026-11-20T09:00:10.100Z',
    });
  });

  it('counts as malformed what is not an event, or a message without id, timestamp or data', () => {
    expect(classifyCopilotLine('{"type":"user.message", "id": "cut in the mid')).toBe('malformed');
    expect(classifyCopilotLine('[1,2]')).toBe('malformed');
    expect(classifyCopilotLine('null')).toBe('malformed');
    expect(classifyCopilotLine('{"data":{}}')).toBe('malformed');
    expect(classifyCopilotLine(event({ type: 'user.message', id: '', data: { content: 'a' } }))).toBe(
      'malformed',
    );
    expect(
      classifyCopilotLine(event({ type: 'user.message', timestamp: 'yesterday', data: { content: 'a' } })),
    ).toBe('malformed');
    expect(classifyCopilotLine(event({ type: 'assistant.message' }))).toBe('malformed');
    // Other event types are not checked further: skipped, not malformed.
    expect(classifyCopilotLine(event({ type: 'session.idle', ephemeral: true }))).toBe('skip');
    expect(classifyCopilotLine(event({ type: 'user.message', data: { content: '  ' } }))).toBe('skip');
  });
});

describe('Copilot hook input', () => {
  const env = { COPILOT_HOME: '/home/dev/.copilot' };

  it('reads agentStop in the camelCase shape: transcriptPath, sessionId, cwd', () => {
    const text = fixture('copilot-hook-agent-stop.json').replace('TRANSCRIPT', '/tmp/events.jsonl');
    expect(parseCopilotHookInput(text, env)).toEqual({
      transcriptPath: '/tmp/events.jsonl',
      sessionId: SESSION,
      cwd: '/home/dev/shop',
      hookEventName: 'agentStop',
    });
  });

  it('finds the event log of sessionEnd, which names none, under COPILOT_HOME', () => {
    expect(parseCopilotHookInput(fixture('copilot-hook-session-end.json'), env)).toEqual({
      transcriptPath: path.join('/home/dev/.copilot', 'session-state', SESSION, 'events.jsonl'),
      sessionId: SESSION,
      cwd: '/home/dev/shop',
      hookEventName: 'sessionEnd',
    });
    expect(copilotEventLog({}, SESSION)).toMatch(/\.copilot\/session-state\/b8f1c2d3-[^/]+\/events\.jsonl$/);
  });

  it('reads the VS Code compatible shape: hook_event_name, session_id, transcript_path', () => {
    const text = fixture('copilot-hook-vscode-stop.json').replace('TRANSCRIPT', '/tmp/t.jsonl');
    expect(parseCopilotHookInput(text, env)).toEqual({
      transcriptPath: '/tmp/t.jsonl',
      sessionId: SESSION,
      cwd: '/home/dev/shop',
      hookEventName: 'Stop',
    });
  });

  it('reads VS Code’s own common input: sessionId, hookEventName, transcript_path', () => {
    const text = JSON.stringify({
      timestamp: '2026-02-09T10:30:00.000Z',
      cwd: '/w',
      sessionId: 'vs-1',
      hookEventName: 'Stop',
      transcript_path: '/w/t.jsonl',
      stop_hook_active: false,
    });
    expect(parseCopilotHookInput(text, env)).toEqual({
      transcriptPath: '/w/t.jsonl',
      sessionId: 'vs-1',
      cwd: '/w',
      hookEventName: 'Stop',
    });
  });

  it('refuses input with neither log nor a usable session id', () => {
    expect(parseCopilotHookInput('not json', env)).toBeNull();
    expect(parseCopilotHookInput('{"cwd":"/x"}', env)).toBeNull();
    // A session id that would leave session-state/ is not used as a path.
    expect(parseCopilotHookInput('{"sessionId":"../../etc"}', env)).toBeNull();
    expect(parseCopilotHookInput('{"sessionId":"a/b"}', env)).toBeNull();
  });
});
