import { countTokens } from 'gpt-tokenizer';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { listTools } from '../../src/mcp/server.js';
import { TOOLS } from '../../src/mcp/tools/index.js';
import { buildTestApp, type TestApp } from '../support/test-app.js';

type Json = Record<string, unknown>;

/**
 * Descriptions are written for different readers (people vs. models); everything else must match.
 * `const: x` is written `enum: [x]` in the OpenAPI document: the same constraint.
 */
function withoutDescriptions(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(withoutDescriptions);
  if (value === null || typeof value !== 'object') return value;
  return Object.fromEntries(
    Object.entries(value as Json)
      .filter(([key]) => key !== 'description')
      .map(([key, v]) => (key === 'const' ? ['enum', [v]] : [key, withoutDescriptions(v)])),
  );
}

function at(schema: Json, path: string[]): Json {
  return path.reduce<Json>((node, key) => {
    const next = key === 'items' ? node.items : (node.properties as Json | undefined)?.[key];
    if (!next) throw new Error(`no ${key} in ${JSON.stringify(node).slice(0, 200)}`);
    return next as Json;
  }, schema);
}

describe('MCP tool schemas', () => {
  let t: TestApp;
  let openapi: { paths: Record<string, Record<string, Json>> };

  beforeAll(async () => {
    t = await buildTestApp('sqlite');
    openapi = t.app.swagger() as unknown as typeof openapi;
  });
  afterAll(async () => {
    await t?.close();
  });

  const mapped = TOOLS.flatMap((tool) => (tool.rest ?? []).map((rest) => ({ tool: tool.name, rest })));

  it('maps every write that has a REST body', () => {
    expect(mapped.map((m) => m.tool)).toEqual(
      expect.arrayContaining([
        'create_task',
        'update_task',
        'move_task',
        'add_comment',
        'add_todos',
        'update_todos',
        'push_turns',
      ]),
    );
  });

  it.each(mapped)('$tool takes the fields of $rest.operation with the same schemas', ({ tool, rest }) => {
    const [method, path] = rest.operation.split(' ') as [string, string];
    const operation = openapi.paths[path]?.[method.toLowerCase()] as Json | undefined;
    if (!operation) throw new Error(`no ${rest.operation} in the OpenAPI document`);
    const body = (((operation.requestBody as Json).content as Json)['application/json'] as Json)
      .schema as Json;
    const listed = listTools().find((l) => l.name === tool);
    const fields = at(listed?.inputSchema as Json, rest.at);
    const toolProps = fields.properties as Json;
    const exposed = Object.keys(body.properties as Json).filter((f) => !(rest.fixed ?? []).includes(f));
    expect(exposed.length).toBeGreaterThan(0);
    for (const field of exposed) {
      const name = rest.renamed?.[field] ?? field;
      expect(toolProps[name], `${tool}.${name} for ${field}`).toBeDefined();
      // A renamed field takes a name or an id instead of an id: only its type has to agree.
      if (rest.renamed?.[field]) {
        expect((toolProps[name] as Json).type).toBe(((body.properties as Json)[field] as Json).type);
        continue;
      }
      expect(withoutDescriptions(toolProps[name]), `${tool}.${name}`).toEqual(
        withoutDescriptions((body.properties as Json)[field]),
      );
    }
  });

  it('tools/list stays under 6000 tokens, counted with a real BPE tokenizer (o200k)', () => {
    const tokens = countTokens(JSON.stringify({ tools: listTools() }));
    expect(tokens).toBeGreaterThan(1000);
    expect(tokens).toBeLessThan(6000);
  });

  it('gives every tool its three hints and an output schema; read-only tools destroy nothing', () => {
    for (const tool of listTools()) {
      const hints = tool.annotations ?? {};
      expect(typeof hints.readOnlyHint, tool.name).toBe('boolean');
      expect(typeof hints.destructiveHint, tool.name).toBe('boolean');
      expect(typeof hints.idempotentHint, tool.name).toBe('boolean');
      if (hints.readOnlyHint) expect([tool.name, hints.destructiveHint]).toEqual([tool.name, false]);
      expect(tool.outputSchema?.type, tool.name).toBe('object');
    }
    const hintsOf = (name: string) => listTools().find((tool) => tool.name === name)?.annotations;
    expect(hintsOf('archive_task')).toMatchObject({ destructiveHint: true, idempotentHint: true });
    expect(hintsOf('create_task')).toMatchObject({ destructiveHint: false, idempotentHint: false });
    expect(hintsOf('wait_for_activity')).toMatchObject({ readOnlyHint: true });
  });

  it('offers 12 to 16 tools, each with a description and an object input schema', () => {
    const tools = listTools();
    expect(tools.length).toBeGreaterThanOrEqual(12);
    expect(tools.length).toBeLessThanOrEqual(16);
    for (const tool of tools) {
      expect(tool.description?.length).toBeGreaterThan(10);
      expect(tool.inputSchema.type).toBe('object');
    }
  });
});
