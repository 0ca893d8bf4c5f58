import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { ToolCallSpace } from '../../src/gym/index.js';
import { SQL_TOOL_SPECS, SQL_TOOLS, syncToolReference, toOpenAITools, toolReferenceMarkdown } from '../../envs/sql/index.js';
import { SqlActionParser } from '../../envs/sql/actions/index.js';

describe('SQL tools', () => {
  it('defines the four tools once, as JSON Schemas with descriptions', () => {
    expect(SQL_TOOLS.map((t) => t.name)).toEqual(['describe', 'sample', 'query', 'answer']);
    for (const tool of SQL_TOOLS) {
      expect(tool.description.length).toBeGreaterThan(20);
      const properties = tool.parameters.properties as Record<string, { description?: string }>;
      for (const schema of Object.values(properties)) expect(schema.description).toBeTruthy();
      expect(tool.parameters.additionalProperties).toBe(false);
    }
  });

  it('exports the OpenAI / Qwen tools format', () => {
    const tools = toOpenAITools(SQL_TOOLS);
    expect(tools[0]).toEqual({ type: 'function', function: { name: 'describe', description: SQL_TOOLS[0]!.description, parameters: SQL_TOOLS[0]!.parameters } });
    tools[0]!.function.parameters.type = 'changed';
    expect(SQL_TOOLS[0]!.parameters.type).toBe('object');
  });

  it('builds a ToolCallSpace whose samples the parser accepts unchanged', () => {
    const space = new ToolCallSpace(SQL_TOOLS, 1);
    const parser = new SqlActionParser('strict');
    for (let i = 0; i < 60; i++) {
      const call = space.sample();
      expect(space.contains(call)).toBe(true);
      const parsed = parser.parse(call, { tables: ['t'] });
      expect(parsed.ok, JSON.stringify(call)).toBe(true);
      if (parsed.ok) expect(parsed.call).toEqual(call);
    }
  });

  it('has no alias claimed by two tools', () => {
    const owners = new Map<string, string>();
    for (const spec of SQL_TOOL_SPECS) {
      for (const alias of [spec.definition.name, ...spec.nameAliases]) {
        expect(owners.get(alias), alias).toBeUndefined();
        owners.set(alias, spec.definition.name);
      }
    }
  });

  it('docs/sql.md holds the generated tool reference (run `npx tsx test/sql/update-tool-docs.ts` after changing a tool)', () => {
    const docs = readFileSync(new URL('../../docs/sql.md', import.meta.url), 'utf8');
    expect(syncToolReference(docs, toolReferenceMarkdown(SQL_TOOL_SPECS))).toBe(docs);
  });
});
